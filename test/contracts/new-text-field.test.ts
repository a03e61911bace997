import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Db } from "mongodb";
import { callTool, connectMcp } from "../mcp/support";
import { applyEdits, buildCopiedPolicy, copyProject, type Edit } from "../support/project-copy";
import { preference } from "../support/governed";

const ROOT = path.resolve(__dirname, "..", "..");
const TEMP = path.join(ROOT, "build", `text-field-test-${process.pid}`);

/**
 * "A new text field" in docs/ARCHITECTURE.md on an older contract, as a newcomer follows it:
 * governed STORE (and UPDATE, which shares its item fields) gets a stored free-text `note` by
 * declaring it and bounding it, nothing else. No input class, request mapping, record or
 * erase list is edited.
 */
const TEXT_FIELD_EDITS: Edit[] = [
  [
    "src/contracts/governed/fields.ts",
    `  source_ref: text({ stored: true, description: "Structure ids only, never content (seed 000 §5.1)." }),\n`,
    `  note: text({ stored: true, description: "A note on the item." }),\n`,
  ],
  ["policies/memgate/contracts/governed/data.json", `"source_ref": 256,`, `\n    "note": 500,`],
];

interface Candidate {
  objectId: string;
  texts: Record<string, string>;
}
interface TempGateway {
  url: string;
  gateway: {
    services: { contracts: { governed: { rejudge?: { kind: string; scan(t: string, a: string | null, n: number): Promise<Candidate[]> }[] } } };
    db: Db;
  };
  token(claims?: Record<string, unknown>): Promise<string>;
  gql(token: string, query: string, variables?: Record<string, unknown>): Promise<{ data?: Record<string, any>; errors?: unknown }>;
  stop(): Promise<void>;
}

const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason explanations memory { memoryId } } }`;
const UPDATE = `mutation($input: UpdateMemoryInput!) { updateMemory(input: $input) { stopReason memory { memoryId version } } }`;

/**
 * Issue 23 §1, target "a new text field on an existing operation is ≤ 3 edits": the edits above
 * in a copy of the project (src, schema, policies, the test support), then only the copy's
 * policy bundle is built. The gateway started from the copy takes `note` on GraphQL and MCP,
 * runs the checks over it, keeps it with the item, re-judges it and erases it.
 */
describe("a stored text field added to governed STORE by its declaration and its bound reaches every door, the record, re-judging and erasure", () => {
  let gw: TempGateway;
  let mcp: Client;
  let token: string;
  let temp: <T>(module: string) => T;

  beforeAll(async () => {
    copyProject(ROOT, TEMP, ["scripts/emit-schema.ts"]);
    applyEdits(TEMP, TEXT_FIELD_EDITS);
    buildCopiedPolicy(ROOT, TEMP);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    temp = <T>(module: string) => require(path.join(TEMP, module)) as T;
    gw = await temp<{ startTestGateway(): Promise<TempGateway> }>("test/support/gateway").startTestGateway();
    token = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"] });
    mcp = await connectMcp(gw.url, token);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    await gw?.stop();
    rmSync(TEMP, { recursive: true, force: true });
  });

  it("takes at most 3 edits, as docs/ARCHITECTURE.md says for governed STORE (issue 23 §1)", () => {
    expect(TEXT_FIELD_EDITS.length).toBeLessThanOrEqual(3);
    const doc = readFileSync(path.join(ROOT, "docs", "ARCHITECTURE.md"), "utf8");
    const start = doc.indexOf("### A new text field");
    const end = doc.indexOf("\n#", start + 4);
    const section = doc.slice(start, end < 0 ? undefined : end).replace(/\s+/g, " ");
    expect(section).toContain(`Governed STORE (and UPDATE, which shares its item fields): ${TEXT_FIELD_EDITS.length} edits`);
  });

  it("C19-OPS: the GraphQL inputs of STORE and UPDATE publish it (schema:emit of the copy), and a write keeps it with the item", async () => {
    const sdl = temp<{ emittedSdl(): string }>("scripts/emit-schema").emittedSdl();
    for (const input of ["StoreMemoryInput", "UpdateMemoryInput"]) {
      const type = sdl.slice(sdl.indexOf(`input ${input} {`), sdl.indexOf("\n}", sdl.indexOf(`input ${input} {`)));
      expect([input, type]).toEqual([input, expect.stringContaining('"""A note on the item."""\n  note: String\n')]);
    }
    const stored = await gw.gql(token, STORE, { input: preference({ key: "drink", note: "asked twice, tea not coffee" }) });
    expect(stored.data?.storeMemory).toMatchObject({ stopReason: "SUCCESS_STORED" });
    const id = stored.data?.storeMemory.memory.memoryId as string;
    expect(await gw.gateway.db.collection("memories").findOne({ memory_id: id })).toMatchObject({ key: "drink", note: "asked twice, tea not coffee" });

    // UPDATE replaces the whole content: a note left out is cleared, not carried over (SPEC D2).
    const updated = await gw.gql(token, UPDATE, { input: preference({ key: "drink", memoryId: id }) });
    expect(updated.data?.updateMemory).toMatchObject({ stopReason: "SUCCESS_UPDATED", memory: { version: 2 } });
    expect(await gw.gateway.db.collection("memories").findOne({ memory_id: id })).toMatchObject({ version: 2, note: null });
  });

  it("C19-ITEM SPEC-D3a: the kernel's checks run over it like any text (its bound, control characters)", async () => {
    const long = await gw.gql(token, STORE, { input: preference({ key: "long", note: "n".repeat(501) }) });
    expect(long.data?.storeMemory.stopReason).toBe("BOUNDS_EXCEEDED");
    const control = await gw.gql(token, STORE, { input: preference({ key: "bell", note: "ring \u0007 twice" }) });
    expect(control.data?.storeMemory.stopReason).toBe("SCHEMA_INVALID");
  });

  it("C19-OPS: MCP add_memory and update_memory publish it in their inputSchema and store it", async () => {
    const tools = new Map((await mcp.listTools()).tools.map((t) => [t.name, t]));
    for (const name of ["add_memory", "update_memory"])
      expect(tools.get(name)?.inputSchema.properties).toMatchObject({ note: { type: "string", description: "A note on the item." } });
    const added = await callTool(mcp, "add_memory", {
      category: "PREFERENCE",
      key: "music",
      value: "prefers quiet mornings",
      source_kind: "USER_EXPLICIT",
      ttl_class: "LONG",
      consent: { explicit: true },
      note: "said during onboarding",
    });
    expect(added).toMatchObject({ stop_reason: "SUCCESS_STORED", isError: false });
    expect(await gw.gateway.db.collection("memories").findOne({ key: "music", subject_id: "alice" })).toMatchObject({ note: "said during onboarding" });
  });

  it("MP-BREAK SPEC-D1: re-judging reads it by its declared name, and erasure removes it (its erase list names it)", async () => {
    const erasedFields = temp<{ ERASED_FIELDS: string[] }>("src/contracts/governed/store").ERASED_FIELDS;
    expect(erasedFields).toContain("note");
    const target = (gw.gateway.services.contracts.governed.rejudge ?? []).find((t) => t.kind === "governed-memories")!;
    const texts = (await target.scan("acme", null, 100)).map((c) => c.texts);
    expect(texts).toContainEqual(expect.objectContaining({ key: "music", note: "said during onboarding" }));

    const erased = await gw.gql(token, `mutation { eraseSubject(reason: "user_request") { stopReason erasedMemoryIds } }`);
    expect(erased.data?.eraseSubject.stopReason).toBe("SUCCESS_DELETED");
    const left = await gw.gateway.db.collection("memories").find({ tenant_id: "acme", subject_id: "alice" }).toArray();
    expect(left.length).toBeGreaterThan(0);
    expect(left.filter((item) => item.status !== "erased" || "note" in item)).toEqual([]);
    expect((await target.scan("acme", null, 100)).flatMap((c) => Object.values(c.texts))).toEqual([]);
  });
});
