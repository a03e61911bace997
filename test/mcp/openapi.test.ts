import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { strictCopy } from "../../src/contracts/agent/schema-validation";
import { buildOpenApi, emittedOpenApi, OPENAPI_FILE } from "../../scripts/emit-openapi";
import { startTestGateway, type TestGateway } from "../support/gateway";

type Json = Record<string, any>;
const ROOT = path.resolve(__dirname, "..", "..");
const seed = (file: string): Json => JSON.parse(readFileSync(path.join(ROOT, "schema", "json", file), "utf8"));

/** A schema without the descriptions the generator adds (and the seed's $id, which components names instead). */
function withoutDescriptions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutDescriptions);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== "description" && k !== "title" && k !== "$id")
      .map(([k, v]) => [k, withoutDescriptions(v)]),
  );
}

/** An Ajv for the document's 2020-12 schemas (OpenAPI 3.1's dialect), with its discriminator. */
function ajvFor(document: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, discriminator: true });
  // The one format the document uses; checked as the gateway writes it (Date#toISOString).
  ajv.addFormat("date-time", (value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/.test(value));
  ajv.addSchema({ $id: "openapi", components: document.components });
  return ajv;
}

/** Every `$ref` in the document, as JSON pointers into it. */
function refs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => refs(v, found));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (k === "$ref" && typeof v === "string") found.push(v);
      else refs(v, found);
    }
  }
  return found;
}

describe("OpenAPI 3.1 for POST /v1/memory (issue 14)", () => {
  const document = buildOpenApi() as Json;
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway();
  });

  afterAll(async () => {
    await gw?.stop();
  });

  it("the checked-in schema/openapi.json is current (npm run openapi:emit)", () => {
    expect(readFileSync(OPENAPI_FILE, "utf8")).toBe(emittedOpenApi());
  });

  it("is served at /v1/openapi.json without a token, exactly as checked in", async () => {
    const res = await fetch(`${gw.url}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, "utf8")));
  });

  it("is a well-formed OpenAPI 3.1 document: required fields, resolvable $refs, 2020-12 schemas that compile", () => {
    expect(document.openapi).toMatch(/^3\.1\.\d+$/);
    expect(document.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    const post = document.paths["/v1/memory"].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["200", "400", "401"]));
    for (const ref of refs(document)) {
      expect(ref).toMatch(/^#\/components\/schemas\/[A-Za-z]+$/);
      expect(document.components.schemas[ref.split("/").pop()!]).toBeDefined();
    }
    const ajv = ajvFor(document);
    for (const name of Object.keys(document.components.schemas)) expect(() => ajv.getSchema(`openapi#/components/schemas/${name}`)).not.toThrow();
  });

  it("its request schemas are the seed-001 JSON Schemas, unchanged but for the descriptions added and strictness (IF1-VALID, issue 22 §7)", () => {
    const schemas = document.components.schemas;
    // The door refuses fields a schema does not list: additionalProperties false on every object that lists its properties.
    expect(withoutDescriptions(schemas.MemoryReadRequest)).toEqual(withoutDescriptions(strictCopy(seed("memory.read.request.json"))));
    expect(withoutDescriptions(schemas.MemoryWriteRequest)).toEqual(withoutDescriptions(strictCopy(seed("memory.write.request.json"))));
    expect(withoutDescriptions(schemas.MemoryUpdateRequest)).toEqual(withoutDescriptions(strictCopy(seed("memory.update.request.json"))));
    expect(schemas.MemoryWriteRequest.properties.memory.additionalProperties).toBe(false);
    // Every property of every request schema says what it is.
    const undescribed: string[] = [];
    const walk = (schema: Json, at: string) => {
      if (!schema.description) undescribed.push(at);
      for (const [key, child] of Object.entries((schema.properties ?? {}) as Record<string, Json>)) walk(child, `${at}/${key}`);
    };
    for (const name of ["MemoryReadRequest", "MemoryWriteRequest", "MemoryUpdateRequest"]) walk(schemas[name], name);
    expect(undescribed).toEqual([]);
  });

  it("describes what the gateway really answers: live answers of POST /v1/memory validate against MemoryResponse", async () => {
    const ajv = ajvFor(document);
    const request = ajv.getSchema("openapi#/components/schemas/MemoryWriteRequest")!;
    const response = ajv.getSchema("openapi#/components/schemas/MemoryResponse")!;
    const token = await gw.token({ tenant: "acme", subjects: ["repo:acme/web"], roles: ["agent"] });
    const post = async (body: unknown): Promise<Json> =>
      (
        await fetch(`${gw.url}/v1/memory`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
      ).json() as Json;

    const write = { op: "write", repo_id: "acme/web", memory: { text: "deploys run from main", scope: "repo", kind: "fact", confidence: 0.8 } };
    expect(request(write)).toBe(true);
    const answers = [
      await post(write),
      await post({ op: "read", repo_id: "acme/web", mode: "targeted", query: "deploys" }),
      await post({ op: "write", repo_id: "acme/web", memory: { text: "", scope: "everywhere" } }),
      await post({ op: "nonsense" }),
    ];
    expect(answers.map((a) => a.stop_reason)).toEqual(["SUCCESS_STORED", "SUCCESS_READ", "SCHEMA_INVALID", "SCHEMA_INVALID"]);
    for (const answer of answers) expect({ answer, errors: response(answer) ? null : response.errors }).toEqual({ answer, errors: null });
  });
});

/**
 * The document declares every status POST /v1/memory answers (issue 24 item 6): each transport
 * answer, provoked live, has its status declared, and its body validates against that status's
 * declared schema; a 429 carries the declared Retry-After.
 */
describe("OpenAPI declares every status POST /v1/memory answers", () => {
  const document = buildOpenApi() as Json;
  const responses = document.paths["/v1/memory"].post.responses as Record<string, Json>;
  let gw: TestGateway;

  beforeAll(async () => {
    // A bucket of one request per principal, refilled once a second: of three at once, some are answered 429.
    gw = await startTestGateway({ env: { MEMGATE_RATE_LIMIT_PER_S: "1", MEMGATE_RATE_LIMIT_BURST: "1" } });
  });
  afterAll(() => gw?.stop());

  it("400, 401, 413, 415 and 429 (with Retry-After) are declared, and each live answer validates against its declared schema", async () => {
    const ajv = ajvFor(document);
    const validate = (status: number, body: unknown) => {
      const declared = responses[String(status)];
      expect({ status, declared: declared !== undefined }).toEqual({ status, declared: true });
      // The declared schema, its $refs pointing into the document ajvFor registered as "openapi".
      const check = ajv.compile(JSON.parse(JSON.stringify(declared.content["application/json"].schema).replaceAll('"#/components/', '"openapi#/components/')));
      expect({ status, body, errors: check(body) ? null : check.errors }).toEqual({ status, body, errors: null });
    };
    const post = (init: { token?: string | null; type?: string; body: string }) =>
      fetch(`${gw.url}/v1/memory`, {
        method: "POST",
        headers: { "content-type": init.type ?? "application/json", ...(init.token ? { authorization: `Bearer ${init.token}` } : {}) },
        body: init.body,
      });
    const token = (sub: string) => gw.token({ tenant: "acme", subjects: ["repo:acme/web"], roles: ["agent"], sub });

    const unauthenticated = await post({ token: null, body: "{}" });
    expect(unauthenticated.status).toBe(401);
    validate(401, await unauthenticated.json());
    const wrongType = await post({ token: await token("a"), type: "text/plain", body: "hello" });
    expect(wrongType.status).toBe(415);
    validate(415, await wrongType.json());

    const tooLarge = await post({ token: await token("b"), body: JSON.stringify({ op: "write", text: "x".repeat(2_000_000) }) });
    expect(tooLarge.status).toBe(413);
    validate(413, await tooLarge.json());
    const notJson = await post({ token: await token("c"), body: "{not json" });
    expect(notJson.status).toBe(400);
    validate(400, await notJson.json());

    const burst = await token("d");
    const answers = await Promise.all([1, 2, 3].map(() => post({ token: burst, body: "{}" })));
    const limited = answers.find((answer) => answer.status === 429)!;
    expect(limited).toBeDefined();
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(responses["429"].headers["Retry-After"]).toMatchObject({ required: true });
    validate(429, await limited.json());
  });
});
