import { defineContract, type ContractDeps, type ContractModule } from "../../kernel/contract";
import { ReauditProgress } from "../../store/log/reaudit";
import { AUDIT_CONTRACT, auditOperations, type AuditOperations } from "./operations";
import { reauditOperations, type ReauditOperations } from "./reaudit";
import { ReauditResolver } from "./reaudit-resolvers";
import { AuditResolver } from "./resolvers";

export type { AuditOperations, CheckpointList, ErasureResult, EventStream } from "./operations";

/**
 * The audit contract: the log's doors and erasure. It keeps no objects of its own (the log
 * is the log's); erasure reaches every other contract through `deps.stores`.
 */
export function auditContract(deps: ContractDeps): ContractModule<AuditOperations & ReauditOperations> {
  return {
    name: AUDIT_CONTRACT,
    operations: {
      ...auditOperations({ log: deps.auditLog, stores: deps.stores }),
      ...reauditOperations({ progress: new ReauditProgress(deps.db), targets: deps.rejudgeTargets ?? [] }),
    },
    stores: [],
  };
}

/** The audit contract as src/contracts/index.ts registers it. */
export const audit = defineContract({ name: "audit", create: auditContract, resolvers: [AuditResolver, ReauditResolver] });
