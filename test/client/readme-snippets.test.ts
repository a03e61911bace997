import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSchema, parse, validate, type DocumentNode } from "graphql";
import { ensureDevKeyPair } from "../../src/auth/dev-keys";
import { startTestGateway, type TestGateway } from "../support/gateway";

// Each `npm run -s token` is a process start; a busy CI machine takes seconds for each.
jest.setTimeout(180_000);

const root = path.resolve(__dirname, "..", "..");
const README = readFileSync(path.join(root, "README.md"), "utf8");

interface Block {
  lang: string;
  heading: string;
  body: string;
}

/** Every fenced block of the README with its language and the heading above it. */
function blocks(markdown: string): Block[] {
  const found: Block[] = [];
  let heading = "";
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of markdown.split("\n")) {
    if (open) {
      if (line.startsWith("```")) {
        found.push({ lang: open.lang, heading, body: open.lines.join("\n") });
        open = null;
      } else open.lines.push(line);
    } else if (line.startsWith("```")) open = { lang: line.slice(3).trim(), lines: [] };
    else if (line.startsWith("#")) heading = line.replace(/^#+\s*/, "");
  }
  return found;
}

/**
 * Commands of a shell block as a person pastes them: one per line, except lines continued with
 * `\\` or inside an open quote. Comment lines right after a command show its answer.
 */
function commands(body: string): { command: string; answer: string }[] {
  const out: { command: string[]; answer: string[] }[] = [];
  const quotesOpen = (text: string) => (text.replace(/"(?:[^"\\]|\\.)*"/g, "").match(/'/g) ?? []).length % 2 === 1;
  for (const line of body.split("\n")) {
    const last = out[out.length - 1];
    const lastText = last?.command.join("\n") ?? "";
    if (last && last.answer.length === 0 && (lastText.endsWith("\\") || quotesOpen(lastText))) last.command.push(line);
    else if (line.trim() === "") continue;
    else if (line.trimStart().startsWith("#")) last?.answer.push(line.replace(/^\s*#\s?/, ""));
    else out.push({ command: [line], answer: [] });
  }
  return out.map((c) => ({ command: c.command.join("\n"), answer: c.answer.join("\n") }));
}

/** One bash process for a whole walk through the README, as a person's terminal keeps its variables and functions. */
class Terminal {
  private readonly shell: ChildProcessWithoutNullStreams;
  private buffer = "";
  private waiting: ((text: string) => void) | null = null;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.shell = spawn("bash", ["--noprofile", "--norc"], { cwd, env });
    this.shell.stdout.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      this.deliver();
    });
    this.shell.stderr.on("data", () => undefined);
  }

  private deliver() {
    const at = this.buffer.indexOf("\n__SNIPPET_DONE__\n");
    if (at >= 0 && this.waiting) {
      const text = this.buffer.slice(0, at);
      this.buffer = this.buffer.slice(at + "\n__SNIPPET_DONE__\n".length);
      const waiting = this.waiting;
      this.waiting = null;
      waiting(text);
    }
  }

  run(command: string): Promise<string> {
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.shell.stdin.write(`${command}\nprintf '\\n__SNIPPET_DONE__\\n'\n`);
      this.deliver();
    });
  }

  close() {
    this.shell.stdin.end();
    this.shell.kill();
  }
}

const stopReasons = (text: string) => [...text.matchAll(/"(?:stopReason|stop_reason)":"([A-Z_]+)"/g)].map((m) => m[1]);

/**
 * Every README snippet runs as written (issue 24 item 6). The shell blocks of the walk-throughs
 * are pasted, command by command, into one bash against a real gateway started the way
 * `npm start` starts one (development keys in its data folder, so `npm run -s token` mints
 * tokens it accepts). The only edits are the ones a person makes: the gateway's port for 4000,
 * and the ids the earlier answers gave for the README's `mem_054e…` / `mem_…` / `prop_…`.
 * Where the README shows an answer, the command's stop reasons must be the answer's.
 * GraphQL blocks are validated against the published schema, one operation at a time.
 */
describe("README snippets run as written (issue 24 item 6)", () => {
  let gw: TestGateway;
  let terminal: Terminal;
  let workdir: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-readme-"));
    const { publicKeyPem } = await ensureDevKeyPair(dataDir, "jwt");
    gw = await startTestGateway({ env: { MEMGATE_DATA_DIR: dataDir, JWT_PUBLIC_KEY: publicKeyPem, JWT_ISSUER: "memgate-dev", JWT_AUDIENCE: "memgate" } });
    workdir = mkdtempSync(path.join(os.tmpdir(), "memgate-readme-cwd-"));
    terminal = new Terminal(root, { ...process.env, MEMGATE_DATA_DIR: dataDir });
  });
  afterAll(async () => {
    terminal?.close();
    rmSync(workdir, { recursive: true, force: true });
    rmSync(path.join(root, "acme.ndjson"), { force: true });
    await gw?.stop();
  });

  const port = () => new URL(gw.url).port;
  const paste = (command: string) =>
    command
      .replaceAll("localhost:4000", `127.0.0.1:${port()}`)
      .replaceAll("127.0.0.1:4000", `127.0.0.1:${port()}`)
      .replace(/mem_054e…|mem_…/g, () => ids.memory ?? "mem_unknown")
      .replace(/prop_…/g, () => ids.proposal ?? "prop_unknown");
  const remember = (answer: string) => {
    const memory = /"(?:memoryId|memory_id)":"(mem_[^"]+)"/.exec(answer);
    if (memory) ids.memory = memory[1];
    const proposal = /"proposalId":"(prop_[^"]+)"/.exec(answer);
    if (proposal) ids.proposal = proposal[1];
  };

  /** Runs every command of the chosen shell blocks, in order; returns what each answered. */
  async function walk(chosen: (block: Block) => boolean): Promise<{ command: string; expected: string[]; answer: string }[]> {
    const under = blocks(README).filter((b) => (b.lang === "sh" || b.lang === "bash") && chosen(b));
    expect(under.length).toBeGreaterThan(0);
    const results = [];
    for (const block of under) {
      for (const { command, answer } of commands(block.body)) {
        const output = await terminal.run(paste(command));
        remember(output);
        results.push({ command, expected: stopReasons(answer), answer: output });
      }
    }
    return results;
  }

  it("C19-STOP SPEC D5: the quick start's token, store, read, refusal and other-tenant read answer what the README shows", async () => {
    const results = await walk((b) => b.heading === "A worked example");
    const shown = results.filter((r) => r.expected.length > 0);
    expect(shown.length).toBeGreaterThanOrEqual(4);
    for (const r of shown) expect({ command: r.command, got: stopReasons(r.answer) }).toEqual({ command: r.command, got: r.expected });
  });

  it("C19-POLICY: the settings snippet (admin token) answers SUCCESS_UPDATED", async () => {
    const results = await walk((b) => b.body.includes("setMemorySettings"));
    expect(results.flatMap((r) => stopReasons(r.answer))).toEqual(["SUCCESS_UPDATED"]);
  });

  it("seed 001: the agent snippet writes a problem memory and reads it back with hops through POST /v1/memory", async () => {
    const results = await walk((b) => b.body.includes('"op": "write", "repo_id": "acme/web"'));
    const answers = results.filter((r) => r.answer.trim().startsWith("{")).map((r) => JSON.parse(r.answer) as Record<string, unknown>);
    expect(answers.map((a) => a.stop_reason)).toEqual(["SUCCESS_STORED", "SUCCESS_READ"]);
    expect(JSON.stringify(answers[1])).toContain("Jest times out in CI");
  });

  it("C19-LEDGER: the person's own token reads their ledger", async () => {
    const results = await walk((b) => b.body.includes("USER_TOKEN=$(npm run -s token"));
    expect(results.flatMap((r) => stopReasons(r.answer))).toEqual(["SUCCESS_LISTED"]);
  });

  it("C19-AUDIT INV-8: the auditor's verify, checkpoints, export and the plain-Node verifier all succeed", async () => {
    const results = await walk((b) => b.body.includes("verifyAuditChain(fromSeq: 1)"));
    const verify = JSON.parse(results[1].answer) as { data: { verifyAuditChain: { ok: boolean; stopReason: string } } };
    expect(verify.data.verifyAuditChain).toMatchObject({ ok: true, stopReason: "SUCCESS_READ" });
    expect(results[2].answer).toContain('"checkpoints"');
    expect(results[results.length - 1].answer).toMatch(/ok|verified/i);
    expect(results[results.length - 1].answer).not.toMatch(/fail|broken|error/i);
  });

  it("every GraphQL block of the README is valid against the published schema, operation by operation", () => {
    const schema = buildSchema(readFileSync(path.join(root, "schema", "schema.graphql"), "utf8"));
    const graphql = blocks(README).filter((b) => b.lang === "graphql");
    expect(graphql.length).toBeGreaterThanOrEqual(5);
    let operations = 0;
    for (const block of graphql) {
      for (const definition of parse(block.body).definitions) {
        const document: DocumentNode = { kind: parse("{a}").kind, definitions: [definition] };
        expect({ heading: block.heading, errors: validate(schema, document).map((e) => e.message) }).toEqual({ heading: block.heading, errors: [] });
        operations += 1;
      }
    }
    expect(operations).toBeGreaterThanOrEqual(15);
  });
});
