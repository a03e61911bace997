import type { Collection, Db, Filter } from "mongodb";
import { COLLECTIONS } from "./database";
import { memoryDocId } from "./ids";
import { checkIntegrity, governedProvenance, GOVERNED_CONTENT_FIELDS, type ProvenanceFields } from "./provenance";

export type MemoryStatus = "active" | "deleted" | "erased";

/** A Phase 19 memory item as stored (seed 000 §2.1, with SPEC D1/D2 lifecycle fields). */
export interface MemoryRecord {
  _id: string;
  tenant_id: string;
  subject_id: string;
  memory_id: string;
  version: number;
  category: string;
  key: string;
  value: string;
  source_kind: string;
  ttl_class: string;
  source_ref: string | null;
  origin: string;
  consent: { explicit: boolean; evidence_ref: string | null };
  status: MemoryStatus;
  created_at: Date;
  updated_at: Date;
  expires_at: Date;
  created_by: { id: string; roles: string[] };
  /** Salt of the content digest its events commit to (SPEC D1). */
  content_salt: string;
  /** MP-OBJECT provenance and integrity hash, set on insert (src/store/provenance.ts). */
  provenance?: ProvenanceFields["provenance"];
  integrity_hash?: string;
  /** Set once the item's event is in the log (src/audit/repair.ts); absent: not yet settled. */
  logged?: { seq: number; version: number | null };
}

export interface ListQuery {
  tenantId: string;
  subjectId: string;
  category?: string;
  now: Date;
  limit: number;
  /** Keyset cursor: items strictly after this (created_at desc, _id desc). */
  after?: { createdAt: Date; id: string };
}

/** Storage of Phase 19 items. Every query names tenant and subject (SG-SCOPE). */
export class MemoryRepository {
  private readonly memories: Collection<MemoryRecord>;

  constructor(db: Db) {
    this.memories = db.collection<MemoryRecord>(COLLECTIONS.memories);
  }

  /** A primary-key lookup: the `_id` is derived from tenant, subject and memory id. */
  async get(tenantId: string, subjectId: string, memoryId: string): Promise<MemoryRecord | null> {
    const record = await this.memories.findOne({ _id: memoryDocId(tenantId, subjectId, memoryId) });
    return record && verified(record);
  }

  async insert(record: MemoryRecord): Promise<void> {
    Object.assign(record, governedProvenance(record)); // MP-OBJECT
    await this.memories.insertOne(record);
  }

  /** Removes an item that was never acknowledged (its event could not be written). */
  async rollback(record: MemoryRecord): Promise<void> {
    await this.memories.deleteOne({ _id: record._id, version: record.version });
  }

  async list(query: ListQuery): Promise<MemoryRecord[]> {
    const filter: Filter<MemoryRecord> = {
      tenant_id: query.tenantId,
      subject_id: query.subjectId,
      status: "active",
      expires_at: { $gt: query.now },
    };
    if (query.category !== undefined) filter.category = query.category;
    if (query.after) {
      filter.$or = [
        { created_at: { $lt: query.after.createdAt } },
        { created_at: query.after.createdAt, _id: { $lt: query.after.id } },
      ];
    }
    return (await this.memories.find(filter).sort({ created_at: -1, _id: -1 }).limit(query.limit).toArray()).map(verified);
  }
}

/** MP-OBJECT: every read recomputes the integrity hash; a mismatch throws IntegrityError. */
function verified(record: MemoryRecord): MemoryRecord {
  return checkIntegrity(record as unknown as Record<string, unknown>, GOVERNED_CONTENT_FIELDS, {
    tenantId: record.tenant_id,
    subjectId: record.subject_id,
    memoryId: record.memory_id,
    collection: "memories",
  }) as unknown as MemoryRecord;
}
