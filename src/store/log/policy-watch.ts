import { MongoServerError, type Collection, type Db } from "mongodb";
import type { Clock } from "../../clock";
import type { Logger } from "../../logger";
import type { PolicyChange } from "../../policy/policy-engine";
import type { EventLog, MemoryEvent } from "../event-log";
import { AUDIT_COLLECTIONS } from "./collections";
import { POLICY_ENGINE_ACTOR } from "./system-actor";

interface PolicyState {
  _id: "current";
  hash: string;
  version: string;
  since: string;
}

/**
 * MP-BREAK: compares each bundle that comes into force with the one last recorded in the
 * database (so restarts and other processes count too). A new declared version writes
 * `policy_change`; a new hash under the same declared version writes `conformance_break`
 * (a policy change without versioning, seed 004 §6). A conditional update makes exactly
 * one process write the events when several load the same bundle.
 */
export class PolicyVersionWatch {
  private readonly state: Collection<PolicyState>;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    db: Db,
    private readonly log: EventLog,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.state = db.collection<PolicyState>(AUDIT_COLLECTIONS.policyState);
  }

  /** Serialised: reloads observed in order. Resolves to the events written. */
  observe(change: PolicyChange): Promise<MemoryEvent[]> {
    const next = this.chain.then(() => this.compare(change.current));
    this.chain = next.catch((error: unknown) => this.logger.error({ err: error }, "could not record a policy change"));
    return next;
  }

  private async compare(current: { hash: string; version: string }): Promise<MemoryEvent[]> {
    const since = this.clock.now().toISOString();
    const recorded = await this.state.findOne({ _id: "current" });
    if (recorded?.hash === current.hash) return [];
    if (!recorded) {
      try {
        await this.state.insertOne({ _id: "current", hash: current.hash, version: current.version, since });
      } catch (error) {
        if (error instanceof MongoServerError && error.code === 11000) return this.compare(current);
        throw error;
      }
    } else {
      const won = await this.state.updateOne({ _id: "current", hash: recorded.hash }, { $set: { hash: current.hash, version: current.version, since } });
      if (won.modifiedCount === 0) return []; // another process recorded this change
    }
    const previous = recorded ? { hash: recorded.hash, version: recorded.version } : null;
    const unversioned = previous !== null && previous.version === current.version;
    const events: MemoryEvent[] = [];
    for (const tenant of await this.log.tenants()) {
      events.push(
        await this.log.append({
          tenant_id: tenant,
          subject_id: null,
          event_type: unversioned ? "conformance_break" : "policy_change",
          operation: "POLICY_LOAD",
          contract: "audit",
          memory_id: null,
          actor: POLICY_ENGINE_ACTOR,
          stop_reason: unversioned ? "INTERNAL_INCONSISTENCY" : "SUCCESS_UPDATED",
          decision_id: null,
          policy_hash: current.hash,
          contract_version: current.version,
          request_id: null,
          content_digest: null,
          reason: unversioned ? "policy_hash_changed_without_version_change" : "policy_version_changed",
          metadata: { previous, current },
        }),
      );
    }
    if (unversioned) this.logger.error({ previous, current }, "MP-BREAK: the policy changed without a new declared version");
    return events;
  }
}
