/**
 * Apollo Client cache policies for memgate. Every entity is normalised by the id the gateway
 * gives it, so a mutation's answer updates every cached read of that entity (a cached
 * `memory` read shows version 2 after `updateMemory`). Decisions and the values inside them are
 * per call (a decision id is never read twice), so they stay embedded in the field that
 * returned them instead of filling the cache with one object per call.
 * test/client/type-policies.test.ts checks that every object type of the schema is listed here.
 */
import type { ApolloCache, InMemoryCacheConfig, TypePolicies } from "@apollo/client";
import { possibleTypes, type StopReason } from "./generated/graphql";
import { isSuccessStopReason } from "./results";

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
  "LedgerChange", // one notice of the ledger's live stream (subscription ledgerChanges)
] as const;

export const typePolicies: TypePolicies = {
  ...Object.fromEntries(Object.entries(ENTITY_KEYS).map(([type, keyFields]) => [type, { keyFields: [...keyFields] }])),
  ...Object.fromEntries(EMBEDDED_TYPES.map((type) => [type, { keyFields: false as const }])),
};

/** The InMemoryCache options a memgate client needs: `new InMemoryCache(memgateCacheConfig)`. */
export const memgateCacheConfig: InMemoryCacheConfig = { typePolicies, possibleTypes };

/**
 * What a mutation's answer removes from or adds to cached lists, for a normalised cache. The
 * entity answers update themselves (keyFields above); what a mutation ends is evicted, and
 * Apollo Client then leaves the dangling reference out of every cached list and refetches a
 * watched single read of it:
 *   deleteMemory     evicts the Memory (its answer's memoryId; a deleted item's content is never returned, SPEC D1): `memory(id)` refetches
 *                    and answers NOT_FOUND, every `memories` list drops it.
 *   approveProposal  evicts the approved MemoryProposal (pending lists drop it) and the cached
 *                    `ledger` lists, which refetch with the new item.
 *   declineProposal  evicts the MemoryProposal.
 *   forgetMemory     evicts the LedgerItem: every `ledger` list drops it.
 *   storeMemory,     evict the cached `memories` / `pendingProposals` lists, which refetch with
 *   proposeMemory    the new entity (a list's order and page are the gateway's to decide).
 * A refusal or a held write changed nothing and touches nothing. `mutate` (client.ts) applies
 * this to every mutation; with Apollo's own `useMutation` / `client.mutate` pass it as `update`.
 */
export function memgateUpdate(cache: ApolloCache, result: { data?: unknown }): void {
  const data = result.data;
  if (typeof data !== "object" || data === null) return;
  let changed = false;
  const evict = (options: { id?: string; fieldName?: string }) => {
    changed = cache.evict(options) || changed;
  };
  for (const [field, answer] of Object.entries(data as Record<string, MutationAnswer | null>)) {
    if (!answer || typeof answer.stopReason !== "string" || !isSuccessStopReason(answer.stopReason as StopReason)) continue;
    switch (field) {
      case "deleteMemory":
        if (answer.memoryId) evict({ id: cache.identify({ __typename: "Memory", memoryId: answer.memoryId }) });
        break;
      case "approveProposal":
        if (answer.memory?.proposalId) evict({ id: cache.identify({ __typename: "MemoryProposal", proposalId: answer.memory.proposalId }) });
        evict({ id: "ROOT_QUERY", fieldName: "ledger" });
        break;
      case "declineProposal":
        if (answer.proposalId) evict({ id: cache.identify({ __typename: "MemoryProposal", proposalId: answer.proposalId }) });
        break;
      case "forgetMemory":
        if (answer.memoryId) evict({ id: cache.identify({ __typename: "LedgerItem", memoryId: answer.memoryId }) });
        break;
      case "storeMemory":
        evict({ id: "ROOT_QUERY", fieldName: "memories" });
        break;
      case "proposeMemory":
        evict({ id: "ROOT_QUERY", fieldName: "pendingProposals" });
        break;
    }
  }
  if (changed) cache.gc();
}

/** The parts of a mutation's answer memgateUpdate reads. */
interface MutationAnswer {
  stopReason?: unknown;
  proposalId?: string | null;
  memoryId?: string | null;
  memory?: { memoryId?: string | null; proposalId?: string | null } | null;
}
