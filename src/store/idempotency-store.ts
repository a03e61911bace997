import { BSON, MongoServerError, type Collection } from "mongodb";
import type { IdempotencyStore, StoredOutcome } from "../kernel/idempotency";
import { COLLECTIONS, type Database } from "./database";

interface IdempotencyDoc {
  _id: string;
  fingerprint: string;
  /** Extended JSON: an outcome's value keeps its dates and any key a client chose. */
  outcome: string;
  created_at: Date;
}

/** Outcomes of keyed writes, one document per key read and written by `_id`. */
export class MongoIdempotencyStore implements IdempotencyStore {
  private readonly records: Collection<IdempotencyDoc>;

  constructor(db: Database) {
    this.records = db.collection<IdempotencyDoc>(COLLECTIONS.idempotency);
  }

  async find(id: string, notBefore: Date): Promise<StoredOutcome | null> {
    const doc = await this.records.findOne({ _id: id });
    if (!doc) return null;
    if (doc.created_at.getTime() < notBefore.getTime()) {
      // Past the window: the key is free again (only this version of it is removed).
      await this.records.deleteOne({ _id: id, created_at: doc.created_at });
      return null;
    }
    return { fingerprint: doc.fingerprint, outcome: BSON.EJSON.parse(doc.outcome, { relaxed: false }) as StoredOutcome["outcome"], createdAt: doc.created_at };
  }

  async insert(id: string, record: StoredOutcome): Promise<boolean> {
    try {
      await this.records.insertOne({
        _id: id,
        fingerprint: record.fingerprint,
        outcome: BSON.EJSON.stringify(record.outcome, { relaxed: false }),
        created_at: record.createdAt,
      });
      return true;
    } catch (error) {
      if (error instanceof MongoServerError && error.code === 11000) return false;
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    await this.records.deleteOne({ _id: id });
  }
}
