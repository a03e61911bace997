import type { Principal } from "../auth/principal";
import { TENANT_SCOPE, type DecisionRequest, type Governor } from "../contracts/governor";
import type { CallContext, Outcome } from "../kernel/outcome";
import type { EventLog, MemoryEvent } from "../store/event-log";
import type { ChainAuditor } from "./chain-auditor";
import type { Checkpoint, Checkpointer } from "./checkpoints";
import type { EventSource } from "./event-source";
import type { IntegrityGuard } from "./integrity-guard";
import type { ChainVerification } from "./verify";

export const AUDIT_CONTRACT = "audit";

export interface CheckpointList {
  publicKeyPem: string;
  keyId: string;
  checkpoints: Checkpoint[];
}

const EXPORT_PAGE = 500;

/**
 * The auditor's doors to the log (issue 5): verification, checkpoints, the live stream and
 * the export, plus an admin's acknowledgement of a conformance break. The policy decides
 * each (policies/memgate/operations/audit); refusals are results and leave a refuse event.
 */
export class AuditService {
  constructor(
    private readonly governor: Governor,
    private readonly log: EventLog,
    private readonly auditor: ChainAuditor,
    private readonly checkpointer: Checkpointer,
    private readonly source: EventSource,
    private readonly guard: IntegrityGuard,
  ) {}

  async verify(principal: Principal, args: { fromSeq?: number | null; toSeq?: number | null }, ctx: CallContext): Promise<Outcome<ChainVerification>> {
    const base = this.base("VERIFY_CHAIN", principal);
    try {
      const request: DecisionRequest = { ...base, input: { range: { from_seq: args.fromSeq ?? null, to_seq: args.toSeq ?? null } } };
      const decided = await this.decideOrRefuse(request, ctx, { from_seq: args.fromSeq ?? null, to_seq: args.toSeq ?? null });
      if (!decided.succeeded) return this.governor.outcome(decided);
      const result = await this.auditor.verify(principal.tenant, args);
      // MP-BREAK: an unverifiable log is a conformance break, however it was found.
      if (!result.ok) await this.guard.reportBreak(result, "verifyAuditChain");
      return this.governor.outcome(decided, result);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async checkpoints(principal: Principal, args: { afterSeq?: number | null; limit?: number | null }, ctx: CallContext): Promise<Outcome<CheckpointList>> {
    const base = this.base("LIST_CHECKPOINTS", principal);
    try {
      const limit = args.limit ?? 100;
      const request: DecisionRequest = { ...base, input: { list: { after_seq: args.afterSeq ?? 0, limit } } };
      const decided = await this.decideOrRefuse(request, ctx, { limit });
      if (!decided.succeeded) return this.governor.outcome(decided);
      const checkpoints = await this.checkpointer.list(principal.tenant, args.afterSeq ?? 0, limit);
      return this.governor.outcome(decided, { publicKeyPem: this.checkpointer.key.publicKeyPem, keyId: this.checkpointer.key.keyId, checkpoints });
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** The live, resumable stream: every event after `afterSeq`, in order, then live ones. */
  async subscribe(principal: Principal, afterSeq: number | null | undefined, signal: AbortSignal, ctx: CallContext): Promise<Outcome<AsyncIterable<MemoryEvent>>> {
    const base = this.base("SUBSCRIBE_EVENTS", principal);
    try {
      const request: DecisionRequest = { ...base, input: { stream: { after_seq: afterSeq ?? 0 } } };
      const decided = await this.decideOrRefuse(request, ctx, { after_seq: afterSeq ?? 0 });
      if (!decided.succeeded) return this.governor.outcome(decided);
      return this.governor.outcome(decided, this.source.stream(principal.tenant, afterSeq ?? 0, signal));
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** NDJSON export: every event after `afterSeq` up to the head as it is when the export starts. */
  async export(principal: Principal, afterSeq: number, ctx: CallContext): Promise<Outcome<AsyncIterable<MemoryEvent>>> {
    const base = this.base("EXPORT_EVENTS", principal);
    try {
      const request: DecisionRequest = { ...base, input: { stream: { after_seq: afterSeq } } };
      const decided = await this.decideOrRefuse(request, ctx, { after_seq: afterSeq });
      if (!decided.succeeded) return this.governor.outcome(decided);
      const head = await this.log.head(principal.tenant);
      const log = this.log;
      const tenant = principal.tenant;
      async function* events(): AsyncIterable<MemoryEvent> {
        for (let seq = afterSeq + 1; seq <= head.seq; seq += EXPORT_PAGE) {
          yield* await log.range(tenant, seq, Math.min(head.seq, seq + EXPORT_PAGE - 1), EXPORT_PAGE);
        }
      }
      return this.governor.outcome(decided, events());
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** MP-BREAK: an admin acknowledges the tenant's conformance break; writes are accepted again. */
  async acknowledgeBreak(principal: Principal, args: { reason: string }, ctx: CallContext): Promise<Outcome<number>> {
    const base = this.base("ACK_CONFORMANCE", principal);
    try {
      const reason = args.reason ?? "";
      const request: DecisionRequest = { ...base, input: { reason, texts: { reason }, facts: { findings: [] } } };
      const decided = await this.decideOrRefuse(request, ctx, { reason_length: reason.length });
      if (!decided.succeeded) return this.governor.outcome(decided);
      const seq = await this.guard.acknowledge(principal.tenant, { id: principal.id, roles: principal.roles, kind: "human" }, reason);
      await this.governor.record(request, decided, ctx, "settings_change", { reason, metadata: { acknowledged_break_seq: seq } });
      return this.governor.outcome(decided, seq ?? 0);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  private base(operation: string, principal: Principal) {
    return { operation, contract: AUDIT_CONTRACT, principal, subjectId: TENANT_SCOPE };
  }

  private async decideOrRefuse(request: DecisionRequest, ctx: CallContext, metadata: Record<string, unknown>) {
    const decided = this.governor.decide(request);
    if (!decided.succeeded) await this.governor.record(request, decided, ctx, "refuse", { metadata });
    return decided;
  }
}
