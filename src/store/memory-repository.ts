import type { Collection, Db, Filter } from "mongodb";
import { COLLECTIONS } from "./database";
import { memoryDocId, memoryVersionDocId } from "./ids";

export type MemoryStatus = "active" | "deleted";

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
  /** SPEC D2: the version this one replaced (absent on version 1). */
  supersedes?: number | null;
  updated_by?: { id: string; roles: string[] } | null;
  /** SPEC D1: set by a logical DELETE. */
  deleted_at?: Date | null;
  delete_reason?: string | null;
}

/** An inactive copy of a superseded version (SPEC D2), in memory_versions. */
export interface MemoryVersionRecord extends Omit<MemoryRecord, "status"> {
  status: "superseded";
  superseded_at: Date;
  superseded_by: number;
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
  private readonly versions: Collection<MemoryVersionRecord>;

  constructor(db: Db) {
    this.memories = db.collection<MemoryRecord>(COLLECTIONS.memories);
    this.versions = db.collection<MemoryVersionRecord>(COLLECTIONS.memoryVersions);
  }

  /**
   * SPEC D2: keeps an inactive copy of `current` in memory_versions (idempotent: a copy
   * already there from an earlier attempt or a concurrent update is the same content),
   * then replaces the live document only if it is still at `current.version`.
   * false: another write got there first and nothing live changed.
   */
  async supersede(current: MemoryRecord, next: MemoryRecord, at: Date): Promise<boolean> {
    const { status: _status, ...content } = current;
    const copy: MemoryVersionRecord = {
      ...content,
      _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version),
      status: "superseded",
      superseded_at: at,
      superseded_by: next.version,
    };
    await this.versions.updateOne({ _id: copy._id }, { $setOnInsert: copy }, { upsert: true });
    const result = await this.memories.replaceOne({ _id: current._id, version: current.version, status: "active" }, next);
    return result.modifiedCount === 1;
  }

  /** Undoes a supersede whose event could not be written: the old version is live again. */
  async unsupersede(current: MemoryRecord, next: MemoryRecord): Promise<void> {
    await this.memories.replaceOne({ _id: next._id, version: next.version }, current);
    await this.versions.deleteOne({
      _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version),
    });
  }

  /** The inactive copies of an item's earlier versions, oldest first. */
  async versionsOf(tenantId: string, subjectId: string, memoryId: string, upTo: number): Promise<MemoryVersionRecord[]> {
    const ids = Array.from({ length: Math.max(0, upTo - 1) }, (_, i) => memoryVersionDocId(tenantId, subjectId, memoryId, i + 1));
    const found = await this.versions.find({ _id: { $in: ids } }).toArray();
    return found.sort((a, b) => a.version - b.version);
  }

  /** SPEC D1: a logical delete of the live version. false: it was no longer live at that version. */
  async markDeleted(current: MemoryRecord, at: Date, reason: string | null): Promise<boolean> {
    const result = await this.memories.updateOne(
      { _id: current._id, version: current.version, status: "active" },
      { $set: { status: "deleted", deleted_at: at, delete_reason: reason, updated_at: at } },
    );
    return result.modifiedCount === 1;
  }

  /** Undoes a markDeleted whose event could not be written. */
  async undelete(current: MemoryRecord): Promise<void> {
    await this.memories.replaceOne({ _id: current._id, version: current.version }, current);
  }

  /** A primary-key lookup: the `_id` is derived from tenant, subject and memory id. */
  async get(tenantId: string, subjectId: string, memoryId: string): Promise<MemoryRecord | null> {
    return this.memories.findOne({ _id: memoryDocId(tenantId, subjectId, memoryId) });
  }

  async insert(record: MemoryRecord): Promise<void> {
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
    return this.memories.find(filter).sort({ created_at: -1, _id: -1 }).limit(query.limit).toArray();
  }
}
