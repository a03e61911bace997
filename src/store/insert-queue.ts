import { MongoBulkWriteError, type Collection, type OptionalUnlessRequiredId } from "mongodb";
import { writeOutcomeUnknown } from "./write-outcome";

/**
 * Inserts on the request path, grouped: the first goes at once, those that arrive while it
 * is in flight go together in the next `insertMany` (unordered), and each caller gets its
 * own document's outcome.
 */
export class InsertQueue<T extends { _id: string }> {
  private queue: { doc: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  private flushing = false;

  constructor(private readonly collection: Collection<T>) {}

  insert(doc: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ doc, resolve, reject });
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- flush settles every queued insert and never rejects itself
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    await Promise.resolve(); // the inserts of one tick go together
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, 256);
        try {
          await this.collection.insertMany(
            batch.map((b) => b.doc as OptionalUnlessRequiredId<T>),
            { ordered: false },
          );
          for (const b of batch) b.resolve();
        } catch (error) {
          // Each caller gets its own document's error (a duplicate `_id` is one caller's lost race, not the batch's).
          // A broken connection (the database died) says nothing about which documents are in, so
          // every caller fails (issue 26: resolving them acknowledged items that were never written).
          const failed =
            error instanceof MongoBulkWriteError && !writeOutcomeUnknown(error) ? new Map([error.writeErrors].flat().map((e) => [e.index, e])) : undefined;
          batch.forEach((b, i) => (!failed ? b.reject(error) : failed.has(i) ? b.reject(failed.get(i)) : b.resolve()));
        }
      }
    } finally {
      this.flushing = false;
    }
  }
}
