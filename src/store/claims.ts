import type { Collection, Document, Filter, OptionalUnlessRequiredId } from "mongodb";
import { isDuplicateKey } from "./database";

/**
 * Takes over what a stopped process held, by number: inserts the claim `<base>/<n>` for the
 * first n not yet claimed, and answers false as soon as a claim it meets is still `live` (another
 * process holds it). Insert only: FerretDB runs a conditional delete as find-then-delete, so
 * deleting a stale claim before inserting could remove the one another process had just
 * inserted, and both would go on. The unique `_id` alone decides. Used by the repair's
 * completions, idempotency takeovers and the re-audit's walk leases.
 */
export async function claimByNumber<T extends Document & { _id: string }>(
  collection: Collection<T>,
  base: string,
  claim: Omit<T, "_id">,
  live: (held: T) => boolean,
): Promise<boolean> {
  for (let n = 0; ; n++) {
    const _id = `${base}/${n}`;
    try {
      await collection.insertOne({ ...claim, _id } as OptionalUnlessRequiredId<T>);
      return true;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      const held = await collection.findOne({ _id } as Filter<T>);
      if (held && live(held as T)) return false;
    }
  }
}
