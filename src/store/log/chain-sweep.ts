import type { Clock } from "../../clock";
import type { Logger } from "../../logger";
import type { EventLog } from "../event-log";
import type { ChainAuditor } from "./chain-auditor";
import type { ChainVerification } from "./verify";

export interface ChainSweepOptions {
  /** Events verified per second, all tenants together (MEMGATE_AUDIT_SWEEP_EVENTS_PER_S; 0: no sweep). */
  eventsPerSecond: number;
  /** How often a step runs (ms); each step verifies eventsPerSecond x stepMs / 1000 events. */
  stepMs: number;
}

/** A full pass over one tenant's chain that found nothing: when it started (by the injected clock), and how far it went. */
export interface CompletedPass {
  startedAt: number;
  throughSeq: number;
}

interface Cursor {
  next: number;
  headAtStart: number;
  startedAt: number;
}

/**
 * MP-BREAK at every moment (issue 22 §3): the whole chain of every tenant, from seq 1, verified
 * again and again in the background at a bounded rate (hashes, links, signatures, and every
 * signed checkpoint and the chain head against the events), one tenant after another. An edit
 * anywhere is found within one pass: at most (events of all tenants) / eventsPerSecond seconds
 * after it is made, with the gateway idle or not. A mismatch is reported to the integrity guard
 * (a `conformance_break` event, the tenant's writes refused). The checkpointer signs only over
 * history that a pass begun after its previous checkpoint has verified (`completedSince`).
 *
 * `step()` is the whole of the work, so a test drives it by hand; `start()` only schedules it.
 */
export class ChainSweep {
  private readonly cursors = new Map<string, Cursor>();
  private readonly completed = new Map<string, CompletedPass>();
  private tenants: string[] = [];
  private turn = 0;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  onBreak: (verification: ChainVerification) => Promise<unknown> = async () => undefined;
  acknowledgedOf: (tenant: string) => ReadonlySet<number> = () => new Set();

  constructor(
    private readonly log: EventLog,
    private readonly auditor: ChainAuditor,
    private readonly clock: Clock,
    private readonly options: ChainSweepOptions,
    private readonly logger: Logger,
  ) {}

  /** The latest pass over `tenant` that found nothing and began at or after `since` (clock ms). */
  completedSince(tenant: string, since: number): CompletedPass | undefined {
    const pass = this.completed.get(tenant);
    return pass && pass.startedAt >= since ? pass : undefined;
  }

  /** A clean full verification made elsewhere (the one at start) counts as a pass. */
  recordPass(tenant: string, pass: CompletedPass): void {
    const known = this.completed.get(tenant);
    if (!known || known.startedAt <= pass.startedAt) this.completed.set(tenant, pass);
  }

  /** Verifies up to `budget` events (default: one step's share of the rate), tenant after tenant. */
  async step(budget = Math.max(1, Math.round((this.options.eventsPerSecond * this.options.stepMs) / 1000))): Promise<void> {
    let left = budget;
    if (this.tenants.length === 0) this.tenants = await this.log.tenants();
    while (left > 0 && this.tenants.length > 0) {
      const tenant = this.tenants[this.turn % this.tenants.length];
      let cursor = this.cursors.get(tenant);
      if (!cursor) {
        // The stored head: every event up to it is in the database (the in-memory head may run ahead of a batch in flight).
        cursor = { next: 1, headAtStart: (await this.log.storedHead(tenant))?.seq ?? 0, startedAt: this.clock.now().getTime() };
        this.cursors.set(tenant, cursor);
      }
      const toSeq = Math.min(cursor.headAtStart, cursor.next + left - 1);
      if (cursor.next <= toSeq) {
        const result = await this.auditor.verify(tenant, { fromSeq: cursor.next, toSeq }, this.acknowledgedOf(tenant));
        left -= Math.max(1, result.eventsChecked);
        if (!result.ok) {
          this.logger.error({ tenant, seq: result.firstBrokenSeq, reason: result.reason }, "MP-BREAK: the background sweep found the chain broken");
          this.completed.delete(tenant);
          await this.onBreak(result);
          this.nextTenant(tenant);
          continue;
        }
        cursor.next = toSeq + 1;
      }
      if (cursor.next > cursor.headAtStart) {
        this.completed.set(tenant, { startedAt: cursor.startedAt, throughSeq: cursor.headAtStart });
        this.nextTenant(tenant);
      }
    }
  }

  /** This tenant's pass is over (done or broken): the next tenant's turn; its next pass starts from seq 1. */
  private nextTenant(tenant: string): void {
    this.cursors.delete(tenant);
    this.turn += 1;
    // A new round over every tenant: tenants that appeared since are swept too.
    if (this.turn % this.tenants.length === 0) this.tenants = [];
  }

  start(): void {
    if (this.timer || this.options.eventsPerSecond <= 0) return;
    this.timer = setInterval(() => {
      if (this.running) return; // a slow step is not stacked on
      this.running = this.step()
        .catch((error: unknown) => this.logger.warn({ err: error }, "background chain sweep step failed; retried"))
        .finally(() => (this.running = undefined));
    }, this.options.stepMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
