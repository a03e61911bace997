import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
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
  let tools: Tool[];

  beforeAll(async () => {
    gw = await startTestGateway();
    client = await connectMcp(gw.url, await gw.token({ tenant: "acme", subjects: ["alice", "repo:generated"], roles: ["agent"] }));
    tools = (await client.listTools()).tools;
  });
  afterAll(async () => {
    await client?.close();
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
});
