import type { EventActor, EventLog, MemoryEvent } from "../event-log";
import type { ChainAuditor } from "./chain-auditor";
import type { Checkpointer } from "./checkpoints";
import type { ChainSweep } from "./chain-sweep";
import type { EventSource } from "./event-source";
import type { ReasonNotes } from "./reason-notes";
import type { ChainVerification } from "./verify";

/** A tenant's chain breaks as the audit contract sees them (MP-BREAK); the integrity guard (src/jobs/integrity-guard.ts) keeps them. */
export interface IntegrityBreaks {
  refresh(): Promise<void>;
  breakOf(tenantId: string): { seq: number; reason: string | null } | null;
  acknowledgedSeqs(tenantId: string): Set<number>;
  reportBreak(result: ChainVerification, detectedBy: string): Promise<MemoryEvent | null>;
  acknowledge(tenantId: string, actor: EventActor, reason: string): Promise<number | null>;
  unacknowledge(tenantId: string, seq: number): Promise<void>;
}

/** What the audit contract's operations read and act on (ContractDeps.auditLog). */
export interface AuditLog {
  readonly events: EventLog;
  readonly auditor: ChainAuditor;
  readonly checkpointer: Checkpointer;
  readonly guard: IntegrityBreaks;
  readonly source: EventSource;
  readonly sweep: ChainSweep;
  /** Free-text notes beside reason codes, outside the chain (issue 22 §4). */
  readonly notes: ReasonNotes;
}
