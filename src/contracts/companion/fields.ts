import { boolean, enumeration, id, list, number, text, type Fields } from "../../kernel/fields";

/** What each operation accepts; one bound per name in policies/memgate/contracts/companion/data.json "fields". */
export const ADD_FACT_FIELDS: Fields = {
  subjectId: id(),
  type: enumeration(),
  text: text(),
  confidence: number(),
  source: enumeration(),
  summary: text(),
  origin: enumeration(),
  supersedes: id(),
  sourceRefs: list(text()),
  validTo: id(),
};
export const CONFIRM_PROPOSAL_FIELDS: Fields = { subjectId: id(), proposalId: id() };
export const FORGET_FACT_FIELDS: Fields = { subjectId: id(), memoryId: id() };
export const ENVELOPE_FIELDS: Fields = { subjectId: id(), purpose: enumeration(), skipCache: boolean(), includeNarrative: boolean() };
export const SET_PRIVACY_FIELDS: Fields = {
  subjectId: id(),
  memoryEnabled: boolean(),
  learnPatterns: boolean(),
  shareWith: list(text()),
  anonymizeDates: boolean(),
  deleteAfterDays: number(),
};
export const ERASE_FIELDS: Fields = { subjectId: id() };
export const DECAY_FIELDS: Fields = {};
export const CONSOLIDATE_FIELDS: Fields = { subjectId: id(), memoryIds: list(id()), text: text(), type: enumeration(), justification: text() };
