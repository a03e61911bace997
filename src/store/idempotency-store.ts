import { BSON, type Collection } from "mongodb";
import type { FinishedAttempt, IdempotencyRecord, IdempotencyStore, Reservation, ReservedObject } from "../kernel/idempotency";
import type { Outcome } from "../kernel/outcome";
import { bulkWriteChunked } from "./bulk";
import { claimByNumber } from "./claims";
import { COLLECTIONS, type Database, isDuplicateKey } from "./database";

interface IdempotencyDoc {
  _id: string;
  fingerprint: string;
  attempt: string;
  state: "pending" | "done";
  /** Extended JSON: an outcome's value keeps its dates and any key a client chose. */
  outcome?: string;
  objects?: ReservedObject[];
  created_at: Date;
}

const encode = (outcome: Outcome<unknown>): string => BSON.EJSON.stringify(outcome, { relaxed: false });
/**
 * Relaxed on the way back: numbers come back as JavaScript numbers, not BSON Int32/Double/Long
 * wrappers that a door copying the value key by key would answer as `{"value": 1}`; Dates stay Dates.
 */
const decode = (text: string): Outcome<unknown> => BSON.EJSON.parse(text, { relaxed: true }) as Outcome<unknown>;

/** Reservations and outcomes of keyed writes, one document per key, read and written by `_id` (docs/FAULTS.md "Idempotency"). */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly records: Collection<IdempotencyDoc>;
  /** Takeover claims live beside the records (`_id` "<record>/<attempt>/<n>"); a read by a record's `_id` never meets one. */
  private readonly claims: Collection<{ _id: string; claim: true; created_at: Date }>;

  constructor(db: Database) {
    this.records = db.collection<IdempotencyDoc>(COLLECTIONS.idempotency);
    this.claims = db.collection(COLLECTIONS.idempotency);
  }

  async reserve(id: string, reservation: Reservation): Promise<IdempotencyRecord | null> {
    for (;;) {
      try {
        // One round trip whether the key is free (inserted: null back) or held (the holder's record back).
        const before = await this.records.findOneAndUpdate(
          { _id: id },
          { $setOnInsert: { fingerprint: reservation.fingerprint, attempt: reservation.attempt, state: "pending", created_at: reservation.createdAt } },
          { upsert: true, returnDocument: "before" },
        );
        if (!before) return null;
        return {
          fingerprint: before.fingerprint,
          attempt: before.attempt,
          state: before.state,
          createdAt: before.created_at,
          ...(before.outcome === undefined ? {} : { outcome: decode(before.outcome) }),
          ...(before.objects === undefined ? {} : { objects: before.objects }),
        };
      } catch (error) {
        // Two upserts of one free key: one inserts, the other's insert is refused; it reads the winner's record next.
        if (isDuplicateKey(error)) continue;
        throw error;
      }
    }
  }

  async declare(id: string, attempt: string, outcome: Outcome<unknown>, objects: ReservedObject[]): Promise<boolean> {
    const result = await this.records.updateOne({ _id: id, attempt, state: "pending" }, { $set: { outcome: encode(outcome), objects } });
    return result.matchedCount === 1;
  }

  async undeclare(id: string, attempt: string): Promise<void> {
    await this.records.updateOne({ _id: id, attempt, state: "pending" }, { $unset: { outcome: "", objects: "" } });
  }

  async finish(changes: readonly FinishedAttempt[]): Promise<void> {
    if (changes.length === 0) return;
    await bulkWriteChunked(
      this.records,
      changes.map((c) =>
        c.state === "free"
          ? { deleteOne: { filter: { _id: c.id, attempt: c.attempt } } }
          : {
              updateOne: {
                filter: { _id: c.id, attempt: c.attempt },
                update: { $set: { state: "done" as const, ...(c.outcome ? { outcome: encode(c.outcome) } : {}) } },
              },
            },
      ),
      { ordered: false },
    );
  }

  async release(id: string, attempt: string): Promise<void> {
    await this.records.deleteOne({ _id: id, attempt });
  }

  async supersede(id: string, staleAttempt: string, reservation: Reservation, claimStaleBefore: Date): Promise<boolean> {
    // Claims on one attempt are numbered: a claim that did not take (see IdempotencyStore.supersede) leaves the next free.
    const claimed = await claimByNumber(
      this.claims,
      `${id}/${staleAttempt}`,
      { claim: true, created_at: reservation.createdAt },
      (claim) => claim.created_at.getTime() >= claimStaleBefore.getTime(),
    );
    if (!claimed) return false;
    const replaced = await this.records.replaceOne(
      { _id: id },
      { fingerprint: reservation.fingerprint, attempt: reservation.attempt, state: "pending", created_at: reservation.createdAt },
    );
    return replaced.matchedCount === 1;
  }
}
