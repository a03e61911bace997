import type { GovernedMemoryService } from "./contracts/governed.service";
import type { LedgerService } from "./contracts/ledger.service";
import type { PolicyEngine } from "./policy/policy-engine";

/** The services the edges call; built once in the composition root. */
export interface Services {
  policy: PolicyEngine;
  governed: GovernedMemoryService;
  ledger: LedgerService;
}
