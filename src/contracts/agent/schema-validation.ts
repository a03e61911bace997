import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import readSchema from "../../../schema/json/memory.read.request.json";
import updateSchema from "../../../schema/json/memory.update.request.json";
import writeSchema from "../../../schema/json/memory.write.request.json";
import type { AgentDocument } from "./documents";

/** The seed-001 schemas by `$id`, exactly as ratified (schema/json/). */
export const SCHEMA_IDS = { read: "memory.read.request", write: "memory.write.request", update: "memory.update.request" } as const;
export type AgentOp = keyof typeof SCHEMA_IDS;

/** One offending place in a document: an RFC 6901 JSON pointer ("" is the whole document) and what to do. */
export interface SchemaIssue {
  pointer: string;
  keyword: string;
  message: string;
}

export type SchemaResult = { ok: true; op: AgentOp; document: AgentDocument } | { ok: false; op: AgentOp | null; issues: SchemaIssue[] };

/**
 * Seed 001's schemas are kept verbatim and do not set `additionalProperties`, which JSON Schema
 * reads as "anything else is allowed"; SPEC does not settle it, and an unknown field silently
 * ignored hides a client's typo (`confidance`) or a field it believes is honoured. So the door
 * validates against a strict copy: every object schema that lists its properties refuses any
 * other (SCHEMA_INVALID at the field's pointer), as GraphQL refuses unknown input fields (issue 22 §7).
 */
export function strictCopy<T>(schema: T): T {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== "object") return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node))
      out[key] = key === "properties" ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, walk(v)])) : walk(value);
    if (out.properties !== undefined && out.additionalProperties === undefined && out.patternProperties === undefined) out.additionalProperties = false;
    return out;
  };
  return walk(schema) as T;
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, strict: false });
ajv.addSchema(strictCopy(readSchema)).addSchema(strictCopy(writeSchema)).addSchema(strictCopy(updateSchema));
const validators: Record<AgentOp, ValidateFunction> = {
  read: ajv.getSchema(SCHEMA_IDS.read)!,
  write: ajv.getSchema(SCHEMA_IDS.write)!,
  update: ajv.getSchema(SCHEMA_IDS.update)!,
};

export const UNKNOWN_FIELD = "is not a field of this document";

/**
 * The pointers of the fields a document of `op` carries that its schema does not list. The kernel
 * keeps declared fields only, so the doors ask this of the document as sent, before the kernel.
 */
export function unknownFields(document: unknown, op: AgentOp): string[] {
  if (validators[op](structuredClone(document))) return [];
  return (validators[op].errors ?? []).filter((e) => e.keyword === "additionalProperties").map((e) => describe(e).pointer);
}

/** Is `op` one of the three operations of seed 001? */
export function isAgentOp(op: unknown): op is AgentOp {
  return op === "read" || op === "write" || op === "update";
}

/**
 * IF1-VALID, first layer: the document against the exact schema its `op` names, with the
 * schemas' defaults applied (include_global, limit, expand.*). The input is not mutated.
 * A document whose `op` names no schema is judged by its `op` alone.
 */
export function validateDocument(document: unknown, expected?: AgentOp): SchemaResult {
  if (typeof document !== "object" || document === null || Array.isArray(document)) {
    return {
      ok: false,
      op: expected ?? null,
      issues: [
        { pointer: "", keyword: "type", message: "must be a JSON object (a memory.read.request, memory.write.request or memory.update.request document)" },
      ],
    };
  }
  const op = expected ?? (document as { op?: unknown }).op;
  if (!isAgentOp(op)) {
    const given = (document as { op?: unknown }).op;
    return {
      ok: false,
      op: null,
      issues: [{ pointer: "/op", keyword: given === undefined ? "required" : "enum", message: 'is required and must be one of "read", "write", "update"' }],
    };
  }
  const copy = structuredClone(document);
  const validate = validators[op];
  if (validate(copy)) return { ok: true, op, document: copy as AgentDocument };
  return { ok: false, op, issues: toIssues(validate.errors ?? []) };
}

/** ajv errors, one per offending pointer and rule, in words a developer can act on. */
export function toIssues(errors: readonly ErrorObject[]): SchemaIssue[] {
  const anyOfPaths = errors.filter((e) => e.keyword === "anyOf").map((e) => e.schemaPath.replace(/\/anyOf$/, "/anyOf/"));
  const issues: SchemaIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    // The branches of a failed anyOf are summed up by the anyOf error itself.
    if (error.keyword !== "anyOf" && anyOfPaths.some((p) => error.schemaPath.startsWith(p))) continue;
    const issue = describe(error);
    const key = `${issue.pointer}\u0001${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues.sort((a, b) => (a.pointer < b.pointer ? -1 : a.pointer > b.pointer ? 1 : 0));
}

function describe(error: ErrorObject): SchemaIssue {
  const at = error.instancePath;
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return { pointer: `${at}/${escape(String(p.missingProperty))}`, keyword: "required", message: "is required" };
    case "additionalProperties":
      return { pointer: `${at}/${escape(String(p.additionalProperty))}`, keyword: "additionalProperties", message: UNKNOWN_FIELD };
    case "type":
      return { pointer: at, keyword: "type", message: `must be ${article(String(p.type))}` };
    case "enum":
      return { pointer: at, keyword: "enum", message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}` };
    case "const":
      return { pointer: at, keyword: "const", message: `must be ${JSON.stringify(p.allowedValue)}` };
    case "minimum":
      return { pointer: at, keyword: "minimum", message: `must be at least ${String(p.limit)}` };
    case "maximum":
      return { pointer: at, keyword: "maximum", message: `must be at most ${String(p.limit)}` };
    case "minLength":
      return { pointer: at, keyword: "minLength", message: "must not be empty" };
    case "minItems":
      return { pointer: at, keyword: "minItems", message: `must list at least ${String(p.limit)} item(s)` };
    case "uniqueItems":
      return { pointer: at, keyword: "uniqueItems", message: `must not repeat an item (items ${String(p.j)} and ${String(p.i)} are equal)` };
    case "anyOf":
      return { pointer: at, keyword: "anyOf", message: 'must contain "truth" or "utility" (or both)' };
    default:
      return { pointer: at, keyword: error.keyword, message: error.message ?? "is invalid" };
  }
}

function article(type: string): string {
  if (type === "integer") return "an integer";
  if (type === "object" || type === "array") return `an ${type}`;
  return `a ${type}`;
}

/** RFC 6901 escaping of one reference token. */
export function escape(token: string): string {
  return token.replace(/~/g, "~0").replace(/\//g, "~1");
}
