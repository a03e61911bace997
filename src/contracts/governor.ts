import { randomUUID } from "node:crypto";
import { principalInput, type Principal } from "../auth/principal";
import type { Clock } from "../clock";
import type { Logger } from "../logger";
import type { PolicyDecision, PolicyEngine } from "../policy/policy-engine";
import type { EventDraft, EventLog, EventType, MemoryEvent } from "../store/event-log";
import { IntegrityError } from "../store/provenance";
import { isStopReason, type CallContext, type Outcome } from "../kernel/outcome";

export interface DecisionRequest {
  operation: string;
  contract: string;
  principal: Principal;
  subjectId: string;
  /** Contract-specific parts of the policy input: item, target, facts, settings, counts ... */
  input: Record<string, unknown>;
}

/** The subject of a tenant-wide operation (an audit query, an acknowledgement): recorded as no subject. */
export const TENANT_SCOPE = "*";

const eventSubject = (subjectId: string): string | null => (subjectId && subjectId !== TENANT_SCOPE ? subjectId : null);

/** What the policy learns about the integrity of a tenant's log (MP-BREAK); see src/audit/integrity-guard.ts. */
export interface IntegrityState {
  inputFor(tenantId: string): { chain_broken: boolean; broken_seq: number | null };
}

export interface Decided {
  decisionId: string;
  decision: PolicyDecision;
  succeeded: boolean;
}

/**
 * What every contract service shares: ask the policy, write the decision's event, and
 * fail closed. Services build the policy input and act on the answer; they never decide.
 */
export class Governor {
  constructor(
    readonly policy: PolicyEngine,
    readonly events: EventLog,
    readonly clock: Clock,
    private readonly logger: Logger,
    /** Optional for backward compatibility; without it every chain counts as intact. */
    private integrity?: IntegrityState,
  ) {}

  /** Wired after construction by the composition root (the guard needs the log first). */
  useIntegrity(integrity: IntegrityState): void {
    this.integrity = integrity;
  }

  decide(request: DecisionRequest): Decided {
    const decision = this.policy.decide({
      operation: request.operation,
      contract: request.contract,
      now_ms: this.clock.now().getTime(),
      principal: principalInput(request.principal),
      subject_id: request.subjectId,
      integrity: this.integrity?.inputFor(request.principal.tenant) ?? { chain_broken: false, broken_seq: null },
      ...request.input,
    });
    if (!isStopReason(decision.stop_reason)) {
      throw new Error(`policy answered an unknown stop reason "${decision.stop_reason}"`);
    }
    return { decisionId: randomUUID(), decision, succeeded: decision.stop_reason.startsWith("SUCCESS_") };
  }

  /**
   * A read-only operation: a refusal is recorded, a success answers what `read` returns,
   * and anything unexpected fails closed.
   */
  async decideRead<T>(request: DecisionRequest, ctx: CallContext, read: () => Promise<T>): Promise<Outcome<T>> {
    try {
      const decided = this.decide(request);
      if (!decided.succeeded) {
        await this.record(request, decided, ctx, "refuse");
        return this.outcome(decided);
      }
      return this.outcome(decided, await read());
    } catch (error) {
      return this.failClosed(error, request, ctx);
    }
  }

  outcome<T>(decided: Decided, value?: T): Outcome<T> {
    return {
      stopReason: decided.decision.stop_reason as Outcome["stopReason"],
      explanations: decided.decision.explanations,
      decisionId: decided.decisionId,
      policyVersion: decided.decision.policy_hash,
      contractVersion: decided.decision.contract_version,
      value,
    };
  }

  /** The event of one decision. `extra` holds what only the caller knows (memory id, digest, metadata). */
  record(
    request: DecisionRequest,
    decided: Decided,
    ctx: CallContext,
    eventType: EventType,
    extra: Partial<Pick<EventDraft, "memory_id" | "content_digest" | "reason" | "metadata">> = {},
  ): Promise<MemoryEvent> {
    return this.events.append({
      tenant_id: request.principal.tenant,
      subject_id: eventSubject(request.subjectId),
      event_type: eventType,
      operation: request.operation,
      contract: request.contract,
      memory_id: extra.memory_id ?? null,
      actor: actorOf(request.principal),
      stop_reason: decided.decision.stop_reason,
      decision_id: decided.decisionId,
      policy_hash: decided.decision.policy_hash,
      contract_version: decided.decision.contract_version,
      request_id: ctx.requestId,
      content_digest: extra.content_digest ?? null,
      reason: extra.reason ?? null,
      metadata: { explanations: decided.decision.explanations, ...extra.metadata },
    });
  }

  /**
   * INV-8: any unexpected error answers INTERNAL_INCONSISTENCY. The error is logged (without
   * content) and, if the log is reachable, recorded as a refusal so the failure is auditable.
   */
  async failClosed<T>(error: unknown, request: Omit<DecisionRequest, "input">, ctx: CallContext): Promise<Outcome<T>> {
    const decisionId = randomUUID();
    const policyVersion = this.policy.hash ?? "none";
    const contractVersion = this.policy.loaded ? this.policy.contract.version : "unknown";
    this.logger.error(
      { err: error, requestId: ctx.requestId, operation: request.operation, contract: request.contract, decisionId },
      "operation failed closed",
    );
    // MP-OBJECT / MP-BREAK: a stored object whose integrity hash no longer matches is a conformance break.
    const broken = error instanceof IntegrityError ? error : undefined;
    try {
      await this.events.append({
        tenant_id: request.principal.tenant,
        subject_id: eventSubject(request.subjectId),
        event_type: broken ? "conformance_break" : "refuse",
        operation: request.operation,
        contract: request.contract,
        memory_id: broken ? broken.memoryId : null,
        actor: actorOf(request.principal),
        stop_reason: "INTERNAL_INCONSISTENCY",
        decision_id: decisionId,
        policy_hash: this.policy.hash ?? null,
        contract_version: this.policy.loaded ? contractVersion : null,
        request_id: ctx.requestId,
        content_digest: null,
        reason: broken ? "integrity_hash_mismatch" : "internal_error",
        metadata: broken
          ? { error: broken.name, collection: broken.collection, object_subject_id: broken.subjectId }
          : { error: error instanceof Error ? error.name : "unknown" },
      });
    } catch (logError) {
      this.logger.error({ err: logError, requestId: ctx.requestId }, "could not record the failure in the event log");
    }
    return {
      stopReason: "INTERNAL_INCONSISTENCY",
      explanations: [broken ? "MP-OBJECT: integrity_hash_mismatch" : "C19-FAIL: internal_error"],
      decisionId,
      policyVersion,
      contractVersion,
    };
  }
}

export function actorOf(principal: Principal): EventDraft["actor"] {
  const automated = principal.roles.some((r) => r === "agent" || r === "adapter" || r === "job");
  return { id: principal.id, roles: principal.roles, kind: automated ? "system" : "human" };
}
