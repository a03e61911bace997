import { loadConfig } from "../../src/config";
import type { Detector } from "../../src/detectors/detector";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { deepJsonText, eventCount, openSocket, rawSocketOperation, READ_DOC } from "./door-support";

const TENANT = "lim";
const READ = `mutation($d: JSON!) { memoryRequest(document: $d) }`;
const aliases = (n: number) => `mutation($d: JSON!) { ${Array.from({ length: n }, (_, i) => `a${i}: memoryRequest(document: $d)`).join(" ")} }`;
const deepType = (levels: number) => `{ __type(name: "Query") { ${"fields { type { ".repeat(levels)}name${" } }".repeat(levels)} } }`;

/** Holds the first operation whose text carries HOLDMARK until released (a client can leave while it runs); counts AFTERMARK operations. */
function holdingDetector() {
  let entered!: () => void;
  let release!: () => void;
  const state = {
    afterRuns: 0,
    entered: new Promise<void>((resolve) => (entered = resolve)),
    released: new Promise<void>((resolve) => (release = resolve)),
    release: () => release(),
    detector: {
      name: "test-hold",
      async detect(_field: string, text: string) {
        if (text.includes("AFTERMARK")) state.afterRuns++;
        if (text.includes("HOLDMARK")) {
          entered();
          await state.released;
        }
        return [];
      },
    } satisfies Detector,
  };
  return state;
}

describe("bounded documents on every transport (issue 12 item 1)", () => {
  let hold = holdingDetector();
  const detector: Detector = { name: "test-hold", detect: (field, text) => hold.detector.detect(field, text) };
  let gw: TestGateway;
  let token: string;
  let eventsPerRead = 0;

  /**
   * After the client went and the held read was released: the held read finishes (its refusal is
   * logged), and the operation after it never starts. Mutations run one after another, so the next
   * would start at once: a few more requests put it behind us before counting.
   */
  const onlyTheHeldReadRan = async (before: number) => {
    for (let i = 0; i < 500 && (await eventCount(gw, TENANT)) === before; i++) await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
    for (let i = 0; i < 20; i++) await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
    await gw.gateway.idle();
    expect((await eventCount(gw, TENANT)) - before).toBe(eventsPerRead);
    expect(hold.afterRuns).toBe(0);
  };
  beforeAll(async () => {
    gw = await startTestGateway({
      env: {
        MEMGATE_GRAPHQL_MAX_ALIASES: "3",
        MEMGATE_GRAPHQL_MAX_DEPTH: "4",
        MEMGATE_GRAPHQL_MAX_COST: "60",
        MEMGATE_GRAPHQL_MAX_DIRECTIVES: "3",
        MEMGATE_GRAPHQL_MAX_TOKENS: "300",
        MEMGATE_BODY_LIMIT_BYTES: "16384",
      },
      extraDetectors: [detector],
    });
    token = await gw.token({ tenant: TENANT, subjects: ["repo:acme/web"], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  it("defaults are graphql-armor's: depth 6, 15 aliases, 1,000 tokens, 50 directives, cost 5,000; the WebSocket message limit is the body limit", () => {
    expect(loadConfig({}).door).toMatchObject({
      bodyLimitBytes: 256 * 1024,
      document: { maxDepth: 6, maxAliases: 15, maxTokens: 1000, maxDirectives: 50, maxCost: 5000 },
    });
  });

  it("a document within the bounds runs, and each read appends to the chain", async () => {
    const before = await eventCount(gw, TENANT);
    const res = await gw.gql(token, aliases(3), { d: READ_DOC });
    expect(res.errors).toBeUndefined();
    expect(res.data!.a0.stop_reason).toBeDefined();
    eventsPerRead = ((await eventCount(gw, TENANT)) - before) / 3;
    expect(eventsPerRead).toBeGreaterThanOrEqual(1);
  });

  const attacks: [string, string, Record<string, unknown>, string][] = [
    ["aliases", aliases(4), { d: READ_DOC }, "aliases"],
    ["tokens", `{ ${"__typename ".repeat(400)}}`, {}, "tokens"],
    ["depth", deepType(3), {}, "depth"],
    [
      "directives",
      `mutation($d: JSON!) { memoryRequest(document: $d) @include(if: true) @include(if: true) @skip(if: false) @skip(if: false) }`,
      { d: READ_DOC },
      "directives",
    ],
    [
      "cost",
      `{ ${Array.from({ length: 3 }, (_, i) => `t${i}: __type(name: "Query") { fields { name description type { name kind } args { name description } } }`).join(" ")} }`,
      {},
      "cost",
    ],
  ];

  it.each(attacks)(
    "over HTTP, a document over the %s bound is refused before execution (DOCUMENT_LIMIT_EXCEEDED, 400) and appends no event",
    async (_name, query, variables, limit) => {
      const before = await eventCount(gw, TENANT);
      const res = await gw.gql(token, query, variables);
      expect(res.status).toBe(400);
      expect(res.data).toBeUndefined();
      expect(res.errors!.map((e) => e.extensions)).toContainEqual(expect.objectContaining({ code: "DOCUMENT_LIMIT_EXCEEDED", limit }));
      expect(await eventCount(gw, TENANT)).toBe(before);
    },
  );

  it.each(attacks)("over graphql-ws, a document over the %s bound gets the same typed error and appends no event", async (_name, query, variables, limit) => {
    const socket = openSocket(gw, { authorization: `Bearer ${token}` });
    try {
      const before = await eventCount(gw, TENANT);
      const res = await socket.run(query, variables);
      expect(res.data).toBeUndefined();
      expect(res.errors!.map((e) => e.extensions)).toContainEqual(expect.objectContaining({ code: "DOCUMENT_LIMIT_EXCEEDED", limit }));
      expect(await eventCount(gw, TENANT)).toBe(before);
    } finally {
      await socket.dispose();
    }
  });

  it("a WebSocket message larger than the HTTP body limit closes the socket (1009) and runs nothing; the same body over HTTP is 413", async () => {
    const big = `{ contract { version } } # ${"x".repeat(17000)}`;
    const socket = openSocket(gw, { authorization: `Bearer ${token}` });
    const res = await socket.run(big);
    expect(res.closedWith).toBe(1009);
    expect(await socket.closed).toBe(1009);
    expect((await gw.gql(token, big)).status).toBe(413);
  });

  it("IF1-VALID: a JSON scalar nested 50,000 deep answers SCHEMA_INVALID on HTTP and graphql-ws with no event, and on POST /v1/memory as the policy's refusal with its event", async () => {
    const before = await eventCount(gw, TENANT);
    const post = (path: string, body: string) =>
      fetch(`${gw.url}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${token}` }, body });
    // 50,000 levels are 100 KB of JSON text: within the default 256 KiB body limit (this gateway's is 16 KiB, hence 5,000 here).
    const http = await post("/graphql", `{"query":${JSON.stringify(READ)},"variables":{"d":${deepJsonText(5_000)}}}`);
    expect([http.status, await http.json()]).toEqual([
      400,
      { errors: [{ message: "Request JSON is nested deeper than 64 levels", extensions: { code: "SCHEMA_INVALID" } }] },
    ]);

    const ws = await rawSocketOperation(gw, { authorization: `Bearer ${token}` }, `{"query":${JSON.stringify(READ)},"variables":{"d":${deepJsonText(5_000)}}}`);
    expect(ws).toEqual({
      id: "1",
      type: "error",
      payload: [{ message: "Request JSON is nested deeper than 64 levels", extensions: { code: "SCHEMA_INVALID" } }],
    });

    // POST /v1/memory: the policy answers the refusal (IF1-VALID at the root), with its refuse event.
    const rest = await post("/v1/memory", `{"op":"read","repo_id":"other/repo","mode":"targeted","query":${deepJsonText(5_000)}}`);
    const answer = (await rest.json()) as { stop_reason: string; errors: { pointer: string; message: string }[] };
    expect([rest.status, answer.stop_reason]).toEqual([400, "SCHEMA_INVALID"]);
    expect(answer.errors).toContainEqual({ pointer: "", message: "the document is nested deeper than 64 levels" });
    expect(await eventCount(gw, TENANT)).toBe(before + 1);
  });

  it("when the socket closes mid-document, the operations not yet started never run", async () => {
    const socket = openSocket(gw, { authorization: `Bearer ${token}` });
    const held = { ...READ_DOC, query: "HOLDMARK connection pool" };
    const after = { ...READ_DOC, query: "AFTERMARK connection pool" };
    const answer = socket.run(
      `mutation($h: JSON!, $a: JSON!) { first: memoryRequest(document: $h) second: memoryRequest(document: $a) third: memoryRequest(document: $a) }`,
      { h: held, a: after },
    );
    await hold.entered; // the first mutation is inside the kernel
    const before = await eventCount(gw, TENANT);
    await socket.dispose();
    expect((await answer).data).toBeUndefined();
    // The client saw the closing handshake end; one more request puts the server's own close handling behind us.
    await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
    hold.release();
    await onlyTheHeldReadRan(before);
  });

  it("when an HTTP client drops its request mid-document, the operations not yet started never run", async () => {
    hold = holdingDetector();
    const held = { ...READ_DOC, query: "HOLDMARK connection pool" };
    const after = { ...READ_DOC, query: "AFTERMARK connection pool" };
    const abort = new AbortController();
    const request = fetch(`${gw.url}/graphql`, {
      method: "POST",
      signal: abort.signal,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({
        query: `mutation($h: JSON!, $a: JSON!) { first: memoryRequest(document: $h) second: memoryRequest(document: $a) }`,
        variables: { h: held, a: after },
      }),
    });
    await hold.entered;
    const before = await eventCount(gw, TENANT);
    abort.abort();
    await expect(request).rejects.toThrow();
    await (await fetch(`${gw.url}/healthz`)).arrayBuffer();
    hold.release();
    await onlyTheHeldReadRan(before);
  });
});
