import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { startTokenProxy } from "./support";

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, "..", "..");
const BIN = path.join(ROOT, "node_modules", ".bin");
const CONFORMANCE = path.join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/** The README section "Use memgate from an MCP client", and its fenced blocks by language. */
function readmeRecipe(): { sh: string[]; json: string[] } {
  const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
  const start = readme.indexOf("## Use memgate from an MCP client");
  expect(start).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf("\n## ", start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  const blocks = { sh: [] as string[], json: [] as string[] };
  for (const match of section.matchAll(/```(sh|json)\n([\s\S]*?)```/g)) blocks[match[1] as "sh" | "json"].push(match[2]);
  return blocks;
}

describe("real MCP clients against /mcp (issue 14)", () => {
  let gw: TestGateway;
  let token: string;

  beforeAll(async () => {
    gw = await startTestGateway();
    token = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("passes the @modelcontextprotocol/conformance server scenarios it implements (baseline lists the rest)", async () => {
    // The conformance runner sends no Authorization header: a local proxy adds the token, as an MCP host holding one does.
    const proxy = await startTokenProxy(gw.url, token);
    try {
      const output = mkdtempSync(path.join(os.tmpdir(), "memgate-conformance-"));
      const { stdout } = await run(
        process.execPath,
        [
          CONFORMANCE,
          "server",
          "--url",
          `${proxy.url}/mcp`,
          "--suite",
          "active",
          "--expected-failures",
          path.join(__dirname, "conformance", "baseline.yml"),
          "-o",
          output,
        ],
        { cwd: output, timeout: 45_000, maxBuffer: 16 * 1024 * 1024 },
      ).catch((error: { stdout?: string; stderr?: string; message: string }) => {
        throw new Error(`conformance failed: ${error.message}\n${error.stdout ?? ""}\n${error.stderr ?? ""}`);
      });
      // The scenarios memgate implements each ran, and every one of their checks succeeded.
      const runs = readdirSync(output);
      for (const scenario of ["server-initialize", "ping", "logging-set-level", "tools-list", "resources-list", "dns-rebinding-protection"]) {
        const dir = runs.find((name) => name.startsWith(`server-${scenario}-`));
        expect({ scenario, ran: dir !== undefined }).toEqual({ scenario, ran: true });
        const checks = JSON.parse(readFileSync(path.join(output, dir!, "checks.json"), "utf8")) as { id: string; status: string }[];
        expect(checks.length).toBeGreaterThan(0);
        for (const check of checks) expect({ scenario, check: check.id, status: check.status }).toEqual({ scenario, check: check.id, status: "SUCCESS" });
      }
      expect(stdout).not.toMatch(/unexpected/i);
    } finally {
      await proxy.close();
    }
  });

  it("runs the README recipe: the MCP Inspector CLI reads memgate://me and adds a memory", async () => {
    const { sh } = readmeRecipe();
    const commands = sh
      .join("\n")
      .split("\n")
      .filter((line) => !line.startsWith("export MEMGATE_")) // the test provides these
      .join("\n");
    expect(commands).toMatch(/inspector-cli/);
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", commands], {
      cwd: ROOT,
      env: { ...process.env, PATH: `${BIN}:${process.env.PATH}`, MEMGATE_URL: gw.url, MEMGATE_TOKEN: token },
      // Two npx starts of the Inspector (a large package): 10-20 s on a quiet machine, over 30 s on a loaded one.
      timeout: 100_000,
    });
    const me = /"text":\s*"(\{.*?\})"/.exec(stdout);
    expect(me).not.toBeNull();
    expect(JSON.parse(JSON.parse(`"${me![1]}"`))).toMatchObject({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    expect(stdout).toContain('"stop_reason": "SUCCESS_STORED"');
  }, 120_000);

  it("runs the README's stdio configuration from a folder outside the checkout: the installed memgate-mcp (never npx) bridges an SDK stdio client to /mcp", async () => {
    const { json } = readmeRecipe();
    const config = JSON.parse(json[0]) as { mcpServers: { memgate: { command: string; args?: string[]; env: Record<string, string> } } };
    const server = config.mcpServers.memgate;
    expect(server.command).toBe("memgate-mcp"); // the installed binary: no registry lookup
    const client = new Client({ name: "desktop-like-client", version: "1.0.0" });
    const transport = new StdioClientTransport({
      command: server.command,
      args: server.args ?? [],
      cwd: os.tmpdir(),
      // The workspace's node_modules/.bin holds memgate-mcp as `npm install -g` of @memgate/mcp puts it on the PATH.
      env: { ...(process.env as Record<string, string>), PATH: `${BIN}:${process.env.PATH}`, ...server.env, MEMGATE_URL: gw.url, MEMGATE_TOKEN: token },
      stderr: "pipe",
    });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("propose_memory");
      const held = (await client.callTool({
        name: "propose_memory",
        arguments: { proposed_text: "I like short answers", kind: "PREFERENCE", source: { source_type: "phase3_reflection" } },
      })) as CallToolResult;
      expect(held.isError).toBe(false);
      expect(held.structuredContent).toMatchObject({ stop_reason: "MISSING_EXPLICIT_CONSENT" });
      const refused = (await client.callTool({ name: "get_memory", arguments: { memory_id: "mem_nobody" } })) as CallToolResult;
      expect(refused).toMatchObject({ isError: true, structuredContent: { stop_reason: "NOT_FOUND" } });
    } finally {
      await client.close();
    }
  });

  it("the bridge refuses to start without a URL or token, with a usage line and exit code 2", async () => {
    const failed = await run(process.execPath, [path.join(ROOT, "bin", "memgate-mcp")], { cwd: ROOT, env: { PATH: process.env.PATH }, timeout: 10_000 }).catch(
      (error: { code?: number; stderr?: string }) => error,
    );
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/usage: memgate-mcp --url/);
  });
});
