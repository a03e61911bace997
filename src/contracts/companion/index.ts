import { defineContract, type ContractDeps, type ContractModule } from "../../kernel/contract";
import type { Envelope } from "./envelope";
import { EnvelopeCache } from "./envelope-cache";
import { createGroundingScorer } from "./grounding";
import { companionOperations, type CompanionOperations } from "./operations";
import { CompanionStore } from "./store";
import { CompanionProposalRejudge, CompanionRejudge } from "./store-rejudge";
import { CompanionResolver } from "./resolvers";

/**
 * The companion contract (seed 002, with seed 004 consolidation): facts gated by confidence
 * and grounding, proposals, envelopes and their cache, privacy, decay and erasure, as
 * operations the kernel runs over one store.
 */
export function companionContract(deps: ContractDeps): ContractModule<CompanionOperations> {
  const store = new CompanionStore(deps.db, deps.logger, deps.clock);
  const cache = new EnvelopeCache<Envelope>(deps.clock, deps.config.envelopeCacheSeconds * 1000, deps.config.cacheBudgets.envelopeBytes);
  const operations = companionOperations({
    store,
    scorer: createGroundingScorer(process.env),
    cache,
    policy: deps.policy,
    metrics: deps.metrics,
    logger: deps.logger,
  });
  return { name: "companion", operations, stores: [store], rejudge: [new CompanionRejudge(deps.db, store, cache), new CompanionProposalRejudge(deps.db)] };
}

/** The companion contract as src/contracts/index.ts registers it. */
export const companion = defineContract({ name: "companion", create: companionContract, resolvers: [CompanionResolver] });
