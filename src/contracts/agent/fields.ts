import { boolean, enumeration, id, list, number, object, text, type Fields } from "../../kernel/fields";

/** Repository and memory ids: letters, digits and a few separators; never whitespace or control characters. */
export const ID = /^[\p{L}\p{N}_.:/@+-]*$/u;

/**
 * The seed-001 schemas, field by field, under their own names (list elements `name[]`,
 * nested fields `a.b`). Free text goes through every detector; ids and enums are checked
 * for hygiene and bounds; the exact JSON Schema (by `$id`) then judges types and shapes, and
 * is what the doors publish (POST /v1/memory, the MCP agent tools). A memory's text, rationale
 * and evidence refs, and an update's rationale and evidence refs, are stored (kept flat on the
 * record) and re-judged (store-rejudge.ts reads them through these declarations).
 */
export const READ_FIELDS: Fields = {
  op: enumeration(),
  repo_id: id(ID),
  mode: enumeration(),
  query: text(),
  include_global: boolean(),
  kinds: list(enumeration()),
  limit: number(),
  expand: object({ semantic_hops: number(), include_problem_links: boolean(), include_update_links: boolean() }),
};

export const WRITE_FIELDS: Fields = {
  op: enumeration(),
  repo_id: id(ID),
  memory: object({
    text: text({ stored: true }),
    scope: enumeration(),
    kind: enumeration(),
    confidence: number(),
    rationale: text({ stored: true }),
    links: object({ problem_id: id(ID), related_memory_ids: list(id(ID)), change_targets: list(id(ID)) }),
    evidence_refs: list(text(), { stored: true }),
  }),
};

export const dynamicFields = (extra: Fields): Fields => ({
  target: number(),
  confidence: number(),
  rationale: text({ stored: true }),
  evidence_refs: list(text(), { stored: true }),
  ...extra,
});

export const UPDATE_FIELDS: Fields = {
  op: enumeration(),
  repo_id: id(ID),
  memory_id: id(ID),
  mode: enumeration(),
  updates: object({ truth: object(dynamicFields({})), utility: object(dynamicFields({ context_problem_id: id(ID) })) }),
};
/** UPDATE with mode "dry_run" runs under this name; it accepts exactly what UPDATE does. */
export const UPDATE_DRY_RUN_FIELDS: Fields = UPDATE_FIELDS;

export const DISPATCH_FIELDS: Fields = { document: object({ op: enumeration() }) };
