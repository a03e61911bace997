import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { MemoriesDocument, createMemgateClient, query } from "../../clients/typescript/src";
import { startTestGateway, type TestGateway } from "../support/gateway";

const root = path.resolve(__dirname, "..", "..");
const TSX = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const README = readFileSync(path.join(root, "README.md"), "utf8");

/** The code block right under a README heading. */
function recipeUnder(heading: string): string {
  const at = README.indexOf(`\n${heading}\n`);
  if (at < 0) throw new Error(`README has no heading ${heading}`);
  const block = /```ts\n([\s\S]*?)```/.exec(README.slice(at));
  if (!block) throw new Error(`no ts block under ${heading}`);
  return block[1];
}

/**
 * README recipes are copy-paste runnable (issue 14 item 6): each is a file in examples/, in the
 * README verbatim, run here as a person would run it (tsx, environment variables) against a
 * real gateway.
 */
describe("README recipes run against a real gateway", () => {
  let gw: TestGateway;
  const run = async (file: string, subject: string) => {
    const token = await gw.token({ tenant: "acme", subjects: [subject], roles: ["agent"] });
    const env = { ...process.env, MEMGATE_GRAPHQL_URL: `${gw.url}/graphql`, MEMGATE_TOKEN: token, MEMGATE_SUBJECT: subject };
    const { stdout } = await promisify(execFile)(process.execPath, [TSX, file], { cwd: root, env });
    return { stdout, token };
  };

  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw?.stop());

  it("SPEC D2 C19-STOP: 'Use memgate from TypeScript' is examples/typescript/quickstart.ts and prints the cached version 2 and a typed refusal", async () => {
    const file = "examples/typescript/quickstart.ts";
    expect(recipeUnder("### Use memgate from TypeScript")).toBe(readFileSync(path.join(root, file), "utf8"));
    const { stdout } = await run(file, "alice");
    expect(stdout.trim().split("\n")).toEqual([
      "read version 1: prefer concise answers",
      "cached version 2: prefer bullet points",
      "refused: FORBIDDEN_CATEGORY",
    ]);
  });

  it("C19-OPS C19-FORBID: 'Use memgate from LangGraph.js' remembers across threads through memgate, and a refusal carries its stop reason", async () => {
    const file = "examples/langgraph/remember-across-threads.ts";
    expect(recipeUnder("### Use memgate from LangGraph.js")).toBe(readFileSync(path.join(root, file), "utf8"));
    const { stdout, token } = await run(file, "carol");
    expect(stdout.trim().split("\n")).toEqual([
      "[monday] remember tone: prefer concise answers -> stored tone",
      "[monday] remember ssn: my social security number is 078-05-1120 -> not stored: FORBIDDEN_CATEGORY",
      "[tuesday] what do you remember? -> I remember: tone=prefer concise answers",
    ]);
    // The memory lives in memgate, not in the process that ran the graph.
    const client = createMemgateClient({ url: `${gw.url}/graphql`, token });
    const { memories } = (await query(client, MemoriesDocument, { subjectId: "carol" })).memories;
    expect(memories.map((m) => [m.key, JSON.parse(m.value)])).toEqual([["users.carol.prefs:tone", { text: "prefer concise answers" }]]);
  });
});
