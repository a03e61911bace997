import { defineContract, type ContractDeps, type ContractModule } from "../../kernel/contract";
import { governedOperations, type GovernedOperations } from "./operations";
import { GovernedStore } from "./store";
import { GovernedRejudge, GovernedVersionRejudge } from "./store-rejudge";
import { GovernedResolver } from "./resolvers";

/**
 * The Phase 19 memory contract (seed 000): STORE, UPDATE, DELETE, READ, LIST of governed
 * items, and the settings behind POLICY_DISABLED and ENTITLEMENT_CAP.
 * Policy: policies/memgate/contracts/governed/ and the item checks in policies/memgate/checks/.
 */
export function governedContract(deps: ContractDeps): ContractModule<GovernedOperations> & { store: GovernedStore } {
  const store = new GovernedStore(deps.db, deps.logger, deps.clock);
  return {
    name: "governed",
    operations: governedOperations(store),
    stores: [store],
    store,
    rejudge: [new GovernedRejudge(deps.db), new GovernedVersionRejudge(deps.db)],
  };
}

/** The governed contract as src/contracts/index.ts registers it. */
export const governed = defineContract({ name: "governed", create: governedContract, resolvers: [GovernedResolver] });
