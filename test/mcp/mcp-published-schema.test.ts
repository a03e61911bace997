import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import Ajv from "ajv";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { callTool, connectMcp } from "./support";

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  minItems?: number;
  minimum?: number;
  maximum?: number;
  anyOf?: Schema[];
  allOf?: { if?: Schema; then?: Schema; else?: Schema }[];
};

/**
 * The smallest arguments a schema admits, built from nothing but the schema: every required
 * property (and, for a tool over two stores, the branch `store` selects), the first enum value,
 * a minimum count of list items. What a client generated from tools/list would send.
 */
function instance(schema: Schema, extraRequired: string[] = []): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || schema.properties) {
    const required = [...(schema.required ?? []), ...extraRequired, ...(schema.anyOf?.[0]?.required ?? [])];
    return Object.fromEntries([...new Set(required)].map((name) => [name, instance(schema.properties?.[name] ?? {})]));
  }
  if (type === "array") return Array.from({ length: schema.minItems ?? 0 }, () => instance(schema.items ?? {}));
  if (type === "integer") return Math.max(1, schema.minimum ?? 1);
  if (type === "number") return schema.maximum !== undefined ? Math.min(schema.maximum, 0.5) : 1;
  if (type === "boolean") return true;
  return "generated";
}

/** One argument object per branch of the schema: the default store and, when the schema has one, store=agent. */
function argumentsFor(tool: Tool): Record<string, unknown>[] {
  const schema = tool.inputSchema as Schema;
  const branch = schema.allOf?.[0];
  if (!branch?.if) return [instance(schema) as Record<string, unknown>];
  return [
    instance(schema, branch.else?.required ?? []) as Record<string, unknown>,
    { ...(instance(schema, branch.then?.required ?? []) as Record<string, unknown>), store: "agent" },
  ];
}

/**
 * Issue 23 item 1 / issue 24 item 1: every MCP tool accepts exactly its published schema. Each
 * tool is called through the SDK client with arguments generated from its tools/list schema only
 * (validated against it first), and answers a decision of the policy, never SCHEMA_INVALID.
 */
describe("every MCP tool, called with arguments generated from its published inputSchema", () => {
  let gw: TestGateway;
  let client: Client;
  let adapter: Client; // a companion adapter for alice: facts need write authority (SG-AUTHORITY)
  let tools: Tool[];

  beforeAll(async () => {
    gw = await startTestGateway();
    client = await connectMcp(gw.url, await gw.token({ tenant: "acme", subjects: ["alice", "repo:generated"], roles: ["agent"] }));
    adapter = await connectMcp(gw.url, await gw.token({ sub: "discord-adapter", tenant: "acme", subjects: ["alice"], roles: ["adapter"] }));
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await Promise.all([client, adapter].map((c) => c?.close()));
    await gw?.stop();
  });

  it("C19-OPS IF1-VALID: each tool, each store, answers a decision (not SCHEMA_INVALID) to what its schema generates", async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const answered: string[] = [];
    for (const tool of tools) {
      for (const args of argumentsFor(tool)) {
        expect([tool.name, args, ajv.validate(tool.inputSchema, args) || ajv.errorsText()]).toEqual([tool.name, args, true]);
        const answer = await callTool(client, tool.name, args);
        expect([tool.name, args, answer.stop_reason, answer.errors]).toEqual([
          tool.name,
          args,
          expect.not.stringMatching(/^SCHEMA_INVALID$/),
          expect.anything(),
        ]);
        answered.push(`${tool.name}${args.store === "agent" ? " (agent)" : ""}: ${answer.stop_reason}`);
      }
    }
    expect(answered.length).toBeGreaterThanOrEqual(tools.length);
    // The agent branches were exercised too (list_memories with store=agent once lacked `query` in its schema).
    expect(answered).toEqual(
      expect.arrayContaining([expect.stringMatching(/^list_memories \(agent\): /), expect.stringMatching(/^update_memory \(agent\): /)]),
    );
  });

  /**
   * Issue 23 §1: every tool publishes the outputSchema derived from its operations' declared
   * answers, and its structuredContent validates against it (closed: nothing undeclared), for a
   * success and for a refusal, on each store. The SDK client validates each answer as it
   * arrives (callTool throws on a mismatch); ajv checks it again here, with the reason.
   */
  it("issue 23 §1 C19-OPS: each tool, each store, answers structuredContent valid against its published outputSchema, success and refusal", async () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const byName = new Map(tools.map((t) => [t.name, t]));
    const seen = new Map<string, Set<string>>();
    const call = async (name: string, args: Record<string, unknown>, as: Client = client): Promise<Record<string, any>> => {
      const tool = byName.get(name)!;
      expect([name, args, ajv.validate(tool.inputSchema, args) || ajv.errorsText()]).toEqual([name, args, true]);
      const result = (await as.callTool({ name, arguments: args })) as CallToolResult;
      const answer = result.structuredContent as Record<string, any>;
      expect([name, args, answer.stop_reason, ajv.validate(tool.outputSchema!, answer) || ajv.errorsText()]).toEqual([name, args, answer.stop_reason, true]);
      const branch = `${name}${args.store === "agent" ? " (agent)" : ""}`;
      seen.set(branch, (seen.get(branch) ?? new Set()).add(result.isError ? "refusal" : "success"));
      return answer;
    };

    for (const tool of tools) {
      expect(tool.outputSchema).toMatchObject({ type: "object", additionalProperties: false });
      for (const args of argumentsFor(tool)) {
        await call(tool.name, args);
        // The same arguments for a subject the token does not hold: refused by the policy (SPEC D5).
        const properties = (tool.inputSchema as Schema).properties ?? {};
        await call(tool.name, {
          ...args,
          ...("subject_id" in properties && args.store !== "agent" ? { subject_id: "mallory" } : {}),
          ...(args.store === "agent" ? { repo_id: "elsewhere" } : {}),
        });
      }
    }

    // Successes: the generated arguments, with what the policy judges filled in (consent, an
    // existing object's id, a fact the adapter may write); each is checked against the inputSchema.
    const generated = (name: string, store?: "agent") => argumentsFor(byName.get(name)!)[store ? 1 : 0];
    const consent = { consent: { explicit: true } };
    const stored = await call("add_memory", { ...generated("add_memory"), ...consent });
    expect(stored.stop_reason).toBe("SUCCESS_STORED");
    const memoryId = stored.memory.memory_id as string;
    expect((await call("get_memory", { ...generated("get_memory"), memory_id: memoryId })).stop_reason).toBe("SUCCESS_READ");
    const updated = await call("update_memory", { ...generated("update_memory"), ...consent, memory_id: memoryId, value: "generated again" });
    expect(updated).toMatchObject({ stop_reason: "SUCCESS_UPDATED", memory: { version: 2 } });
    expect((await call("search_memories", { ...generated("search_memories"), query: "again" })).memories).toHaveLength(1);
    expect((await call("delete_memory", { ...generated("delete_memory"), memory_id: memoryId })).stop_reason).toBe("SUCCESS_DELETED");
    const written = await call("add_memory", generated("add_memory", "agent"));
    expect(written.stop_reason).toBe("SUCCESS_STORED");
    for (const mode of ["dry_run", "commit"]) {
      const answer = await call("update_memory", { ...generated("update_memory", "agent"), memory_id: written.memory.id, mode });
      expect(answer.committed).toBe(mode === "commit");
    }
    expect((await call("add_fact", generated("add_fact"), adapter)).stop_reason).toBe("SUCCESS_STORED");
    expect((await call("get_memory_envelope", { ...generated("get_memory_envelope"), skip_cache: true })).envelope.user_facts).toHaveLength(1);

    const missing = [...seen.entries()].filter(([, outcomes]) => outcomes.size < 2).map(([branch, outcomes]) => `${branch}: only ${[...outcomes].join()}`);
    expect(missing).toEqual([]);
    expect([...seen.keys()]).toEqual(
      expect.arrayContaining([...tools.map((t) => t.name), "add_memory (agent)", "search_memories (agent)", "update_memory (agent)", "list_memories (agent)"]),
    );
  });
});
