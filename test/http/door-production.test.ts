import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ensureDevKeyPair } from "../../src/auth/dev-keys";
import { ConfigError, loadConfig } from "../../src/config";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { eventCount, openSocket, rawSocketOperation, READ_DOC } from "./door-support";

const TENANT = "prod";
const READ = `mutation($d: JSON!) { memoryRequest(document: $d) }`;
const ALLOWED = "https://app.example.com";

describe("production mode (issue 12 item 4)", () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { NODE_ENV: "production", MEMGATE_CORS_ORIGINS: ALLOWED } });
    token = await gw.token({ tenant: TENANT, subjects: ["repo:acme/web"], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  it("introspection is off on HTTP and on the socket", async () => {
    const http = await gw.gql(token, "{ __schema { types { name } } }");
    expect(http.status).toBe(400);
    expect(http.errors![0].message).toMatch(/introspection/i);
    const socket = openSocket(gw, { authorization: `Bearer ${token}` });
    const ws = await socket.run("{ __schema { types { name } } }");
    await socket.dispose();
    expect(ws.errors![0].message).toMatch(/introspection/i);
  });

  it("field suggestions are off: an unknown field is named, no other is suggested", async () => {
    const http = await gw.gql(token, "{ contract { versio } }");
    expect(http.errors![0].message).toBe('Cannot query field "versio" on type "ContractInfo".');
    const socket = openSocket(gw, { authorization: `Bearer ${token}` });
    const ws = await socket.run("{ contract { versio } }");
    await socket.dispose();
    expect(ws.errors![0].message).toBe('Cannot query field "versio" on type "ContractInfo".');
  });

  it("no landing page: a browser's GET /graphql gets no HTML and nothing from a CDN", async () => {
    const res = await fetch(`${gw.url}/graphql`, { headers: { accept: "text/html" } });
    const text = await res.text();
    expect(res.headers.get("content-type")).not.toMatch(/html/);
    expect(text).not.toMatch(/cdn|apollographql\.com|<script/i);
  });

  it("development keys are refused: configuration without an issuer key fails at boot, and no development key pair is made", async () => {
    expect(() => loadConfig({ NODE_ENV: "production", MONGODB_URI: "mongodb://x" })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/refuses development keys/);
    const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-devkeys-"));
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    try {
      await expect(ensureDevKeyPair(dir, "checkpoint")).rejects.toMatchObject({ code: "CONFIG_INVALID" });
    } finally {
      process.env.NODE_ENV = saved;
    }
  });

  describe("CORS: configured origins only, off by default", () => {
    it("is off unless MEMGATE_CORS_ORIGINS names origins", () => {
      expect(loadConfig({}).door.corsOrigins).toEqual([]);
      expect(() => loadConfig({ MEMGATE_CORS_ORIGINS: "*" })).toThrow(ConfigError);
    });

    it("a configured origin gets its preflight and its answers; any other origin gets no CORS header", async () => {
      const preflight = (origin: string) =>
        fetch(`${gw.url}/graphql`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "authorization, content-type" },
        });
      const allowed = await preflight(ALLOWED);
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get("access-control-allow-origin")).toBe(ALLOWED);
      expect(allowed.headers.get("access-control-allow-headers")).toMatch(/authorization/);
      const other = await preflight("https://evil.example");
      expect(other.headers.get("access-control-allow-origin")).toBeNull();
      const answer = await fetch(`${gw.url}/graphql`, {
        method: "POST",
        headers: { origin: "https://evil.example", "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: "{ contract { version } }" }),
      });
      expect(answer.headers.get("access-control-allow-origin")).toBeNull();
    });

    it("a browser client may send the headers memgate's clients use and read Retry-After", async () => {
      const preflight = await fetch(`${gw.url}/v1/memory`, {
        method: "OPTIONS",
        headers: { origin: ALLOWED, "access-control-request-method": "POST", "access-control-request-headers": "idempotency-key, mcp-protocol-version" },
      });
      const allowedHeaders = (preflight.headers.get("access-control-allow-headers") ?? "").split(/,\s*/);
      expect(allowedHeaders).toEqual(expect.arrayContaining(["idempotency-key", "mcp-protocol-version", "mcp-session-id", "last-event-id"]));
      const answer = await fetch(`${gw.url}/graphql`, {
        method: "POST",
        headers: { origin: ALLOWED, "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: "{ contract { version } }" }),
      });
      expect((answer.headers.get("access-control-expose-headers") ?? "").split(/,\s*/)).toEqual(expect.arrayContaining(["retry-after", "x-request-id"]));
    });

    it("a page from a foreign origin cannot open a socket (CORS does not cover WebSockets)", async () => {
      const WebSocket = (await import("ws")).default;
      const code = await new Promise<number>((resolve) => {
        const socket = new WebSocket(`${gw.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", { origin: "https://evil.example" });
        socket.on("unexpected-response", (_req, res) => resolve(res.statusCode!));
        socket.on("open", () => resolve(101));
        socket.on("error", () => undefined);
      });
      expect(code).toBe(401);
    });
  });

  describe("POST /v1/memory takes JSON only", () => {
    it.each([["text/plain"], ["application/x-www-form-urlencoded"], [null]])("Content-Type %s is 415 and runs nothing", async (type) => {
      const before = await eventCount(gw, TENANT);
      const res = await fetch(`${gw.url}/v1/memory`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, ...(type ? { "content-type": type } : {}) },
        body: type === null ? new Blob([JSON.stringify(READ_DOC)]) : JSON.stringify(READ_DOC),
      });
      expect([res.status, ((await res.json()) as any).errors[0].extensions.code]).toEqual([415, "UNSUPPORTED_MEDIA_TYPE"]);
      expect(await eventCount(gw, TENANT)).toBe(before);
    });

    it("a document over the body limit is 413 SCHEMA_INVALID", async () => {
      const res = await fetch(`${gw.url}/v1/memory`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json; charset=utf-8" },
        body: JSON.stringify({ ...READ_DOC, query: "x".repeat(300 * 1024) }),
      });
      expect([res.status, ((await res.json()) as any).stop_reason]).toEqual([413, "SCHEMA_INVALID"]);
    });
  });

  it("at the default bounds, 5,000 aliases in one ~200 KB document are refused before execution on HTTP and graphql-ws, appending nothing", async () => {
    const before = await eventCount(gw, TENANT);
    const query = `mutation($d: JSON!) { ${Array.from({ length: 5000 }, (_, i) => `a${i}: memoryRequest(document: $d)`).join(" ")} }`;
    expect(query.length).toBeGreaterThan(150_000);
    const http = await gw.gql(token, query, { d: READ_DOC });
    expect([http.status, http.errors![0].extensions]).toEqual([400, { code: "DOCUMENT_LIMIT_EXCEEDED", limit: "tokens" }]);
    const ws = await rawSocketOperation(gw, { authorization: `Bearer ${token}` }, JSON.stringify({ query, variables: { d: READ_DOC } }));
    expect(ws).toMatchObject({ type: "error", payload: [{ extensions: { code: "DOCUMENT_LIMIT_EXCEEDED", limit: "tokens" } }] });
    expect(await eventCount(gw, TENANT)).toBe(before);
  });
});

describe("rate limits per tenant and principal (issue 12 item 2)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { MEMGATE_RATE_LIMIT_PER_S: "1", MEMGATE_RATE_LIMIT_BURST: "2" } });
  });
  afterAll(() => gw.stop());

  it("a token flooding refusals is held to its bucket (HTTP 429 with Retry-After, no event), while another principal of the tenant is served", async () => {
    const flooder = await gw.token({ tenant: "rate", sub: "flooder", subjects: ["repo:acme/web"], roles: ["agent"] });
    const before = await eventCount(gw, "rate");
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        fetch(`${gw.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${flooder}` },
          body: JSON.stringify({ query: READ, variables: { d: READ_DOC } }),
        }),
      ),
    );
    const limited = answers.filter((a) => a.status === 429);
    // 1 a second plus a burst of 2: at most 3 pass in the moment the 12 arrive (one more per second elapsed).
    expect(limited.length).toBeGreaterThanOrEqual(8);
    expect(Number(limited[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited[0].json()).toMatchObject({ errors: [{ extensions: { code: "RATE_LIMITED", retryAfterSeconds: expect.any(Number) } }] });
    await gw.gateway.idle();
    expect((await eventCount(gw, "rate")) - before).toBe(12 - limited.length);

    const neighbour = await gw.token({ tenant: "rate", sub: "neighbour", subjects: ["repo:acme/web"], roles: ["agent"] });
    expect((await gw.gql(neighbour, "{ contract { version } }")).status).toBe(200);
  });

  it("the same bucket holds on graphql-ws (typed RATE_LIMITED error) and POST /v1/memory (429, Retry-After)", async () => {
    const token = await gw.token({ tenant: "rate", sub: "socket-user", subjects: ["repo:acme/web"], roles: ["agent"] });
    const socket = openSocket(gw, { authorization: `Bearer ${token}` });
    const results = await Promise.all(Array.from({ length: 8 }, () => socket.run("{ contract { version } }")));
    await socket.dispose();
    const limited = results.filter((r) => r.errors?.[0].extensions?.code === "RATE_LIMITED");
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(limited[0].errors![0].extensions).toEqual({ code: "RATE_LIMITED", retryAfterSeconds: expect.any(Number) });

    // The socket's refusals were paced (src/http/admission-pacing.ts): the bucket may have refilled one token meanwhile.
    const answers = await Promise.all(
      Array.from({ length: 3 }, () =>
        fetch(`${gw.url}/v1/memory`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify(READ_DOC),
        }),
      ),
    );
    const rest = answers.find((a) => a.status === 429)!;
    expect(rest?.status).toBe(429);
    expect(Number(rest.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("and on /mcp: a flooding token gets 429 with Retry-After before its tool call runs", async () => {
    const token = await gw.token({ tenant: "rate", sub: "mcp-user", subjects: ["repo:acme/web"], roles: ["agent"] });
    const call = (id: number) =>
      fetch(`${gw.url}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/list", params: {} }),
      });
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => call(i)));
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(4);
    expect(Number(limited[0].headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await limited[0].json()).toMatchObject({ jsonrpc: "2.0", error: { message: expect.stringMatching(/^Rate limited/) } });
  });

  it("is configuration: MEMGATE_RATE_LIMIT_PER_S=0 turns it off; defaults are 100 a second with a burst of 200", () => {
    expect(loadConfig({}).door.rateLimit).toEqual({ perSecond: 100, burst: 200 });
    expect(loadConfig({ MEMGATE_RATE_LIMIT_PER_S: "0" }).door.rateLimit.perSecond).toBe(0);
  });
});
