/**
 * One typed request without Apollo Client: POST a generated document, get its typed data. For
 * pages and scripts that need no cache (the ledger page bundle: 14 KB gzipped with it, 65 KB with Apollo Client).
 */
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { MemgateRequestError } from "./errors";

export interface MemgateRequestOptions {
  /** The gateway's GraphQL endpoint ("/graphql" from a page the gateway serves). */
  url: string;
  token: string;
  fetch?: typeof fetch;
  /** How many times a request the gateway refused for load (429, nothing done) is sent again after its Retry-After; default 2. */
  retries?: number;
  /** The longest wait for one Retry-After, in ms (default 5,000): a page does not hang for a minute. */
  maxRetryWaitMs?: number;
  /** How to wait (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function request<TData, TVariables>(
  options: MemgateRequestOptions,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<TData> {
  let response: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await (options.fetch ?? fetch)(options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/graphql-response+json, application/json",
          authorization: `Bearer ${options.token}`,
        },
        body: JSON.stringify({ query: print(document), variables }),
      });
    } catch (error) {
      throw new MemgateRequestError("the gateway could not be reached", "NETWORK", { cause: error });
    }
    // A 429 means the gateway admitted nothing (rate or fair share, SG-LOAD): sending it again after Retry-After is safe.
    if (response.status !== 429 || attempt >= (options.retries ?? 2)) break;
    const seconds = Number(response.headers.get("retry-after"));
    await (options.sleep ?? wait)(Math.min((Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000, options.maxRetryWaitMs ?? 5_000));
  }
  const body = (await response.json().catch(() => ({}))) as { data?: TData | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  if (body.errors?.length) throw MemgateRequestError.fromGraphQLErrors(body.errors);
  if (!body.data)
    throw new MemgateRequestError(`unexpected answer from the gateway (HTTP ${response.status})`, response.ok ? "NO_DATA" : `HTTP_${response.status}`);
  return body.data;
}
