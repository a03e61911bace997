import { generateKeyPairSync } from "node:crypto";
import http from "node:http";
import { SignJWT } from "jose";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { TEST_AUDIENCE, TEST_ISSUER } from "../support/tokens";
import { eventCount, openSocket, READ_DOC } from "./door-support";

const keys = generateKeyPairSync("ed25519");
const PUBLIC_KEY = keys.publicKey.export({ type: "spki", format: "pem" }).toString();
const READ = `mutation($d: JSON!) { memoryRequest(document: $d) }`;
const EVENTS = `subscription { memoryEvents(afterSeq: 0) { seq eventType } }`;

interface Minted {
  claims?: Record<string, unknown>;
  /** Seconds from the session clock's now. */
  iat?: number;
  exp?: number;
  typ?: string | null;
}

/** A token signed by a key the gateway trusts, its times set against the injected session clock. */
function minter(clock: ManualClock) {
  return ({ claims = {}, iat = 0, exp = 3600, typ = "JWT" }: Minted = {}) => {
    const now = Math.floor(clock.now().getTime() / 1000);
    return new SignJWT({ tenant: "ses", subjects: ["repo:acme/web"], roles: ["agent"], ...claims })
      .setProtectedHeader(typ === null ? { alg: "EdDSA" } : { alg: "EdDSA", typ })
      .setSubject((claims.sub as string) ?? "caller-1")
      .setIssuer(TEST_ISSUER)
      .setAudience(TEST_AUDIENCE)
      .setIssuedAt(now + iat)
      .setExpirationTime(now + exp)
      .sign(keys.privateKey);
  };
}

describe("sessions that end (issue 12 item 3)", () => {
  const clock = new ManualClock(new Date());
  const mint = minter(clock);
  let swept: TestGateway;
  let unswept: TestGateway;
  beforeAll(async () => {
    const env = { JWT_PUBLIC_KEY: PUBLIC_KEY, MEMGATE_AUDIT_POLL_MS: "20" };
    swept = await startTestGateway({ sessionClock: clock, env: { ...env, MEMGATE_SESSION_CHECK_MS: "20" } });
    // Never swept during a test: what closes its sockets is the check every operation and result makes.
    unswept = await startTestGateway({ sessionClock: clock, env: { ...env, MEMGATE_SESSION_CHECK_MS: "60000" } });
  });
  afterAll(async () => {
    await swept.stop();
    await unswept.stop();
  });
  afterEach(() => clock.set(new Date()));

  it("a socket is closed with 4401 when its token expires, and its subscription ends with it", async () => {
    const socket = openSocket(swept, { authorization: `Bearer ${await mint({ claims: { roles: ["auditor"], subjects: [] }, exp: 120 })}` });
    const seen: number[] = [];
    let ended!: (why: unknown) => void;
    const end = new Promise((resolve) => (ended = resolve));
    socket.client.subscribe(
      { query: EVENTS },
      { next: (r) => seen.push((r.data as { memoryEvents: { seq: number } }).memoryEvents.seq), error: ended, complete: () => ended("complete") },
    );
    await swept.gql(await mint(), READ, { d: READ_DOC }); // a refusal: one event the subscriber receives
    while (seen.length === 0) await (await fetch(`${swept.url}/healthz`)).arrayBuffer();
    clock.advance(121_000);
    expect(await socket.closed).toBe(4401);
    expect(await end).toMatchObject({ code: 4401 });
    await socket.dispose();
  });

  it("every operation on a socket re-checks expiry: after exp, the next mutation closes the socket (4401) and runs nothing", async () => {
    const socket = openSocket(unswept, { authorization: `Bearer ${await mint({ exp: 60 })}` });
    expect((await socket.run("{ contract { version } }")).data).toEqual({ contract: { version: "19.1.0" } });
    const before = await eventCount(unswept, "ses");
    clock.advance(61_000);
    expect(await socket.run(READ, { d: READ_DOC })).toEqual({ closedWith: 4401 });
    expect(await socket.closed).toBe(4401);
    expect(await eventCount(unswept, "ses")).toBe(before);
    await socket.dispose();
  });

  it("a subscription delivers nothing after its token's exp: the result closes the socket (4401) instead", async () => {
    const socket = openSocket(unswept, { authorization: `Bearer ${await mint({ claims: { roles: ["auditor"], subjects: [] }, exp: 60 })}` });
    const seen: number[] = [];
    socket.client.subscribe(
      { query: EVENTS },
      { next: (r) => seen.push((r.data as { memoryEvents: { seq: number } }).memoryEvents.seq), error: () => undefined, complete: () => undefined },
    );
    await unswept.gql(await mint(), READ, { d: READ_DOC });
    while (seen.length === 0) await (await fetch(`${unswept.url}/healthz`)).arrayBuffer();
    const delivered = seen.length;
    clock.advance(61_000);
    await unswept.gql(await mint(), READ, { d: READ_DOC }); // a new event, after the subscriber's token expired
    expect(await socket.closed).toBe(4401);
    expect(seen).toHaveLength(delivered);
    await socket.dispose();
  });

  describe("tokens (RFC 8725): refused on HTTP (401) and in the socket handshake (4403)", () => {
    const refused: [string, () => Promise<string>, RegExp][] = [
      ["a lifetime over 24 h", () => mint({ exp: 24 * 3600 + 1 }), /lifetime/],
      ["exp a hundred years out", () => mint({ exp: 100 * 365 * 86400 }), /lifetime/],
      ["iat an hour in the future", () => mint({ iat: 3600, exp: 7200 }), /"iat" is in the future/],
      ["no typ", () => mint({ typ: null }), /"typ"/],
      ["a typ other than JWT or at+jwt", () => mint({ typ: "dpop+jwt" }), /"typ"/],
      ["a job.id of 257 characters", () => mint({ claims: { roles: ["job"], job: { id: "j".repeat(257), kind: "decay" } } }), /claim "job"/],
      ["a job.kind that is not a string", () => mint({ claims: { roles: ["job"], job: { id: "j1", kind: 7 } } }), /claim "job"/],
      ["a subject of 257 characters", () => mint({ claims: { subjects: ["s".repeat(257)] } }), /claim "subjects"/],
      ["an expired token", () => mint({ iat: -120, exp: -1 }), /token expired/],
    ];
    it.each(refused)("%s", async (_name, make, reason) => {
      const token = await make();
      const res = await unswept.gql(token, "{ contract { version } }");
      expect(res.status).toBe(401);
      expect(res.errors![0]).toMatchObject({ extensions: { code: "UNAUTHENTICATED" }, message: expect.stringMatching(reason) });
      const socket = openSocket(unswept, { authorization: `Bearer ${token}` });
      expect(await socket.closed).toBe(4403);
      await socket.dispose();
    });

    const accepted: [string, () => Promise<string>][] = [
      ["a lifetime of exactly 24 h", () => mint({ exp: 24 * 3600 })],
      ["iat 30 s ahead (within the 60 s skew)", () => mint({ iat: 30, exp: 3600 })],
      ["typ at+jwt (RFC 9068)", () => mint({ typ: "at+jwt" })],
      ["typ application/at+jwt", () => mint({ typ: "application/at+jwt" })],
    ];
    it.each(accepted)("accepted: %s", async (_name, make) => {
      expect((await unswept.gql(await make(), "{ contract { version } }")).status).toBe(200);
    });

    it("the lifetime bound is configuration (MEMGATE_TOKEN_MAX_LIFETIME_S)", async () => {
      const short = await startTestGateway({ sessionClock: clock, env: { JWT_PUBLIC_KEY: PUBLIC_KEY, MEMGATE_TOKEN_MAX_LIFETIME_S: "600" } });
      try {
        expect((await short.gql(await mint({ exp: 600 }), "{ contract { version } }")).status).toBe(200);
        expect((await short.gql(await mint({ exp: 601 }), "{ contract { version } }")).status).toBe(401);
      } finally {
        await short.stop();
      }
    });
  });

  describe("the Authorization header", () => {
    /** A raw HTTP request: fetch would merge repeated headers into one. */
    const raw = (path: string, headers: string[], body?: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const url = new URL(path, unswept.url);
        const method = body === undefined ? "GET" : "POST";
        const req = http.request(
          { host: url.hostname, port: url.port, path: url.pathname, method, headers: [...headers, "host", url.host, "content-type", "application/json"] },
          (res) => {
            let text = "";
            res.on("data", (chunk) => (text += chunk));
            res.on("end", () => {
              try {
                resolve({ status: res.statusCode!, body: JSON.parse(text) });
              } catch {
                reject(new Error(`not JSON (${res.statusCode}): ${text.slice(0, 200)}`));
              }
            });
          },
        );
        req.on("error", reject);
        req.end(body);
      });

    it.each(["/graphql", "/v1/memory", "/audit/export.ndjson"])(
      "two Authorization headers (genuine, then garbage) are refused on %s (401) and run nothing",
      async (path) => {
        const before = await eventCount(unswept, "ses");
        const body = { "/graphql": JSON.stringify({ query: READ, variables: { d: READ_DOC } }), "/v1/memory": JSON.stringify(READ_DOC) }[path];
        const res = await raw(path, ["Authorization", `Bearer ${await mint()}`, "authorization", "Bearer garbage"], body);
        expect(res.status).toBe(401);
        expect(res.body.errors[0]).toEqual({ message: "Unauthenticated: more than one Authorization header", extensions: { code: "UNAUTHENTICATED" } });
        expect(await eventCount(unswept, "ses")).toBe(before);
      },
    );

    it("one Authorization header, in any case, is accepted", async () => {
      const res = await raw("/graphql", ["AUTHORIZATION", `Bearer ${await mint()}`], JSON.stringify({ query: "{ contract { version } }" }));
      expect([res.status, res.body.data]).toEqual([200, { contract: { version: "19.1.0" } }]);
    });

    it("on the socket the parameter name is matched case-insensitively, and two spellings of it are refused (4403)", async () => {
      const token = `Bearer ${await mint()}`;
      for (const name of ["Authorization", "AUTHORIZATION"]) {
        const socket = openSocket(unswept, { [name]: token });
        expect((await socket.run("{ contract { version } }")).data).toEqual({ contract: { version: "19.1.0" } });
        await socket.dispose();
      }
      const doubled = openSocket(unswept, { authorization: token, Authorization: "Bearer garbage" });
      expect(await doubled.closed).toBe(4403);
      await doubled.dispose();
    });
  });
});
