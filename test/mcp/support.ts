import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "mongodb";

/**
 * A real MCP client (the SDK's) over Streamable HTTP with a bearer token, as an agent would
 * connect. It lists the tools first, as a client does: the SDK then validates every tool
 * answer's structuredContent against the tool's published outputSchema, and callTool throws
 * on a mismatch (issue 23 §1), in every test that calls a tool.
 */
export async function connectMcp(baseUrl: string, token: string | null): Promise<Client> {
  const client = new Client({ name: "memgate-test-agent", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(
    new URL("/mcp", baseUrl),
    token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {},
  );
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** The decision a tool answered, with what it carried. */
export interface ToolOutcome extends Record<string, any> {
  stop_reason: string;
  decision_id: string;
  policy_version: string;
  explanations: string[];
  isError: boolean;
  text: string[];
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    ...(result.structuredContent as Record<string, any>),
    isError: result.isError === true,
    text: result.content.map((c) => (c.type === "text" ? c.text : "")),
  } as ToolOutcome;
}

/**
 * The memory data of a database (items, facts, proposals, ledger, agent memories), without the
 * event log and its bookkeeping: a refusal appends a metadata-only event by design (SPEC D4),
 * and changes nothing else.
 */
export async function memoryData(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const { name } of (await db.listCollections().toArray()).sort((a, b) => a.name.localeCompare(b.name))) {
    if (/event|chain|checkpoint|epoch|head|counter|integrity|index_state|applied/i.test(name)) continue;
    const docs = await db.collection(name).find({}).sort({ _id: 1 }).toArray();
    parts.push(`${name}: ${JSON.stringify(docs)}`);
  }
  return parts.join("\n");
}

/**
 * A client-side helper for tools that cannot send headers (the conformance runner): it adds
 * the bearer token to every request it forwards to the gateway, as an MCP host that holds a
 * token does. The Host header passes through unchanged (the gateway checks it).
 */
export async function startTokenProxy(target: string, token: string): Promise<{ url: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forward = http.request(
      { host: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: { ...req.headers, authorization: `Bearer ${token}` } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
