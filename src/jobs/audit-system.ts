import { ensureDevKeyPair } from "../auth/dev-keys";
import { DEFAULT_SWEEP_EVENTS_PER_S, type Config } from "../config";
import type { ContractStore } from "../kernel/contract-store";
import type { Kernel } from "../kernel/execute";
import type { Logger } from "../logger";
import type { PolicyChange } from "../policy/policy-engine";
import type { Database } from "../store/database";
import type { EventLog } from "../store/event-log";
import { ChainAuditor } from "../store/log/chain-auditor";
import { ChainSweep } from "../store/log/chain-sweep";
import { Checkpointer } from "../store/log/checkpoints";
import { logKeySet, signEventBody } from "../store/log/event-signing";
import { createEventSource, type EventSource } from "../store/log/event-source";
import { IntegrityGuard } from "./integrity-guard";
import { PolicyVersionWatch } from "./policy-watch";
import { ReasonNotes } from "../store/log/reason-notes";
import { Repair, type RepairReport } from "./repair";
import type { AuditLog } from "../store/log/audit-system";
import { PACE_EVERY, type ChainVerification } from "../store/log/verify";

export interface AuditSystemDeps {
  db: Database;
  config: Config;
  logger: Logger;
  /** The kernel of the gateway: its clock, policy and job write sets; the guard becomes its integrity state. */
  kernel: Kernel;
  /** The hash-chained log the kernel appends to. */
  events: EventLog;
  /** Every contract's stores (ContractDeps.stores): filled by the composition root before `start()`. */
  stores: readonly ContractStore[];
  /** How long the doors have served nothing (the gateway's Admission): the start-up full verification gives way to requests. */
  doors?: { idleForMs(): number };
  /** How the start-up full verification waits while it gives way (real time by default; tests pass their own). */
  wait?: (ms: number) => Promise<void>;
}

/** The doors count as busy until they have served nothing for this long. */
const IDLE_AFTER_MS = 1_000;
const realWait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms).unref());

/**
 * The pace of the start-up full verification (every event of every tenant, from seq 1): at full
 * speed while the doors are idle, at the background sweep's rate while they serve (a request in
 * the last second), so that a restart over a large log does not take the CPU from the requests
 * (issue 26: a small tenant's p99 beside a 1 M-event log). Called every PACE_EVERY events.
 */
export function paceBehindRequests(
  doors: { idleForMs(): number } | undefined,
  eventsPerSecond: number,
  wait: (ms: number) => Promise<void>,
): (() => Promise<void>) | undefined {
  if (!doors) return undefined;
  const stepMs = (PACE_EVERY * 1000) / Math.max(1, eventsPerSecond);
  return async () => {
    if (doors.idleForMs() < IDLE_AFTER_MS) await wait(stepMs);
  };
}

const NO_REPAIR: RepairReport = { settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 0 };

/**
 * Wires the tamper-evident log's parts (issue 5) and runs its duties over every contract's
 * store (issue 11). `create` builds the parts, so the contracts can be built with them;
 * `start`, once every store is listed, runs the start-up duties in order: policy version
 * check (MP-BREAK), repair of unsettled objects of every store, verification of every
 * chain (MP-BREAK), then the checkpoint timer and the integrity refresh. Settle marks come
 * from the kernel's write sets, not from a hook on the log.
 */
export class AuditSystem implements AuditLog {
  private detach: () => void = () => undefined;
  private report: RepairReport = NO_REPAIR;
  private stopped = false;
  /** What the start-up verification checked, per tenant (issue 15 §5: since the last good checkpoint), once it has checked every tenant. */
  startupVerification: Promise<ChainVerification[]> = Promise.resolve([]);
  /** The full verification started after the start-up one; resolves to what it found per tenant. */
  fullVerification: Promise<ChainVerification[]> = Promise.resolve([]);
  private repairTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly deps: AuditSystemDeps,
    readonly events: EventLog,
    readonly checkpointer: Checkpointer,
    readonly guard: IntegrityGuard,
    readonly auditor: ChainAuditor,
    readonly source: EventSource,
    readonly policyWatch: PolicyVersionWatch,
    readonly sweep: ChainSweep,
    readonly notes: ReasonNotes,
  ) {}

  static async create(deps: AuditSystemDeps): Promise<AuditSystem> {
    const { db, config, logger, kernel, events } = deps;
    const { clock } = kernel;
    const privateKeyPem = config.audit.checkpointPrivateKeyPem ?? (await ensureDevKeyPair(config.dataDir, "checkpoint")).privateKeyPem;
    // One key set signs events and checkpoints (issue 12 §6); earlier public keys keep verifying after a rotation.
    const keys = logKeySet(privateKeyPem, config.audit.logPublicKeysPem);
    events.sealWith((body) => signEventBody(body, keys));
    const checkpointer = new Checkpointer(
      db,
      events,
      clock,
      keys,
      { every: config.audit.checkpointEvery, intervalS: config.audit.checkpointIntervalS },
      logger,
    );
    events.onHookError = (error, event) =>
      logger.error({ err: error, tenant: event.tenant_id, seq: event.seq }, "after-append hook failed (repaired at next start)");
    events.afterAppend(checkpointer.onAppended);

    const auditor = new ChainAuditor(events, checkpointer);
    const guard = new IntegrityGuard(db, events, kernel, auditor, clock, logger, config.audit.integrityRefreshMs);
    checkpointer.onBreak = (verification) => guard.reportBreak(verification, "checkpointer");
    checkpointer.acknowledgedOf = (tenant) => guard.acknowledgedSeqs(tenant);
    checkpointer.brokenOf = (tenant) => guard.breakOf(tenant) !== null;
    // Issue 22 §3: every chain verified again from seq 1, continuously, at a bounded rate; the checkpointer signs only over what it covered.
    const sweep = new ChainSweep(events, auditor, clock, { eventsPerSecond: config.audit.sweepEventsPerSecond, stepMs: config.audit.sweepStepMs }, logger);
    sweep.onBreak = (verification) => guard.reportBreak(verification, "background_sweep");
    sweep.acknowledgedOf = (tenant) => guard.acknowledgedSeqs(tenant);
    if (config.audit.sweepEventsPerSecond > 0) checkpointer.sweptSince = (tenant, since) => sweep.completedSince(tenant, since);
    kernel.useIntegrity(guard);
    const source = await createEventSource(
      db,
      events,
      {
        mode: config.audit.eventSource,
        pollMs: config.audit.pollMs,
        subscriptionsPerToken: config.audit.subscriptionsPerToken,
        subscriptionsPerTenant: config.audit.subscriptionsPerTenant,
      },
      logger,
    );
    const policyWatch = new PolicyVersionWatch(db, events, kernel, clock, logger);
    return new AuditSystem(deps, events, checkpointer, guard, auditor, source, policyWatch, sweep, new ReasonNotes(db));
  }

  /** The start-up duties, in order; resolves when the gateway may serve. */
  async start(): Promise<RepairReport> {
    const { db, config, logger, kernel, stores } = this.deps;
    const policy = kernel.policy;
    const onChanged = (change: PolicyChange) => void this.policyWatch.observe(change).catch(() => undefined);
    const onRefused = (error: Error) => void this.policyWatch.refused(error).catch(() => undefined);
    policy.on("changed", onChanged);
    policy.on("reloadFailed", onRefused);
    this.detach = () => {
      policy.off("changed", onChanged);
      policy.off("reloadFailed", onRefused);
    };
    if (policy.loaded) await this.policyWatch.observe({ previous: undefined, current: { hash: policy.hash!, version: policy.contract.version } });
    const refusedAtStart = policy.lastFailure;
    if (refusedAtStart) await this.policyWatch.refused(refusedAtStart).catch(() => undefined);

    const repair = new Repair(db, this.events, kernel, stores, kernel.clock, logger, config.audit.repairMinAgeMs);
    this.report = await repair.run();
    // Not only at start (issue 15 §4): an object a stopped process left without its event is settled or completed while serving.
    this.repairTimer = setInterval(
      () => void repair.run().catch((error: unknown) => logger.warn({ err: error }, "repair pass failed; retried")),
      config.audit.repairIntervalMs,
    );
    this.repairTimer.unref();

    await this.guard.refresh();
    if (config.audit.verifyOnStart) {
      // Start fast (issue 15 §5), whatever the number of tenants (issue 26): what was appended since
      // each tenant's last good checkpoint is checked in the background, a tenant's first request
      // waiting for its own tenant's check only (IntegrityGuard.startChecks); then every event from
      // genesis, in the background too.
      const checkEveryTenant = await this.guard.startChecks("startup_verification", () => this.stopped);
      this.startupVerification = checkEveryTenant();
      this.fullVerification = this.startupVerification
        .then(async () => {
          const startedAt = kernel.clock.now().getTime();
          const pace = paceBehindRequests(this.deps.doors, config.audit.sweepEventsPerSecond || DEFAULT_SWEEP_EVENTS_PER_S, this.deps.wait ?? realWait);
          return { startedAt, results: await this.verifyEveryTenant({ full: true }, "background_full_verification", pace) };
        })
        .then(({ startedAt, results }) => {
          // The full verification at start is the sweep's first pass; the sweep goes on from there.
          for (const result of results) if (result.ok) this.sweep.recordPass(result.tenantId, { startedAt, throughSeq: result.toSeq });
          if (!this.stopped) this.sweep.start();
          return results;
        })
        .catch((error: unknown) => {
          logger.error({ err: error }, "the background full verification failed to run");
          if (!this.stopped) this.sweep.start();
          return [];
        });
    } else this.sweep.start();
    this.guard.start();
    this.checkpointer.start();
    return this.report;
  }

  /** Verifies every tenant's chain; each one that fails is reported (conformance_break, writes refused). */
  private async verifyEveryTenant(range: { full: boolean }, detectedBy: string, pace?: () => Promise<void>): Promise<ChainVerification[]> {
    const results: ChainVerification[] = [];
    for (const tenant of await this.events.tenants()) {
      if (this.stopped) break;
      const result = await this.auditor.verify(tenant, range, this.guard.acknowledgedSeqs(tenant), pace);
      results.push(result);
      if (!result.ok) await this.guard.reportBreak(result, detectedBy);
    }
    return results;
  }

  /** What the start-up repair did. */
  get repairReport(): RepairReport {
    return this.report;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.repairTimer);
    this.detach();
    await this.startupVerification.catch(() => undefined);
    await this.fullVerification;
    await this.sweep.stop();
    this.guard.stop();
    await this.checkpointer.stop();
  }
}
