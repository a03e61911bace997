/**
 * Apollo Client cache policies for memgate. Every entity is normalised by the id the gateway
 * gives it, so a mutation's answer updates every cached read of that entity (a cached
 * `memory` read shows version 2 after `updateMemory`). Decisions and the values inside them are
 * per call (a decision id is never read twice), so they stay embedded in the field that
 * returned them instead of filling the cache with one object per call.
 * test/client/type-policies.test.ts checks that every object type of the schema is listed here.
 */
import type { InMemoryCacheConfig, TypePolicies } from "@apollo/client";
import { possibleTypes } from "./generated/graphql";

/** Entities: one cache object per id, whatever query or mutation returned them. */
export const ENTITY_KEYS = {
  Memory: ["memoryId"], // mem_<uuid>; an update keeps the id and writes version + 1 (SPEC D2)
  AgentMemoryItem: ["id"], // per-query score and path live on AgentMemoryHit
  Fact: ["memoryId"],
  LedgerItem: ["memoryId"],
  MemoryProposal: ["proposalId"],
  MemoryEvent: ["eventId"],
  AuditCheckpoint: ["tenant", "seq"],
  MemorySettings: ["scope", "subjectId"],
  ContractInfo: [], // one contract in force: a singleton
  LedgerContractInfo: [],
} as const satisfies Record<string, readonly string[]>;

/** Values: per call, or part of the entity or decision they sit in; never normalised. */
export const EMBEDDED_TYPES = [
  // every Decision implementation (its answer to one call)
  ...possibleTypes.Decision,
  "AgentMemoryHit", // one read's score and path for a memory
  "AgentReached",
  "AgentLinks",
  "AgentDynamicValue",
  "AgentDynamicPair", // before/after of a dry run must not overwrite the memory
  "AgentInvalidation",
  "AgentValidationError",
  "CategoryInfo",
  "TtlClassInfo",
  "FieldBound",
  "EnvelopeEntry", // ageDays and addedAt belong to one envelope
  "MemoryEnvelopeBody",
  "EventActor",
  "MemorySelection",
  "MemorySource",
  "Provenance",
  "PrivacySettingsView",
  "ReauditProgress", // a status snapshot: each poll must show the fresh counts
  "ReauditTargetProgress",
  "Me", // the calling token's rights (query { me }): per token, never shared across tokens
] as const;

export const typePolicies: TypePolicies = {
  ...Object.fromEntries(Object.entries(ENTITY_KEYS).map(([type, keyFields]) => [type, { keyFields: [...keyFields] }])),
  ...Object.fromEntries(EMBEDDED_TYPES.map((type) => [type, { keyFields: false as const }])),
};

/** The InMemoryCache options a memgate client needs: `new InMemoryCache(memgateCacheConfig)`. */
export const memgateCacheConfig: InMemoryCacheConfig = { typePolicies, possibleTypes };
