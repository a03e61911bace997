import type { Field, Fields } from "./fields";

/**
 * An operation's declaration: the one place its fields are named, typed, described and marked
 * text or stored. The doors publish what is derived from it (GraphQL input types, MCP tool
 * schemas, the OpenAPI document), re-judging reads the stored text it names, erasure removes
 * the stored fields it names, and start-up checks its fields against the policy's bounds.
 * Nothing here decides: the policy answers every request.
 */
export interface OperationDeclaration {
  /** The contract (policies/memgate/contracts/<contract>/) and the policy's operation name. */
  readonly contract: string;
  readonly name: string;
  readonly description?: string;
  /** Every field the operation accepts; nothing else reaches it. */
  readonly fields: Fields;
  /** read: a query (MCP readOnlyHint); write: a mutation. Only needed for derived doors. */
  readonly kind?: "read" | "write";
  /** What leaves on success, field by field: a derived door answers the result projected through it. */
  readonly output?: Fields;
  /**
   * true: every door publishes the operation by derivation (a GraphQL field, an MCP tool, a REST
   * path in OpenAPI), so a new contract needs no door code. Operations with hand-written doors leave it out.
   */
  readonly derivedDoors?: boolean;
  /**
   * GraphQL, for an operation whose root field is written by hand: the name of its input type
   * (`input: <name>!`); left out, its fields are the root field's arguments (src/graphql/derived.ts).
   */
  readonly graphqlInput?: string;
  /** GraphQL field names: camelCase (the default), or as declared (the seed-001 documents keep their schemas' names). */
  readonly graphqlNaming?: "camel" | "declared";
}

/** Where a derived door publishes an operation. */
export interface DoorNames {
  /** GraphQL: `<contract><Op>` (a Query for a read, a Mutation for a write), input `<Contract><Op>Input`. */
  graphqlField: string;
  graphqlInput: string;
  graphqlResult: string;
  /** MCP: `<contract>_<op>`. */
  tool: string;
  /** REST: POST /v1/operations/<contract>/<op> (OpenAPI). */
  path: string;
}

const words = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
const upper = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

/** `sourceKind` and `source_kind` → `source_kind`: how MCP and REST name fields. */
export const snakeName = (name: string): string => words(name).join("_");
/** `source_kind` and `sourceKind` → `sourceKind`: how GraphQL names fields. */
export const camelName = (name: string): string =>
  words(name)
    .map((w, i) => (i === 0 ? w : upper(w)))
    .join("");
export const pascalName = (name: string): string => words(name).map(upper).join("");

export function doorNames(declaration: Pick<OperationDeclaration, "contract" | "name">): DoorNames {
  const op = declaration.name.toLowerCase();
  const base = `${declaration.contract}_${op}`;
  return {
    graphqlField: camelName(base),
    graphqlInput: `${pascalName(base)}Input`,
    graphqlResult: `${pascalName(base)}Decision`,
    tool: snakeName(base),
    path: `/v1/operations/${declaration.contract}/${op.replace(/_/g, "-")}`,
  };
}

// ---------------------------------------------------------------- JSON Schema (MCP, OpenAPI)

export type JsonSchema = Record<string, unknown>;

export interface SchemaOptions {
  /** How property names are spelled (MCP and REST: snake_case; default: as declared). */
  naming?: (name: string) => string;
  /** The allowed values of an enumeration field (from the policy data in force); undefined: a free string. */
  values?: (path: string) => readonly string[] | undefined;
  /** Declared names left out (a door sets them itself, as the agent tools set `op`). */
  omit?: readonly string[];
  /** Output schemas: values may be null. */
  nullable?: boolean;
  /** Output schemas: an answer may carry fields the declaration leaves out (no `additionalProperties: false`). */
  open?: boolean;
}

/** The JSON Schema of an object of declared fields: `additionalProperties: false`, as the doors refuse unknown fields. */
export function jsonSchemaOf(fields: Fields, options: SchemaOptions = {}, description?: string): JsonSchema {
  const naming = options.naming ?? ((n: string) => n);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    if (options.omit?.includes(name)) continue;
    properties[naming(name)] = fieldSchema(field, options);
    if (field.required) required.push(naming(name));
  }
  return {
    type: options.nullable ? ["object", "null"] : "object",
    ...(description ? { description } : {}),
    properties,
    ...(required.length > 0 && !options.nullable ? { required } : {}),
    ...(options.open ? {} : { additionalProperties: false }),
  };
}

function fieldSchema(field: Field, options: SchemaOptions): JsonSchema {
  const described = (schema: JsonSchema): JsonSchema => ({
    ...schema,
    ...(field.description ? { description: field.description } : {}),
    ...(field.default !== undefined && !options.nullable ? { default: field.default } : {}),
  });
  const maybeNull = (type: string): string | string[] => (options.nullable ? [type, "null"] : type);
  switch (field.kind) {
    case "text":
    case "id":
      return described({ type: maybeNull("string") });
    case "enum": {
      const values = field.values ? options.values?.(field.values) : undefined;
      return described({ type: maybeNull("string"), ...(values && values.length > 0 && !options.nullable ? { enum: [...values] } : {}) });
    }
    case "number":
      return described({ type: maybeNull(field.integer ? "integer" : "number") });
    case "boolean":
      return described({ type: maybeNull("boolean") });
    case "json":
      return described({});
    case "list":
      return described({ type: maybeNull("array"), items: fieldSchema(field.of, options) });
    case "object":
      return described(jsonSchemaOf(field.fields, options));
  }
}

/**
 * The allowed values a policy data path names: an object's keys or an array's strings.
 * `read(name)` answers `data.memgate.<name>` of the bundle in force.
 */
export function vocabularyAt(read: (name: string) => unknown, path: string): string[] | undefined {
  const [first, ...rest] = path.split(".");
  let node: unknown = read(first);
  for (const part of rest) node = node !== null && typeof node === "object" ? (node as Record<string, unknown>)[part] : undefined;
  if (Array.isArray(node)) return node.filter((v): v is string => typeof v === "string");
  if (node !== null && typeof node === "object") return Object.keys(node);
  return undefined;
}

// ---------------------------------------------------------------- stored text (re-judging) and erasure

/**
 * The stored free text of an object, by declared field name (nested `a.b`, list elements
 * `a[0]`, after `prefix` when the store keeps a nested declaration flat): what re-judging sends
 * through the detectors and the policy's REJUDGE. Only fields declared `stored` (an object's
 * `stored` covers its children), read from the record under `storedAs` or the declared name.
 */
export function storedTexts(fields: Fields, record: object | null | undefined, prefix = ""): Record<string, string> {
  const texts: Record<string, string> = {};
  const walk = (field: Field, value: unknown, path: string, stored: boolean) => {
    if (value === null || value === undefined) return;
    const keep = stored || field.stored === true;
    if (field.kind === "object" && typeof value === "object" && !Array.isArray(value)) {
      for (const [name, child] of Object.entries(field.fields))
        walk(child, (value as Record<string, unknown>)[child.storedAs ?? name], `${path}.${name}`, keep);
    } else if (field.kind === "list" && Array.isArray(value)) {
      value.forEach((element, i) => walk(field.of, element, `${path}[${i}]`, keep));
    } else if (keep && (field.kind === "text" || field.kind === "json") && typeof value === "string" && value !== "") {
      texts[path] = value;
    }
  };
  if (!record) return texts;
  for (const [name, field] of Object.entries(fields)) walk(field, (record as Record<string, unknown>)[field.storedAs ?? name], prefix + name, false);
  return texts;
}

/** The fields of an object field (`memory` of an agent write): for a store that keeps them flat. */
export function nestedFields(fields: Fields, name: string): Fields {
  const field = fields[name];
  return field?.kind === "object" ? field.fields : {};
}

/** Whether any declared field keeps text in the store: such a contract must offer re-judge targets. */
export function storesText(fields: Fields, stored = false): boolean {
  return Object.values(fields).some((field) => {
    const keep = stored || field.stored === true;
    if (field.kind === "object") return storesText(field.fields, keep);
    if (field.kind === "list") return storesText({ "[]": field.of }, keep);
    return keep && (field.kind === "text" || field.kind === "json");
  });
}

/**
 * The stored fields of the declarations under the record's names: what an erasure removes from
 * the object (SPEC D1). A field declared stored goes whole; a stored field inside an object that
 * is not goes by its path (`consent.evidence_ref`).
 */
export function erasedFields(...fieldsList: Fields[]): string[] {
  const names = new Set<string>();
  const walk = (fields: Fields, prefix: string) => {
    for (const [name, field] of Object.entries(fields)) {
      const path = prefix + (field.storedAs ?? name);
      if (field.stored) names.add(path);
      else if (field.kind === "object") walk(field.fields, `${path}.`);
    }
  };
  for (const fields of fieldsList) walk(fields, "");
  return [...names].sort();
}

/** A copy of `record` without the given paths (`erasedFields`): what an erasure keeps of it. Nested objects are copied, never changed in place. */
export function withoutFields<T extends object>(record: T, paths: readonly string[]): T {
  const out = { ...record } as Record<string, unknown>;
  for (const path of paths) {
    const [head, ...rest] = path.split(".");
    if (rest.length === 0) delete out[head];
    else if (out[head] !== null && typeof out[head] === "object") out[head] = withoutFields(out[head] as object, [rest.join(".")]);
  }
  return out as T;
}

// ---------------------------------------------------------------- bounds

/** Every declared field name with a bound to find in policy data (strings and lists). */
export function boundedFieldNames(fields: Fields, prefix = ""): string[] {
  const names: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const full = prefix + name;
    if (field.kind === "text" || field.kind === "id" || field.kind === "enum" || field.kind === "json") names.push(full);
    if (field.kind === "list") names.push(full, ...boundedFieldNames({ "[]": field.of }, full));
    if (field.kind === "object") names.push(...boundedFieldNames(field.fields, `${full}.`));
  }
  return names;
}

/** Names the policy bounds that are objects (a bound of 0 on an object or a JSON value documents it; never checked as a length). */
function objectFieldNames(fields: Fields, prefix = ""): string[] {
  const names: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const full = prefix + name;
    if (field.kind === "object") names.push(full, ...objectFieldNames(field.fields, `${full}.`));
    if (field.kind === "list") names.push(...objectFieldNames({ "[]": field.of }, full));
  }
  return names;
}

export interface BoundMismatch {
  contract: string;
  /** Declared string or list fields without a bound in policies/memgate/contracts/<contract>/data.json "fields". */
  unbounded: string[];
  /** Bounds that name no declared field of any of the contract's operations. */
  undeclared: string[];
}

/**
 * Declarations against the policy's bounds, per contract: a declared field without a bound,
 * or a bound without a field, is a mismatch (the gateway refuses to start on one).
 */
export function boundMismatches(
  declarations: readonly Pick<OperationDeclaration, "contract" | "fields">[],
  bounds: (contract: string) => Record<string, unknown> | undefined,
): BoundMismatch[] {
  const byContract = new Map<string, Fields[]>();
  for (const d of declarations) byContract.set(d.contract, [...(byContract.get(d.contract) ?? []), d.fields]);
  const mismatches: BoundMismatch[] = [];
  for (const [contract, fieldsList] of byContract) {
    const declared = new Set(fieldsList.flatMap((f) => boundedFieldNames(f)));
    const objects = new Set(fieldsList.flatMap((f) => objectFieldNames(f)));
    const bounded = Object.keys(bounds(contract) ?? {});
    const unbounded = [...declared].filter((n) => !bounded.includes(n)).sort();
    const undeclared = bounded.filter((n) => !declared.has(n) && !objects.has(n)).sort();
    if (unbounded.length || undeclared.length) mismatches.push({ contract, unbounded, undeclared });
  }
  return mismatches;
}

// ---------------------------------------------------------------- output

/** The result as a derived door answers it: declared output fields only (dates as ISO 8601), so nothing undeclared leaves. */
export function projectOutput(fields: Fields, value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined || typeof value !== "object") return null;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) out[name] = projectValue(field, source[name]);
  return out;
}

function projectValue(field: Field, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (field.kind === "object") return projectOutput(field.fields, value);
  if (field.kind === "list") return Array.isArray(value) ? value.map((v) => projectValue(field.of, v)) : null;
  return value;
}

/**
 * The request's values of the top-level fields declared stored, under the record's names, null
 * when absent: the content a write replaces whole (an UPDATE clears what it leaves out).
 */
export function storedContent(fields: Fields, request: object): Record<string, unknown> {
  const source = request as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) if (field.stored) out[field.storedAs ?? name] = source[name] ?? null;
  return out;
}

/** The request's values of the top-level fields declared stored, under the record's names: what a store keeps of a write. */
export function storedValues(fields: Fields, request: object): Record<string, unknown> {
  const source = request as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) if (field.stored && source[name] !== undefined) out[field.storedAs ?? name] = source[name];
  return out;
}
