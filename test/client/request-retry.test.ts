import { parse } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { MemgateRequestError } from "../../clients/typescript/src/errors";
import { request } from "../../clients/typescript/src/request";

/**
 * SG-LOAD: a request the gateway refused for load (429 with Retry-After: nothing was done) is
 * sent again after the wait it names, bounded; other failures are not retried. The ledger page
 * uses this client, so a reload on a busy gateway still loads its lists.
 */
const DOC = parse("query Ping { ping }") as TypedDocumentNode<{ ping: string }, Record<string, never>>;
const answer = (status: number, body: unknown, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const refused = () => answer(429, { errors: [{ message: "Rate limited", extensions: { code: "RATE_LIMITED" } }] }, { "retry-after": "2" });

describe("SG-LOAD: the typed client retries a 429 after its Retry-After", () => {
  it("waits the Retry-After (capped) and sends the request again, at most twice by default", async () => {
    const waits: number[] = [];
    const answers = [refused(), refused(), answer(200, { data: { ping: "pong" } })];
    const fetch = jest.fn(async () => answers.shift() as Response);
    const data = await request({ url: "/graphql", token: "t", fetch, sleep: async (ms) => void waits.push(ms), maxRetryWaitMs: 1_500 }, DOC, {});
    expect(data).toEqual({ ping: "pong" });
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([1_500, 1_500]);
  });

  it("gives up with the gateway's RATE_LIMITED after the retries, and never retries another failure", async () => {
    const sleep = jest.fn(async () => undefined);
    const always = jest.fn(async () => refused());
    await expect(request({ url: "/graphql", token: "t", fetch: always, sleep }, DOC, {})).rejects.toMatchObject({ code: "RATE_LIMITED" });
    expect(always).toHaveBeenCalledTimes(3);
    const unauthenticated = jest.fn(async () => answer(200, { errors: [{ message: "no", extensions: { code: "UNAUTHENTICATED" } }] }));
    await expect(request({ url: "/graphql", token: "t", fetch: unauthenticated, sleep }, DOC, {})).rejects.toBeInstanceOf(MemgateRequestError);
    expect(unauthenticated).toHaveBeenCalledTimes(1);
  });
});
