import { randomUUID } from "node:crypto";
import http from "node:http";
import { ApolloServer } from "@apollo/server";
import { expressMiddleware } from "@as-integrations/express5";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import express, { type RequestHandler, type Router } from "express";
import {
  GraphQLError,
  NoSchemaIntrospectionCustomRule,
  specifiedRules,
  validate,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type ValidationRule,
} from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { authorizationFromConnectionParams, authorizationFromRawHeaders } from "../auth/authorization";
import { AuthenticationError, type Session, type TokenVerifier } from "../auth/token-verifier";
import type { DoorConfig } from "../config";
import type { GatewayContext } from "../graphql/context";
import { DocumentLimitError, ErrorCode, JsonTooDeepError, maskError, RateLimitedError, UnauthenticatedError } from "../graphql/errors";
import { IDEMPOTENCY_HEADER, IdempotencyKeyError, parseIdempotencyKey } from "../kernel/idempotency";
import type { Logger } from "../logger";
import type { Services } from "../services";
import { documentLimitRules, jsonDeeperThan, parseBounded, stopWhenClientGoes, tokenLimitCheck } from "./limits";
import { admit, laneOfGraphQL, type Admission, type Admitted } from "./admission";
import { holdSlot, waitAsideOf } from "./door-guards";
import type { PrincipalRateLimiter } from "./rate-limit";
import { requestId } from "./request-id";
import { explainAuthenticationFailure } from "./unauthenticated";
import { SocketSessions } from "./socket-sessions";

export interface HttpServerDeps {
  schema: GraphQLSchema;
  services: Services;
  verifier: TokenVerifier;
  logger: Logger;
  /** Bounds, rate limits, sessions and production mode (config.door). */
  door: DoorConfig;
  rateLimiter: PrincipalRateLimiter;
  /** Fair shares of this process's in-flight capacity (src/http/admission.ts), shared by every door. */
  admission: Admission;
  /** Routes beside /graphql: health, exports, REST doors, pages. */
  routers: Router[];
}

export interface RunningHttpServer {
  httpServer: http.Server;
  /** Stops accepting, drains in-flight requests and subscriptions, then resolves. */
  stop(): Promise<void>;
}

/** The Idempotency-Key header, or a 400 BAD_USER_INPUT when it is malformed. */
function idempotencyKeyOf(header: unknown): string | undefined {
  try {
    return parseIdempotencyKey(header);
  } catch (error) {
    if (!(error instanceof IdempotencyKeyError)) throw error;
    throw new GraphQLError(error.message, { extensions: { code: ErrorCode.BAD_USER_INPUT, reason: error.code, http: { status: 400 } } });
  }
}

async function authenticate(verifier: TokenVerifier, authorization: () => string | undefined): Promise<Session> {
  try {
    return await verifier.authenticate(authorization());
  } catch (error) {
    if (error instanceof AuthenticationError) throw new UnauthenticatedError(explainAuthenticationFailure(error.reason, authorization()));
    throw error;
  }
}

/** What the socket's own state holds beside graphql-ws's: its session, and a signal that fires when it closes. */
interface SocketState extends Record<PropertyKey, unknown> {
  session: Session;
  gone: AbortController;
  /** The admission of each operation in flight, by its id: released when the operation completes. */
  admitted: Map<string, Admitted>;
}

/** Apollo rewrites every validation error's code to GRAPHQL_VALIDATION_FAILED; a bound's refusal keeps its own. */
function documentLimitCode(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = error instanceof GraphQLError ? error.originalError : undefined;
  if (!(original instanceof DocumentLimitError)) return formatted;
  return { ...formatted, extensions: { ...formatted.extensions, code: ErrorCode.DOCUMENT_LIMIT_EXCEEDED } };
}

/** What a client sees of an error outside Apollo (sockets, refusals before Apollo): masked when unexpected, without HTTP-only parts. */
function formatOutsideApollo(error: GraphQLError, hideSuggestions: boolean): GraphQLFormattedError {
  const formatted = maskError(error.toJSON(), error);
  const { http: _http, ...extensions } = formatted.extensions ?? {};
  const message = hideSuggestions ? formatted.message.replace(/ ?Did you mean(.+?)\?$/, "") : formatted.message;
  return { ...formatted, message, extensions };
}

/** CORS for the configured origins only; with none configured, no CORS header is ever sent (browsers keep cross-origin pages out). */
/**
 * What a browser client may send and read: GraphQL and seed-001 bodies, retries with an
 * Idempotency-Key, MCP's session and protocol headers, SSE resumption (docs/CLIENT.md "CORS").
 */
const CORS_ALLOWED_HEADERS = [
  "authorization",
  "content-type",
  "x-request-id",
  "apollo-require-preflight",
  "idempotency-key",
  "mcp-protocol-version",
  "mcp-session-id",
  "last-event-id",
].join(", ");
const CORS_EXPOSED_HEADERS = ["retry-after", "x-request-id", "mcp-session-id"].join(", ");

function corsFor(origins: readonly string[]): RequestHandler {
  const allowed = new Set(origins);
  return (req, res, next) => {
    if (allowed.size === 0) return next();
    res.vary("Origin");
    const origin = req.headers.origin;
    if (!origin || !allowed.has(origin)) return next();
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Access-Control-Expose-Headers", CORS_EXPOSED_HEADERS);
    if (req.method === "OPTIONS" && req.headers["access-control-request-method"]) {
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
      res.setHeader("Access-Control-Allow-Headers", CORS_ALLOWED_HEADERS);
      res.setHeader("Access-Control-Max-Age", "600");
      res.status(204).end();
      return;
    }
    next();
  };
}

/**
 * GraphQL over WebSocket on the server's /graphql path (subscriptions, and any operation a
 * socket client sends): the token in connectionParams.authorization, each operation admitted,
 * bounded and validated as over HTTP.
 */
function graphqlSockets(httpServer: http.Server, deps: HttpServerDeps, limitRules: ValidationRule[]) {
  const { logger, services, verifier, schema, door, rateLimiter, admission } = deps;
  // Subscriptions share the /graphql path; the token travels in connectionParams.authorization.
  // A message may be as large as an HTTP body, no larger (ws would take 100 MiB).
  const wsServer = new WebSocketServer({
    server: httpServer,
    path: "/graphql",
    maxPayload: door.bodyLimitBytes,
    // A page from a foreign origin may not open a socket (CORS does not cover WebSockets); clients without Origin (non-browsers) may.
    verifyClient: ({ origin, req }: { origin?: string; req: http.IncomingMessage }) =>
      !origin || door.corsOrigins.includes(origin) || safeHost(origin) === req.headers.host,
  });
  const sockets = new SocketSessions(verifier, door.session.expiryCheckMs);
  const socketRules: ValidationRule[] = [...specifiedRules, ...limitRules, ...(door.production ? [NoSchemaIntrospectionCustomRule] : [])];
  const wsCleanup = useServer<Record<string, unknown>, SocketState>(
    {
      schema,
      onConnect: async (ctx) => {
        try {
          const session = await verifier.authenticate(authorizationFromConnectionParams(ctx.connectionParams));
          ctx.extra.session = session;
          ctx.extra.gone = new AbortController();
          ctx.extra.admitted = new Map();
          sockets.track(ctx.extra.socket, session);
          return true;
        } catch (error) {
          if (!(error instanceof AuthenticationError)) logger.error({ err: error }, "token verification failed unexpectedly");
          return false; // the client sees close code 4403 Forbidden
        }
      },
      // Every operation: the socket still open and its token unexpired, the caller within its rate, the document within bounds.
      onSubscribe: async (ctx, id, payload) => {
        const { socket, session, gone, admitted } = ctx.extra;
        if (!session || !gone || sockets.ended(socket)) return [new UnauthenticatedError("token expired")];
        // A subscription holds its slot only while it is being set up: its events are pushed, not asked for.
        const entry = await admit(rateLimiter, admission, session.principal, laneOfGraphQL(payload.query, payload.operationName));
        if (!entry.admitted) return [new RateLimitedError(entry.retryAfterSeconds)];
        // Closed while it waited for the slot: onClose has run and would never release it.
        if (sockets.ended(socket) || socket.readyState !== socket.OPEN) {
          entry.release();
          return [new UnauthenticatedError("the socket closed")];
        }
        const refuse = (errors: readonly GraphQLError[]) => {
          entry.release();
          return errors;
        };
        if (payload.variables && jsonDeeperThan(payload.variables, door.jsonMaxDepth)) return refuse([new JsonTooDeepError(door.jsonMaxDepth)]);
        let document;
        try {
          document = parseBounded(payload.query, door.document);
        } catch (error) {
          entry.release();
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = validate(schema, document, socketRules);
        if (errors.length > 0) return refuse(errors);
        if (document.definitions.some((d) => d.kind === "OperationDefinition" && d.operation === "subscription")) entry.release();
        else admitted?.set(id, entry);
        const contextValue: GatewayContext = { principal: session.principal, requestId: `ws-${randomUUID()}`, services, signal: gone.signal };
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue };
      },
      onError: (_ctx, _id, _payload, errors) => errors.map((error) => formatOutsideApollo(error, door.production)),
      // A result for a socket whose token has expired is not sent: the socket closes (4401) instead.
      onNext: (ctx, _id, _payload, _args, result): FormattedExecutionResult | undefined => {
        if (sockets.ended(ctx.extra.socket) || !result.errors) return undefined; // an ended socket sends nothing
        return { ...result, errors: result.errors.map((error) => formatOutsideApollo(error, door.production)) };
      },
      onComplete: (ctx, id) => {
        ctx.extra.admitted?.get(id)?.release();
        ctx.extra.admitted?.delete(id);
      },
      onClose: (ctx) => {
        for (const entry of ctx.extra.admitted?.values() ?? []) entry.release();
        ctx.extra.admitted?.clear();
        ctx.extra.gone?.abort();
        sockets.forget(ctx.extra.socket);
      },
    },
    wsServer,
  );
  return { wsServer, sockets, wsCleanup };
}

/**
 * Before Apollo parses: graphql-armor's counting parser stops at the first token over the bound, and
 * the nesting of variables is bounded before anything walks them. (Apollo turns an error thrown by a
 * plugin into a 500, so this is middleware.)
 */
function boundedGraphQLRequest(door: DoorConfig): RequestHandler {
  const withinTokenLimit = tokenLimitCheck(door.document);
  return (req, res, next) => {
    const payload = (req.method === "GET" ? req.query : req.body) as { query?: unknown; variables?: unknown } | undefined;
    try {
      let variables = payload?.variables;
      if (typeof variables === "string") variables = JSON.parse(variables) as unknown;
      if (variables !== undefined && jsonDeeperThan(variables, door.jsonMaxDepth)) throw new JsonTooDeepError(door.jsonMaxDepth);
      if (typeof payload?.query === "string") withinTokenLimit(payload.query);
    } catch (error) {
      if (!(error instanceof GraphQLError)) return next(); // malformed: Apollo answers it
      res.status(400).json({ errors: [formatOutsideApollo(error, door.production)] });
      return;
    }
    next();
  };
}

/**
 * After authentication, before Apollo parses: the caller's rate, then its fair share of the lane's
 * in-flight capacity (it may wait for it, bounded). The slot is released when the answer is sent.
 * A request whose token does not verify goes on, and Apollo's context answers it as before.
 */
function admittedGraphQLRequest(deps: Pick<HttpServerDeps, "verifier" | "rateLimiter" | "admission" | "door">): RequestHandler {
  const { verifier, rateLimiter, admission, door } = deps;
  return (req, res, next) => {
    const payload = (req.method === "GET" ? req.query : req.body) as { query?: unknown; operationName?: unknown } | undefined;
    verifier
      .authenticate(authorizationFromRawHeaders(req.rawHeaders))
      .then(async (session) => {
        const entry = await admit(rateLimiter, admission, session.principal, laneOfGraphQL(payload?.query, payload?.operationName));
        if (!entry.admitted) {
          res.status(429).setHeader("Retry-After", String(entry.retryAfterSeconds));
          res.json({ errors: [formatOutsideApollo(new RateLimitedError(entry.retryAfterSeconds), door.production)] });
          return;
        }
        if (!holdSlot(res, entry)) return;
        res.locals.session = session;
        next();
      })
      .catch((error: unknown) => {
        if (error instanceof AuthenticationError) return next();
        next(error);
      });
  };
}

/** Two Authorization headers are refused on every route: Node would silently keep the first. */
const singleAuthorization: RequestHandler = (req, res, next) => {
  try {
    authorizationFromRawHeaders(req.rawHeaders);
    next();
  } catch (error) {
    if (!(error instanceof AuthenticationError)) return next(error);
    res.status(401).json({ errors: [{ message: `Unauthenticated: ${error.reason}`, extensions: { code: ErrorCode.UNAUTHENTICATED } }] });
  }
};

export async function createHttpServer(deps: HttpServerDeps): Promise<RunningHttpServer> {
  const app = express();
  app.disable("x-powered-by");
  const httpServer = http.createServer(app);
  const { logger, services, verifier, schema, door } = deps;
  stopWhenClientGoes(schema);
  const limitRules = documentLimitRules(door.document);

  const { wsServer, sockets, wsCleanup } = graphqlSockets(httpServer, deps, limitRules);

  const boundedRequest = boundedGraphQLRequest(door);
  const admitted = admittedGraphQLRequest(deps);

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    introspection: !door.production,
    hideSchemaDetailsFromClientErrors: door.production,
    validationRules: limitRules,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT: Apollo's own handler would exit before the embedded database stops.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => {
      const masked = maskError(formatted, error);
      if (masked !== formatted) logger.error({ err: error }, "unexpected error in a resolver (masked)");
      return documentLimitCode(masked, error);
    },
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      // Answers are per principal and never cached: Apollo's default cache-control plugin only wrapped every field resolver.
      ApolloServerPluginCacheControlDisabled(),
      // The default landing pages load Apollo's sandbox from a CDN: never in production.
      ...(door.production ? [ApolloServerPluginLandingPageDisabled()] : []),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              sockets.stop();
              await wsCleanup.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  // ETags are for cacheable GETs; computing one (a sha1 of the body) for every GraphQL and REST answer is waste.
  app.set("etag", false);
  app.use(requestId);
  // The per-request log line is debug: below that level nothing is timed or listened for.
  if (logger.isLevelEnabled("debug"))
    app.use((req, res, next) => {
      const started = process.hrtime.bigint();
      res.on("finish", () => {
        logger.debug(
          { requestId: req.requestId, method: req.method, path: req.path, status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 },
          "request",
        );
      });
      next();
    });
  app.use(corsFor(door.corsOrigins));
  app.use(singleAuthorization);
  for (const router of deps.routers) app.use(router);
  app.use(
    "/graphql",
    express.json({ limit: door.bodyLimitBytes }),
    boundedRequest,
    admitted,
    expressMiddleware(apollo, {
      // Authenticated and admitted above; a token that did not verify is answered here.
      context: async ({ req, res }): Promise<GatewayContext> => {
        const session = (res.locals.session as Session | undefined) ?? (await authenticate(verifier, () => authorizationFromRawHeaders(req.rawHeaders)));
        const gone = new AbortController();
        res.once("close", () => {
          if (!res.writableFinished) gone.abort();
        });
        return {
          principal: session.principal,
          requestId: req.requestId,
          idempotencyKey: idempotencyKeyOf(req.headers[IDEMPOTENCY_HEADER]),
          waitAside: waitAsideOf(res),
          services,
          signal: gone.signal,
        };
      },
    }),
  );
  app.use((_req, res) => {
    res.status(404).json({ error: { code: "NOT_FOUND", message: "no such route" } });
  });
  // Malformed JSON and oversized bodies get a typed JSON answer, not Express's HTML page.
  app.use((error: { status?: number; type?: string }, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const status = error.status && error.status >= 400 && error.status < 500 ? error.status : 500;
    if (status === 500) logger.error({ err: error, requestId: req.requestId }, "unhandled error in an HTTP route");
    res.status(status).json({
      errors: [
        {
          message: status === 500 ? "Internal server error" : `Bad request: ${error.type ?? "malformed body"}`,
          extensions: { code: status === 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST" },
        },
      ],
    });
  });

  return {
    httpServer,
    stop: async () => {
      sockets.stop();
      await apollo.stop(); // drains HTTP and the WebSocket server, then closes
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
