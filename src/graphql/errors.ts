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
}

export class UnauthenticatedError extends GraphQLError {
  constructor(reason: string) {
    super(`Unauthenticated: ${reason}`, { extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } } });
  }
}

export class ForbiddenError extends GraphQLError {
  constructor(message: string) {
    super(message, { extensions: { code: ErrorCode.FORBIDDEN } });
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
