import type { Clock } from "../clock";
import type { ContractStore, ObjectRepair, UnsettledObject } from "../kernel/contract-store";
import type { Logger } from "../logger";
import type { Database } from "../store/database";
import { RepairClaims } from "../store/log/repair-claims";
import type { JobRunner } from "../kernel/execute";
import type { EventLog, EventType, MemoryEvent } from "../store/event-log";
import { SYSTEM_ACTOR } from "../store/log/system-actor";

/**
 * Crash consistency without transactions (issue 5 §3, issue 11), docs/AUDIT.md "Object and
 * event", for every contract's store alike:
 *
 * 1. the object is written first, without a settle mark;
 * 2. its event is appended to the chain (the kernel's group commit);
 * 3. the write set's `settle` callback marks the object settled, off the request path.
 *
 * A crash between 1 and 2 leaves an object with no event; between 2 and 3 an object whose
 * event exists but is not marked. At start, this pass asks every ContractStore for its
 * unsettled objects and, for those older than `minAgeMs` by the injected clock (younger
 * ones may belong to a live process that is mid-write), finds their event and marks them,
 * or, when there is none, completes the write by appending the missing event itself, as
 * the system actor, with a reason. Erasures follow the same three steps. An event is never
 * written before its object exists, so after repair every event has its object and every
 * object its event.
 *
 * Reads (INV-8, docs/FAULTS.md "Unsettled objects on reads"): a pass that settled everything
 * older than its cutoff (no claim lost to another process, no error) tells each store so
 * (`settledBefore`); a read of a newer object with its due mark still there asks `settleOne`,
 * the same steps for that one object, instead of serving an item without its event.
 */
export interface RepairReport {
  /** Objects whose event was in the log: only the mark was missing. */
  settled: number;
  /** Writes whose event was missing: appended by the repair. */
  completed: number;
  /** Erasures whose event was missing: appended by the repair. */
  erasuresCompleted: number;
  /** Unsettled objects too young to judge (a live process may still be writing them). */
  skippedYoung: number;
}

/** Event types that record a write of content (a create, a new version, a consolidation). */
const CONTENT_EVENTS: readonly EventType[] = ["create", "update", "consolidate"];
/** The contract whose operations erase (SPEC D1): an erasure's event is recorded as its. */
export const ERASURE_CONTRACT = "audit";
const BATCH = 500;
/** How far back from the tenant's chain head a read looks for an object's event by `_id` before scanning by memory id. */
const RECENT = 16;
/** How many newer events a read walks by `_id` past what it already looked through before it scans again. */
const WALK = 64;
/** Objects whose absent event this process remembers having looked for, beyond which the oldest are forgotten. */
const ABSENT = 10_000;

export class Repair implements ObjectRepair {
  private readonly claims: RepairClaims;
  private running: Promise<RepairReport> | undefined;
  /**
   * Objects a read found without their event, with the tenant's head seq the scan covered:
   * the next read looks only at newer events, by `_id`, so an object in flight (or left by a
   * crash, until it is old enough) costs one scan per process, not one per read.
   */
  private readonly absent = new Map<string, number>();

  constructor(
    db: Database,
    private readonly log: Pick<EventLog, "head" | "storedHead" | "get" | "aboutObject">,
    private readonly jobs: JobRunner,
    private readonly stores: readonly ContractStore[],
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly minAgeMs: number,
  ) {
    this.claims = new RepairClaims(db);
    for (const store of stores) store.repairWith?.(this);
  }

  /**
   * One object, on a read's behalf: its event if some process appended it (the writer's mark
   * removal may still be pending), else, once old enough, the missing event under the same
   * claim as the pass. false: too young (a write in flight, not acknowledged) or claimed by
   * another process completing it now.
   */
  async settleOne(store: ContractStore, object: UnsettledObject): Promise<boolean> {
    const existing = await this.eventFor(store, object);
    if (existing) {
      await store.settle(object, existing.seq, repairedEvent(existing));
      return true;
    }
    const cutoff = this.clock.now().getTime() - this.minAgeMs;
    if (object.writtenAt.getTime() > cutoff) return false;
    if (!(await this.claim(keyOf(object), cutoff))) return false;
    // The pass (or another read) may have completed it between the lookup and the claim.
    const found = await this.findEvent(store, object);
    const appended = found ?? (await this.appendMissing(store, object));
    this.absent.delete(keyOf(object));
    await store.settle(object, appended.seq, !found || repairedEvent(found));
    if (!found)
      this.logger.warn({ contract: store.contract, objectId: object.objectId }, "a read completed an object a stopped process left without its event");
    return true;
  }

  /** One pass at a time per process (the timer does not pile passes up). */
  run(): Promise<RepairReport> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  /**
   * Takes the completion of one object by a unique `_id`; a claim older than the cutoff (its
   * gateway stopped before completing) is taken over by inserting the next number (claims.ts).
   */
  private claim(key: string, cutoff: number): Promise<boolean> {
    return this.claims.claim(key, this.clock.now(), cutoff);
  }

  private async pass(): Promise<RepairReport> {
    const report: RepairReport = { settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 0 };
    const cutoff = this.clock.now().getTime() - this.minAgeMs;
    for (const store of this.stores) {
      // Clean: nothing older than the cutoff was left to another process; reads of older objects need no check.
      if (await this.repairStore(store, cutoff, report)) store.settledBefore?.(new Date(cutoff));
    }
    if (report.settled + report.completed + report.erasuresCompleted > 0)
      this.logger.warn({ repair: report }, "repaired objects left unsettled by a stopped process");
    return report;
  }

  /**
   * Oldest first, batch by batch, until the store has nothing old enough left (or only objects
   * seen already). true: every object older than the cutoff was settled or completed here.
   */
  private async repairStore(store: ContractStore, cutoff: number, report: RepairReport): Promise<boolean> {
    const seen = new Set<string>();
    let clean = true;
    for (;;) {
      const batch = await store.unsettled(BATCH);
      let progressed = false;
      for (const object of batch) {
        const key = keyOf(object);
        if (seen.has(key)) continue;
        seen.add(key);
        if (object.writtenAt.getTime() > cutoff) {
          report.skippedYoung++;
          continue;
        }
        progressed = true;
        const existing = await this.findEvent(store, object);
        if (existing) {
          await store.settle(object, existing.seq, repairedEvent(existing));
          report.settled++;
          continue;
        }
        // Several gateways repair while serving: one completes an object, the others leave it.
        if (!(await this.claim(key, cutoff))) {
          clean = false;
          continue;
        }
        const appended = await this.appendMissing(store, object);
        await store.settle(object, appended.seq, true);
        if (object.kind === "erasure") report.erasuresCompleted++;
        else report.completed++;
      }
      if (!progressed || batch.length < BATCH) return clean;
    }
  }

  /**
   * The object's event for a read, as cheaply as FerretDB allows: after newer events than a
   * previous look covered, or among the tenant's newest, by `_id`; else by a scan, whose
   * covered head is remembered when it finds nothing.
   */
  private async eventFor(store: ContractStore, object: UnsettledObject): Promise<MemoryEvent | null> {
    const key = keyOf(object);
    const covered = this.absent.get(key);
    if (covered !== undefined) {
      const walked = await this.walkFrom(store, object, covered);
      if (walked.event) {
        this.absent.delete(key);
        return walked.event;
      }
      if (walked.upTo !== null) {
        this.absent.set(key, walked.upTo);
        return null;
      }
    } else {
      const recent = await this.recentEvent(store, object);
      if (recent) return recent;
    }
    // Every event up to the head read first is there for the scan to see (seqs are dense).
    const head = await this.log.head(object.tenantId);
    const found = await this.findEvent(store, object);
    if (found) {
      this.absent.delete(key);
      return found;
    }
    this.absent.delete(key);
    this.absent.set(key, head.seq);
    if (this.absent.size > ABSENT) this.absent.delete(this.absent.keys().next().value!);
    return null;
  }

  /** The events after `seq`, by `_id`, up to the head: the object's, or how far they were looked through (null: too many). */
  private async walkFrom(store: ContractStore, object: UnsettledObject, seq: number): Promise<{ event: MemoryEvent | null; upTo: number | null }> {
    for (let next = seq + 1; next <= seq + WALK; next++) {
      const event = await this.log.get(object.tenantId, next);
      if (!event) return { event: null, upTo: next - 1 };
      if (isOwn(store, object, event)) return { event, upTo: next };
    }
    return { event: null, upTo: null };
  }

  /**
   * The object's event among the newest of its tenant, by `_id` lookups (the only reads
   * FerretDB answers without a scan): forward from the stored head hint (which lags by the
   * batch in flight), then back from it. An object whose writer answered a moment ago, its
   * mark's removal still pending, has its event there. null: not among them (`findEvent` scans).
   */
  private async recentEvent(store: ContractStore, object: UnsettledObject): Promise<MemoryEvent | null> {
    const stored = await this.log.storedHead(object.tenantId);
    const hint = stored?.seq ?? 0;
    let looked = 0;
    for (let seq = hint + 1; looked < RECENT; seq++, looked++) {
      const event = await this.log.get(object.tenantId, seq);
      if (!event) break;
      if (isOwn(store, object, event)) return event;
    }
    for (let seq = hint; seq > 0 && looked < RECENT; seq--, looked++) {
      const event = await this.log.get(object.tenantId, seq);
      if (event && isOwn(store, object, event)) return event;
    }
    return null;
  }

  /** The object's own event, if the process got as far as appending it: a scan of the tenant's events by memory id. */
  private async findEvent(store: ContractStore, object: UnsettledObject): Promise<MemoryEvent | null> {
    const candidates = await this.log.aboutObject(object.tenantId, object.objectId, eventTypes(object));
    return candidates.filter((event) => isOwn(store, object, event)).at(-1) ?? null;
  }

  /** The missing event, through the kernel's write set for jobs (counted, fails closed like an operation's). */
  private async appendMissing(store: ContractStore, object: UnsettledObject): Promise<MemoryEvent> {
    const { missing } = object;
    const why =
      missing.reason ??
      (object.kind === "erasure"
        ? "the object was erased but its event was not written before the process stopped"
        : "the object was stored but its event was not written before the process stopped");
    const { events } = await this.jobs.job("repair", async (writes) =>
      writes.event({
        tenant_id: object.tenantId,
        subject_id: object.subjectId,
        event_type: missing.event_type,
        operation: missing.operation,
        contract: object.kind === "erasure" ? ERASURE_CONTRACT : store.contract,
        memory_id: object.objectId,
        actor: SYSTEM_ACTOR,
        stop_reason: missing.stop_reason,
        decision_id: missing.decision_id ?? null,
        policy_hash: null,
        contract_version: null,
        request_id: null,
        content_digest: missing.content_digest,
        reason: `repair: ${why}`,
        metadata: { ...missing.metadata, repaired: true, object_contract: store.contract, ...(object.version !== null ? { version: object.version } : {}) },
      }),
    );
    return events[0];
  }
}

/** One object's identity for the pass's `seen` set and its claim. */
const keyOf = (object: UnsettledObject): string =>
  `${object.kind}\u0000${object.tenantId}\u0000${object.subjectId}\u0000${object.objectId}\u0000${object.version ?? ""}`;

/** The event types that record an object's write (or erasure). */
const eventTypes = (object: UnsettledObject): EventType[] =>
  object.kind === "erasure" ? ["erase"] : [...new Set<EventType>([...CONTENT_EVENTS, object.missing.event_type])];

/** Whether `event` is the object's own: its tenant, subject, id, kind, contract and version (or decision). */
function isOwn(store: ContractStore, object: UnsettledObject, event: MemoryEvent): boolean {
  if (event.tenant_id !== object.tenantId || event.memory_id !== object.objectId || !eventTypes(object).includes(event.event_type)) return false;
  if (event.subject_id !== object.subjectId) return false;
  if (object.kind === "erasure") {
    const of = event.metadata.object_contract;
    return of === undefined || of === store.contract;
  }
  if (event.contract && event.contract !== store.contract) return false;
  // Unversioned objects (agent memories and their updates) have several content events: the
  // write's own is the one of its decision, not an earlier create of the same memory.
  if (object.version === null) return !object.missing.decision_id || !event.decision_id || event.decision_id === object.missing.decision_id;
  return (event.metadata.version ?? object.version) === object.version;
}

/** An event a repair appended: its write stopped before the event, so maybe before the object's list entries too. */
function repairedEvent(event: MemoryEvent): boolean {
  return (event.metadata as { repaired?: unknown } | undefined)?.repaired === true;
}
