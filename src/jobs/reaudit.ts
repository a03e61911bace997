import { randomBytes } from "node:crypto";
import type { Principal } from "../auth/principal";
import type { Clock } from "../clock";
import type { Kernel } from "../kernel/execute";
import type { QuarantineMark, RejudgeCandidate, RejudgeTarget } from "../kernel/rejudge";
import type { Logger } from "../logger";
import type { PolicyChange, PolicyEngine } from "../policy/policy-engine";
import type { EventLog } from "../store/event-log";
import type { Database } from "../store/database";
import { LEASE_MS, leaseId, REAUDIT_ACTOR, ReauditWalks, type ReauditProgress } from "../store/log/reaudit";

export interface ReauditDeps {
  db: Database;
  kernel: Kernel;
  policy: PolicyEngine;
  events: Pick<EventLog, "tenants">;
  clock: Clock;
  logger: Logger;
  targets: readonly RejudgeTarget[];
  /** Objects per scan (one round trip each); bounded so a tenant's walk never holds much in memory. */
  batchSize?: number;
  /** How long a walk's lease on a tenant lasts without renewal (default LEASE_MS). */
  leaseMs?: number;
}

const DEFAULT_BATCH = 100;

/**
 * MP-BREAK, C19-FORBID (issue 13 item 5): when a new bundle comes into force, every tenant's
 * stored memories of every contract are re-judged in the background, in bounded batches
 * walked in `_id` order (FerretDB answers `_id` ranges from its primary key and scans any
 * other filter). Each batch's cursor is persisted per tenant, so a restart resumes where the
 * walk stopped. What the policy now refuses is quarantined: its `quarantine` event (the
 * rules the policy named, never the content) is appended first, then the object leaves
 * every read; a crash between the two leaves an event whose object the resumed walk
 * quarantines again (an extra event, never a silent quarantine).
 *
 * Every gateway process loads the same bundle, so each would walk every tenant: a walk first
 * takes the tenant's lease (a unique `_id`, renewed every batch, taken over once expired by
 * the injected clock), so one process judges each object once and the progress counts one
 * walk. A process that finds a tenant leased comes back after a lease's time, in case the
 * holder stopped.
 */
export class Reauditor {
  readonly progress: ReauditProgress;
  private readonly batchSize: number;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;
  private readonly walks: ReauditWalks;
  private readonly owner = `reaudit-${randomBytes(6).toString("hex")}`;
  private readonly leaseMs: number;
  private retry: NodeJS.Timeout | undefined;
  private readonly onChange = (change: PolicyChange) => {
    this.schedule(change.current.hash);
  };

  constructor(private readonly deps: ReauditDeps) {
    this.walks = new ReauditWalks(deps.db);
    this.progress = this.walks.progress;
    this.batchSize = deps.batchSize ?? DEFAULT_BATCH;
    this.leaseMs = deps.leaseMs ?? LEASE_MS;
  }

  /** Listens for bundle reloads, and judges under the bundle in force what no walk has judged under it yet. */
  start(): void {
    this.stopped = false;
    this.deps.policy.on("changed", this.onChange);
    const hash = this.deps.policy.hash;
    if (hash) this.running = this.running.then(() => this.resume(hash)).catch((error: unknown) => this.failed(error));
  }

  /** Stops after the batch in flight; progress so far is kept for the next start. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.deps.policy.off("changed", this.onChange);
    await this.running;
  }

  /** Resolves when the re-audits scheduled so far have finished (tests poll reauditStatus instead). */
  idle(): Promise<void> {
    return this.running;
  }

  private schedule(hash: string): void {
    // Serialised: a bundle loaded during a walk starts a new walk once this one stops.
    this.running = this.running.then(() => this.restart(hash)).catch((error: unknown) => this.failed(error));
  }

  private failed(error: unknown): void {
    this.deps.logger.error({ err: error }, "re-audit stopped; the next bundle load or start resumes it");
  }

  /** At start: every tenant not yet judged under the bundle in force (a deploy while down, a walk cut short). */
  private resume(hash: string): Promise<void> {
    return this.walkAll(hash, false);
  }

  private restart(hash: string): Promise<void> {
    return this.walkAll(hash, true);
  }

  private async walkAll(hash: string, fresh: boolean): Promise<void> {
    let leasedElsewhere = false;
    for (const tenant of await this.deps.events.tenants()) {
      if (this.stopped || this.deps.policy.hash !== hash) return; // a newer bundle has its own walk queued
      if (!(await this.takeLease(tenant, hash))) {
        leasedElsewhere = true;
        continue;
      }
      try {
        await this.audit(tenant, hash, fresh);
      } finally {
        await this.walks.release(leaseId(tenant, hash), this.owner);
      }
    }
    // The process walking those may stop before it is done: look again once its lease would have run out.
    if (leasedElsewhere && !this.stopped) {
      clearTimeout(this.retry);
      this.retry = setTimeout(() => {
        this.running = this.running.then(() => this.resume(hash)).catch((error: unknown) => this.failed(error));
      }, this.leaseMs).unref();
    }
  }

  /**
   * The tenant's walk lease: inserted, or, once its holder let it expire, taken over by a numbered
   * claim on that holder's lease (claims.ts: insert only, the unique `_id` decides) and replaced.
   */
  private async takeLease(tenantId: string, hash: string): Promise<boolean> {
    const _id = leaseId(tenantId, hash);
    const now = this.deps.clock.now().getTime();
    const lease = { owner: this.owner, policy_hash: hash, expires_at: new Date(now + this.leaseMs) };
    if (await this.walks.insertLease({ _id, ...lease })) return true;
    const held = await this.walks.lease(_id);
    if (!held) return this.walks.insertLease({ _id, ...lease }); // released meanwhile
    if (held.expires_at.getTime() > now) return false;
    return this.walks.takeOver(held, { _id, ...lease }, now, this.leaseMs);
  }

  /** Every batch: false when the lease is no longer this process's (it stalled past expiry and another took over). */
  private async renewLease(tenantId: string, hash: string): Promise<boolean> {
    return this.walks.renew(leaseId(tenantId, hash), this.owner, new Date(this.deps.clock.now().getTime() + this.leaseMs));
  }

  /**
   * One tenant's walk under bundle `hash`, holding its lease: resumed from its cursor while
   * running; once done, walked again only when `fresh` (this bundle just loaded) and the
   * tenant's latest walk was under another bundle.
   */
  private async audit(tenantId: string, hash: string, fresh: boolean): Promise<void> {
    const _id = leaseId(tenantId, hash);
    let record = await this.progress.get(tenantId, hash);
    // Done under this bundle: walked again only when it was just loaded after another bundle's walk (a rollback).
    if (record?.state === "done" && (!fresh || (await this.walks.latestWalkHash(tenantId)) === hash)) return;
    if (!record || record.state === "done") {
      const now = this.deps.clock.now().toISOString();
      record = {
        _id,
        tenant_id: tenantId,
        policy_hash: hash,
        policy_version: this.deps.policy.contract.version,
        state: "running",
        started_at: now,
        updated_at: now,
        finished_at: null,
        targets: Object.fromEntries(this.deps.targets.map((t) => [t.kind, { after: null, scanned: 0, quarantined: 0, done: false }])),
        round_trips: 0,
      };
      await this.walks.begin(record);
    }
    for (const target of this.deps.targets) {
      const state = (record.targets[target.kind] ??= { after: null, scanned: 0, quarantined: 0, done: false });
      while (!state.done) {
        if (this.stopped || this.deps.policy.hash !== hash) return;
        if (!(await this.renewLease(tenantId, hash))) return;
        const batch = await target.scan(tenantId, state.after, this.batchSize);
        let trips = 1;
        for (const candidate of batch) {
          if (Object.keys(candidate.texts).length === 0) continue; // not live: nothing any read returns
          const quarantined = await this.rejudge(tenantId, target, candidate, hash);
          if (quarantined) {
            state.quarantined += 1;
            trips += 2; // the event, the object
          }
        }
        state.scanned += batch.length;
        state.after = batch.length > 0 ? batch[batch.length - 1].docId : state.after;
        state.done = batch.length < this.batchSize;
        record.round_trips += trips + 2; // + the lease renewal and this progress write
        record.updated_at = this.deps.clock.now().toISOString();
        await this.walks.recordProgress(_id, { [`targets.${target.kind}`]: state, round_trips: record.round_trips, updated_at: record.updated_at });
      }
    }
    const finished = this.deps.clock.now().toISOString();
    await this.walks.recordProgress(_id, { state: "done", finished_at: finished, updated_at: finished });
    this.deps.logger.info({ tenant: tenantId, policy: hash }, "re-audit finished");
  }

  /** The policy judges the stored text; on `refuse` the event is appended, then the object is quarantined. */
  private async rejudge(tenantId: string, target: RejudgeTarget, candidate: RejudgeCandidate, hash: string): Promise<boolean> {
    const principal: Principal = { id: REAUDIT_ACTOR.id, tenant: tenantId, subjects: [candidate.subjectId], roles: ["job"], agentType: null, job: null };
    const decision = await this.deps.kernel.judge({ contract: target.contract, name: "REJUDGE" }, principal, candidate.subjectId, candidate.texts);
    if (decision.outcome !== "refuse") return false;
    const rules = decision.explanations;
    // Through the kernel's write set for jobs; the object is quarantined once its event is in the log.
    const { events } = await this.deps.kernel.job("reaudit", async (writes) =>
      writes.event({
        tenant_id: tenantId,
        subject_id: candidate.subjectId,
        event_type: "quarantine",
        operation: "REJUDGE",
        contract: target.contract,
        memory_id: candidate.objectId,
        actor: REAUDIT_ACTOR,
        stop_reason: decision.stopReason,
        decision_id: decision.decisionId,
        policy_hash: hash,
        contract_version: decision.contractVersion,
        request_id: null,
        content_digest: null,
        // The clauses the policy named (its structured answer), not words parsed out of explanations.
        reason: decision.rules.join(","),
        metadata: { explanations: rules, kind: target.kind, ...candidate.metadata },
      }),
    );
    const event = events[0];
    const mark: QuarantineMark = {
      at: this.deps.clock.now().toISOString(),
      rules,
      stop_reason: decision.stopReason,
      policy_hash: hash,
      decision_id: decision.decisionId,
      previous_status: "",
      logged_seq: event.seq,
    };
    return target.quarantine(tenantId, candidate, mark);
  }
}
