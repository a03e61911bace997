import type { OperationDeclaration } from "../../kernel/declaration";
import { id, integer, text, type Fields } from "../../kernel/fields";

/**
 * The audit contract's declarations. Reasons and notes are declared text, so they meet every
 * detector (the event keeps only a code). The GraphQL arguments are derived from them
 * (src/graphql/derived.ts).
 */
const CODED: Fields = {
  reason: text({ required: true, description: "A code of the policy's reason_codes; any other text is recorded as `other` and kept outside the chain." }),
  note: text({ description: "Free text, judged, kept outside the chain." }),
};
const SUBJECT: Fields = { subjectId: id({ graphqlId: true, description: "One of your token's subjects; default: its first." }) };
const MEMORY_ID: Fields = { memoryId: id({ required: true, graphqlId: true, description: "The memory's id." }) };

export const VERIFY_CHAIN_FIELDS: Fields = { fromSeq: integer(), toSeq: integer() };
export const LIST_CHECKPOINTS_FIELDS: Fields = { afterSeq: integer(), limit: integer() };
export const SUBSCRIBE_EVENTS_FIELDS: Fields = { afterSeq: integer() };
export const EXPORT_EVENTS_FIELDS: Fields = { afterSeq: integer() };
export const ACK_CONFORMANCE_FIELDS: Fields = CODED;
export const ERASE_MEMORY_FIELDS: Fields = { ...MEMORY_ID, ...SUBJECT, ...CODED };
export const ERASE_SUBJECT_FIELDS: Fields = { ...SUBJECT, ...CODED };
export const REAUDIT_STATUS_FIELDS: Fields = {};
export const RELEASE_QUARANTINE_FIELDS: Fields = {
  ...MEMORY_ID,
  ...SUBJECT,
  reason: text({ required: true, description: "Why the memory may be read again." }),
};

const AUDIT = { contract: "audit" } as const;
/** Every audit root field takes its fields as arguments. */
export const VERIFY_CHAIN: OperationDeclaration = { ...AUDIT, name: "VERIFY_CHAIN", fields: VERIFY_CHAIN_FIELDS };
export const LIST_CHECKPOINTS: OperationDeclaration = { ...AUDIT, name: "LIST_CHECKPOINTS", fields: LIST_CHECKPOINTS_FIELDS };
export const SUBSCRIBE_EVENTS: OperationDeclaration = { ...AUDIT, name: "SUBSCRIBE_EVENTS", fields: SUBSCRIBE_EVENTS_FIELDS };
export const ACK_CONFORMANCE: OperationDeclaration = { ...AUDIT, name: "ACK_CONFORMANCE", fields: ACK_CONFORMANCE_FIELDS };
export const ERASE_MEMORY: OperationDeclaration = { ...AUDIT, name: "ERASE_MEMORY", fields: ERASE_MEMORY_FIELDS };
export const ERASE_SUBJECT: OperationDeclaration = { ...AUDIT, name: "ERASE_SUBJECT", fields: ERASE_SUBJECT_FIELDS };
export const RELEASE_QUARANTINE: OperationDeclaration = { ...AUDIT, name: "RELEASE_QUARANTINE", fields: RELEASE_QUARANTINE_FIELDS };
