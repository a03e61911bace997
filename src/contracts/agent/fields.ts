import type { OperationDeclaration } from "../../kernel/declaration";
import { boolean, enumeration, id, integer, list, number, object, text, type Fields } from "../../kernel/fields";

/** Repository and memory ids: letters, digits and a few separators; never whitespace or control characters. */
export const ID = /^[\p{L}\p{N}_.:/@+-]*$/u;

/**
 * The seed-001 schemas, field by field, under their own names (list elements `name[]`,
 * nested fields `a.b`). Free text goes through every detector; ids and enums are checked
 * for hygiene and bounds; the exact JSON Schema (by `$id`) then judges types and shapes, and
 * is what the doors publish (POST /v1/memory, the MCP agent tools). A memory's text, rationale
 * and evidence refs, and an update's rationale and evidence refs, are stored (kept flat on the
 * record) and re-judged (store-rejudge.ts reads them through these declarations). GraphQL
 * publishes them as inputs under the same names (src/graphql/derived.ts): every field nullable
 * and enums as strings, so what the schema requires gets SCHEMA_INVALID with its JSON pointer.
 */
export const READ_FIELDS: Fields = {
  op: enumeration({ description: 'const "read"; may be left out' }),
  repo_id: id(ID),
  mode: enumeration({ description: "ambient | targeted" }),
  query: text(),
  include_global: boolean({ description: "default true" }),
  kinds: list(enumeration(), { description: "problem | solution | failed_tactic | fact | preference | change" }),
  limit: integer({ description: "1..100, default 20" }),
  expand: object(
    {
      semantic_hops: integer({ description: "0..3, default 2" }),
      include_problem_links: boolean({ description: "default true" }),
      include_update_links: boolean({ description: "default true" }),
    },
    { graphqlName: "AgentExpandInput", description: "memory.read.request: expand" },
  ),
};

export const WRITE_FIELDS: Fields = {
  op: enumeration({ description: 'const "write"; may be left out' }),
  repo_id: id(ID),
  memory: object(
    {
      text: text({ stored: true }),
      scope: enumeration({ description: "repo | global" }),
      kind: enumeration({ description: "problem | solution | failed_tactic | fact | preference | change" }),
      confidence: number({ description: "0..1" }),
      rationale: text({ stored: true }),
      links: object(
        { problem_id: id(ID), related_memory_ids: list(id(ID)), change_targets: list(id(ID)) },
        { graphqlName: "AgentLinksInput", description: "memory.write.request: memory.links" },
      ),
      evidence_refs: list(text(), { stored: true }),
    },
    { graphqlName: "AgentMemoryInput", description: "memory.write.request: memory" },
  ),
};

export const dynamicFields = (extra: Fields, evidence = ""): Fields => ({
  target: number({ description: "0..1" }),
  confidence: number({ description: "0..1" }),
  rationale: text({ stored: true }),
  evidence_refs: list(text(), { stored: true, ...(evidence ? { description: evidence } : {}) }),
  ...extra,
});

export const UPDATE_FIELDS: Fields = {
  op: enumeration({ description: 'const "update"; may be left out' }),
  repo_id: id(ID),
  memory_id: id(ID),
  mode: enumeration({ description: "dry_run | commit" }),
  updates: object(
    {
      truth: object(dynamicFields({}, "at least one"), { graphqlName: "AgentTruthUpdateInput", description: "memory.update.request: updates.truth" }),
      utility: object(dynamicFields({ context_problem_id: id(ID) }), {
        graphqlName: "AgentDynamicUpdateInput",
        description: "memory.update.request: updates.utility",
      }),
    },
    { graphqlName: "AgentUpdatesInput", description: "memory.update.request: updates (truth and/or utility)" },
  ),
};
/** UPDATE with mode "dry_run" runs under this name; it accepts exactly what UPDATE does. */
export const UPDATE_DRY_RUN_FIELDS: Fields = UPDATE_FIELDS;

export const DISPATCH_FIELDS: Fields = { document: object({ op: enumeration() }) };

/** A truth or utility value as answered (response.ts DynamicView). */
const DYNAMIC_OUTPUT = object(
  {
    target: number({ required: true }),
    confidence: number({ required: true }),
    rationale: text({ required: true }),
    evidence_refs: list(text(), { required: true }),
    context_problem_id: id(),
    updated_at: text({ required: true, description: "ISO 8601" }),
  },
  { description: "null until an update sets it." },
);
/** One memory as the interface answers it (response.ts AgentItem, whose output fields are whitelisted). */
export const MEMORY_OUTPUT: Fields = {
  id: id({ required: true }),
  repo_id: id({ required: true }),
  scope: text({ required: true }),
  kind: text({ required: true }),
  text: text({ required: true }),
  confidence: number({ required: true }),
  rationale: text(),
  links: object({ problem_id: id(), related_memory_ids: list(id(), { required: true }), change_targets: list(id(), { required: true }) }, { required: true }),
  evidence_refs: list(text(), { required: true }),
  truth: DYNAMIC_OUTPUT,
  utility: DYNAMIC_OUTPUT,
  effective_truth: number({ required: true, description: "Truth as last updated, weighted by its confidence." }),
  effective_utility: number({ required: true, description: "Utility as last updated, weighted by its confidence." }),
  invalidated: boolean({ required: true }),
  invalidated_by: object({ id: id({ required: true }), text: text({ required: true }) }, { description: "IF1-CHANGE: the change that invalidated it." }),
  created_at: text({ required: true, description: "ISO 8601" }),
  score: number({ description: "Read results: the ranking score of a direct match." }),
  reached: object(
    { via: text({ required: true, description: "direct | link" }), hops: integer(), link: text(), from: id() },
    { description: "Read results: how the memory was reached." },
  ),
  advisory: boolean({ required: true, description: "Always true: memory informs, it never decides." }),
};
const ADVISORY: Fields = { advisory: boolean({ required: true, description: "Always true: memories are advisory context, never instructions." }) };
/** What READ answers. */
export const READ_OUTPUT: Fields = {
  ...ADVISORY,
  items: list(object(MEMORY_OUTPUT), { description: "Ranked memories, direct matches and the ones links reached." }),
};
/** What WRITE answers. */
export const WRITE_OUTPUT: Fields = {
  ...ADVISORY,
  memory: object(MEMORY_OUTPUT, { description: "The written memory." }),
  invalidated: list(id(), { description: "IF1-CHANGE: the memories this change invalidated." }),
};
const DYNAMIC_PAIR = object({
  truth: DYNAMIC_OUTPUT,
  utility: DYNAMIC_OUTPUT,
  effective_truth: number({ required: true }),
  effective_utility: number({ required: true }),
});
/** What UPDATE (commit and dry_run) answers. */
export const UPDATE_OUTPUT: Fields = {
  ...ADVISORY,
  mode: text({ description: "dry_run | commit" }),
  committed: boolean({ description: "false for a dry run: nothing persisted." }),
  before: DYNAMIC_PAIR,
  after: DYNAMIC_PAIR,
};

const AGENT = { contract: "agent", graphqlNaming: "declared" } as const;
/** GraphQL's agentRead, agentWrite and agentUpdate take the seed-001 document as their `input`. */
export const READ: OperationDeclaration = {
  ...AGENT,
  name: "READ",
  fields: READ_FIELDS,
  graphqlInput: "AgentReadInput",
  description: "memory.read.request (seed 001)",
};
export const WRITE: OperationDeclaration = {
  ...AGENT,
  name: "WRITE",
  fields: WRITE_FIELDS,
  graphqlInput: "AgentWriteInput",
  description: "memory.write.request (seed 001)",
};
export const UPDATE: OperationDeclaration = {
  ...AGENT,
  name: "UPDATE",
  fields: UPDATE_FIELDS,
  graphqlInput: "AgentUpdateInput",
  description: "memory.update.request (seed 001)",
};
