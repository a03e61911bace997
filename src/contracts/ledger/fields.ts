import { enumeration, id, list, object, text } from "../../kernel/fields";

/**
 * Every field each operation accepts; bounds in policies/memgate/contracts/ledger/data.json
 * "fields". Free text (the proposed and final texts, the source's id and note) goes through
 * every detector; kind and source type are strings the policy checks against its allowlists (SPEC D3a).
 */
export const PROPOSE_FIELDS = {
  subjectId: id(),
  proposedText: text(),
  kind: enumeration(),
  source: object({ sourceType: enumeration(), sourceId: text(), note: text() }),
};
export const APPROVE_FIELDS = { proposalId: id(), finalText: text() };
export const DECLINE_FIELDS = { proposalId: id() };
export const FORGET_FIELDS = { memoryId: id() };
export const PENDING_FIELDS = { subjectId: id() };
/** LEDGER: reading the ledger, and watching it live (watch.ts), accept the same. */
export const LEDGER_FIELDS = { subjectId: id() };
export const SELECT_FIELDS = { memoryIds: list(id()) };
