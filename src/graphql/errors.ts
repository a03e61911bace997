import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { unwrapResolverError } from "@apollo/server/errors";

/**
 * The only GraphQL error codes memgate uses. Policy refusals are results, never errors:
 * errors are for transport, authentication and malformed documents (SPEC §2).
 */
export enum ErrorCode {
  UNAUTHENTICATED = "UNAUTHENTICATED",
  FORBIDDEN = "FORBIDDEN",
  BAD_USER_INPUT = "BAD_USER_INPUT",
  INTERNAL_SERVER_ERROR = "INTERNAL_SERVER_ERROR",
  /** A document over a configured bound (depth, aliases, tokens, directives, cost): refused before execution. */
  DOCUMENT_LIMIT_EXCEEDED = "DOCUMENT_LIMIT_EXCEEDED",
  /** The caller's token bucket is empty; retry after extensions.retryAfterSeconds. */
  RATE_LIMITED = "RATE_LIMITED",
  /** Request JSON nested deeper than the configured bound: refused before execution (IF1-VALID's answer). */
  SCHEMA_INVALID = "SCHEMA_INVALID",
  /** The client went away; nothing more runs for it (never seen by that client). */
  CLIENT_GONE = "CLIENT_GONE",
}

export type DocumentLimit = "depth" | "aliases" | "tokens" | "directives" | "cost";

export class DocumentLimitError extends GraphQLError {
  constructor(
    readonly limit: DocumentLimit,
    message: string,
  ) {
    super(message, { extensions: { code: ErrorCode.DOCUMENT_LIMIT_EXCEEDED, limit, http: { status: 400 } } });
  }
}

export class RateLimitedError extends GraphQLError {
  constructor(readonly retryAfterSeconds: number) {
    super(`Rate limited: retry after ${retryAfterSeconds} s`, {
      extensions: {
        code: ErrorCode.RATE_LIMITED,
        retryAfterSeconds,
        http: { status: 429, headers: new Map([["retry-after", String(retryAfterSeconds)]]) },
      },
    });
  }
}

export class JsonTooDeepError extends GraphQLError {
  constructor(maxDepth: number) {
    super(`Request JSON is nested deeper than ${maxDepth} levels`, { extensions: { code: ErrorCode.SCHEMA_INVALID, http: { status: 400 } } });
  }
}

export class ClientGoneError extends GraphQLError {
  constructor() {
    super("The client went away", { extensions: { code: ErrorCode.CLIENT_GONE } });
  }
}

export class UnauthenticatedError extends GraphQLError {
  constructor(reason: string) {
    super(`Unauthenticated: ${reason}`, { extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } } });
  }
}

/**
 * Any error that is not a deliberate GraphQLError is masked: its message may hold internals,
 * or worse, content. The original is logged by the caller of formatError.
 */
export function maskError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const original = unwrapResolverError(error);
  if (original instanceof GraphQLError || formatted.extensions?.code !== ErrorCode.INTERNAL_SERVER_ERROR) {
    return formatted;
  }
  return { message: "Internal server error", locations: formatted.locations, path: formatted.path, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR } };
}
