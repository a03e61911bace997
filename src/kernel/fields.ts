/**
 * What an operation accepts, field by field. Every field a contract's operation takes is
 * declared here as free text (detectors, hygiene, a bound), a structured id (hygiene, a
 * bound, a pattern), an enum-like string the policy checks, a number or a boolean, a list
 * or an object of declared fields. The kernel keeps only declared fields, so a field that
 * was not declared cannot reach a store and no new field can skip the checks.
 *
 * Parsing decides nothing: it reports facts (`FieldFact`) and the policy answers
 * SCHEMA_INVALID or BOUNDS_EXCEEDED from them (checks/fields). Bounds live in policy data
 * (`data.memgate.fields[contract][name]`), one per declared string and list field.
 */
export type Field = (
  | { readonly kind: "text" }
  | { readonly kind: "id"; readonly pattern?: RegExp }
  | { readonly kind: "enum" }
  | { readonly kind: "number" }
  | { readonly kind: "boolean" }
  | { readonly kind: "json" }
  | { readonly kind: "list"; readonly of: Field }
  | { readonly kind: "object"; readonly fields: Fields }
) &
  FieldInfo;

export type Fields = Readonly<Record<string, Field>>;

/**
 * What the doors and the stores derive from a field besides its kind (src/kernel/declaration.ts):
 * the one place a field is described. Parsing ignores all of it; the policy still decides.
 */
export interface FieldInfo {
  /** One sentence for a client (GraphQL, MCP, OpenAPI). */
  readonly description?: string;
  /** A client must send it (GraphQL non-null, JSON Schema `required`); the policy refuses a missing one anyway. */
  readonly required?: boolean;
  /**
   * The store keeps the value with the object: a stored text field is re-judged when the policy
   * tightens (src/kernel/rejudge.ts) and removed by an erasure (SPEC D1).
   */
  readonly stored?: boolean;
  /** The record's name for a stored field when it is not the declared one (ledger `finalText` is kept as `text`). */
  readonly storedAs?: string;
  /** enum: where policy data lists the allowed values ("contract.categories", "contracts.ledger.kinds"); an object's keys or an array. */
  readonly values?: string;
  /** number: a whole number (GraphQL Int, JSON Schema integer). */
  readonly integer?: boolean;
  /** id: published as the GraphQL ID scalar (default: String). */
  readonly graphqlId?: boolean;
  /**
   * GraphQL: the name of the type published for the field: an object's input type (default
   * `<Parent><Field>Input`), or the enum of an enumeration with `choices`. Published names are
   * part of the API clients write queries against.
   */
  readonly graphqlName?: string;
  /**
   * enum: a fixed set of values, published on GraphQL as the enum `graphqlName`. Values read from
   * policy data (`values`) change with the bundle, so those stay a String there.
   */
  readonly choices?: readonly string[];
  /** The value a door fills in when the client sends none (documentation and GraphQL default). */
  readonly default?: string | number | boolean;
}

/** Free text: run through every detector, checked for hygiene and bounded. */
export const text = (info: FieldInfo = {}): Field => ({ kind: "text", ...info });
/** A structured identifier (memory id, proposal id, source ref): hygiene, bound and an optional pattern. */
export function id(pattern?: RegExp | FieldInfo, info: FieldInfo = {}): Field {
  if (pattern instanceof RegExp || pattern === undefined) return { kind: "id", pattern, ...info };
  return { kind: "id", ...pattern };
}
/** A string whose allowed values the policy publishes (category, kind, TTL class ...). */
export const enumeration = (info: FieldInfo = {}): Field => ({ kind: "enum", ...info });
export const number = (info: FieldInfo = {}): Field => ({ kind: "number", ...info });
/** A whole number (a limit, a version): a number published as an integer. */
export const integer = (info: FieldInfo = {}): Field => ({ kind: "number", integer: true, ...info });
export const boolean = (info: FieldInfo = {}): Field => ({ kind: "boolean", ...info });
/** An opaque JSON value (already validated by a schema, as seed 001 documents are); its strings are text. */
export const json = (info: FieldInfo = {}): Field => ({ kind: "json", ...info });
export const list = (of: Field, info: FieldInfo = {}): Field => ({ kind: "list", of, ...info });
export const object = (fields: Fields, info: FieldInfo = {}): Field => ({ kind: "object", fields, ...info });

/** What the policy learns about one field value (never the value itself unless it is text). */
export interface FieldFact {
  /** The declared name, with `[]` for list elements: `source_refs[]`, `source.note`. */
  field: string;
  /** Where the value was: `source_refs[2]`. */
  path: string;
  kind: Field["kind"];
  /** UTF-16 length of a string, element count of a list. */
  length: number;
  /** The value is not of the declared type (a number where text was declared). */
  wrong_type: boolean;
  /** Lone or reversed surrogates: the database would store U+FFFD instead. */
  ill_formed: boolean;
  /** A control character other than tab and newline: C0, DEL or C1 (SPEC D3a). */
  control: boolean;
  /** An id that does not match its declared pattern. */
  pattern_mismatch: boolean;
}

export interface ParsedFields<T> {
  /** The request with declared fields only. */
  value: T;
  /** Every free-text value by path, for the detectors and the policy's content checks. */
  texts: Record<string, string>;
  facts: FieldFact[];
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/;
/** A lone high or low surrogate (String.prototype.isWellFormed, without needing es2024 typings). */
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_JSON_DEPTH = 32;
const ILL_FORMED_ALL = new RegExp(ILL_FORMED.source, "g");

/**
 * The policy input with every lone surrogate replaced by U+FFFD: the wasm host's JSON parser
 * rejects a lone high surrogate, and the field facts already say the request was ill-formed
 * (SCHEMA_INVALID by checks/fields). Only plain objects and arrays are walked.
 */
export function wellFormed<T>(value: T): T {
  if (typeof value === "string") return value.replace(ILL_FORMED_ALL, "\uFFFD") as T;
  if (Array.isArray(value)) return value.map(wellFormed) as T;
  if (value !== null && typeof value === "object") {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) return value;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v)])) as T;
  }
  return value;
}

/** Keeps the declared fields of `raw` and reports facts about each value present. */
export function parseFields<T>(fields: Fields, raw: unknown): ParsedFields<T> {
  const texts: Record<string, string> = {};
  const facts: FieldFact[] = [];
  const value = walkObject(fields, raw, "", "", texts, facts);
  return { value: (value ?? {}) as T, texts, facts };
}

function walkObject(fields: Fields, raw: unknown, fieldPrefix: string, pathPrefix: string, texts: Record<string, string>, facts: FieldFact[]) {
  if (raw === null || raw === undefined || typeof raw !== "object" || Array.isArray(raw)) return raw === undefined ? undefined : null;
  const source = raw as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    if (!Object.hasOwn(source, name)) continue;
    out[name] = walk(field, source[name], fieldPrefix + name, pathPrefix + name, texts, facts);
  }
  return out;
}

function walk(field: Field, raw: unknown, name: string, path: string, texts: Record<string, string>, facts: FieldFact[]): unknown {
  if (raw === null || raw === undefined) return raw;
  const fact = (length: number, extra: Partial<FieldFact> = {}) =>
    facts.push({ field: name, path, kind: field.kind, length, wrong_type: false, ill_formed: false, control: false, pattern_mismatch: false, ...extra });
  switch (field.kind) {
    case "text":
    case "id":
    case "enum": {
      if (typeof raw !== "string") {
        fact(0, { wrong_type: true });
        return null;
      }
      fact(raw.length, {
        ill_formed: ILL_FORMED.test(raw),
        control: CONTROL.test(raw),
        pattern_mismatch: field.kind === "id" && field.pattern !== undefined && !field.pattern.test(raw),
      });
      if (field.kind === "text") texts[path] = raw;
      return raw;
    }
    case "number":
      if (typeof raw !== "number" || !Number.isFinite(raw)) {
        fact(0, { wrong_type: true });
        return null;
      }
      return raw;
    case "boolean":
      if (typeof raw !== "boolean") {
        fact(0, { wrong_type: true });
        return null;
      }
      return raw;
    case "list": {
      if (!Array.isArray(raw)) {
        fact(0, { wrong_type: true });
        return null;
      }
      fact(raw.length);
      return raw.map((element, i) => walk(field.of, element, `${name}[]`, `${path}[${i}]`, texts, facts));
    }
    case "object":
      if (typeof raw !== "object" || Array.isArray(raw)) {
        fact(0, { wrong_type: true });
        return null;
      }
      return walkObject(field.fields, raw, `${name}.`, `${path}.`, texts, facts);
    case "json":
      return walkJson(raw, name, path, texts, facts, 0);
  }
}

/**
 * Strings inside an opaque JSON value are text under the declared name (one bound for all of
 * them); nesting deeper than MAX_JSON_DEPTH is a wrong type.
 */
function walkJson(raw: unknown, name: string, path: string, texts: Record<string, string>, facts: FieldFact[], depth: number): unknown {
  const base = { field: name, path, kind: "json" as const, wrong_type: false, ill_formed: false, control: false, pattern_mismatch: false };
  if (depth > MAX_JSON_DEPTH) {
    facts.push({ ...base, length: 0, wrong_type: true });
    return null;
  }
  if (typeof raw === "string") {
    facts.push({ ...base, length: raw.length, ill_formed: ILL_FORMED.test(raw), control: CONTROL.test(raw) });
    texts[path] = raw;
    return raw;
  }
  if (Array.isArray(raw)) return raw.map((v, i) => walkJson(v, name, `${path}[${i}]`, texts, facts, depth + 1));
  if (raw !== null && typeof raw === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(raw)) out[k] = walkJson(v, name, `${path}.${k}`, texts, facts, depth + 1);
    return out;
  }
  return raw;
}

export { boundedFieldNames } from "./declaration";
