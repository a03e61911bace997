import type { Collection, Db } from "mongodb";
import type { Clock } from "../clock";
import type { Logger } from "../logger";
import { saltedDigest } from "../store/canonical";
import { COLLECTIONS } from "../store/database";
import type { EventLog, EventType, MemoryEvent } from "../store/event-log";
import { memoryDocId } from "../store/ids";
import type { MemoryRecord } from "../store/memory-repository";
import { SYSTEM_ACTOR } from "./system-actor";

/**
 * Crash consistency without transactions (issue 5 §3), docs/AUDIT.md "Item and event":
 *
 * 1. the item is written first, without a `logged` mark;
 * 2. its event is appended to the chain;
 * 3. the EventLog hook `settle` marks the item `logged: {seq, version}`.
 *
 * The client is answered only after 2 (and 3). A crash between 1 and 2 leaves an item with
 * no event; between 2 and 3 an item whose event exists but is not marked. The repair pass
 * at start finds unmarked items older than `minAgeMs` by the injected clock (younger ones
 * may belong to a live process that is mid-write), looks for their event and marks them,
 * or, when there is none, completes the write by appending the missing event itself,
 * as the system actor, with a reason. Erasures follow the same three steps with
 * `erasure.logged_seq`. An event is never written before its item exists, so after repair
 * every event has its item and every item its event.
 */
export type Settler = (event: MemoryEvent) => Promise<void>;

const CONTENT_EVENTS: readonly EventType[] = ["create", "update", "consolidate"];

export class GovernedItemSettler {
  private readonly memories: Collection<MemoryRecord>;

  constructor(db: Db) {
    this.memories = db.collection<MemoryRecord>(COLLECTIONS.memories);
  }

  /** EventLog hook. Only the governed contract's items live in `memories`. */
  readonly settle: Settler = async (event) => {
    if ((event.contract ?? "governed") !== "governed" || !event.memory_id || !event.subject_id) return;
    const _id = memoryDocId(event.tenant_id, event.subject_id, event.memory_id);
    if (CONTENT_EVENTS.includes(event.event_type)) {
      const version = typeof event.metadata.version === "number" ? event.metadata.version : null;
      await this.memories.updateOne({ _id }, { $set: { logged: { seq: event.seq, version } } });
    }
  };
}

export interface RepairReport {
  settled: number;
  completed: number;
  erasuresCompleted: number;
  skippedYoung: number;
}

export class GovernedRepair {
  private readonly memories: Collection<MemoryRecord & { erasure?: ErasureMark }>;
  private readonly events: Collection<MemoryEvent>;

  constructor(
    db: Db,
    private readonly log: EventLog,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly minAgeMs: number,
  ) {
    this.memories = db.collection(COLLECTIONS.memories);
    this.events = db.collection<MemoryEvent>(COLLECTIONS.events);
  }

  async run(): Promise<RepairReport> {
    const report: RepairReport = { settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 0 };
    const cutoff = this.clock.now().getTime() - this.minAgeMs;
    const unsettled = await this.memories
      .find({ $or: [{ logged: { $exists: false } }, { erasure: { $exists: true }, "erasure.logged_seq": { $exists: false } }] })
      .toArray();
    for (const item of unsettled) {
      if (item.erasure && item.erasure.logged_seq === undefined) {
        if (new Date(item.erasure.at).getTime() > cutoff) {
          report.skippedYoung++;
          continue;
        }
        await this.completeErasure(item);
        report.erasuresCompleted++;
        continue;
      }
      if (item.logged) continue;
      if (item.updated_at.getTime() > cutoff) {
        report.skippedYoung++;
        continue;
      }
      const existing = await this.events
        .find({ tenant_id: item.tenant_id, memory_id: item.memory_id, event_type: { $in: [...CONTENT_EVENTS] } })
        .toArray();
      const own = existing.find((e) => e.subject_id === item.subject_id && (e.metadata.version ?? item.version) === item.version);
      if (own) {
        await this.memories.updateOne({ _id: item._id }, { $set: { logged: { seq: own.seq, version: item.version } } });
        report.settled++;
        continue;
      }
      const event = await this.log.append({
        tenant_id: item.tenant_id,
        subject_id: item.subject_id,
        event_type: item.version > 1 ? "update" : "create",
        operation: item.version > 1 ? "UPDATE" : "STORE",
        contract: "governed",
        memory_id: item.memory_id,
        actor: SYSTEM_ACTOR,
        stop_reason: item.version > 1 ? "SUCCESS_UPDATED" : "SUCCESS_STORED",
        decision_id: null,
        policy_hash: null,
        contract_version: null,
        request_id: null,
        content_digest: item.status === "erased" ? null : saltedDigest(item.content_salt, { key: item.key, value: item.value }),
        reason: "repair: the item was stored but its event was not written before the process stopped",
        metadata: { repaired: true, category: item.category, version: item.version, created_by: item.created_by?.id ?? null },
      });
      await this.memories.updateOne({ _id: item._id }, { $set: { logged: { seq: event.seq, version: item.version } } });
      report.completed++;
    }
    if (report.settled + report.completed + report.erasuresCompleted > 0) this.logger.warn({ repair: report }, "repaired items left unsettled by a stopped process");
    return report;
  }

  private async completeErasure(item: MemoryRecord & { erasure?: ErasureMark }): Promise<void> {
    const mark = item.erasure!;
    const already = await this.events.findOne({ tenant_id: item.tenant_id, memory_id: item.memory_id, event_type: "erase", subject_id: item.subject_id });
    const seq =
      already?.seq ??
      (
        await this.log.append({
          tenant_id: item.tenant_id,
          subject_id: item.subject_id,
          event_type: "erase",
          operation: mark.operation,
          contract: "audit",
          memory_id: item.memory_id,
          actor: SYSTEM_ACTOR,
          stop_reason: "SUCCESS_DELETED",
          decision_id: mark.decision_id,
          policy_hash: null,
          contract_version: null,
          request_id: null,
          content_digest: null,
          reason: `repair: ${mark.reason}`,
          metadata: { repaired: true, requested_by: mark.by },
        })
      ).seq;
    await this.memories.updateOne({ _id: item._id }, { $set: { "erasure.logged_seq": seq } });
  }
}

/** What an erased item keeps about its erasure (no content). */
export interface ErasureMark {
  at: string;
  by: string;
  reason: string;
  operation: string;
  decision_id: string | null;
  logged_seq?: number;
}
