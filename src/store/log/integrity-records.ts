import type { Collection, Db } from "mongodb";
import { AUDIT_COLLECTIONS } from "./collections";

/** Per tenant: a detected conformance break and the acknowledgements of earlier ones (MP-BREAK). */
export interface IntegrityDoc {
  _id: string;
  broken: boolean;
  broken_seq: number | null;
  reason: string | null;
  detected_at: string | null;
  acknowledged: { seq: number; by: string; reason: string; at: string }[];
}

/** Where the integrity guard (src/jobs/integrity-guard.ts) keeps its state, so every process refuses alike. */
export class IntegrityRecords {
  private readonly docs: Collection<IntegrityDoc>;

  constructor(db: Db) {
    this.docs = db.collection<IntegrityDoc>(AUDIT_COLLECTIONS.integrity);
  }

  all(): Promise<IntegrityDoc[]> {
    return this.docs.find({}).toArray();
  }

  get(tenantId: string): Promise<IntegrityDoc | null> {
    return this.docs.findOne({ _id: tenantId });
  }

  async markBroken(tenantId: string, seq: number, reason: string | null, detectedAt: string): Promise<void> {
    await this.docs.updateOne(
      { _id: tenantId },
      { $set: { broken: true, broken_seq: seq, reason, detected_at: detectedAt }, $setOnInsert: { acknowledged: [] } },
      { upsert: true },
    );
  }

  /** Only while the break is still the one acknowledged (a newer one stays). */
  async acknowledge(tenantId: string, seq: number, by: string, reason: string, at: string): Promise<void> {
    await this.docs.updateOne({ _id: tenantId, broken: true, broken_seq: seq }, { $set: { broken: false }, $push: { acknowledged: { seq, by, reason, at } } });
  }

  async restoreBreak(tenantId: string, seq: number, acknowledged: IntegrityDoc["acknowledged"]): Promise<void> {
    await this.docs.updateOne({ _id: tenantId }, { $set: { broken: true, broken_seq: seq, acknowledged } });
  }
}
