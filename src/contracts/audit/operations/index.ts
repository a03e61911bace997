import { acknowledgeBreak } from "./ack-conformance";
import { eraseMemory } from "./erase-memory";
import { eraseSubject } from "./erase-subject";
import { exportEvents } from "./export-events";
import { listCheckpoints } from "./list-checkpoints";
import type { AuditOperationDeps } from "./shared";
import { subscribeEvents } from "./subscribe-events";
import { verifyChain } from "./verify-chain";

export { AUDIT_CONTRACT } from "./shared";
export type {
  AcknowledgeRequest,
  AuditExport,
  AuditOperationDeps,
  CheckpointList,
  EraseMemoryRequest,
  EraseSubjectRequest,
  ErasureResult,
  EventsAfterRequest,
  EventStream,
  ListCheckpointsRequest,
  VerifyChainRequest,
} from "./shared";

/**
 * The audit contract (issue 5, issue 11), one file per operation: the auditor's doors to the
 * log (verification, checkpoints, the live stream, the export), an admin's acknowledgement of
 * a conformance break (MP-BREAK), and erasure on the subject's request (SPEC D1), which
 * reaches every contract through its ContractStore. The policy decides each operation
 * (policies/memgate/contracts/audit); reasons are declared text, so they meet every detector.
 */
export function auditOperations(deps: AuditOperationDeps) {
  const { log } = deps;
  return {
    verifyChain: verifyChain(log),
    listCheckpoints: listCheckpoints(log),
    subscribeEvents: subscribeEvents(log),
    exportEvents: exportEvents(log),
    acknowledgeBreak: acknowledgeBreak(log),
    eraseMemory: eraseMemory(deps),
    eraseSubject: eraseSubject(deps),
  };
}

export type AuditOperations = ReturnType<typeof auditOperations>;
