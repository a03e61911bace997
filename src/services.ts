import type { AuditService } from "./audit/audit.service";
import type { ErasureService } from "./audit/erasure.service";
import type { AgentMemoryService } from "./contracts/agent.service";
import type { GovernedMemoryService } from "./contracts/governed.service";
import type { LedgerService } from "./contracts/ledger.service";
import type { PolicyEngine } from "./policy/policy-engine";

/** The services the edges call; built once in the composition root. */
export interface Services {
  policy: PolicyEngine;
  governed: GovernedMemoryService;
  ledger: LedgerService;
  audit: AuditService;
  erasure: ErasureService;
  agent: AgentMemoryService;
}
