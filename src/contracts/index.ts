import type { ContractDeps } from "../kernel/contract";
import { agentContract } from "./agent";
import { auditContract } from "./audit";
import { companionContract } from "./companion";
import { ledgerContract } from "./ledger";
import { governedContract } from "./governed";

/**
 * Every contract of the gateway, one line each. The composition root builds them with the
 * same dependencies; their stores are then reachable by repair and erasure, and the doors
 * find their operations here (typed) to hand them to the kernel.
 */
export function createContracts(deps: ContractDeps) {
  return {
    companion: companionContract(deps),
    audit: auditContract(deps),
    ledger: ledgerContract(deps),
    agent: agentContract(deps),
    governed: governedContract(deps),
  };
}

export type Contracts = ReturnType<typeof createContracts>;
