import { startTestGateway, type TestGateway } from "../support/gateway";
import { signToken } from "../support/tokens";
import { generateKeyPairSync } from "node:crypto";

const CONTRACT = "{ contract { version } }";

describe("the HTTP edge", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.stop());

  it("/healthz answers while the process is up; /readyz reports database and policy", async () => {
    const health = await fetch(`${gw.url}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }]);
    const ready = await fetch(`${gw.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: "ready", database: "ok", policy: { contractVersion: "19.1.0" } });
  });

  describe("D5 authentication: every GraphQL request needs a verified token", () => {
    const cases: [string, () => Promise<string | null>, RegExp][] = [
      ["no token", async () => null, /no bearer token/],
      ["an empty Bearer", async () => "", /no bearer token/],
      ["a malformed token", async () => "not.a.jwt", /invalid token/],
      ["an expired token", () => signToken({}, { expiresIn: Math.floor(Date.now() / 1000) - 60 }), /token expired/],
      ["a wrong issuer", () => signToken({}, { issuer: "someone-else" }), /invalid token/],
      ["a wrong audience", () => signToken({}, { audience: "another-api" }), /invalid token/],
      ["a key memgate does not trust", () => signToken({}, { key: generateKeyPairSync("ed25519").privateKey }), /invalid token/],
      ["no tenant claim", () => signToken({ tenant: undefined as unknown as string }), /claim "tenant"/],
      ["an unknown role", () => signToken({ roles: ["root"] }), /claim "roles"/],
      ["subjects that are not strings", () => signToken({ subjects: [42] as unknown as string[] }), /claim "subjects"/],
    ];
    it.each(cases)("%s answers UNAUTHENTICATED (HTTP 401) and no data", async (_name, makeToken, message) => {
      const token = await makeToken();
      const response = await fetch(`${gw.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token !== null ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query: CONTRACT }),
      });
      const body = (await response.json()) as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
      expect(response.status).toBe(401);
      expect(body.data).toBeUndefined();
      expect(body.errors[0].extensions).toEqual({ code: "UNAUTHENTICATED" });
      expect(body.errors[0].message).toMatch(message);
    });
  });

  it("a malformed JSON body gets a typed JSON error, not an HTML page", async () => {
    const response = await fetch(`${gw.url}/graphql`, { method: "POST", headers: { "content-type": "application/json" }, body: "{bad" });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message: "Bad request: entity.parse.failed", extensions: { code: "BAD_REQUEST" } }] });
  });

  it("a malformed GraphQL document is a GraphQL error with a code and no stack trace", async () => {
    const res = await gw.gql(await gw.token(), "{ contract { nope } }");
    expect(res.status).toBe(400);
    expect(res.errors![0].extensions).toEqual({ code: "GRAPHQL_VALIDATION_FAILED" });
  });

  it("echoes a sane X-Request-Id and replaces an unsafe one", async () => {
    const mine = await fetch(`${gw.url}/healthz`, { headers: { "x-request-id": "req-123" } });
    expect(mine.headers.get("x-request-id")).toBe("req-123");
    const unsafe = await fetch(`${gw.url}/healthz`, { headers: { "x-request-id": "<script>" } });
    expect(unsafe.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("unknown routes answer a JSON 404", async () => {
    const response = await fetch(`${gw.url}/nope`);
    expect([response.status, await response.json()]).toEqual([404, { error: { code: "NOT_FOUND", message: "no such route" } }]);
  });
});
