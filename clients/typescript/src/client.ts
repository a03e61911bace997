/**
 * An Apollo Client for a memgate gateway: HttpLink with the bearer token, the cache with
 * memgate's type policies. `query` and `mutate` return the typed data of a generated document
 * and turn transport and GraphQL errors (bad token, invalid document) into MemgateRequestError;
 * refusals are data, read them with `decide` / `expectSuccess` (results.ts).
 */
import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, ServerError, type OperationVariables, type TypedDocumentNode } from "@apollo/client";
import { MemgateRequestError } from "./errors";
import { memgateCacheConfig, memgateUpdate } from "./type-policies";

export interface MemgateClientOptions {
  /** The gateway's GraphQL endpoint, e.g. http://localhost:4000/graphql */
  url: string;
  /** A memgate token (npm run token); tenant and subjects come from it only (SPEC D5). */
  token: string;
  /** Another fetch (tests, older runtimes); the global one by default. */
  fetch?: typeof fetch;
}

export function createMemgateClient(options: MemgateClientOptions): ApolloClient {
  return new ApolloClient({
    link: new HttpLink({ uri: options.url, headers: { authorization: `Bearer ${options.token}` }, fetch: options.fetch }),
    cache: new InMemoryCache(memgateCacheConfig),
  });
}

/** Apollo Client's errors as a MemgateRequestError with the code a caller can act on. */
export function requestError(error: unknown): MemgateRequestError {
  if (error instanceof MemgateRequestError) return error;
  if (CombinedGraphQLErrors.is(error)) return MemgateRequestError.fromGraphQLErrors(error.errors, { cause: error });
  if (ServerError.is(error)) return new MemgateRequestError(error.message, `HTTP_${error.statusCode}`, { cause: error });
  return new MemgateRequestError(error instanceof Error ? error.message : String(error), "NETWORK", { cause: error });
}

/** Runs a generated query; `network-only` unless told otherwise (the answer is still written to the cache). */
export async function query<TData, TVariables extends OperationVariables>(
  client: ApolloClient,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
  fetchPolicy: "network-only" | "cache-first" | "no-cache" = "network-only",
): Promise<TData> {
  let data: TData | undefined;
  try {
    ({ data } = await client.query<TData, TVariables>({ query: document, variables, fetchPolicy } as ApolloClient.QueryOptions<TData, TVariables>));
  } catch (error) {
    throw requestError(error);
  }
  if (data === undefined) throw new MemgateRequestError("memgate answered without data", "NO_DATA");
  return data;
}

/**
 * Runs a generated mutation; the entities in its answer update every cached read of them, and
 * memgateUpdate evicts what it ended (a deleted memory, an approved proposal …) from cached lists.
 */
export async function mutate<TData, TVariables extends OperationVariables>(
  client: ApolloClient,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<TData> {
  let data: TData | null | undefined;
  try {
    ({ data } = await client.mutate<TData, TVariables>({ mutation: document, variables, update: memgateUpdate } as ApolloClient.MutateOptions<
      TData,
      TVariables
    >));
  } catch (error) {
    throw requestError(error);
  }
  if (data === undefined || data === null) throw new MemgateRequestError("memgate answered without data", "NO_DATA");
  return data;
}
