import { id, number, text, type Fields } from "../../kernel/fields";

/** Reasons and notes are declared text, so they meet every detector (the event keeps only a code). */
const CODED = { reason: text(), note: text() };

export const VERIFY_CHAIN_FIELDS: Fields = { fromSeq: number(), toSeq: number() };
export const LIST_CHECKPOINTS_FIELDS: Fields = { afterSeq: number(), limit: number() };
export const SUBSCRIBE_EVENTS_FIELDS: Fields = { afterSeq: number() };
export const EXPORT_EVENTS_FIELDS: Fields = { afterSeq: number() };
export const ACK_CONFORMANCE_FIELDS: Fields = CODED;
export const ERASE_MEMORY_FIELDS: Fields = { memoryId: id(), subjectId: id(), ...CODED };
export const ERASE_SUBJECT_FIELDS: Fields = { subjectId: id(), ...CODED };
export const REAUDIT_STATUS_FIELDS: Fields = {};
export const RELEASE_QUARANTINE_FIELDS: Fields = { memoryId: id(), subjectId: id(), reason: text() };
