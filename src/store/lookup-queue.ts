import type { Collection, Filter, FindOptions, WithId } from "mongodb";

/** Ids per `$in` query (the embedded FerretDB pushes an `_id $in` down to its index; see scripts/ferretdb-patches). */
const MAX_IDS = 100;
/** Queries of one queue in flight at once: the database serves a few in parallel, and batches grow while they run. */
const DEFAULT_IN_FLIGHT = 2;

interface Waiting<T> {
  id: string;
  resolve: (doc: WithId<T> | null) => void;
  reject: (error: unknown) => void;
}

/**
 * `_id` lookups on the request path, grouped as the log's inserts are (InsertQueue): the
 * first goes at once, and those asked while the queue's queries are in flight go together in
 * the next `find({_id: {$in}})`. Under load, many requests then cost one round trip instead
 * of one each; when idle, a lookup costs what a `findOne` does. Each caller gets its own
 * document, read by the same query it would have run alone (no cache: a read is never older
 * than the query that answers it, which started after the caller asked).
 */
export class LookupQueue<T extends { _id: string }> {
  private queue: Waiting<T>[] = [];
  private inFlight = 0;

  constructor(
    private readonly collection: Collection<T>,
    private readonly options: Pick<FindOptions, "projection"> = {},
    private readonly maxInFlight: number = DEFAULT_IN_FLIGHT,
  ) {}

  get(id: string): Promise<WithId<T> | null> {
    return new Promise<WithId<T> | null>((resolve, reject) => {
      this.queue.push({ id, resolve, reject });
      if (this.inFlight < this.maxInFlight) {
        this.inFlight++;
        // The lookups asked in this tick go together.
        // eslint-disable-next-line @typescript-eslint/no-floating-promises -- drain rejects each waiter on failure, never itself
        void Promise.resolve().then(() => this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.query(this.queue.splice(0, MAX_IDS));
    } finally {
      this.inFlight--;
    }
  }

  private async query(batch: Waiting<T>[]): Promise<void> {
    try {
      const ids = [...new Set(batch.map((w) => w.id))];
      const filter = (ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } }) as Filter<T>;
      const found = new Map((await this.collection.find(filter, { ...this.options, limit: ids.length }).toArray()).map((doc) => [String(doc._id), doc]));
      const given = new Set<string>();
      for (const w of batch) {
        const doc = found.get(w.id) ?? null;
        // Two callers asking for one id each get their own copy: a caller may change what it read.
        w.resolve(doc && given.has(w.id) ? structuredClone(doc) : doc);
        given.add(w.id);
      }
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
