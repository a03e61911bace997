import { readFileSync } from "node:fs";
import path from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { callTool, connectMcp, type ToolOutcome } from "./support";

const REPO = "acme/web";
const policyData = (file: string) => JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "policies", "memgate", file), "utf8"));
const CONTRACT = policyData("contract/data.json");
const LEDGER = policyData("contracts/ledger/data.json");
const COMPANION = policyData("contracts/companion/data.json");

/**
 * An MCP client that knows memgate only through tools/list (issue 24 item 1): every call's
 * arguments are checked against the tool's published input schema before they are sent, and
 * every value a model must pick from is taken from the schema's enum. Every tool is called,
 * and none answers SCHEMA_INVALID.
 */
describe("every MCP tool, called by a client built only from tools/list", () => {
  let gw: TestGateway;
  let agent: Client;
  let adapter: Client;
  let tools: Map<string, Tool>;
  const ajv = new Ajv({ strict: false, allErrors: true });

  /** The schema of a tool's property (a.b walks properties, kinds[] an array's items). */
  const property = (tool: string, at: string): { enum?: string[] } => {
    let node = tools.get(tool)!.inputSchema as Record<string, any>;
    for (const part of at.split(".")) {
      node = node.properties[part.replace(/\[\]$/, "")];
      if (part.endsWith("[]")) node = node.items;
    }
    return node;
  };
  /** A value the schema offers: the one wanted, which must be among its enum. */
  const pick = (tool: string, at: string, wanted: string) => {
    expect(property(tool, at).enum).toContain(wanted);
    return wanted;
  };
  const call = async (client: Client, tool: string, args: Record<string, unknown>): Promise<ToolOutcome> => {
    const valid = ajv.validate(tools.get(tool)!.inputSchema, args);
    if (!valid) throw new Error(`${tool}: arguments do not match the published schema: ${ajv.errorsText()}`);
    const answer = await callTool(client, tool, args);
    expect(answer.stop_reason).not.toBe("SCHEMA_INVALID");
    return answer;
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    agent = await connectMcp(gw.url, await gw.token({ tenant: "acme", subjects: ["alice", `repo:${REPO}`], roles: ["agent"] }));
    adapter = await connectMcp(gw.url, await gw.token({ sub: "discord-adapter", tenant: "acme", subjects: ["alice"], roles: ["adapter"] }));
    tools = new Map((await agent.listTools()).tools.map((tool) => [tool.name, tool]));
  });
  afterAll(async () => {
    await Promise.all([agent, adapter].map((c) => c?.close()));
    await gw?.stop();
  });

  it("C19-OPS: the enumerations a model picks from are the contract in force's (policy data), as enums", () => {
    const sorted = (values: readonly string[] | undefined) => [...(values ?? [])].sort();
    for (const tool of ["add_memory", "update_memory"]) {
      expect(sorted(property(tool, "category").enum)).toEqual(sorted(Object.keys(CONTRACT.categories)));
      expect(sorted(property(tool, "ttl_class").enum)).toEqual(sorted(Object.keys(CONTRACT.ttl_classes)));
      expect(sorted(property(tool, "source_kind").enum)).toEqual(sorted(CONTRACT.source_kinds));
    }
    expect(sorted(property("list_memories", "category").enum)).toEqual(sorted(Object.keys(CONTRACT.categories)));
    expect(sorted(property("propose_memory", "kind").enum)).toEqual(sorted(LEDGER.kinds));
    expect(sorted(property("propose_memory", "source.source_type").enum)).toEqual(sorted(LEDGER.source_types));
    expect(sorted(property("add_fact", "type").enum)).toEqual(sorted(COMPANION.fact_types));
    expect(sorted(property("add_fact", "source").enum)).toEqual(sorted(COMPANION.sources));
    expect(sorted(property("get_memory_envelope", "purpose").enum)).toEqual(sorted(COMPANION.purposes));
    expect(sorted(property("search_memories", "kinds[]").enum)).toEqual(sorted(["problem", "solution", "failed_tactic", "fact", "preference", "change"]));
  });

  it("C19-OPS IF1-READ P54-A: all nine tools answer as documented; add_memory → search_memories finds it without repo_id", async () => {
    expect([...tools.keys()].sort()).toEqual([
      "add_fact",
      "add_memory",
      "delete_memory",
      "get_memory",
      "get_memory_envelope",
      "list_memories",
      "propose_memory",
      "search_memories",
      "update_memory",
    ]);
    const item = {
      category: pick("add_memory", "category", "PREFERENCE"),
      key: "tone",
      value: "prefer concise answers in the morning",
      source_kind: pick("add_memory", "source_kind", "SYSTEM_KNOWN"),
      ttl_class: pick("add_memory", "ttl_class", "LONG"),
    };
    const added = await call(agent, "add_memory", item);
    expect(added.stop_reason).toBe("SUCCESS_STORED");
    const memoryId = added.memory.memory_id;

    const found = await call(agent, "search_memories", { query: "concise answers" });
    expect(found).toMatchObject({ stop_reason: "SUCCESS_LISTED", isError: false });
    expect(found.memories).toEqual([expect.objectContaining({ memory_id: memoryId, score: 1 })]);
    expect((await call(agent, "search_memories", { query: "evening walks" })).memories).toEqual([]);

    expect((await call(agent, "get_memory", { memory_id: memoryId })).memory).toMatchObject({ memory_id: memoryId, version: 1 });
    const updated = await call(agent, "update_memory", { ...item, memory_id: memoryId, value: "prefer bullet points", expected_version: 1 });
    expect(updated).toMatchObject({ stop_reason: "SUCCESS_UPDATED", memory: { version: 2 } });
    expect((await call(agent, "list_memories", {})).memories.map((m: { memory_id: string }) => m.memory_id)).toEqual([memoryId]);

    const written = await call(agent, "add_memory", {
      store: "agent",
      repo_id: REPO,
      memory: { text: "ESLint flat config lives in eslint.config.mjs", scope: "repo", kind: "fact", confidence: 0.9 },
    });
    expect(written.stop_reason).toBe("SUCCESS_STORED");
    const listed = await call(agent, "list_memories", { store: "agent", repo_id: REPO, query: "eslint config" });
    expect(listed).toMatchObject({ stop_reason: "SUCCESS_READ", isError: false });
    expect(listed.items.map((i: { text: string }) => i.text)).toContain("ESLint flat config lives in eslint.config.mjs");
    const searched = await call(agent, "search_memories", {
      store: "agent",
      repo_id: REPO,
      query: "eslint flat config",
      kinds: [pick("search_memories", "kinds[]", "fact")],
    });
    expect(searched.items[0]).toMatchObject({ text: "ESLint flat config lives in eslint.config.mjs" });
    const dryRun = await call(agent, "update_memory", {
      store: "agent",
      repo_id: REPO,
      memory_id: searched.items[0].id,
      mode: "dry_run",
      updates: { truth: { target: 0.2, confidence: 0.9, rationale: "config moved", evidence_refs: ["commit:abc123"] } },
    });
    expect(dryRun).toMatchObject({ stop_reason: "SUCCESS_READ", isError: false });

    const proposed = await call(agent, "propose_memory", {
      proposed_text: "I've noticed I focus better in the morning",
      kind: pick("propose_memory", "kind", "SELF_OBSERVATION"),
      source: { source_type: pick("propose_memory", "source.source_type", "phase3_reflection"), source_id: "refl-17" },
    });
    expect(proposed).toMatchObject({ stop_reason: "MISSING_EXPLICIT_CONSENT", isError: false, proposal_id: expect.any(String) });

    const fact = await call(adapter, "add_fact", {
      type: pick("add_fact", "type", "USER_FACT"),
      text: "User loves fettuccini",
      confidence: 0.9,
      source: pick("add_fact", "source", "llm_extraction"),
      summary: "User mentioned they love fettuccini and work on FL Studio",
    });
    expect(fact.stop_reason).toBe("SUCCESS_STORED");
    const envelope = await call(agent, "get_memory_envelope", { purpose: pick("get_memory_envelope", "purpose", "RESPONSE"), skip_cache: true });
    expect(envelope.stop_reason).toBe("SUCCESS_READ");

    expect(await call(agent, "delete_memory", { memory_id: memoryId, expected_version: 2 })).toMatchObject({ stop_reason: "SUCCESS_DELETED" });
    expect((await call(agent, "search_memories", { query: "bullet points" })).memories).toEqual([]);
  });

  it("the published schemas say what each store needs: list_memories store=agent without a query, or add_memory without its item, do not validate", () => {
    expect(ajv.validate(tools.get("list_memories")!.inputSchema, { store: "agent", repo_id: REPO })).toBe(false);
    expect(ajv.validate(tools.get("list_memories")!.inputSchema, {})).toBe(true);
    expect(ajv.validate(tools.get("add_memory")!.inputSchema, { key: "tone" })).toBe(false);
    expect(ajv.validate(tools.get("add_memory")!.inputSchema, { store: "agent", repo_id: REPO })).toBe(false);
  });
});
