import type { LedgerStore } from "../store";
import { approve } from "./approve";
import { decline } from "./decline";
import { forget } from "./forget";
import { list } from "./ledger";
import { pending } from "./pending";
import { propose } from "./propose";
import { selectedContext } from "./select";

export type { ApproveRequest, DeclineRequest, ForgetRequest, ListRequest, ProposeRequest, SelectedMemoryContext, SelectRequest } from "./shared";

/**
 * The person's ledger (seed 003) as declared operations, one file each: proposal -> edit ->
 * approve or decline, a verbatim ledger, forgetting and explicit selection. The kernel runs
 * the lifecycle; the policy decides (a proposal's success, MISSING_EXPLICIT_CONSENT, is outcome
 * `hold`); these only say what to read, what the policy sees and what to write.
 */
export function ledgerOperations(store: LedgerStore) {
  return {
    propose: propose(store),
    pending: pending(store),
    approve: approve(store),
    decline: decline(store),
    list: list(store),
    forget: forget(store),
    selectedContext: selectedContext(store),
  };
}

export type LedgerOperations = ReturnType<typeof ledgerOperations>;
