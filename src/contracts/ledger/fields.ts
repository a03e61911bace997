import type { OperationDeclaration } from "../../kernel/declaration";
import { enumeration, id, list, object, text } from "../../kernel/fields";

/**
 * The ledger's declarations (seed 003): every field each operation accepts, with what the
 * doors publish about it (src/kernel/declaration.ts); bounds in
 * policies/memgate/contracts/ledger/data.json "fields" (checked at start). Free text (the
 * proposed and final texts, the source's id and note) goes through every detector; kind and
 * source type are strings the policy checks against its allowlists (SPEC D3a). Stored text is
 * re-judged under `storedAs`, the record's name for it. The GraphQL inputs and arguments are
 * derived from them (src/graphql/derived.ts).
 */
const SUBJECT = { subjectId: id({ graphqlId: true, description: "One of your token's subjects; default: its first." }) };
export const PROPOSE_FIELDS = {
  ...SUBJECT,
  proposedText: text({ required: true, stored: true, storedAs: "proposed_text", description: "The candidate text, shown to the person verbatim." }),
  kind: enumeration({ required: true, values: "contracts.ledger.kinds", description: "What the memory is: one of the ledger's kinds." }),
  source: object(
    {
      sourceType: enumeration({ required: true, values: "contracts.ledger.source_types", description: "One of the ledger's source types." }),
      sourceId: text({ description: "The source's structure id." }),
      note: text({ description: "A short note on the source. No signal names or scores." }),
    },
    {
      required: true,
      graphqlName: "ProposalSourceInput",
      description: "Provenance: source_type (one of the ledger's source types), source_id, note. No signal names or scores.",
    },
  ),
};
export const APPROVE_FIELDS = {
  proposalId: id({ required: true, graphqlId: true, description: "The proposal approved." }),
  finalText: text({ required: true, stored: true, storedAs: "text", description: "The person's own words, stored verbatim (P54-B)." }),
};
export const DECLINE_FIELDS = { proposalId: id({ required: true, graphqlId: true, description: "The proposal declined." }) };
export const FORGET_FIELDS = { memoryId: id({ required: true, graphqlId: true, description: "The ledger item forgotten." }) };
export const PENDING_FIELDS = SUBJECT;
/** LEDGER: reading the ledger, and watching it live (watch.ts), accept the same. */
export const LEDGER_FIELDS = SUBJECT;
export const SELECT_FIELDS = { memoryIds: list(id({ graphqlId: true }), { required: true, description: "The ledger items selected into the context." }) };

/** A pending proposal as the doors answer it (seed 003 MemoryProposal; GraphQL `MemoryProposal`), shown to its owner verbatim. */
export const PROPOSAL_OUTPUT = {
  proposalId: id({ required: true }),
  subjectId: id({ required: true }),
  proposedText: text({ required: true }),
  kind: text({ required: true }),
  source: object(
    { sourceType: text({ required: true }), sourceId: text(), note: text() },
    { required: true, description: "Where the proposal came from (seed 003 MemorySource)." },
  ),
  createdAt: text({ required: true, description: "ISO 8601" }),
  decision: text({ required: true, description: "pending | approved | declined" }),
};
/** What PROPOSE answers: the proposal held for the person (MISSING_EXPLICIT_CONSENT), or nothing when refused. */
export const PROPOSE_OUTPUT = {
  proposalId: id({ description: "The proposal held for the person's approval; null when refused." }),
  proposal: object(PROPOSAL_OUTPUT, { description: "The pending proposal; null when refused." }),
};

const LEDGER = { contract: "ledger" } as const;
/** PROPOSE takes an `input` object; the others take their fields as arguments. */
export const PROPOSE: OperationDeclaration = { ...LEDGER, name: "PROPOSE", fields: PROPOSE_FIELDS, graphqlInput: "ProposeMemoryInput" };
export const APPROVE: OperationDeclaration = { ...LEDGER, name: "APPROVE", fields: APPROVE_FIELDS };
export const DECLINE: OperationDeclaration = { ...LEDGER, name: "DECLINE", fields: DECLINE_FIELDS };
export const FORGET: OperationDeclaration = { ...LEDGER, name: "FORGET", fields: FORGET_FIELDS };
export const PENDING: OperationDeclaration = { ...LEDGER, name: "PENDING", fields: PENDING_FIELDS };
export const LEDGER_LIST: OperationDeclaration = { ...LEDGER, name: "LEDGER", fields: LEDGER_FIELDS };
export const SELECT: OperationDeclaration = { ...LEDGER, name: "SELECT", fields: SELECT_FIELDS };
