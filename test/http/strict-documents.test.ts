import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { postMemory, readDoc, writeDoc } from "../agent/support";
import { callTool, connectMcp, memoryData } from "../mcp/support";
import { startTestGateway, type TestGateway } from "../support/gateway";

const REPO = "acme/web";

/** Issue 22 §7: a field the door does not know is refused at its pointer, on every door, and changes nothing. */
describe("strict documents: unknown fields answer SCHEMA_INVALID with the pointer (IF1-VALID, issue 22 §7)", () => {
  let gw: TestGateway;
  let agent: string;
  let alice: string;
  let mcp: Client;

  beforeAll(async () => {
    gw = await startTestGateway();
    agent = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["agent"] });
    alice = await gw.token({ tenant: "acme", subjects: ["alice", `repo:${REPO}`], roles: ["agent"] });
    mcp = await connectMcp(gw.url, alice);
  });
  afterAll(async () => {
    await mcp?.close();
    await gw.stop();
  });

  const goodUpdate = { op: "update", repo_id: REPO, memory_id: "am_x", mode: "dry_run", updates: { utility: { target: 1, confidence: 1, rationale: "r" } } };
  const cases: [string, unknown, string][] = [
    ["write: a top-level field", { ...writeDoc(REPO, { text: "a fact" }), priority: "high" }, "/priority"],
    ["write: a misspelt memory field", writeDoc(REPO, { text: "a fact", confidance: 0.2 }), "/memory/confidance"],
    ["write: a field inside links", writeDoc(REPO, { text: "a fact", links: { parent_id: "am_1" } }), "/memory/links/parent_id"],
    ["write: a key that needs escaping", writeDoc(REPO, { text: "a fact", "a/b~c": 1 }), "/memory/a~1b~0c"],
    ["read: a field inside expand", readDoc(REPO, "pool", { expand: { hops: 2 } }), "/expand/hops"],
    ["read: a top-level field", readDoc(REPO, "pool", { tenant_id: "globex" }), "/tenant_id"],
    ["update: a field inside truth", { ...goodUpdate, updates: { utility: { ...goodUpdate.updates.utility, weight: 3 } } }, "/updates/utility/weight"],
  ];

  it.each(cases)("POST /v1/memory %s: SCHEMA_INVALID at the field's pointer, nothing stored", async (_name, document, pointer) => {
    const before = await memoryData(gw.gateway.db);
    const res = await postMemory(gw, agent, document);
    expect(res.status).toBe(200);
    expect(res.body.stop_reason).toBe("SCHEMA_INVALID");
    expect(res.body.errors).toContainEqual({ pointer, message: "is not a field of this operation" });
    expect(res.body.explanations).toContain("IF1-VALID: unknown_field");
    expect(await memoryData(gw.gateway.db)).toBe(before);
  });

  it("POST /v1/memory: the same document without the unknown field is stored (the refusal is for the field alone)", async () => {
    const res = await postMemory(gw, agent, writeDoc(REPO, { text: "Deploys go through the release train" }));
    expect(res.body.stop_reason).toBe("SUCCESS_STORED");
  });

  it("GET /v1/openapi.json declares additionalProperties: false on the documents' objects", async () => {
    const doc = (await (await fetch(`${gw.url}/v1/openapi.json`)).json()) as any;
    const write = doc.components.schemas.MemoryWriteRequest;
    expect(write.additionalProperties).toBe(false);
    expect(write.properties.memory.additionalProperties).toBe(false);
    expect(write.properties.memory.properties.links.additionalProperties).toBe(false);
  });

  const mcpCases: [string, string, Record<string, unknown>, string][] = [
    [
      "add_memory: a misspelt argument",
      "add_memory",
      { category: "PREFERENCE", key: "editor", value: "vim", catgory: "X", source_kind: "USER_STATED" },
      "/catgory",
    ],
    [
      "add_memory: a field inside consent",
      "add_memory",
      { category: "PREFERENCE", key: "editor", value: "vim", consent: { explicit: true, by: "me" } },
      "/consent/by",
    ],
    ["list_memories: a top-level argument", "list_memories", { tenant_id: "globex" }, "/tenant_id"],
    [
      "add_memory store=agent: a field inside memory",
      "add_memory",
      { store: "agent", repo_id: REPO, memory: { text: "t", scope: "repo", kind: "fact", confidence: 1, extra: 1 } },
      "/memory/extra",
    ],
  ];

  it.each(mcpCases)("MCP %s: a tool result with isError, stop_reason SCHEMA_INVALID and the pointer; nothing stored", async (_name, tool, args, pointer) => {
    const before = await memoryData(gw.gateway.db);
    const answer = await callTool(mcp, tool, args);
    expect(answer).toMatchObject({ isError: true, stop_reason: "SCHEMA_INVALID" });
    expect(answer.errors).toContainEqual({ pointer, message: "is not a field of this operation" });
    expect(answer.decision_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await memoryData(gw.gateway.db)).toBe(before);
  });

  it("MCP: the same call without the unknown argument is stored", async () => {
    expect(
      await callTool(mcp, "add_memory", {
        category: "PREFERENCE",
        key: "tone",
        value: "prefer concise responses",
        source_kind: "USER_EXPLICIT",
        ttl_class: "LONG",
        consent: { explicit: true },
      }),
    ).toMatchObject({
      isError: false,
    });
  });

  it("MCP tools/list declares additionalProperties: false on every tool's arguments", async () => {
    const { tools } = await mcp.listTools();
    for (const tool of tools) expect(tool.inputSchema).toMatchObject({ additionalProperties: false });
  });

  it("GraphQL: an unknown input field is refused by validation and changes nothing (as before)", async () => {
    const before = await memoryData(gw.gateway.db);
    const res = await gw.gql(
      alice,
      `mutation { storeMemory(input: {category: "PREFERENCE", key: "k", value: "v", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", colour: "red"}) { stopReason } }`,
    );
    expect(res.errors?.[0]?.message).toMatch(/colour/);
    expect(await memoryData(gw.gateway.db)).toBe(before);
  });
});
