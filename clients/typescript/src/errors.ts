/** The request itself failed: a GraphQL error (UNAUTHENTICATED, GRAPHQL_VALIDATION_FAILED …), HTTP or the network. */
export class MemgateRequestError extends Error {
  constructor(
    message: string,
    /** extensions.code of the first GraphQL error, HTTP_<status>, NETWORK or NO_DATA */
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  static fromGraphQLErrors(errors: readonly { message: string; extensions?: Record<string, unknown> }[], options?: { cause?: unknown }): MemgateRequestError {
    const first = errors[0];
    const code = typeof first?.extensions?.code === "string" ? first.extensions.code : "GRAPHQL_ERROR";
    return new MemgateRequestError(first?.message ?? "GraphQL error", code, options);
  }
}
