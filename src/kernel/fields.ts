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
export type Field =
  | { readonly kind: "text" }
  | { readonly kind: "id"; readonly pattern?: RegExp }
  | { readonly kind: "enum" }
  | { readonly kind: "number" }
  | { readonly kind: "boolean" }
  | { readonly kind: "json" }
  | { readonly kind: "list"; readonly of: Field }
  | { readonly kind: "object"; readonly fields: Fields };

export type Fields = Readonly<Record<string, Field>>;

/** Free text: run through every detector, checked for hygiene and bounded. */
export const text = (): Field => ({ kind: "text" });
/** A structured identifier (memory id, proposal id, source ref): hygiene, bound and an optional pattern. */
export const id = (pattern?: RegExp): Field => ({ kind: "id", pattern });
/** A string whose allowed values the policy publishes (category, kind, TTL class ...). */
export const enumeration = (): Field => ({ kind: "enum" });
export const number = (): Field => ({ kind: "number" });
export const boolean = (): Field => ({ kind: "boolean" });
/** An opaque JSON value (already validated by a schema, as seed 001 documents are); its strings are text. */
export const json = (): Field => ({ kind: "json" });
export const list = (of: Field): Field => ({ kind: "list", of });
export const object = (fields: Fields): Field => ({ kind: "object", fields });

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
  /** A control character other than tab and newline (SPEC D3a). */
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
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/;
/** A lone high or low surrogate (String.prototype.isWellFormed, without needing es2024 typings). */
const ILL_FORMED = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const MAX_JSON_DEPTH = 32;

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

const ILL_FORMED_ALL = new RegExp(ILL_FORMED.source, "g");

/** A copy of a JSON-like value whose strings (and keys) have every lone surrogate replaced by U+FFFD. */
export function wellFormed<T>(value: T): T {
  if (typeof value === "string") return value.replace(ILL_FORMED_ALL, "\uFFFD") as T;
  if (Array.isArray(value)) return value.map((v: unknown) => wellFormed(v)) as T;
  if (value !== null && typeof value === "object" && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [wellFormed(k), wellFormed(v)])) as T;
  }
  return value;
}

/** Every declared field name with a bound to find in policy data (strings and lists). */
export function boundedFieldNames(fields: Fields, prefix = ""): string[] {
  const names: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const full = prefix + name;
    if (field.kind === "text" || field.kind === "id" || field.kind === "enum" || field.kind === "json") names.push(full);
    if (field.kind === "list") {
      names.push(full, ...boundedFieldNames({ "[]": field.of }, full));
    }
    if (field.kind === "object") names.push(...boundedFieldNames(field.fields, `${full}.`));
  }
  return names;
}
