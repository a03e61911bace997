import type { OperationDeclaration } from "../../kernel/declaration";
import { boolean, enumeration, id, integer, list, number, object, text, type Fields } from "../../kernel/fields";

/**
 * The companion contract's declarations (seed 002, seed 004 consolidation): what each operation
 * accepts, with what the doors publish about it (src/kernel/declaration.ts); one bound per name
 * in policies/memgate/contracts/companion/data.json "fields" (checked at start). A fact's text
 * and a consolidation's justification are stored and re-judged. The GraphQL inputs and arguments
 * are derived from them (src/graphql/derived.ts).
 */
const SUBJECT: Fields = { subjectId: id({ graphqlId: true, description: "One of your token's subjects; default: its first." }) };
export const ADD_FACT_FIELDS: Fields = {
  ...SUBJECT,
  type: enumeration({ required: true, values: "contracts.companion.fact_types", description: "One of the contract's fact types." }),
  text: text({ required: true, stored: true, description: "The fact." }),
  confidence: number({ required: true, description: "How sure the extraction is, 0..1." }),
  source: enumeration({ required: true, values: "contracts.companion.sources", description: "How the fact was obtained." }),
  summary: text({ required: true, description: "The conversation summary the fact was extracted from (SG-GROUND)." }),
  origin: enumeration({ values: "contracts.companion.origins", description: "Who sent the fact." }),
  supersedes: id({ graphqlId: true, description: "A fact this one supersedes (same type and text, another confidence)." }),
  sourceRefs: list(text(), { description: "Structure ids of the sources (seed 004)." }),
  validTo: id({ description: "ISO 8601: the fact holds until then (MP-TEMPORAL)." }),
};
export const CONFIRM_PROPOSAL_FIELDS: Fields = { ...SUBJECT, proposalId: id({ required: true, graphqlId: true }) };
export const FORGET_FACT_FIELDS: Fields = { ...SUBJECT, memoryId: id({ required: true, graphqlId: true }) };
export const ENVELOPE_FIELDS: Fields = {
  ...SUBJECT,
  purpose: enumeration({
    required: true,
    values: "contracts.companion.purposes",
    choices: ["RESPONSE", "PERMISSION", "PRICING", "MODERATION", "ESCALATION"],
    graphqlName: "EnvelopePurpose",
    description: "Why you need it; PERMISSION, PRICING, MODERATION and ESCALATION are power decisions (SG-WARMTH).",
  }),
  skipCache: boolean({ description: "Read the facts again instead of the cached envelope." }),
  includeNarrative: boolean({ description: "Asking for SHARED_NARRATIVE with a power purpose is refused (SG-WARMTH)." }),
};
export const SET_PRIVACY_FIELDS: Fields = {
  ...SUBJECT,
  memoryEnabled: boolean(),
  learnPatterns: boolean(),
  shareWith: list(text(), { description: "Agent types (the agent_type token claim) that may read envelopes; empty: all." }),
  anonymizeDates: boolean(),
  deleteAfterDays: integer(),
};
export const ERASE_FIELDS: Fields = SUBJECT;
export const DECAY_FIELDS: Fields = {};
export const CONSOLIDATE_FIELDS: Fields = {
  ...SUBJECT,
  memoryIds: list(id({ graphqlId: true }), { required: true, description: "The facts merged." }),
  text: text({ required: true, stored: true, description: "The consolidated statement." }),
  type: enumeration({ required: true, values: "contracts.companion.fact_types", description: "One of the contract's fact types." }),
  justification: text({ required: true, stored: true, description: "Why the facts say this together." }),
};

/** A fact as the doors answer it (GraphQL `Fact`). */
export const FACT_OUTPUT: Fields = {
  memoryId: id({ required: true }),
  subjectId: id({ required: true }),
  type: text({ required: true }),
  text: text({ required: true }),
  confidence: number({ required: true }),
  source: text({ required: true }),
  statementType: text({ required: true, description: "seed 004 statement type." }),
  sourceRefs: list(text(), { required: true }),
  status: text({ required: true }),
  supersedes: id(),
  consolidatedFrom: list(id()),
  createdAt: text({ required: true, description: "ISO 8601" }),
  expiresAt: text({ required: true, description: "ISO 8601" }),
  validTo: text({ description: "ISO 8601" }),
  temporalScope: text({ required: true }),
  advisory: boolean({ required: true, description: "Always true (SG-ADVISORY)." }),
};
/** What ADD_FACT answers: the stored fact, or the proposal held for the person's confirmation. */
export const ADD_FACT_OUTPUT: Fields = {
  fact: object(FACT_OUTPUT, { description: "The stored fact; null when held or refused." }),
  proposalId: id({ description: "Set with MISSING_EXPLICIT_CONSENT: the proposal held for confirmation." }),
};
const ENVELOPE_ENTRY: Fields = {
  memoryId: id({ required: true }),
  text: text({ required: true }),
  confidence: number({ required: true }),
  ageDays: integer({ required: true }),
  addedAt: text({ required: true, description: "ISO 8601; the day only when the subject asked to anonymize dates" }),
  advisory: boolean({ required: true, description: "Always true (SG-ADVISORY)" }),
};
/** What ENVELOPE answers (GraphQL `MemoryEnvelopeBody`): the subject's active facts by type, advisory context only. */
export const ENVELOPE_OUTPUT: Fields = {
  envelope: object(
    {
      subjectId: id({ required: true }),
      purpose: text({ required: true }),
      generatedAt: text({ required: true, description: "ISO 8601" }),
      cached: boolean({ required: true }),
      advisory: boolean({ required: true }),
      userFacts: list(object(ENVELOPE_ENTRY), { required: true }),
      userPatterns: list(object(ENVELOPE_ENTRY), { required: true }),
      sharedNarrative: list(object(ENVELOPE_ENTRY), { description: "null for power purposes: left out by construction (SG-WARMTH)" }),
    },
    { description: "user_facts, user_patterns, shared_narrative; null when refused." },
  ),
};

const COMPANION = { contract: "companion" } as const;
/** ADD_FACT, SET_PRIVACY and CONSOLIDATE take an `input` object; the others take their fields as arguments. */
export const ADD_FACT: OperationDeclaration = {
  ...COMPANION,
  name: "ADD_FACT",
  fields: ADD_FACT_FIELDS,
  graphqlInput: "AddFactInput",
  description: "A fact about a person, extracted from a conversation summary (seed 002).",
};
export const CONFIRM_PROPOSAL: OperationDeclaration = { ...COMPANION, name: "CONFIRM_PROPOSAL", fields: CONFIRM_PROPOSAL_FIELDS };
export const FORGET_FACT: OperationDeclaration = { ...COMPANION, name: "FORGET_FACT", fields: FORGET_FACT_FIELDS };
export const ENVELOPE: OperationDeclaration = { ...COMPANION, name: "ENVELOPE", fields: ENVELOPE_FIELDS };
export const SET_PRIVACY: OperationDeclaration = { ...COMPANION, name: "SET_PRIVACY", fields: SET_PRIVACY_FIELDS, graphqlInput: "PrivacyInput" };
export const ERASE: OperationDeclaration = { ...COMPANION, name: "ERASE", fields: ERASE_FIELDS };
export const CONSOLIDATE: OperationDeclaration = { ...COMPANION, name: "CONSOLIDATE", fields: CONSOLIDATE_FIELDS, graphqlInput: "ConsolidateInput" };
