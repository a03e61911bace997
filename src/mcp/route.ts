import type { Admission, Lane } from "../http/admission";
import type { PrincipalRateLimiter } from "../http/rate-limit";
import { readFileSync } from "node:fs";
import path from "node:path";
import { InvalidTokenError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { requireBearerAuth } from "@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js";
import type { OAuthTokenVerifier } from "@modelcontextprotocol/sdk/server/auth/provider.js";
import { localhostHostValidation } from "@modelcontextprotocol/sdk/server/middleware/hostHeaderValidation.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import express, { Router, type ErrorRequestHandler, type Request, type RequestHandler } from "express";
import type { Principal } from "../auth/principal";
import { AuthenticationError, type TokenVerifier } from "../auth/token-verifier";
import { projectRoot, type Config } from "../config";
import type { Logger } from "../logger";
import type { Services } from "../services";
import { createMcpSession } from "./server";
import { MEMGATE_TOOLS } from "./tools";

export const MCP_PATH = "/mcp";
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

export interface McpRouterDeps {
  config: Config;
  verifier: TokenVerifier;
  services: Services;
  logger: Logger;
  /** The per-principal token bucket every door shares (src/http/rate-limit.ts). */
  rateLimiter: PrincipalRateLimiter;
  /** Fair shares of in-flight capacity (src/http/admission.ts), as on every door. */
  admission: Admission;
}

const READ_ONLY_TOOLS = new Set(MEMGATE_TOOLS.filter((tool) => tool.definition.annotations?.readOnlyHint === true).map((tool) => tool.definition.name));

/** A tools/call of a tool that changes something is a write; every other message reads. */
function laneOf(body: unknown): Lane {
  const message = body as { method?: unknown; params?: { name?: unknown } } | undefined;
  if (message?.method !== "tools/call") return "read";
  return typeof message.params?.name === "string" && READ_ONLY_TOOLS.has(message.params.name) ? "read" : "write";
}

const VERSION = (JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { version: string }).version;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);
/** As /graphql and /v1/memory: every field has a far smaller bound, so a larger body is never a valid call. */
const BODY_LIMIT = "256kb";

/** The same verifier as GraphQL, in the SDK's shape: the principal rides along in `extra` (SPEC D5: identity from the token only). */
function oauthVerifier(verifier: TokenVerifier): OAuthTokenVerifier {
  return {
    async verifyAccessToken(token) {
      let principal: Principal;
      try {
        principal = await verifier.verify(token);
      } catch (error) {
        if (error instanceof AuthenticationError) throw new InvalidTokenError(error.reason);
        throw error;
      }
      return {
        token,
        clientId: principal.id,
        scopes: [],
        expiresAt: principal.expiresAt ? Math.floor(principal.expiresAt.getTime() / 1000) : undefined,
        extra: { principal },
      };
    },
  };
}

/**
 * POST /mcp: MCP over Streamable HTTP, stateless (every request carries its bearer token and gets
 * a server of its own, so no session outlives or outranks a token, and any gateway process can
 * answer). GET and DELETE answer 405: there is no session stream to open or end.
 * /.well-known/oauth-protected-resource[/mcp] (RFC 9728) tells a client where tokens come from;
 * a request without a valid token gets 401 with `WWW-Authenticate: Bearer resource_metadata="…"`.
 */
export function mcpRouter(deps: McpRouterDeps): Router {
  const { config, services, logger } = deps;
  const router = Router();
  const baseUrl = (req: Request) => config.mcp.publicUrl ?? `${req.protocol}://${req.get("host") ?? `${config.host}:${config.port}`}`;
  const metadataUrl = (req: Request) => `${baseUrl(req)}${PROTECTED_RESOURCE_PATH}${MCP_PATH}`;

  const metadata: RequestHandler = (req, res) => {
    res.set("Access-Control-Allow-Origin", "*");
    res.json({
      resource: `${baseUrl(req)}${MCP_PATH}`,
      ...(config.mcp.authorizationServers.length > 0 ? { authorization_servers: config.mcp.authorizationServers } : {}),
      bearer_methods_supported: ["header"],
      resource_name: "memgate",
      resource_documentation: "https://github.com/memgate/memgate#use-memgate-from-an-mcp-client",
    });
  };
  router.get([PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}${MCP_PATH}`], metadata);

  const verifier = oauthVerifier(deps.verifier);
  const authenticate: RequestHandler = (req, res, next) => requireBearerAuth({ verifier, resourceMetadataUrl: metadataUrl(req) })(req, res, next);
  // DNS rebinding (GHSA-w48q-cv73-mx4w): a gateway bound to loopback answers loopback Host headers only.
  const hosts: RequestHandler[] = LOOPBACK.has(config.host) ? [localhostHostValidation()] : [];

  router.post(MCP_PATH, ...hosts, authenticate, express.json({ limit: BODY_LIMIT }), async (req, res) => {
    const principal = req.auth?.extra?.principal as Principal | undefined;
    if (!principal) {
      res.status(401).json({ error: "invalid_token", error_description: "no verified principal" });
      return;
    }
    // The same per-principal bucket as every other door: one token cannot flood its tenant's chain through MCP either.
    const rate = await deps.rateLimiter.consume(principal);
    const entry = rate.allowed
      ? await deps.admission.acquire(principal, laneOf(req.body))
      : { admitted: false as const, retryAfterSeconds: rate.retryAfterSeconds };
    if (!entry.admitted) {
      res.status(429).set("Retry-After", String(entry.retryAfterSeconds));
      res.json({ jsonrpc: "2.0", error: { code: -32000, message: `Rate limited: retry after ${entry.retryAfterSeconds} s` }, id: null });
      return;
    }
    // As the other doors' holdSlot (http/door-guards.ts): a caller that left while it waited has had its "close" already.
    if (res.destroyed || !res.socket || res.socket.destroyed) {
      entry.release();
      return;
    }
    res.once("close", entry.release);
    const server = createMcpSession({ services, principal, call: { requestId: req.requestId, waitAside: entry.waitAside }, version: VERSION });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      // The client went away: a session that fails to close has no one left to answer.
      transport.close().catch(() => undefined);
      server.close().catch(() => undefined);
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      logger.error({ err: error, requestId: req.requestId }, "MCP request failed unexpectedly");
      if (!res.headersSent) res.status(500).json({ jsonrpc: "2.0", error: { code: -32603, message: "Internal server error" }, id: null });
    }
  });

  const noSession: RequestHandler = (_req, res) => {
    res
      .status(405)
      .set("Allow", "POST")
      .json({ jsonrpc: "2.0", error: { code: -32000, message: "Method not allowed: this MCP server is stateless (POST only)." }, id: null });
  };
  router.get(MCP_PATH, ...hosts, noSession);
  router.delete(MCP_PATH, ...hosts, noSession);
  // A body that is not JSON or too large gets a JSON-RPC error, as the transport answers other malformed messages.
  const badBody: ErrorRequestHandler = (error: { status?: number; type?: string }, _req, res, next) => {
    if (res.headersSent || !error.status || error.status >= 500) return next(error);
    const tooLarge = error.type === "entity.too.large";
    res.status(error.status).json({
      jsonrpc: "2.0",
      error: { code: -32700, message: tooLarge ? `Parse error: the body is larger than ${BODY_LIMIT}` : "Parse error: Invalid JSON" },
      id: null,
    });
  };
  router.use(MCP_PATH, badBody);
  return router;
}
