import type { Db } from "mongodb";
import { ensureDevKeyPair } from "../auth/dev-keys";
import type { Clock } from "../clock";
import type { Config } from "../config";
import type { Governor } from "../contracts/governor";
import type { Logger } from "../logger";
import type { PolicyChange, PolicyEngine } from "../policy/policy-engine";
import type { EventLog } from "../store/event-log";
import { AuditService } from "./audit.service";
import { ChainAuditor } from "./chain-auditor";
import { Checkpointer, checkpointKey } from "./checkpoints";
import { ErasureRegistry, GovernedErasableStore } from "./erasure";
import { ErasureService } from "./erasure.service";
import { createEventSource, type EventSource } from "./event-source";
import { IntegrityGuard } from "./integrity-guard";
import { PolicyVersionWatch } from "./policy-watch";
import { GovernedItemSettler, GovernedRepair, type RepairReport } from "./repair";

export interface AuditSystemDeps {
  db: Db;
  config: Config;
  clock: Clock;
  logger: Logger;
  policy: PolicyEngine;
  events: EventLog;
  governor: Governor;
}

/**
 * Wires the tamper-evident log's parts (issue 5) and runs the start-up duties in order:
 * settle hooks, policy version check (MP-BREAK), repair of unsettled items, verification
 * of every chain (MP-BREAK), then the checkpoint timer and the integrity refresh.
 */
export class AuditSystem {
  private constructor(
    readonly audit: AuditService,
    readonly erasure: ErasureService,
    readonly erasables: ErasureRegistry,
    readonly checkpointer: Checkpointer,
    readonly guard: IntegrityGuard,
    readonly auditor: ChainAuditor,
    readonly source: EventSource,
    readonly policyWatch: PolicyVersionWatch,
    readonly repairReport: RepairReport,
    private readonly detach: () => void,
  ) {}

  static async start(deps: AuditSystemDeps): Promise<AuditSystem> {
    const { db, config, clock, logger, policy, events, governor } = deps;
    const privateKeyPem = config.audit.checkpointPrivateKeyPem ?? (await ensureDevKeyPair(config.dataDir, "checkpoint")).privateKeyPem;
    const checkpointer = new Checkpointer(
      db,
      events,
      clock,
      checkpointKey(privateKeyPem),
      { every: config.audit.checkpointEvery, intervalS: config.audit.checkpointIntervalS },
      logger,
    );
    events.onHookError = (error, event) => logger.error({ err: error, tenant: event.tenant_id, seq: event.seq }, "after-append hook failed (repaired at next start)");
    events.afterAppend(new GovernedItemSettler(db).settle);
    events.afterAppend(checkpointer.onAppended);

    const policyWatch = new PolicyVersionWatch(db, events, clock, logger);
    const onChanged = (change: PolicyChange) => void policyWatch.observe(change).catch(() => undefined);
    policy.on("changed", onChanged);
    if (policy.loaded) await policyWatch.observe({ previous: undefined, current: { hash: policy.hash!, version: policy.contract.version } });

    const repairReport = await new GovernedRepair(db, events, clock, logger, config.audit.repairMinAgeMs).run();

    const auditor = new ChainAuditor(events, checkpointer);
    const guard = new IntegrityGuard(db, events, auditor, clock, logger, config.audit.integrityRefreshMs);
    if (config.audit.verifyOnStart) await guard.verifyAll();
    else await guard.refresh();
    guard.start();
    governor.useIntegrity(guard);
    checkpointer.start();

    const source = await createEventSource(db, events, { mode: config.audit.eventSource, pollMs: config.audit.pollMs }, logger);
    const erasables = new ErasureRegistry();
    erasables.register(new GovernedErasableStore(db));
    return new AuditSystem(
      new AuditService(governor, events, auditor, checkpointer, source, guard),
      new ErasureService(governor, erasables),
      erasables,
      checkpointer,
      guard,
      auditor,
      source,
      policyWatch,
      repairReport,
      () => policy.off("changed", onChanged),
    );
  }

  async stop(): Promise<void> {
    this.detach();
    this.guard.stop();
    await this.checkpointer.stop();
  }
}
