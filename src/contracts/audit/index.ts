import type { ContractDeps, ContractModule } from "../../kernel/contract";
import { AUDIT_CONTRACT, auditOperations, type AuditOperations } from "./operations";

export type { AuditOperations, CheckpointList, ErasureResult, EventStream } from "./operations";

/**
 * The audit contract: the log's doors and erasure. It keeps no objects of its own (the log
 * is the log's); erasure reaches every other contract through `deps.stores`.
 */
export function auditContract(deps: ContractDeps): ContractModule<AuditOperations> {
  return {
    name: AUDIT_CONTRACT,
    operations: auditOperations({ log: deps.auditLog, stores: deps.stores }),
    stores: [],
  };
}
