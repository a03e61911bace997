import type { Clock } from "../clock";
import type { Logger } from "../logger";
import type { PolicyChange } from "../policy/policy-engine";
import type { JobRunner } from "../kernel/execute";
import type { EventDraft, EventLog, MemoryEvent } from "../store/event-log";
import type { Database } from "../store/database";
import { PolicyStateRecords } from "../store/log/policy-state";
import { POLICY_ENGINE_ACTOR } from "../store/log/system-actor";
import { JOB_EVENTS } from "./job-events";

/**
 * MP-BREAK: compares each bundle that comes into force with the one last recorded in the
 * database (so restarts and other processes count too). A new declared version writes
 * `policy_change`; a new hash under the same declared version writes `conformance_break`
 * (a policy change without versioning, seed 004 §6). A conditional update makes exactly
 * one process write the events when several load the same bundle.
 */
export class PolicyVersionWatch {
  private readonly state: PolicyStateRecords;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    db: Database,
    private readonly log: Pick<EventLog, "tenants">,
    private readonly jobs: JobRunner,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.state = new PolicyStateRecords(db);
  }

  /**
   * A bundle refused at load (corrupt, unsigned, signed by an untrusted key, edited after
   * signing): a `refuse` event in every tenant's chain, once per refused file across every
   * process (the first to record its hash writes the events); the policy in force stays.
   */
  refused(error: Error & { code?: string; bundleHash?: string | null; problem?: string }): Promise<MemoryEvent[]> {
    const next = this.chain.then(() => this.recordRefusal(error));
    this.chain = next.catch((failure: unknown) => this.logger.error({ err: failure }, "could not record a refused policy bundle"));
    return next;
  }

  private async recordRefusal(error: Error & { code?: string; bundleHash?: string | null; problem?: string }): Promise<MemoryEvent[]> {
    const bundleHash = error.bundleHash ?? null;
    const at = this.clock.now().toISOString();
    if (!(await this.state.recordRefusal(bundleHash, at))) return []; // recorded already
    const recorded = await this.state.current();
    return this.appendToEveryTenant({
      ...JOB_EVENTS.policy_bundle_refused,
      policy_hash: recorded?.hash ?? null,
      contract_version: recorded?.version ?? null,
      reason: `policy_bundle_refused: ${error.problem ?? error.code ?? "unreadable"}`,
      metadata: {
        refused_hash: bundleHash,
        code: error.code ?? null,
        problem: error.problem ?? null,
        in_force: recorded ? { hash: recorded.hash, version: recorded.version } : null,
      },
    });
  }

  /** Resolves once every change and refusal observed so far is recorded. */
  async settled(): Promise<void> {
    await this.chain;
  }

  /** Serialised: reloads observed in order. Resolves to the events written. */
  observe(change: PolicyChange): Promise<MemoryEvent[]> {
    const next = this.chain.then(() => this.compare(change.current));
    this.chain = next.catch((error: unknown) => this.logger.error({ err: error }, "could not record a policy change"));
    return next;
  }

  private async compare(current: { hash: string; version: string }): Promise<MemoryEvent[]> {
    const since = this.clock.now().toISOString();
    const recorded = await this.state.current();
    if (recorded?.hash === current.hash) return [];
    if (!recorded) {
      if (!(await this.state.recordFirst(current.hash, current.version, since))) return this.compare(current);
    } else if (!(await this.state.replace(recorded.hash, current.hash, current.version, since))) {
      return []; // another process recorded this change
    }
    const previous = recorded ? { hash: recorded.hash, version: recorded.version } : null;
    const unversioned = previous !== null && previous.version === current.version;
    const observed = unversioned ? "policy_hash_changed_without_version_change" : "policy_version_changed";
    const events = await this.appendToEveryTenant({
      ...JOB_EVENTS[observed], // its event type and stop reason: policy data
      policy_hash: current.hash,
      contract_version: current.version,
      reason: observed,
      metadata: { previous, current },
    });
    if (unversioned) this.logger.error({ previous, current }, "MP-BREAK: the policy changed without a new declared version");
    return events;
  }

  /** One POLICY_LOAD event in every tenant's chain, by the policy engine, about no subject or object. */
  private async appendToEveryTenant(
    event: Pick<EventDraft, "event_type" | "stop_reason" | "policy_hash" | "contract_version" | "reason" | "metadata">,
  ): Promise<MemoryEvent[]> {
    const tenants = await this.log.tenants();
    // One write set per tenant (each tenant's chain is its own group commit), through the kernel's write set for jobs.
    const events: MemoryEvent[] = [];
    for (const tenant of tenants) {
      const written = await this.jobs.job("policy_watch", async (writes) =>
        writes.event({
          ...event,
          tenant_id: tenant,
          subject_id: null,
          operation: "POLICY_LOAD",
          contract: "audit",
          memory_id: null,
          actor: POLICY_ENGINE_ACTOR,
          decision_id: null,
          request_id: null,
          content_digest: null,
        }),
      );
      events.push(...written.events);
    }
    return events;
  }
}
