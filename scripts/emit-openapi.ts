/**
 * Writes the OpenAPI 3.1 description of POST /v1/memory to schema/openapi.json (checked in,
 * served at /v1/openapi.json; a test fails when it is stale). The request bodies are the seed-001
 * JSON Schemas (schema/json/) unchanged but for the descriptions added here, keyed by JSON pointer,
 * and `additionalProperties: false` on every object that lists its properties (as the door validates).
 */
import "reflect-metadata";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../src/config";
import { strictCopy } from "../src/contracts/agent/schema-validation";
import { CONTRACT_DEFINITIONS } from "../src/contracts";
import { doorNames, jsonSchemaOf, snakeName, vocabularyAt, type OperationDeclaration } from "../src/kernel/declaration";
import { DECISION_STAMP_PROPERTIES, DECISION_STAMP_REQUIRED } from "../src/kernel/outcome";

export const OPENAPI_FILE = path.join(projectRoot, "schema", "openapi.json");

type JsonObject = Record<string, unknown>;

const SEED_SCHEMAS = [
  { file: "memory.read.request.json", name: "MemoryReadRequest" },
  { file: "memory.write.request.json", name: "MemoryWriteRequest" },
  { file: "memory.update.request.json", name: "MemoryUpdateRequest" },
] as const;

const KINDS = "problem | solution | failed_tactic | fact | preference | change";

/** Descriptions for the seed schemas, by schema name and JSON pointer into it ("" = the schema itself). */
const DESCRIPTIONS: Record<string, Record<string, string>> = {
  MemoryReadRequest: {
    "": "memory.read.request (seed 001): retrieval only. Ranked by text match, truth and utility, with link expansion (IF1-READ, IF1-EXPAND).",
    "/properties/op": 'Names the operation: "read".',
    "/properties/repo_id": "The repository whose memories are read (with the tenant's global memories unless include_global is false).",
    "/properties/mode": "ambient: what is worth knowing about the repository now; targeted: answers to the query.",
    "/properties/query": "What to look for. Never logged.",
    "/properties/include_global": "Also read the tenant's global-scope memories.",
    "/properties/kinds": `Only these kinds (${KINDS}).`,
    "/properties/limit": "How many direct hits at most.",
    "/properties/expand": "Link expansion from the direct hits.",
    "/properties/expand/properties/semantic_hops": "How many related-memory links to follow.",
    "/properties/expand/properties/include_problem_links": "Follow solution/failed_tactic links to their problem.",
    "/properties/expand/properties/include_update_links": "Include the change memories that invalidated a hit.",
  },
  MemoryWriteRequest: {
    "": 'memory.write.request (seed 001): creates an immutable memory. "X changed and invalidates Y" is a write with kind "change" and links.change_targets (IF1-WRITE, IF1-CHANGE).',
    "/properties/op": 'Names the operation: "write".',
    "/properties/repo_id": "The repository the memory belongs to.",
    "/properties/memory": "The memory to write.",
    "/properties/memory/properties/text": "The memory itself. Forbidden categories of content and injection attempts are refused.",
    "/properties/memory/properties/scope": "repo: this repository only; global: every repository of the tenant.",
    "/properties/memory/properties/kind": `One of ${KINDS}.`,
    "/properties/memory/properties/confidence": "How sure the writer is, 0..1.",
    "/properties/memory/properties/rationale": "Why the memory holds.",
    "/properties/memory/properties/links": "Links to other memories of the same tenant.",
    "/properties/memory/properties/links/properties/problem_id": "The problem a solution or failed tactic is about.",
    "/properties/memory/properties/links/properties/related_memory_ids": "Related memories (followed by semantic_hops).",
    "/properties/memory/properties/links/properties/change_targets": "kind change: the memories this change invalidates.",
    "/properties/memory/properties/evidence_refs": "Structure ids of the evidence (commits, files, tickets), never content.",
  },
  MemoryUpdateRequest: {
    "": "memory.update.request (seed 001): adjusts the dynamic values truth and/or utility of an existing memory; dry_run shows the effect without writing (IF1-UPDATE).",
    "/properties/op": 'Names the operation: "update".',
    "/properties/repo_id": "The repository that sees the memory.",
    "/properties/memory_id": "The memory to update.",
    "/properties/mode": "dry_run: answer before/after, write nothing; commit: write.",
    "/properties/updates": "truth, utility or both.",
    "/properties/updates/properties/truth": "Whether the memory is still true.",
    "/properties/updates/properties/truth/properties/target": "The new truth value, 0..1.",
    "/properties/updates/properties/truth/properties/confidence": "How sure, 0..1.",
    "/properties/updates/properties/truth/properties/rationale": "Why.",
    "/properties/updates/properties/truth/properties/evidence_refs": "At least one structure id of the evidence.",
    "/properties/updates/properties/utility": "How useful the memory was.",
    "/properties/updates/properties/utility/properties/target": "The new utility value, 0..1.",
    "/properties/updates/properties/utility/properties/confidence": "How sure, 0..1.",
    "/properties/updates/properties/utility/properties/rationale": "Why.",
    "/properties/updates/properties/utility/properties/context_problem_id": "The problem in whose context it was (not) useful.",
    "/properties/updates/properties/utility/properties/evidence_refs": "Structure ids of the evidence.",
  },
};

function at(schema: JsonObject, pointer: string): JsonObject {
  let node: unknown = schema;
  for (const part of pointer.split("/").slice(1)) {
    node = (node as JsonObject | undefined)?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (node === null || typeof node !== "object") throw new Error(`openapi: no schema at ${pointer}`);
  }
  return node as JsonObject;
}

function describedSeedSchema(file: string, name: string): JsonObject {
  const schema = JSON.parse(readFileSync(path.join(projectRoot, "schema", "json", file), "utf8")) as JsonObject;
  delete schema.$id; // named by components.schemas instead
  for (const [pointer, description] of Object.entries(DESCRIPTIONS[name])) at(schema, pointer).description = description;
  // As the door validates: every object that lists its properties takes no other (issue 22 §7).
  return { title: file.replace(/\.json$/, ""), ...strictCopy(schema) };
}

const dynamicView = {
  type: ["object", "null"],
  properties: {
    target: { type: "number" },
    confidence: { type: "number" },
    rationale: { type: "string" },
    evidence_refs: { type: "array", items: { type: "string" } },
    context_problem_id: { type: ["string", "null"] },
    updated_at: { type: "string", format: "date-time" },
  },
};

const AGENT_ITEM = {
  type: "object",
  description: "One memory. Advisory context, never authority (SPEC D7).",
  properties: {
    id: { type: "string" },
    repo_id: { type: "string" },
    scope: { type: "string", enum: ["repo", "global"] },
    kind: { type: "string" },
    text: { type: "string" },
    confidence: { type: "number" },
    rationale: { type: ["string", "null"] },
    links: { type: "object" },
    evidence_refs: { type: "array", items: { type: "string" } },
    truth: dynamicView,
    utility: dynamicView,
    effective_truth: { type: "number", description: "truth as last updated, weighted by its confidence" },
    effective_utility: { type: "number" },
    invalidated: { type: "boolean" },
    invalidated_by: { type: ["object", "null"], description: "IF1-CHANGE: the change that invalidated this memory, with its text." },
    created_at: { type: "string", format: "date-time" },
    score: { type: ["number", "null"], description: "read: the ranking score of a direct hit." },
    reached: { type: ["object", "null"], description: "read: how the item was reached (direct or by a link)." },
    advisory: { const: true },
  },
};

const MEMORY_RESPONSE = {
  type: "object",
  description: "Exactly one stop reason, the decision's stamps, and the result when it succeeded. A refusal is a 200 answer with its stop reason.",
  required: ["op", ...DECISION_STAMP_REQUIRED, "advisory"],
  properties: {
    op: { type: ["string", "null"], enum: ["read", "write", "update", null], description: "The operation the document named; null when it named none." },
    ...DECISION_STAMP_PROPERTIES,
    advisory: { const: true, description: "Memory informs, it never decides (SG-ADVISORY)." },
    items: { type: "array", items: { $ref: "#/components/schemas/AgentMemory" }, description: "read: the ranked memories." },
    memory: { $ref: "#/components/schemas/AgentMemory", description: "write: the memory written." },
    invalidated: { type: "array", items: { type: "string" }, description: "write of kind change: the memories it invalidated." },
    mode: { type: "string", description: "update: dry_run or commit." },
    committed: { type: "boolean", description: "update: whether anything was written." },
    before: { type: "object", description: "update: truth and utility before." },
    after: { type: "object", description: "update: truth and utility after (or as they would be, for dry_run)." },
  },
};

const ERRORS = {
  type: "object",
  required: ["errors"],
  properties: {
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["message", "extensions"],
        properties: { message: { type: "string" }, extensions: { type: "object", required: ["code"], properties: { code: { type: "string" } } } },
      },
    },
  },
};

/** The answer to a body too large (413) or nested too deep (400): the policy's SCHEMA_INVALID at pointer "", with its refuse event. */
const SCHEMA_INVALID_ANSWER = {
  type: "object",
  required: ["stop_reason", "errors"],
  properties: {
    stop_reason: { const: "SCHEMA_INVALID" },
    errors: {
      type: "array",
      items: {
        type: "object",
        required: ["pointer", "message"],
        properties: {
          pointer: { type: "string" },
          message: { type: "string" },
          extensions: { type: "object", properties: { code: { type: "string" } } },
        },
      },
    },
  },
};

/** data.memgate.<name> of the policy sources: what an enumeration's `values` path reads (the bundle is built from these files). */
function policyData(name: string): unknown {
  const root = path.join(projectRoot, "policies", "memgate");
  const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as unknown;
  if (name !== "contracts") return read(path.join(root, name, "data.json"));
  const dir = path.join(root, "contracts");
  return Object.fromEntries(
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => [e.name, read(path.join(dir, e.name, "data.json"))]),
  );
}

/**
 * POST /v1/operations/<contract>/<op> for every operation declared `derivedDoors`
 * (src/http/operation-route.ts): the body and the answer derived from its declaration.
 */
function derivedPaths(ref: (name: string) => JsonObject): { paths: JsonObject; schemas: JsonObject } {
  const paths: JsonObject = {};
  const schemas: JsonObject = {};
  const declarations: OperationDeclaration[] = CONTRACT_DEFINITIONS.flatMap((c) => (c.declarations ?? []).filter((d) => d.derivedDoors));
  for (const declaration of declarations) {
    const names = doorNames(declaration);
    const base = names.graphqlInput.replace(/Input$/, "");
    schemas[`${base}Request`] = jsonSchemaOf(declaration.fields, { naming: snakeName, values: (p) => vocabularyAt(policyData, p) }, declaration.description);
    schemas[`${base}Response`] = {
      type: "object",
      required: DECISION_STAMP_REQUIRED,
      properties: {
        ...DECISION_STAMP_PROPERTIES,
        ...(declaration.output
          ? { value: jsonSchemaOf(declaration.output, { naming: snakeName, nullable: true }, "The result when the policy allowed it.") }
          : {}),
      },
    };
    paths[names.path] = {
      post: {
        operationId: names.graphqlField,
        summary: declaration.description ?? `${declaration.contract} ${declaration.name}`,
        description: `The ${declaration.contract} contract's ${declaration.name}, derived from its declaration. Refusals are 200 answers with their stop reason; HTTP errors are the transport's, as on POST /v1/memory.`,
        requestBody: { required: true, content: { "application/json": { schema: ref(`${base}Request`) } } },
        responses: {
          "200": { description: "The decision, with its stop reason.", content: { "application/json": { schema: ref(`${base}Response`) } } },
          "400": {
            description:
              'Not JSON or a malformed Idempotency-Key: Errors. Nested deeper than the door allows: the decision, stop_reason SCHEMA_INVALID at pointer "" (the policy\'s answer, with its refuse event).',
            content: { "application/json": { schema: { oneOf: [ref("Errors"), ref(`${base}Response`)] } } },
          },
          "401": { description: "No valid bearer token (code UNAUTHENTICATED).", content: { "application/json": { schema: ref("Errors") } } },
          "413": { description: "The body is larger than the door allows.", content: { "application/json": { schema: ref("Errors") } } },
          "415": { description: "Content-Type is not application/json.", content: { "application/json": { schema: ref("Errors") } } },
          "429": {
            description: "Over the caller's rate. Retry after the seconds in Retry-After.",
            headers: { "Retry-After": { description: "Seconds to wait before retrying.", required: true, schema: { type: "integer", minimum: 1 } } },
            content: { "application/json": { schema: ref("Errors") } },
          },
        },
      },
    };
  }
  return { paths, schemas };
}

export function buildOpenApi(): JsonObject {
  const schemas: JsonObject = {};
  for (const { file, name } of SEED_SCHEMAS) schemas[name] = describedSeedSchema(file, name);
  schemas.MemoryResponse = MEMORY_RESPONSE;
  schemas.AgentMemory = AGENT_ITEM;
  schemas.Errors = ERRORS;
  schemas.SchemaInvalidAnswer = SCHEMA_INVALID_ANSWER;
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const derived = derivedPaths(ref);
  Object.assign(schemas, derived.schemas);
  return {
    openapi: "3.1.0",
    info: {
      title: "memgate agent interface",
      version: (JSON.parse(readFileSync(path.join(projectRoot, "package.json"), "utf8")) as { version: string }).version,
      description:
        "POST /v1/memory takes one seed-001 document (memory.read.request, memory.write.request or memory.update.request) unchanged. The tenant and the subjects come from the bearer token only (SPEC D5). Every answer carries exactly one stop reason; the policy decides.",
    },
    jsonSchemaDialect: "https://json-schema.org/draft/2020-12/schema",
    servers: [{ url: "/", description: "this gateway" }],
    security: [{ bearer: [] }],
    paths: {
      ...derived.paths,
      "/v1/memory": {
        post: {
          operationId: "memoryRequest",
          summary: "Read, write or update agent memory with one seed-001 document",
          description:
            "The document's `op` picks its schema. A document that fails its schema is not an HTTP error: the answer is 200 with stop_reason SCHEMA_INVALID and every offending JSON pointer in `errors` (IF1-VALID). A field the schema does not list is refused the same way at its pointer (`additionalProperties: false`: the seed's schemas leave extra fields open, the door does not). HTTP errors are for the transport only: a body that is not JSON or too deep (400), a missing or bad token (401), too large (413), not application/json (415), over the caller's rate (429, with Retry-After).",
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  oneOf: SEED_SCHEMAS.map(({ name }) => ref(name)),
                  discriminator: {
                    propertyName: "op",
                    mapping: {
                      read: "#/components/schemas/MemoryReadRequest",
                      write: "#/components/schemas/MemoryWriteRequest",
                      update: "#/components/schemas/MemoryUpdateRequest",
                    },
                  },
                },
              },
            },
          },
          responses: {
            "200": {
              description: "The decision: a success or a refusal, with its stop reason.",
              content: { "application/json": { schema: ref("MemoryResponse") } },
            },
            "400": {
              description:
                "The body is not JSON (code BAD_REQUEST) or the Idempotency-Key header is malformed (code BAD_USER_INPUT): Errors. A document nested deeper than the door allows: SchemaInvalidAnswer.",
              content: { "application/json": { schema: { oneOf: [ref("Errors"), ref("SchemaInvalidAnswer")] } } },
            },
            "401": { description: "No valid bearer token (code UNAUTHENTICATED).", content: { "application/json": { schema: ref("Errors") } } },
            "413": {
              description: "The body is larger than the door allows (MEMGATE limits): stop_reason SCHEMA_INVALID, nothing read.",
              content: { "application/json": { schema: ref("SchemaInvalidAnswer") } },
            },
            "415": {
              description: "Content-Type is not application/json (code UNSUPPORTED_MEDIA_TYPE).",
              content: { "application/json": { schema: ref("Errors") } },
            },
            "429": {
              description: "Over the caller's rate (token bucket per tenant and principal; code RATE_LIMITED). Retry after the seconds in Retry-After.",
              headers: {
                "Retry-After": { description: "Seconds to wait before retrying.", required: true, schema: { type: "integer", minimum: 1 } },
              },
              content: { "application/json": { schema: ref("Errors") } },
            },
            "500": {
              description: "The gateway failed unexpectedly (code INTERNAL_SERVER_ERROR); nothing was decided.",
              content: { "application/json": { schema: ref("Errors") } },
            },
          },
        },
      },
    },
    components: {
      schemas,
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The same token as /graphql and /mcp." } },
    },
  };
}

export function emittedOpenApi(): string {
  return `${JSON.stringify(buildOpenApi(), null, 2)}\n`;
}

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, emittedOpenApi(), "utf8");
  process.stderr.write(`openapi: wrote ${OPENAPI_FILE}\n`);
}
