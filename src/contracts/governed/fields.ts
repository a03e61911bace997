import type { OperationDeclaration } from "../../kernel/declaration";
import { boolean, enumeration, id, integer, json, list, object, text, type Fields } from "../../kernel/fields";

/**
 * The governed contract's declarations (seed 000 §2.1): every field each operation accepts, with
 * what the doors publish about it (src/kernel/declaration.ts derives the MCP schemas, re-judging
 * reads the `stored` text, erasure removes the `stored` fields); one bound per name in
 * policies/memgate/contracts/governed/data.json "fields" (checked at start). Key, value, source
 * ref and the consent's evidence are free text (every detector runs over them), like a DELETE reason.
 * The GraphQL inputs are derived from them too (src/graphql/derived.ts): a stored text field
 * added to ITEM reaches GraphQL, MCP, the record, re-judging and erasure with no other edit.
 */
const SUBJECT: Fields = {
  subject_id: id({
    graphqlId: true,
    description:
      "One of your token's subjects (see the memgate://me resource); default: its first. An argument can only narrow what the token holds (SPEC D5).",
  }),
};
const ITEM: Fields = {
  ...SUBJECT,
  category: enumeration({
    required: true,
    values: "contract.categories",
    description: "One of the contract's categories (GraphQL `contract { categories }`).",
  }),
  key: text({ required: true, stored: true, description: "A short key naming the item, e.g. preferred_language." }),
  value: text({ required: true, stored: true, description: "The content. Forbidden categories of content and injection attempts are refused." }),
  source_kind: enumeration({ required: true, values: "contract.source_kinds", description: "One of the contract's source kinds, e.g. USER_STATED." }),
  ttl_class: enumeration({ required: true, values: "contract.ttl_classes", description: "One of the category's TTL classes." }),
  source_ref: text({ stored: true, description: "Structure ids only, never content (seed 000 §5.1)." }),
  origin: enumeration({
    default: "USER",
    choices: ["USER", "SYSTEM", "TOOL_OUTPUT"],
    graphqlName: "Origin",
    description: "Where the write comes from: USER, SYSTEM or TOOL_OUTPUT (refused, seed 000 §4.9). Default USER.",
  }),
  consent: object(
    {
      explicit: boolean({ description: "The person asked for this memory." }),
      evidence_ref: text({ stored: true, description: "Where the person's request can be found (a structure id)." }),
    },
    { graphqlName: "ConsentInput", description: "Evidence that the person asked for this memory (required by some categories)." },
  ),
};
const MEMORY_ID: Fields = { memory_id: id({ required: true, graphqlId: true, description: "The item's id." }) };
export const STORE_FIELDS: Fields = ITEM;
export const UPDATE_FIELDS: Fields = {
  ...ITEM,
  ...MEMORY_ID,
  expected_version: integer({ description: "The version you read; if another write superseded it, the answer is NOT_FOUND." }),
};
export const DELETE_FIELDS: Fields = {
  ...SUBJECT,
  ...MEMORY_ID,
  reason: text({ stored: true, storedAs: "delete_reason", description: "Why (kept with the deleted item as delete_reason, erased with it)." }),
  expected_version: integer({ description: "The version you read." }),
};
export const READ_FIELDS: Fields = { ...SUBJECT, ...MEMORY_ID };
export const LIST_FIELDS: Fields = {
  ...SUBJECT,
  category: enumeration({ values: "contract.categories", description: "Only this category." }),
  key: text({ description: "Only the items stored under this key (a lookup by the caller's own key)." }),
  limit: integer({ description: "Page size (policy data: list_limit_max)." }),
  after: id({ description: "next_cursor of the previous page." }),
};
export const SET_SETTINGS_FIELDS: Fields = {
  subject_id: id({ graphqlId: true, description: "Absent: the whole tenant. A subject's setting overrides the tenant's." }),
  enabled: boolean({ description: "false: every memory operation answers POLICY_DISABLED" }),
  max_items_per_subject: integer(),
  max_writes_per_window: integer({ description: "Writes (STORE, UPDATE) per subject per window (policy data: window_seconds)" }),
};

const GOVERNED = { contract: "governed" } as const;
/** STORE and UPDATE take an `input` object; DELETE, READ and LIST take their fields as arguments. */
export const STORE: OperationDeclaration = { ...GOVERNED, name: "STORE", fields: STORE_FIELDS, graphqlInput: "StoreMemoryInput" };
export const UPDATE: OperationDeclaration = { ...GOVERNED, name: "UPDATE", fields: UPDATE_FIELDS, graphqlInput: "UpdateMemoryInput" };
export const DELETE: OperationDeclaration = { ...GOVERNED, name: "DELETE", fields: DELETE_FIELDS };
export const READ: OperationDeclaration = { ...GOVERNED, name: "READ", fields: READ_FIELDS };
export const LIST: OperationDeclaration = { ...GOVERNED, name: "LIST", fields: LIST_FIELDS };
export const SET_SETTINGS: OperationDeclaration = {
  ...GOVERNED,
  name: "SET_SETTINGS",
  fields: SET_SETTINGS_FIELDS,
  graphqlInput: "MemorySettingsInput",
  description: "C19-POLICY / C19-CAP, for the admin role. Absent values stay as they are.",
};

/** What governed answers about an item (the MCP tools' `memory`; the GraphQL `Memory` type names the same fields in camelCase). */
export const MEMORY_OUTPUT: Fields = {
  memory_id: id({ required: true, description: "The item's id." }),
  subject_id: id({ required: true }),
  version: integer({ required: true, description: "Content is never changed in place: an update writes version + 1 (SPEC D2)." }),
  category: text({ required: true }),
  key: text({ required: true }),
  value: text({ required: true }),
  source_kind: text({ required: true }),
  ttl_class: text({ required: true }),
  source_ref: text(),
  created_at: text({ required: true, description: "ISO 8601" }),
  updated_at: text({ required: true, description: "ISO 8601" }),
  expires_at: text({ required: true, description: "ISO 8601; the item is not read or listed from then on" }),
  advisory: boolean({ required: true, description: "Always true: memory informs, it never decides (SG-ADVISORY)." }),
  provenance: json({ description: "MP-OBJECT provenance and integrity hash (seed 004)." }),
};

/** What STORE, UPDATE, DELETE and READ answer (the MCP tools' `memory`): the item, null when the policy refused. */
export const ITEM_OUTPUT: Fields = {
  memory: object(MEMORY_OUTPUT, { description: "The item (a write: its new version; DELETE: its last version); null when refused." }),
};

/** What LIST answers: a page of live items, newest first. */
export const LIST_OUTPUT: Fields = {
  memories: list(object(MEMORY_OUTPUT), { description: "The page; empty when refused." }),
  next_cursor: id({ description: "Pass as `after` for the next page; null on the last." }),
};
