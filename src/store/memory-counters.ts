import type { Collection, Db } from "mongodb";
import { COLLECTIONS } from "./database";

interface CounterDoc {
  _id: string;
  count: number;
}

const part = (value: string): string => encodeURIComponent(value);

/**
 * Quota counts (C19-CAP) as counter documents with deterministic `_id`s, so reading them is
 * an `_id` lookup and never a scan of the memories: live items per subject, and writes per
 * subject per fixed window (the window's start in epoch ms is part of the `_id`).
 * They are a cache of what the memories and events record: an increment that fails after a
 * committed write is logged, not fatal, and the count stays on the safe side of the next check.
 */
export class MemoryCounters {
  private readonly counters: Collection<CounterDoc>;

  constructor(db: Db) {
    this.counters = db.collection<CounterDoc>(COLLECTIONS.memoryCounters);
  }

  static itemsId(tenantId: string, subjectId: string): string {
    return `${part(tenantId)}:${part(subjectId)}:items`;
  }

  static writesId(tenantId: string, subjectId: string, windowStartMs: number): string {
    return `${part(tenantId)}:${part(subjectId)}:writes:${windowStartMs}`;
  }

  static windowStart(nowMs: number, windowSeconds: number): number {
    const size = Math.max(1, windowSeconds) * 1000;
    return Math.floor(nowMs / size) * size;
  }

  async read(tenantId: string, subjectId: string, windowStartMs: number): Promise<{ items: number; writes_in_window: number }> {
    const items = MemoryCounters.itemsId(tenantId, subjectId);
    const writes = MemoryCounters.writesId(tenantId, subjectId, windowStartMs);
    // Two `_id` equalities, not one `$in`: FerretDB on SQLite pushes down only equality, and this
    // collection grows by a document per subject per window.
    const [itemsDoc, writesDoc] = await Promise.all([this.counters.findOne({ _id: items }), this.counters.findOne({ _id: writes })]);
    return { items: Math.max(0, itemsDoc?.count ?? 0), writes_in_window: writesDoc?.count ?? 0 };
  }

  /** Applies several increments in one round trip. */
  async add(increments: readonly { id: string; by: number }[]): Promise<void> {
    const ops = increments.filter((i) => i.by !== 0);
    if (ops.length === 0) return;
    await this.counters.bulkWrite(
      ops.map((i) => ({ updateOne: { filter: { _id: i.id }, update: { $inc: { count: i.by } }, upsert: true } })),
      { ordered: false },
    );
  }
}
