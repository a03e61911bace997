import type { Clock } from "../clock";
import type { IntegrityState, JobRunner } from "../kernel/execute";
import type { Logger } from "../logger";
import type { EventActor, EventLog, MemoryEvent } from "../store/event-log";
import type { ChainAuditor } from "../store/log/chain-auditor";
import type { Database } from "../store/database";
import { IntegrityRecords, type IntegrityDoc } from "../store/log/integrity-records";
import { POLICY_ENGINE_ACTOR } from "../store/log/system-actor";
import type { ChainVerification } from "../store/log/verify";
import { JOB_EVENTS } from "./job-events";

/**
 * MP-BREAK: a tenant whose chain fails verification gets a `conformance_break` event and
 * its writes are refused by the policy (input.integrity.chain_broken, see
 * policies/memgate/checks/integrity) until an admin acknowledges the break. The state is
 * in the database, so every gateway process refuses; each re-reads it every `refreshMs`.
 */
export class IntegrityGuard implements IntegrityState {
  private readonly docs: IntegrityRecords;
  private cache = new Map<string, IntegrityDoc>();
  /** Reports being recorded, by tenant and broken seq: a second detector waits for the first's event. */
  private readonly reporting = new Map<string, Promise<MemoryEvent | null>>();
  private timer: NodeJS.Timeout | undefined;
  /** Tenants in the log at start whose chain this process has not checked yet (startChecks). */
  private readonly unchecked = new Set<string>();
  private readonly checking = new Map<string, Promise<ChainVerification>>();

  constructor(
    db: Database,
    private readonly log: Pick<EventLog, "tenants">,
    private readonly jobs: JobRunner,
    private readonly auditor: ChainAuditor,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly refreshMs: number,
  ) {
    this.docs = new IntegrityRecords(db);
  }

  inputFor(tenantId: string): { chain_broken: boolean; broken_seq: number | null } {
    const doc = this.cache.get(tenantId);
    return { chain_broken: doc?.broken ?? false, broken_seq: doc?.broken ? doc.broken_seq : null };
  }

  /** The tenant's unacknowledged break, if any: every verify answer reports it until it is acknowledged (MP-BREAK). */
  breakOf(tenantId: string): { seq: number; reason: string | null } | null {
    const doc = this.cache.get(tenantId);
    return doc?.broken && doc.broken_seq !== null ? { seq: doc.broken_seq, reason: doc.reason } : null;
  }

  acknowledgedSeqs(tenantId: string): Set<number> {
    return new Set((this.cache.get(tenantId)?.acknowledged ?? []).map((a) => a.seq));
  }

  async refresh(): Promise<void> {
    const docs = await this.docs.all();
    this.cache = new Map(docs.map((d) => [d._id, d]));
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.refresh().catch((error: unknown) => this.logger.error({ err: error }, "could not refresh the integrity state"));
    }, this.refreshMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * MP-BREAK at start, without holding the door (issue 26: ready in seconds however many tenants
   * the log holds): every tenant in the log at start is checked since its last good checkpoint,
   * in the background, one after another; a tenant's request that comes first waits for its own
   * tenant's check only (`checked`), and is decided after any break it found is recorded.
   * Resolves to what the checks found, once every tenant has been checked.
   */
  async startChecks(detectedBy: string, stopped: () => boolean): Promise<() => Promise<ChainVerification[]>> {
    const tenants = await this.log.tenants();
    for (const tenant of tenants) this.unchecked.add(tenant);
    return async () => {
      const results: ChainVerification[] = [];
      for (const tenant of tenants) {
        if (stopped()) break;
        results.push(await this.checkOnce(tenant, detectedBy));
      }
      return results;
    };
  }

  /** Resolves when the tenant's chain has been checked since this process started; undefined when it already has. */
  checked(tenantId: string): Promise<void> | undefined {
    if (!this.unchecked.has(tenantId)) return undefined;
    return this.checkOnce(tenantId, "startup_verification").then(() => undefined);
  }

  /** One check per tenant at a time; a check that could not run is tried again by the next caller (fail closed meanwhile). */
  private checkOnce(tenantId: string, detectedBy: string): Promise<ChainVerification> {
    let check = this.checking.get(tenantId);
    if (!check) {
      check = this.auditor
        .verify(tenantId, { full: false }, this.acknowledgedSeqs(tenantId))
        .then(async (result) => {
          if (!result.ok) await this.reportBreak(result, detectedBy);
          this.unchecked.delete(tenantId);
          return result;
        })
        .finally(() => this.checking.delete(tenantId));
      this.checking.set(tenantId, check);
    }
    return check;
  }

  /**
   * Records a failed verification once per broken seq: a `conformance_break` event and the
   * tenant's writes refused. Returns the event, or null when this break was already known.
   */
  async reportBreak(result: ChainVerification, detectedBy: string): Promise<MemoryEvent | null> {
    if (result.ok || result.firstBrokenSeq === null) return null;
    // The tenant is marked broken before its event is appended: a detector that finds the same
    // break meanwhile waits for that event, so whoever awaits it sees the break recorded.
    const key = `${result.tenantId}\n${result.firstBrokenSeq}`;
    const inFlight = this.reporting.get(key);
    if (inFlight) return inFlight.then(() => null);
    const report = this.recordBreak(result, detectedBy).finally(() => this.reporting.delete(key));
    this.reporting.set(key, report);
    return report;
  }

  private async recordBreak(result: ChainVerification, detectedBy: string): Promise<MemoryEvent | null> {
    if (result.firstBrokenSeq === null) return null;
    await this.refresh();
    const known = this.cache.get(result.tenantId);
    if (known?.broken && known.broken_seq === result.firstBrokenSeq) return null;
    if (known?.acknowledged?.some((a) => a.seq === result.firstBrokenSeq)) return null;
    const now = this.clock.now().toISOString();
    const brokenSeq = result.firstBrokenSeq;
    // Through the kernel's write set for jobs. The flag is a step without an undo: if the event
    // cannot be written, the tenant's writes stay refused all the same (fail closed), and the
    // next verification reports the break again.
    const { events } = await this.jobs.job("integrity_guard", async (writes) => {
      await this.docs.markBroken(result.tenantId, brokenSeq, result.reason, now);
      await this.refresh();
      this.logger.error({ tenant: result.tenantId, seq: result.firstBrokenSeq, reason: result.reason }, "MP-BREAK: the event chain does not verify");
      writes.event({
        ...JOB_EVENTS.chain_unverifiable, // its event type and stop reason: policy data
        tenant_id: result.tenantId,
        subject_id: null,
        operation: "VERIFY_CHAIN",
        contract: "audit",
        memory_id: null,
        actor: POLICY_ENGINE_ACTOR,
        decision_id: null,
        policy_hash: null,
        contract_version: null,
        request_id: null,
        content_digest: null,
        reason: `chain_unverifiable: ${result.reason} at seq ${result.firstBrokenSeq}`,
        metadata: { detected_by: detectedBy, broken_seq: result.firstBrokenSeq, cause: result.reason, events_checked: result.eventsChecked },
      });
    });
    return events[0];
  }

  /** An admin acknowledges the tenant's current break: writes are accepted again. Null: nothing to acknowledge. */
  async acknowledge(tenantId: string, actor: EventActor, reason: string): Promise<number | null> {
    await this.refresh();
    const doc = this.cache.get(tenantId);
    if (!doc?.broken || doc.broken_seq === null) return null;
    const seq = doc.broken_seq;
    await this.docs.acknowledge(tenantId, seq, actor.id, reason, this.clock.now().toISOString());
    await this.refresh();
    return seq;
  }

  /** Undoes an acknowledgement whose event could not be written (INV-8): the break stands again. */
  async unacknowledge(tenantId: string, seq: number): Promise<void> {
    const doc = await this.docs.get(tenantId);
    if (!doc) return;
    const acknowledged = (doc.acknowledged ?? []).filter((a) => a.seq !== seq);
    await this.docs.restoreBreak(tenantId, seq, acknowledged);
    await this.refresh();
  }
}
