import { randomBytes } from "node:crypto";
import { MongoBulkWriteError, type Collection } from "mongodb";
import type { Logger } from "../../logger";
import type { Database } from "../../store/database";
import { GOVERNED_COLLECTIONS } from "./records";
import { commandChunks } from "../../store/bulk";
import { clientClosed, GroupCommit } from "../../store/group-commit";
import { LookupQueue } from "../../store/lookup-queue";

/**
 * One document per subject: its live items, its writes per fixed window (keyed `w<start
 * epoch ms>`), and how far each gateway process's increments are in (`applied.<process>`).
 */
interface CounterDoc {
  _id: string;
  tenant_id: string;
  subject_id: string;
  items?: number;
  windows?: Record<string, number>;
  applied?: Record<string, number>;
}

/** What a settled write changes: live items (+1 STORE, -1 DELETE) and writes in its window (STORE, UPDATE). */
export interface CountDelta {
  items: number;
  writes: number;
  windowStart: number;
}

export interface Counts {
  items: number;
  writes_in_window: number;
}

/** A past window still in the counter document: its key, when it started, and the writes it counted. */
export interface StaleWindow {
  key: string;
  start: number;
  writes: number;
}

/** The counts as the policy sees them (input.counts), and the windows that are past. */
export interface SubjectCounts {
  counts: Counts;
  windowStart: number;
  staleWindows: StaleWindow[];
}

/** An increment waiting for (or in) its group commit; `seq` orders this process's increments. */
interface Increment extends CountDelta {
  key: string;
  tenantId: string;
  subjectId: string;
  seq: number;
  staleWindows: string[];
  /** Its write was acknowledged (kept while a read of its subject that may predate it is in flight). */
  written?: boolean;
}

/** How long a quota increment is retried while the database cannot be reached. */
const COUNTER_RETRY_FOR_MS = 120_000;

const part = (value: string): string => encodeURIComponent(value);
const windowKey = (start: number): string => `w${start}`;

/**
 * Quota counts (C19-CAP) in one document per subject read by `_id`, so a STORE reads its
 * counts in one round trip and never scans the memories. They are a cache of what the
 * memories and events record, incremented by the write's settle (off the request path),
 * group-committed with concurrent writes. Until an increment of this process is in the
 * document, reads of this process add it (exact for one process; across processes the
 * window is the group commit's few milliseconds, as it was the increment's before). A
 * retried increment is applied once: `applied.<process>` says which are in already, which is
 * also how a read tells the increments its document holds from those it must add: a read may
 * be answered from before a write and arrive after the write's acknowledgement, so a written
 * increment is kept until no read of its subject that started before that is in flight.
 */
export class CounterStore {
  private readonly counters: Collection<CounterDoc>;
  /** Concurrent writes' counter reads, one query between them. */
  private readonly lookups: LookupQueue<CounterDoc>;
  private readonly process = `p${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  /** This process's increments not yet known to be in the document, by subject key. */
  private readonly pending = new Map<string, Increment[]>();
  /** Reads in flight per subject key. */
  private readonly readers = new Map<string, number>();
  private readonly commits: GroupCommit<Increment>;
  private seq = 0;

  constructor(db: Database, logger: Logger) {
    this.counters = db.collection<CounterDoc>(GOVERNED_COLLECTIONS.memoryCounters);
    this.lookups = new LookupQueue(this.counters);
    // An increment given up leaves the subject's count low for good (a cap passed by one after a
    // later DELETE): it is retried for as long as a database restart may take.
    this.commits = new GroupCommit<Increment>("quota counters", logger, (batch) => this.write(batch), clientClosed, undefined, COUNTER_RETRY_FOR_MS);
  }

  static docId(tenantId: string, subjectId: string): string {
    return `${part(tenantId)}:${part(subjectId)}`;
  }

  static windowStart(nowMs: number, windowSeconds: number): number {
    const size = Math.max(1, windowSeconds) * 1000;
    return Math.floor(nowMs / size) * size;
  }

  /** One `_id` lookup, plus this process's increments that are not in the document yet. */
  async read(tenantId: string, subjectId: string, windowStart: number): Promise<SubjectCounts> {
    const key = CounterStore.docId(tenantId, subjectId);
    this.readers.set(key, (this.readers.get(key) ?? 0) + 1);
    try {
      return this.counted(key, await this.lookups.get(key), windowStart);
    } finally {
      this.doneReading(key);
    }
  }

  /** The document's counts plus this process's increments it does not hold yet. */
  private counted(key: string, doc: CounterDoc | null, windowStart: number): SubjectCounts {
    const applied = doc?.applied?.[this.process] ?? 0;
    let items = doc?.items ?? 0;
    let writes = doc?.windows?.[windowKey(windowStart)] ?? 0;
    for (const inc of this.pending.get(key) ?? []) {
      if (inc.seq <= applied) continue;
      items += inc.items;
      if (inc.windowStart === windowStart) writes += inc.writes;
    }
    const staleWindows = Object.entries(doc?.windows ?? {})
      .filter(([key]) => key !== windowKey(windowStart))
      .map(([key, n]) => ({ key, start: Number(key.slice(1)), writes: n }));
    return { counts: { items: Math.max(0, items), writes_in_window: writes }, windowStart, staleWindows };
  }

  /** Queues an increment for the next group commit; resolves once it is in the document. */
  add(tenantId: string, subjectId: string, delta: CountDelta, staleWindows: readonly StaleWindow[] = []): Promise<void> {
    if (delta.items === 0 && delta.writes === 0) return Promise.resolve();
    const key = CounterStore.docId(tenantId, subjectId);
    const increment: Increment = { ...delta, key, tenantId, subjectId, seq: ++this.seq, staleWindows: staleWindows.map((w) => w.key) };
    const list = this.pending.get(key) ?? [];
    list.push(increment);
    this.pending.set(key, list);
    return this.commits.add(increment).then(
      () => {
        increment.written = true;
        if (!this.readers.has(key)) this.forget(increment);
      },
      (error: unknown) => {
        this.forget(increment);
        throw error;
      },
    );
  }

  /** The last read of a subject in flight is done: every read from now on is answered after the written increments. */
  private doneReading(key: string): void {
    const left = (this.readers.get(key) ?? 1) - 1;
    if (left > 0) {
      this.readers.set(key, left);
      return;
    }
    this.readers.delete(key);
    for (const increment of this.pending.get(key) ?? []) if (increment.written) this.forget(increment);
  }

  /** Back-pressure for writers: see GroupCommit.room. */
  room(): Promise<void> {
    return this.commits.room();
  }

  /** Resolves once every increment queued so far is written (or given up). */
  idle(): Promise<void> {
    return this.commits.idle();
  }

  private forget(increment: Increment): void {
    const list = (this.pending.get(increment.key) ?? []).filter((i) => i !== increment);
    if (list.length > 0) this.pending.set(increment.key, list);
    else this.pending.delete(increment.key);
  }

  /** One update per subject in one bulk write; a subject whose increments are in already is left alone. */
  private async write(batch: readonly Increment[]): Promise<void> {
    const bySubject = new Map<string, Increment[]>();
    for (const inc of batch) bySubject.set(inc.key, [...(bySubject.get(inc.key) ?? []), inc]);
    const appliedField = `applied.${this.process}`;
    const ops = [...bySubject.values()].map((incs) => {
      const first = incs[0];
      const last = Math.max(...incs.map((i) => i.seq));
      const inc: Record<string, number> = {};
      const add = (field: string, by: number) => {
        if (by !== 0) inc[field] = (inc[field] ?? 0) + by;
      };
      for (const i of incs) {
        add("items", i.items);
        add(`windows.${windowKey(i.windowStart)}`, i.writes);
      }
      const current = new Set(incs.map((i) => windowKey(i.windowStart)));
      const stale = [...new Set(incs.flatMap((i) => i.staleWindows))].filter((w) => !current.has(w));
      return {
        updateOne: {
          // Not yet applied by this process (a retry after a lost answer finds it applied and, by the
          // unique _id, fails its upsert instead of counting twice).
          filter: { _id: first.key, $or: [{ [appliedField]: { $lt: last } }, { [appliedField]: { $exists: false } }] },
          update: {
            ...(Object.keys(inc).length > 0 ? { $inc: inc } : {}),
            $max: { [appliedField]: last },
            $setOnInsert: { tenant_id: first.tenantId, subject_id: first.subjectId },
            ...(stale.length > 0 ? { $unset: Object.fromEntries(stale.map((w) => [`windows.${w}`, "" as const])) } : {}),
          },
          upsert: true,
        },
      };
    });
    for (const chunk of commandChunks(ops)) {
      try {
        await this.counters.bulkWrite(chunk, { ordered: false });
      } catch (error) {
        // Duplicate keys are increments found applied already; anything else is retried.
        if (!(error instanceof MongoBulkWriteError) || !error.writeErrors || !asArray(error.writeErrors).every((e) => e.code === 11000)) throw error;
      }
    }
  }
}

function asArray<T>(value: T | readonly T[]): readonly T[] {
  return Array.isArray(value) ? value : [value as T];
}
