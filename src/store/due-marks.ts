import type { Collection } from "mongodb";
import type { Logger } from "../logger";
import type { Database } from "./database";
import { clientClosed, GroupCommit } from "./group-commit";
import { InsertQueue } from "./insert-queue";

/**
 * "This object's event is due": written beside the object, removed once its event is in the
 * log. What stays is what the repair pass must settle.
 */
export interface DueMark {
  _id: string;
  tenant_id: string;
  subject_id: string;
  object_id: string;
  kind: "write" | "erasure";
  /** The version whose event is due (writes); null for an erasure. */
  version: number | null;
  written_at: Date;
}

/** What a read tells `DueMarks.live` of one object: its due mark's `_id` and its write time; null: nothing to check (not live content). */
export type DueOf<T> = (object: T) => { id: string; writtenAt: Date } | null;

/** Due ids this process remembers as settled, beyond which the oldest are forgotten (and checked again if read). */
const KNOWN_SETTLED = 50_000;

/**
 * The due marks of one contract, in a collection of their own that stays as small as the
 * writes in flight. Marking an object in itself would cost an update of a large collection
 * per write (FerretDB runs each update as a scan and holds its one writer meanwhile); here a
 * write costs its share of one grouped insert, and its settle its share of one grouped
 * delete, and the repair reads the small collection instead of scanning the objects.
 */
export class DueMarks {
  private readonly marks: Collection<DueMark>;
  private readonly inserts: InsertQueue<DueMark>;
  private readonly removals: GroupCommit<string>;
  /**
   * INV-8 on reads: objects written before this (ms, injected clock) are settled; the repair
   * pass moves it (`settledBefore`). -Infinity until the first clean pass.
   */
  private watermark = Number.NEGATIVE_INFINITY;
  /** How far the last `oldest` scan saw every mark: all of them (Infinity), or those written before its last one's time. */
  private scanned = Number.NEGATIVE_INFINITY;
  /**
   * Due ids whose object this process knows has its event: its own writes once appended (the
   * mark's removal may still be pending), and marks a read found gone or settled. Such an object
   * is served without a lookup: the writer reads its writes at the cost of an `_id` read.
   */
  private readonly known = new Map<string, number>();

  constructor(db: Database, collection: string, logger: Logger) {
    this.marks = db.collection<DueMark>(collection);
    this.inserts = new InsertQueue(this.marks);
    this.removals = new GroupCommit<string>(`${collection} removals`, logger, (ids) => this.removeNow(ids), clientClosed);
  }

  /** On the request path, grouped with concurrent writes' marks; resolves once this one is in. */
  add(mark: DueMark): Promise<void> {
    return this.inserts.insert(mark);
  }

  /** Off the request path, grouped: the event is in the log. A lost removal is redone by the repair. */
  settled(id: string, writtenAt?: Date): Promise<void> {
    this.remember(id, writtenAt);
    return this.removals.add(id);
  }

  /** Right away (undo, repair). */
  async remove(id: string): Promise<void> {
    await this.removeNow([id]);
  }

  /** The oldest marks: a scan, but of a collection that holds only what is in flight or left behind. */
  async oldest(limit: number): Promise<DueMark[]> {
    const marks = await this.marks.find({}).sort({ written_at: 1, _id: 1 }).limit(limit).toArray();
    this.scanned = marks.length < limit ? Number.POSITIVE_INFINITY : marks[marks.length - 1].written_at.getTime();
    return marks;
  }

  /**
   * The repair pass settled every object whose mark its last scan saw and that was written
   * before `cutoff`: reads of objects written before both need no check. Only moves forward.
   */
  settledBefore(cutoff: Date): void {
    const mark = Math.min(cutoff.getTime(), this.scanned);
    if (mark <= this.watermark) return;
    this.watermark = mark;
    for (const [id, at] of this.known) if (at < mark) this.known.delete(id);
  }

  /**
   * INV-8, MP-LOG on the read path: the objects that may be served as live. One written before
   * the watermark, or known settled here, costs nothing; the others' marks are read in one
   * `_id` lookup ($in for a list). No mark: the event is in the log. A mark: `unsettled`
   * decides (the repair's settleOne: the event exists, or is appended once the write is old
   * enough); an object it does not settle is left out, as if it did not exist (NOT_FOUND).
   */
  async live<T>(objects: readonly T[], dueOf: DueOf<T>, unsettled: (object: T, mark: DueMark) => Promise<boolean>): Promise<T[]> {
    const open = new Map<string, { object: T; writtenAt: Date }>();
    for (const object of objects) {
      const due = dueOf(object);
      if (due && due.writtenAt.getTime() >= this.watermark && !this.known.has(due.id)) open.set(due.id, { object, writtenAt: due.writtenAt });
    }
    if (open.size === 0) return [...objects];
    const ids = [...open.keys()];
    const marks = await this.marks.find(ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } }).toArray();
    const found = new Map(marks.map((mark) => [mark._id, mark]));
    const withheld = new Set<T>();
    for (const [id, { object, writtenAt }] of open) {
      const mark = found.get(id);
      if (!mark || (await unsettled(object, mark))) this.remember(id, writtenAt);
      else withheld.add(object);
    }
    return withheld.size === 0 ? [...objects] : objects.filter((object) => !withheld.has(object));
  }

  /** Whether this process knows the object's event is in the log (tests). */
  knows(id: string): boolean {
    return this.known.has(id);
  }

  private remember(id: string, writtenAt: Date | undefined): void {
    const at = writtenAt?.getTime() ?? Number.POSITIVE_INFINITY;
    if (at < this.watermark) return;
    this.known.delete(id);
    this.known.set(id, at);
    // Oldest remembered first: one forgotten costs a lookup on its next read, never a wrong answer.
    if (this.known.size > KNOWN_SETTLED) this.known.delete(this.known.keys().next().value!);
  }

  /** Resolves once every removal queued so far is written. */
  idle(): Promise<void> {
    return this.removals.idle();
  }

  /** Back-pressure on writers while removals pile up. */
  room(): Promise<void> {
    return this.removals.room();
  }

  private async removeNow(ids: readonly string[]): Promise<void> {
    await this.marks.deleteMany(ids.length === 1 ? { _id: ids[0] } : { _id: { $in: [...ids] } });
  }
}
