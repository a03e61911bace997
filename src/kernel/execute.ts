import { randomUUID } from "node:crypto";
import { actorKind, principalInput, subjectOf, type Principal } from "../auth/principal";
import type { Clock } from "../clock";
import type { DetectorSuite } from "../detectors/detector";
import type { Logger } from "../logger";
import type { PolicyEngine } from "../policy/policy-engine";
import type { EventActor, MemoryEvent } from "../store/event-log";
import { isOutcome, isPointedError, type Decision, type DecisionDetail } from "./decision";
import { parseFields, wellFormed, type FieldFact } from "./fields";
import type { Metrics } from "./metrics";
import { TENANT_SCOPE, type Operation, type OperationContext } from "./operation";
import { isStopReason, type CallContext, type Outcome } from "./outcome";
import type { EventAppender, StoreFaults } from "./ports";
import { JobWrites, Writes, type CreatedObject, type EventPart } from "./write-set";
import {
  idempotencyId,
  IdempotencyInProgressError,
  IdempotencyKeyReusedError,
  requestFingerprint,
  type FinishedAttempt,
  type IdempotencyStore,
  type ReservedObject,
} from "./idempotency";

/** What the policy learns about the integrity of a tenant's log (MP-BREAK); see src/jobs/integrity-guard.ts. */
export interface IntegrityState {
  inputFor(tenantId: string): { chain_broken: boolean; broken_seq: number | null };
  /** Resolves once the tenant's chain has been checked since the process started; undefined when it has been. */
  checked(tenantId: string): Promise<void> | undefined;
}

/** Whether the database can be reached now (the driver's monitoring and the embedded one's supervisor know; absent: assumed). */
export interface DatabaseHealth {
  readonly available: boolean;
}

/** The database is down (unreachable, or its supervisor is restarting it): answered INTERNAL_INCONSISTENCY before anything is written. */
export class DatabaseUnavailableError extends Error {
  readonly code = "DATABASE_UNAVAILABLE" as const;
  constructor() {
    super("the database cannot be reached");
    this.name = new.target.name;
  }
}

export interface KernelDeps {
  policy: PolicyEngine;
  database?: DatabaseHealth;
  /** Where keyed writes keep their reservation and first outcome, and for how long (src/kernel/idempotency.ts). */
  idempotency?: {
    store: IdempotencyStore;
    windowMs: number;
    /** The write timeout: a reservation this old (injected clock) belongs to an attempt presumed dead. */
    staleMs: number;
    /** How long a retry waits for a younger attempt before answering "in progress" (wall time; default 2000). */
    waitMs?: number;
    /** Whether a declared object exists (any contract's store; erased counts as existing). */
    exists(object: ReservedObject): Promise<boolean>;
  };
  events: EventAppender;
  /** How the store's errors read (an integrity break, a write whose outcome is unknown). */
  faults: StoreFaults;
  clock: Clock;
  logger: Logger;
  detectors: DetectorSuite;
  metrics: Metrics;
}

/**
 * What a door found wrong with a request before it could hand it on: over the body limit, or
 * nested deeper than the door parses. The request itself never reaches the kernel; the policy
 * answers the refusal (SCHEMA_INVALID at the document's root) and the kernel records its event.
 */
export interface DoorRefusal {
  reason: "too_large" | "too_deep";
  /** The limit it was over (bytes, levels). */
  limit: number;
}

/** A call as a door hands it to the kernel. */
export interface KernelCall extends CallContext {
  refused?: DoorRefusal;
}

/** What a background job needs of the kernel: its write set (Kernel.job). */
export type JobRunner = Pick<Kernel, "job">;

/** Internal; answered as INTERNAL_INCONSISTENCY (C19-FAIL). */
export class KernelError extends Error {
  readonly code = "KERNEL_INVARIANT" as const;
  constructor(detail: string) {
    super(`kernel: ${detail}`);
    this.name = new.target.name;
  }
}

/** The two names of an operation, all the lifecycle's bookkeeping needs. */
type OperationName = Pick<Operation<unknown, unknown, unknown>, "contract" | "name">;

/** Rounds of judge-again after lost races before giving up (each round, some concurrent writer wins). */
const MAX_LOST_RACES = 64;
const DEFAULT_IDEMPOTENCY_WAIT_MS = 2_000;

/** A call's key: its record's id and the request's fingerprint. */
interface Keyed {
  id: string;
  fingerprint: string;
}

const eventSubject = (subjectId: string): string | null => (subjectId && subjectId !== TENANT_SCOPE ? subjectId : null);

/**
 * The one lifecycle of every operation of every contract, whatever door it came through:
 * subject -> declared fields -> gather -> detectors -> decide -> refuse (metadata-only event)
 * | hold | allow (a write set, then its events in one group commit, then settle marks) ->
 * metrics. Anything unexpected answers INTERNAL_INCONSISTENCY, undoes what was written and
 * is recorded (INV-8). The policy decides; the kernel acts on its `outcome` only.
 */
export class Kernel {
  private integrity: IntegrityState | undefined;
  /** Idempotency records to complete or free off the request path, in one write per turn of the event loop. */
  private finished: FinishedAttempt[] = [];
  private readonly offPathWork = new Set<Promise<void>>();

  constructor(private readonly deps: KernelDeps) {}

  get policy(): PolicyEngine {
    return this.deps.policy;
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  get metrics(): Metrics {
    return this.deps.metrics;
  }

  /** Resolves once what answered requests left behind (settles, idempotency marks) is done. */
  async idle(): Promise<void> {
    while (this.offPathWork.size > 0) await Promise.all([...this.offPathWork]);
  }

  /** Wired after construction by the composition root (the guard needs the log first). */
  useIntegrity(integrity: IntegrityState): void {
    this.integrity = integrity;
  }

  async run<Req, Gathered, Result>(op: Operation<Req, Gathered, Result>, principal: Principal, raw: unknown, call: KernelCall): Promise<Outcome<Result>> {
    const started = process.hrtime.bigint();
    let subjectId = "";
    let stopReason = "INTERNAL_INCONSISTENCY";
    const keyed = this.keyed(op, principal, raw, call);
    /** The attempt id while this call holds its key's reservation (freed if the call fails). */
    let held: string | undefined;
    try {
      const { policy, clock } = this.deps;
      // Nothing partial while the database restarts: fail before the first read or write.
      if (this.deps.database && !this.deps.database.available) throw new DatabaseUnavailableError();
      if (keyed) {
        const taken = await this.reserve<Result>(keyed, call.waitAside);
        if ("answer" in taken) {
          stopReason = taken.answer.stopReason;
          return taken.answer;
        }
        held = taken.attempt;
      }
      subjectId = await this.subjectOf(op, principal, raw);
      const parsed = parseFields<Req>(op.fields, raw);
      const req = parsed.value;
      const ctx: OperationContext = {
        principal,
        tenantId: principal.tenant,
        subjectId,
        subjectHeld: this.holds(principal, subjectId),
        requestId: call.requestId,
        now: clock.now(),
        clock,
        policy,
        texts: parsed.texts,
      };
      // Ill-formed UTF-16 never reaches the database (an id lookup would not even encode) nor the wasm
      // host (its JSON parser rejects a lone \u surrogate): nothing is gathered, the policy sees U+FFFD
      // in its place and answers SCHEMA_INVALID from the field facts.
      const illFormed = parsed.facts.some((f) => f.ill_formed);
      const [gathered, facts] = await Promise.all([
        ctx.subjectHeld && !illFormed && op.gather ? op.gather(req, ctx) : Promise.resolve(undefined),
        this.deps.detectors.run(parsed.texts),
        this.integrity?.checked(principal.tenant), // a tenant's first request after start: its chain checked first (MP-BREAK)
      ]);
      const inputOf = (g: Gathered | undefined) => {
        const input = {
          fields: parsed.facts,
          texts: parsed.texts,
          facts,
          ...(call.unknownFields?.length ? { unknown_fields: call.unknownFields } : {}),
          ...(call.refused ? { door_refusal: call.refused } : {}),
          ...(op.input ? op.input(req, g, ctx) : {}),
        };
        return illFormed ? wellFormed(input) : input;
      };
      let decision = this.decide(op, principal, subjectId, ctx.now, inputOf(gathered));
      let judged = gathered;
      // A lost race (a conditional write or a quota slot another write took) is judged again on what
      // is there now; a quota slot can be lost once per concurrent writer, so this may take rounds.
      for (let round = 0; decision.outcome !== "refuse"; round++) {
        if (round > MAX_LOST_RACES) throw new KernelError(`a conditional write lost ${round} races in a row`);
        const handler = decision.outcome === "allow" ? op.allow : op.hold;
        if (!handler) throw new KernelError(`${op.contract}.${op.name} has no handler for outcome ${decision.outcome}`);
        const writes = new Writes();
        if (keyed && held) writes.keyedBy(this.declarer(keyed, held, writes, decision, op, principal, subjectId));
        let value: Result;
        try {
          value = await handler(req, judged as Gathered, ctx, writes, decision);
        } catch (error) {
          // A step failed halfway: what the handler already wrote is undone before failing closed (INV-8).
          await writes.undo((undoError) => this.deps.logger.error({ err: undoError }, "undo failed; the repair pass will settle the object"));
          throw error;
        }
        if (!writes.isLost) {
          const answer = this.outcome(decision, value);
          const attempt = held;
          // An operation that declared nothing keeps its outcome after its steps, before its events.
          if (keyed && attempt && writes.events.length > 0 && !writes.isDeclared) await this.keep(keyed, attempt, answer, [], writes);
          await this.commit(writes, decision, op, principal, subjectId, call);
          if (keyed && attempt) {
            held = undefined;
            // Off the request path, like the settle marks: a miss leaves a pending record a retry resolves.
            this.mark({ id: keyed.id, attempt, state: writes.events.length > 0 ? "done" : "free" });
          }
          stopReason = decision.stopReason;
          return answer;
        }
        // A concurrent write won: the policy judges the request on what is there now.
        await writes.undo((error) => this.deps.logger.warn({ err: error }, "undo after a lost race failed"));
        judged = op.gather ? await op.gather(req, ctx) : undefined;
        decision = this.decide(op, principal, subjectId, ctx.now, inputOf(judged));
      }
      await this.append(
        [{ event_type: "refuse", metadata: this.refusalMetadata(op, req, ctx, parsed.facts, decision, judged) }],
        decision,
        op,
        principal,
        subjectId,
        call,
      );
      if (!ctx.subjectHeld) this.deps.metrics.isolation.inc({ operation: `${op.contract}.${op.name}`, kind: "foreign_subject" });
      stopReason = decision.stopReason;
      const refused = this.outcome<Result>(decision);
      // A keyed refusal answers the same on a retry, without a second refuse event.
      if (keyed && held) {
        this.mark({ id: keyed.id, attempt: held, state: "done", outcome: refused });
        held = undefined;
      }
      return refused;
    } catch (error) {
      // Its writes are undone (or were never made): the key is free for a retry.
      if (keyed && held)
        await this.deps.idempotency!.store.release(keyed.id, held).catch((releaseError: unknown) => {
          this.deps.logger.warn({ err: releaseError }, "idempotency reservation not freed; a retry takes it over once stale");
        });
      return this.failClosed<Result>(error, op, principal, subjectId, call);
    } finally {
      const labels = { contract: op.contract, operation: op.name };
      this.deps.metrics.decisions.inc({ ...labels, stop_reason: stopReason });
      this.deps.metrics.latency.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  /**
   * Re-judges stored text (issue 13 item 5): the same detectors and the same decision as a
   * request, for the contract's REJUDGE operation, acting on nothing. The caller acts on `outcome`.
   */
  async judge(op: OperationName, principal: Principal, subjectId: string, texts: Record<string, string>): Promise<Decision> {
    const facts = await this.deps.detectors.run(texts);
    return this.decide(op, principal, subjectId, this.deps.clock.now(), { fields: [], texts, facts });
  }

  /**
   * A background job's write set (repair, integrity guard, policy watch, re-audit): its steps
   * run, then its events are appended in one group commit; if a step or the events fail, every
   * step is undone, newest first (unless the append's outcome is unknown: then, as for an
   * operation, the objects stay for the repair), and the error goes back to the job, which
   * retries on its next pass. Counted per job. Nothing is written while the database restarts.
   */
  async job<T>(name: string, steps: (writes: JobWrites) => Promise<T>): Promise<{ value: T; events: MemoryEvent[] }> {
    const { logger, metrics } = this.deps;
    let result = "failed";
    try {
      if (this.deps.database && !this.deps.database.available) throw new DatabaseUnavailableError();
      const writes = new JobWrites();
      let value: T;
      let events: MemoryEvent[];
      try {
        value = await steps(writes);
        events = await Promise.all(writes.events.map(({ settle: _settle, ...draft }) => this.deps.events.append(draft)));
      } catch (error) {
        if (!this.deps.faults.outcomeUnknown(error)) await writes.undo((undoError) => logger.error({ err: undoError, job: name }, "job undo failed"));
        throw error;
      }
      writes.events.forEach((draft, i) => {
        if (draft.settle)
          this.offPath(
            draft
              .settle(events[i].seq)
              .catch((error: unknown) => logger.warn({ err: error, seq: events[i].seq, job: name }, "settle mark not written; repair will set it")),
          );
      });
      result = events.length > 0 ? "written" : "nothing";
      return { value, events };
    } finally {
      metrics.jobs.inc({ job: name, result });
    }
  }

  /** The idempotency record of this call, when it carries a key and the kernel keeps outcomes. */
  private keyed(op: OperationName, principal: Principal, raw: unknown, call: CallContext): Keyed | undefined {
    if (!call.idempotencyKey || !this.deps.idempotency) return undefined;
    return { id: idempotencyId(principal.tenant, principal.id, call.idempotencyKey, `${op.contract}.${op.name}`), fingerprint: requestFingerprint(raw) };
  }

  /**
   * Takes the key for this attempt, or answers from the attempt that holds it (src/kernel/idempotency.ts):
   * done: its outcome; pending and young: wait, then "in progress"; pending and stale: its outcome if
   * its declared objects exist, else the key is taken over.
   */
  private async reserve<Result>(keyed: Keyed, waitAside: CallContext["waitAside"]): Promise<{ attempt: string } | { answer: Outcome<Result> }> {
    const { store, windowMs, staleMs, waitMs = DEFAULT_IDEMPOTENCY_WAIT_MS } = this.deps.idempotency!;
    const waitUntil = Date.now() + waitMs;
    for (let pause = 10; ; pause = Math.min(pause * 2, 200)) {
      const now = this.deps.clock.now();
      const reservation = { fingerprint: keyed.fingerprint, attempt: randomUUID(), createdAt: now };
      const holder = await store.reserve(keyed.id, reservation);
      if (!holder) return { attempt: reservation.attempt };
      const age = now.getTime() - holder.createdAt.getTime();
      // Past the window the key is free again (a pending attempt only once it is stale too: it may still be writing).
      if (age > windowMs && (holder.state === "done" || age >= staleMs)) {
        if (await store.supersede(keyed.id, holder.attempt, reservation, new Date(now.getTime() - staleMs))) return { attempt: reservation.attempt };
      } else {
        if (holder.fingerprint !== keyed.fingerprint) throw new IdempotencyKeyReusedError();
        if (holder.state === "done" && holder.outcome) return { answer: holder.outcome as Outcome<Result> };
        if (age >= staleMs) {
          // Its process stopped. Its writes are in if it got as far as an outcome and its objects exist (the repair
          // completes their events); otherwise nothing of it stayed and this attempt takes the key over.
          if (holder.outcome && (await this.allExist(holder.objects ?? []))) {
            this.mark({ id: keyed.id, attempt: holder.attempt, state: "done" });
            return { answer: holder.outcome as Outcome<Result> };
          }
          if (await store.supersede(keyed.id, holder.attempt, reservation, new Date(now.getTime() - staleMs))) return { attempt: reservation.attempt };
        }
      }
      // Another attempt holds the key (or just took it over): wait for it, briefly.
      if (Date.now() + pause > waitUntil) throw new IdempotencyInProgressError();
      const wait = () => new Promise((resolve) => setTimeout(resolve, pause));
      await (waitAside ? waitAside(wait) : wait());
    }
  }

  private async allExist(objects: readonly ReservedObject[]): Promise<boolean> {
    const found = await Promise.all(objects.map((object) => this.deps.idempotency!.exists(object)));
    return found.every(Boolean);
  }

  /** The hook behind `Writes.creating` for a keyed round: keeps the declared objects and the answer before they are written. */
  private declarer(keyed: Keyed, attempt: string, writes: Writes, decision: Decision, op: OperationName, principal: Principal, subjectId: string) {
    return async (objects: readonly CreatedObject[], value: unknown): Promise<void> => {
      const reserved = objects.map((o) => ({ contract: op.contract, tenantId: principal.tenant, subjectId: o.subjectId ?? subjectId, objectId: o.objectId }));
      await this.keep(keyed, attempt, this.outcome(decision, value), reserved, writes);
    };
  }

  /** Keeps the outcome (and declared objects) in the reservation, as a step undone with the write set. */
  private async keep(keyed: Keyed, attempt: string, answer: Outcome<unknown>, objects: ReservedObject[], writes: Writes): Promise<void> {
    const { store } = this.deps.idempotency!;
    const kept = await writes.run(
      () => store.declare(keyed.id, attempt, answer, objects),
      (done) => (done ? store.undeclare(keyed.id, attempt) : Promise.resolve()),
    );
    // A retry judged this attempt dead and took the key over: nothing more of it may be written.
    if (!kept) throw new IdempotencyInProgressError();
  }

  /** Queues an idempotency record's change; the queue is written once the answers of this turn are on their way. */
  private mark(change: FinishedAttempt): void {
    this.finished.push(change);
    if (this.finished.length > 1) return;
    const written: Promise<void> = new Promise((resolve) => setImmediate(resolve))
      .then(() => {
        const batch = this.finished;
        this.finished = [];
        return this.deps.idempotency!.store.finish(batch);
      })
      .catch((error: unknown) => this.deps.logger.warn({ err: error }, "idempotency records not marked; a retry resolves them"));
    this.offPath(written);
  }

  /** Work an answered request left behind (settles, idempotency marks): `idle()` waits for it. */
  private offPath(work: Promise<void>): void {
    const tracked = work.finally(() => this.offPathWork.delete(tracked));
    this.offPathWork.add(tracked);
  }

  /** Asks the policy; the one place its answer is read. */
  private decide(op: OperationName, principal: Principal, subjectId: string, now: Date, input: Record<string, unknown>): Decision {
    const answer = this.deps.policy.decide({
      operation: op.name,
      contract: op.contract,
      now_ms: now.getTime(),
      principal: principalInput(principal, subjectId),
      subject_id: subjectId,
      integrity: this.integrity?.inputFor(principal.tenant) ?? { chain_broken: false, broken_seq: null },
      ...input,
    });
    if (!isStopReason(answer.stop_reason)) throw new KernelError(`the policy answered an unknown stop reason "${answer.stop_reason}"`);
    const outcome = answer.outcome;
    if (!isOutcome(outcome)) throw new KernelError(`the policy answered an unknown outcome "${String(outcome)}"`);
    return {
      decisionId: randomUUID(),
      outcome,
      stopReason: answer.stop_reason,
      explanations: answer.explanations,
      policyVersion: answer.policy_hash,
      contractVersion: answer.contract_version,
      detail: (answer.detail as DecisionDetail | undefined) ?? null,
      errors: Array.isArray(answer.errors) ? answer.errors.filter(isPointedError) : [],
      rules: Array.isArray(answer.rules) ? answer.rules.filter((rule): rule is string => typeof rule === "string") : [],
    };
  }

  private holds(principal: Principal, subjectId: string): boolean {
    if (subjectId === TENANT_SCOPE || principal.subjects.includes(subjectId)) return true;
    // Roles that may act for any subject of the tenant (an admin's override) need the target gathered too.
    const anySubject = this.deps.policy.loaded ? (this.deps.policy.contract.any_subject_roles ?? []) : [];
    return principal.roles.some((role) => anySubject.includes(role));
  }

  private async subjectOf<Req>(op: Operation<Req, unknown, unknown>, principal: Principal, raw: unknown): Promise<string> {
    if (op.subject) return op.subject(raw as Req, { principal, tenantId: principal.tenant, policy: this.deps.policy });
    const requested = raw !== null && typeof raw === "object" ? (raw as { subjectId?: unknown }).subjectId : undefined;
    return typeof requested === "string" ? requested : subjectOf(principal);
  }

  /** Appends the write set's events in one group commit; if that fails, every step is undone. */
  private async commit(writes: Writes, decision: Decision, op: OperationName, principal: Principal, subjectId: string, call: CallContext) {
    let appended: MemoryEvent[];
    try {
      appended = await this.append(writes.events, decision, op, principal, subjectId, call);
    } catch (error) {
      if (this.deps.faults.outcomeUnknown(error)) {
        // The events may be in the log although the answer was lost (the database died mid-append):
        // undoing the objects then would leave events that claim objects not there (INV-8). They
        // stay unsettled (their due marks are in), so no read serves them until a read or the
        // repair finds their events, or, once stale, the repair appends them.
        this.deps.logger.warn({ err: error }, "event append's outcome unknown; its objects stay unsettled for the repair");
        throw error;
      }
      await writes.undo((undoError) => this.deps.logger.error({ err: undoError }, "undo failed; the repair pass will settle the object"));
      throw error;
    }
    // Settle marks are off the request path: a miss leaves an unsettled object the repair pass settles.
    writes.events.forEach((part, i) => {
      if (part.settle)
        this.offPath(
          part
            .settle(appended[i].seq)
            .catch((error: unknown) => this.deps.logger.warn({ err: error, seq: appended[i].seq }, "settle mark not written; repair will set it")),
        );
    });
  }

  private append(
    parts: readonly EventPart[],
    decision: Decision,
    op: OperationName,
    principal: Principal,
    subjectId: string,
    call: CallContext,
  ): Promise<MemoryEvent[]> {
    return Promise.all(
      parts.map((part) =>
        this.deps.events.append({
          tenant_id: principal.tenant,
          subject_id: part.subject_id === undefined ? eventSubject(subjectId) : part.subject_id,
          event_type: part.event_type,
          operation: op.name,
          contract: op.contract,
          memory_id: part.memory_id ?? null,
          actor: actorOf(principal),
          stop_reason: decision.stopReason,
          decision_id: decision.decisionId,
          policy_hash: decision.policyVersion,
          contract_version: decision.contractVersion,
          request_id: call.requestId,
          content_digest: part.content_digest ?? null,
          reason: part.reason ?? null,
          metadata: { explanations: decision.explanations, ...part.metadata },
        }),
      ),
    );
  }

  /** SPEC D4: what a refusal keeps is metadata: the operation's own, else field lengths. */
  private refusalMetadata<Req, Gathered>(
    op: Operation<Req, Gathered, unknown>,
    req: Req,
    ctx: OperationContext,
    facts: FieldFact[],
    decision: Decision,
    gathered: Gathered | undefined,
  ): Record<string, unknown> {
    // Keyed by declared field name, never by path: a JSON value's keys come from the client and may carry
    // content. A stored key may not contain ".": "source.note" is kept as "source/note".
    const lengths: Record<string, number> = {};
    for (const f of facts) lengths[f.field.replace(/\./g, "/")] = Math.max(lengths[f.field.replace(/\./g, "/")] ?? 0, f.length);
    return { lengths, ...(op.refusal ? op.refusal(req, ctx, decision, gathered) : {}) };
  }

  private outcome<T>(decision: Decision, value?: T): Outcome<T> {
    return {
      outcome: decision.outcome,
      stopReason: decision.stopReason,
      explanations: decision.explanations,
      decisionId: decision.decisionId,
      policyVersion: decision.policyVersion,
      contractVersion: decision.contractVersion,
      errors: decision.errors,
      value,
    };
  }

  /**
   * INV-8: any unexpected error answers INTERNAL_INCONSISTENCY. The error is logged (without
   * content) and, if the log is reachable, recorded so the failure is auditable; an object
   * whose integrity hash no longer matches is a conformance break (MP-OBJECT, MP-BREAK).
   */
  private async failClosed<T>(error: unknown, op: OperationName, principal: Principal, subjectId: string, call: CallContext): Promise<Outcome<T>> {
    const { policy, logger, events } = this.deps;
    const decisionId = randomUUID();
    const policyVersion = policy.hash ?? "none";
    const contractVersion = policy.loaded ? policy.contract.version : "unknown";
    // Another attempt holds the key (and records its own outcome); nothing of this one stays: no refuse event.
    if (error instanceof IdempotencyInProgressError) {
      logger.warn({ requestId: call.requestId, operation: op.name, contract: op.contract, decisionId }, "idempotency key in use by another attempt");
      return {
        outcome: "refuse",
        stopReason: "INTERNAL_INCONSISTENCY",
        explanations: ["C19-FAIL: idempotency_in_progress"],
        decisionId,
        policyVersion,
        contractVersion,
      };
    }
    logger.error({ err: error, requestId: call.requestId, operation: op.name, contract: op.contract, decisionId }, "operation failed closed");
    const broken = this.deps.faults.integrityBreak(error);
    try {
      // No log to record it in (the supervisor or the driver logs the outage); trying would wait out server selection.
      if (error instanceof DatabaseUnavailableError || (this.deps.database && !this.deps.database.available)) throw error;
      await events.append({
        tenant_id: principal.tenant,
        subject_id: eventSubject(subjectId),
        event_type: broken ? "conformance_break" : "refuse",
        operation: op.name,
        contract: op.contract,
        memory_id: broken ? broken.memoryId : null,
        actor: actorOf(principal),
        stop_reason: "INTERNAL_INCONSISTENCY",
        decision_id: decisionId,
        policy_hash: policy.hash ?? null,
        contract_version: policy.loaded ? contractVersion : null,
        request_id: call.requestId,
        content_digest: null,
        reason: broken ? "integrity_hash_mismatch" : "internal_error",
        metadata: broken
          ? { error: broken.name, collection: broken.collection, object_subject_id: broken.subjectId }
          : { error: error instanceof Error ? error.name : "unknown" },
      });
    } catch (logError) {
      logger.error({ err: logError, requestId: call.requestId }, "could not record the failure in the event log");
    }
    return {
      outcome: "refuse",
      stopReason: "INTERNAL_INCONSISTENCY",
      explanations: [broken ? "MP-OBJECT: integrity_hash_mismatch" : "C19-FAIL: internal_error"],
      decisionId,
      policyVersion,
      contractVersion,
    };
  }
}

export function actorOf(principal: Principal): EventActor {
  return { id: principal.id, roles: principal.roles, kind: actorKind(principal.roles) };
}
