import http from "node:http";
import { ApolloServer } from "@apollo/server";
import { expressMiddleware } from "@as-integrations/express5";
import { ApolloServerPluginDrainHttpServer } from "@apollo/server/plugin/drainHttpServer";
import express, { type Router } from "express";
import type { GraphQLSchema } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { Principal } from "../auth/principal";
import { AuthenticationError, type TokenVerifier } from "../auth/token-verifier";
import type { GatewayContext } from "../graphql/context";
import { maskError, UnauthenticatedError } from "../graphql/errors";
import type { Logger } from "../logger";
import type { Services } from "../services";
import { requestId } from "./request-id";

export interface HttpServerDeps {
  schema: GraphQLSchema;
  services: Services;
  verifier: TokenVerifier;
  logger: Logger;
  /** Routes beside /graphql: health, exports, REST doors, pages. */
  routers: Router[];
}

export interface RunningHttpServer {
  httpServer: http.Server;
  /** Stops accepting, drains in-flight requests and subscriptions, then resolves. */
  stop(): Promise<void>;
}

async function authenticate(verifier: TokenVerifier, authorization: string | undefined | null): Promise<Principal> {
  try {
    return await verifier.verifyAuthorization(authorization);
  } catch (error) {
    if (error instanceof AuthenticationError) throw new UnauthenticatedError(error.reason);
    throw error;
  }
}

export async function createHttpServer(deps: HttpServerDeps): Promise<RunningHttpServer> {
  const app = express();
  app.disable("x-powered-by");
  const httpServer = http.createServer(app);
  const { logger, services, verifier, schema } = deps;

  // Subscriptions share the /graphql path; the token travels in connectionParams.authorization.
  const wsServer = new WebSocketServer({ server: httpServer, path: "/graphql" });
  const wsCleanup = useServer<Record<string, unknown>, { principal?: Principal }>(
    {
      schema,
      onConnect: async (ctx) => {
        try {
          ctx.extra.principal = await verifier.verifyAuthorization(ctx.connectionParams?.authorization as string | undefined);
          return true;
        } catch {
          return false; // the client sees close code 4403 Forbidden
        }
      },
      context: (ctx): GatewayContext => ({
        principal: ctx.extra.principal!,
        requestId: `ws-${Math.random().toString(36).slice(2)}`,
        services,
      }),
    },
    wsServer,
  );

  const apollo = new ApolloServer<GatewayContext>({
    schema,
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // main.ts owns SIGTERM/SIGINT: Apollo's own handler would exit before the embedded database stops.
    stopOnTerminationSignals: false,
    formatError: (formatted, error) => {
      const masked = maskError(formatted, error);
      if (masked !== formatted) logger.error({ err: error }, "unexpected error in a resolver (masked)");
      return masked;
    },
    plugins: [
      ApolloServerPluginDrainHttpServer({ httpServer }),
      {
        async serverWillStart() {
          return {
            async drainServer() {
              await wsCleanup.dispose();
            },
          };
        },
      },
    ],
  });
  await apollo.start();

  app.use(requestId);
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
  for (const router of deps.routers) app.use(router);
  app.use(
    "/graphql",
    express.json({ limit: "256kb" }),
    expressMiddleware(apollo, {
      context: async ({ req }): Promise<GatewayContext> => ({
        principal: await authenticate(verifier, req.headers.authorization),
        requestId: req.requestId,
        services,
      }),
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
      await apollo.stop(); // drains HTTP and the WebSocket server, then closes
      await new Promise<void>((resolve) => wsServer.close(() => resolve()));
    },
  };
}
