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
}

export async function request<TData, TVariables>(
  options: MemgateRequestOptions,
  document: TypedDocumentNode<TData, TVariables>,
  variables: TVariables,
): Promise<TData> {
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(options.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/graphql-response+json, application/json", authorization: `Bearer ${options.token}` },
      body: JSON.stringify({ query: print(document), variables }),
    });
  } catch (error) {
    throw new MemgateRequestError("the gateway could not be reached", "NETWORK", { cause: error });
  }
  const body = (await response.json().catch(() => ({}))) as { data?: TData | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  if (body.errors?.length) throw MemgateRequestError.fromGraphQLErrors(body.errors);
  if (!body.data)
    throw new MemgateRequestError(`unexpected answer from the gateway (HTTP ${response.status})`, response.ok ? "NO_DATA" : `HTTP_${response.status}`);
  return body.data;
}
