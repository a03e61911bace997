import type { Db } from "mongodb";
import { ensureDevKeyPair } from "../../auth/dev-keys";
import type { Config } from "../../config";
import type { ContractStore } from "../../kernel/contract-store";
import type { Kernel } from "../../kernel/execute";
import type { Logger } from "../../logger";
import type { PolicyChange } from "../../policy/policy-engine";
import type { EventLog } from "../event-log";
import { ChainAuditor } from "./chain-auditor";
import { Checkpointer, checkpointKey } from "./checkpoints";
import { createEventSource, type EventSource } from "./event-source";
import { IntegrityGuard } from "./integrity-guard";
import { PolicyVersionWatch } from "./policy-watch";
import { Repair, type RepairReport } from "./repair";

export interface AuditSystemDeps {
  db: Db;
  config: Config;
  logger: Logger;
  /** The kernel of the gateway: its log, clock and policy; the guard becomes its integrity state. */
  kernel: Kernel;
  /** Every contract's stores (ContractDeps.stores): filled by the composition root before `start()`. */
  stores: readonly ContractStore[];
}

/** What the audit contract's operations read and act on (ContractDeps.auditLog). */
export interface AuditLog {
  readonly events: EventLog;
  readonly auditor: ChainAuditor;
  readonly checkpointer: Checkpointer;
  readonly guard: IntegrityGuard;
  readonly source: EventSource;
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

  private constructor(
    private readonly deps: AuditSystemDeps,
    readonly events: EventLog,
    readonly checkpointer: Checkpointer,
    readonly guard: IntegrityGuard,
    readonly auditor: ChainAuditor,
    readonly source: EventSource,
    readonly policyWatch: PolicyVersionWatch,
  ) {}

  static async create(deps: AuditSystemDeps): Promise<AuditSystem> {
    const { db, config, logger, kernel } = deps;
    const { events, clock } = kernel;
    const privateKeyPem = config.audit.checkpointPrivateKeyPem ?? (await ensureDevKeyPair(config.dataDir, "checkpoint")).privateKeyPem;
    const checkpointer = new Checkpointer(
      db,
      events,
      clock,
      checkpointKey(privateKeyPem),
      { every: config.audit.checkpointEvery, intervalS: config.audit.checkpointIntervalS },
      logger,
    );
    events.onHookError = (error, event) =>
      logger.error({ err: error, tenant: event.tenant_id, seq: event.seq }, "after-append hook failed (repaired at next start)");
    events.afterAppend(checkpointer.onAppended);

    const auditor = new ChainAuditor(events, checkpointer);
    const guard = new IntegrityGuard(db, events, auditor, clock, logger, config.audit.integrityRefreshMs);
    kernel.useIntegrity(guard);
    const source = await createEventSource(db, events, { mode: config.audit.eventSource, pollMs: config.audit.pollMs }, logger);
    const policyWatch = new PolicyVersionWatch(db, events, clock, logger);
    return new AuditSystem(deps, events, checkpointer, guard, auditor, source, policyWatch);
  }

  /** The start-up duties, in order; resolves when the gateway may serve. */
  async start(): Promise<RepairReport> {
    const { db, config, logger, kernel, stores } = this.deps;
    const policy = kernel.policy;
    const onChanged = (change: PolicyChange) => void this.policyWatch.observe(change).catch(() => undefined);
    policy.on("changed", onChanged);
    this.detach = () => policy.off("changed", onChanged);
    if (policy.loaded) await this.policyWatch.observe({ previous: undefined, current: { hash: policy.hash!, version: policy.contract.version } });

    this.report = await new Repair(db, this.events, stores, kernel.clock, logger, config.audit.repairMinAgeMs).run();

    if (config.audit.verifyOnStart) await this.guard.verifyAll();
    else await this.guard.refresh();
    this.guard.start();
    this.checkpointer.start();
    return this.report;
  }

  /** What the start-up repair did. */
  get repairReport(): RepairReport {
    return this.report;
  }

  async stop(): Promise<void> {
    this.detach();
    this.guard.stop();
    await this.checkpointer.stop();
  }
}
