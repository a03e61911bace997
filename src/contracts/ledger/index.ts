import { defineContract, type ContractDeps, type ContractModule } from "../../kernel/contract";
import { ledgerOperations, type LedgerOperations } from "./operations";
import { LedgerStore } from "./store";
import { LedgerItemRejudge, LedgerProposalRejudge } from "./store-rejudge";
import { ledgerWatch } from "./watch";
import { LedgerResolver } from "./resolvers";

/**
 * The person's ledger (seed 003, P54-*): proposals held for their owner, approved in the
 * owner's words into a verbatim ledger, declined without a trace, forgotten, and selected
 * explicitly into a context. Policy: policies/memgate/contracts/ledger/.
 */
export function ledgerContract(deps: ContractDeps): ContractModule<LedgerOperations & { watch: ReturnType<typeof ledgerWatch> }> {
  const store = new LedgerStore(deps.db);
  return {
    name: "ledger",
    operations: { ...ledgerOperations(store), watch: ledgerWatch(deps.auditLog) },
    stores: [store],
    rejudge: [new LedgerItemRejudge(deps.db), new LedgerProposalRejudge(deps.db)],
  };
}

/** The ledger contract as src/contracts/index.ts registers it. */
export const ledger = defineContract({ name: "ledger", create: ledgerContract, resolvers: [LedgerResolver] });
