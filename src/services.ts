import type { AuditService } from "./audit/audit.service";
import type { ErasureService } from "./audit/erasure.service";
import type { AgentMemoryService } from "./contracts/agent.service";
import type { LedgerService } from "./contracts/ledger.service";
import type { CompanionService } from "./contracts/companion.service";
import type { Metrics } from "./kernel/metrics";
import type { PolicyEngine } from "./policy/policy-engine";
import type { Contracts } from "./contracts";
import type { Kernel } from "./kernel/execute";

/** The services the edges call; built once in the composition root. */
export interface Services {
  policy: PolicyEngine;
  /** Runs every operation of every contract; doors call it and nothing else writes. */
  kernel: Kernel;
  /** The contract modules by name; a door finds an operation here and hands it to the kernel. */
  contracts: Contracts;
  ledger: LedgerService;
  audit: AuditService;
  erasure: ErasureService;
  agent: AgentMemoryService;
  companion: CompanionService;
  metrics: Metrics;
}
