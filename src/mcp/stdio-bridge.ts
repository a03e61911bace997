import { parseArgs } from "node:util";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A command line the bridge cannot run with. */
export class BridgeUsageError extends Error {
  readonly code = "BRIDGE_USAGE" as const;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

const USAGE = "usage: memgate-mcp --url <gateway URL, e.g. http://127.0.0.1:4000> --token <bearer JWT>  (or MEMGATE_URL / MEMGATE_TOKEN)";

export interface BridgeOptions {
  /** The gateway's MCP endpoint. */
  url: URL;
  token: string;
}

export function bridgeOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BridgeOptions {
  let values: { url?: string; token?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { url: { type: "string" }, token: { type: "string" } }, strict: true }));
  } catch (error) {
    throw new BridgeUsageError(`${(error as Error).message}\n${USAGE}`);
  }
  const rawUrl = values.url ?? env.MEMGATE_URL;
  const token = values.token ?? env.MEMGATE_TOKEN;
  if (!rawUrl || !token) throw new BridgeUsageError(USAGE);
  if (!URL.canParse(rawUrl)) throw new BridgeUsageError(`--url is not a URL: ${rawUrl}\n${USAGE}`);
  const url = new URL(rawUrl);
  // A gateway's base URL is accepted as well as its /mcp endpoint.
  if (url.pathname === "/" || url.pathname === "") url.pathname = "/mcp";
  return { url, token: token.replace(/^Bearer\s+/i, "") };
}

/**
 * For desktop clients that speak only stdio: every JSON-RPC message from stdin goes to the
 * gateway's /mcp with the bearer token, every answer back to stdout. Nothing is decided or
 * changed here; the gateway authenticates each request. Diagnostics go to stderr only.
 */
export async function runBridge(options: BridgeOptions, stdio = new StdioServerTransport()): Promise<void> {
  const http = new StreamableHTTPClientTransport(options.url, { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } });
  const initializing = new Set<string | number>();
  let closing = false;
  const closeBoth = async () => {
    if (closing) return;
    closing = true;
    await Promise.allSettled([http.close(), stdio.close()]);
  };

  stdio.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCRequest(message) && message.method === "initialize") initializing.add(message.id);
    http.send(message).catch(async (error: unknown) => {
      process.stderr.write(`memgate-mcp: ${(error as Error).message}\n`);
      // A request must get an answer, or the client waits forever.
      if (isJSONRPCRequest(message)) {
        await stdio.send({ jsonrpc: "2.0", id: message.id, error: { code: -32000, message: `memgate gateway: ${(error as Error).message}` } });
      }
    });
  };
  http.onmessage = (message: JSONRPCMessage) => {
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
      if (typeof version === "string") http.setProtocolVersion(version);
    }
    stdio.send(message).catch((error: unknown) => process.stderr.write(`memgate-mcp: ${(error as Error).message}\n`));
  };
  http.onerror = (error) => process.stderr.write(`memgate-mcp: ${error.message}\n`);
  stdio.onerror = (error) => process.stderr.write(`memgate-mcp: ${error.message}\n`);
  // closeBoth settles both sides (allSettled) and never rejects.
  http.onclose = () => {
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- see above
    void closeBoth();
  };
  stdio.onclose = () => {
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- see above
    void closeBoth();
  };

  await http.start();
  await stdio.start();
  // stdin's end is the client going away.
  process.stdin.once("end", () => {
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- closeBoth never rejects
    void closeBoth();
  });
}

/** The `memgate-mcp` bin. */
export async function main(argv = process.argv.slice(2), env = process.env): Promise<void> {
  try {
    await runBridge(bridgeOptions(argv, env));
  } catch (error) {
    process.stderr.write(`memgate-mcp: ${(error as Error).message}\n`);
    process.exitCode = error instanceof BridgeUsageError ? 2 : 1;
  }
}

// main reports every failure on stderr and in the exit code, and never rejects.
// eslint-disable-next-line @typescript-eslint/no-floating-promises -- see above
if (require.main === module) void main();
