import type { Collection } from "mongodb";
import type { Logger } from "../logger";
import type { Database } from "./database";
import { clientClosed, GroupCommit } from "./group-commit";
import { InsertQueue } from "./insert-queue";
import { SettledReads, type DueOf } from "./settled-reads";

export type { DueOf };

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
  /** INV-8 on reads: what this process knows settled (src/store/settled-reads.ts). */
  private readonly reads = new SettledReads();

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
    this.reads.remember(id, writtenAt);
    return this.removals.add(id);
  }

  /** Right away (undo, repair). */
  async remove(id: string): Promise<void> {
    await this.removeNow([id]);
  }

  /** The oldest marks: a scan, but of a collection that holds only what is in flight or left behind. */
  async oldest(limit: number): Promise<DueMark[]> {
    const marks = await this.marks.find({}).sort({ written_at: 1, _id: 1 }).limit(limit).toArray();
    this.reads.scanned(marks.length < limit ? null : marks[marks.length - 1].written_at);
    return marks;
  }

  /** The repair pass settled every object written before `cutoff` whose mark its last scan saw. */
  settledBefore(cutoff: Date): void {
    this.reads.settledBefore(cutoff);
  }

  /**
   * INV-8, MP-LOG on the read path: the objects that may be served as live (SettledReads.live),
   * their marks looked up by `_id` (one `$in` for a list).
   */
  live<T>(objects: readonly T[], dueOf: DueOf<T>, unsettled: (object: T, mark: DueMark) => Promise<boolean>): Promise<T[]> {
    return this.reads.live(
      objects,
      dueOf,
      async (ids) => {
        const marks = await this.marks.find(ids.length === 1 ? { _id: ids[0] } : { _id: { $in: [...ids] } }).toArray();
        return new Map(marks.map((mark) => [mark._id, mark]));
      },
      unsettled,
    );
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
