import { MongoServerError, type Collection, type Db, type Filter } from "mongodb";
import { COLLECTIONS } from "./database";
import { memoryDocId, memoryVersionDocId } from "./ids";
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
  /** SPEC D2: the version this one replaced (absent on version 1). */
  supersedes?: number | null;
  updated_by?: { id: string; roles: string[] } | null;
  /** SPEC D1: set by a logical DELETE. */
  deleted_at?: Date | null;
  delete_reason?: string | null;
}

/** Which write took a version (the arbiter of concurrent UPDATE / DELETE). */
export interface VersionClaim {
  _id: string;
  memory_id: string;
  version: number;
  op: "update" | "delete";
  claimed_at: Date;
}

const ORPHAN_CLAIM_MS = 60_000;

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
  private readonly claims: Collection<VersionClaim>;

  constructor(db: Db) {
    this.memories = db.collection<MemoryRecord>(COLLECTIONS.memories);
    this.versions = db.collection<MemoryVersionRecord>(COLLECTIONS.memoryVersions);
    this.claims = db.collection<VersionClaim>(COLLECTIONS.memoryClaims);
  }

  /**
   * Optimistic concurrency without transactions: the one write (UPDATE or DELETE) that
   * inserts the claim of a version may change it; the database's unique `_id` is the arbiter
   * (FerretDB does not make a filtered replace atomic). A claim left by a process that died
   * before finishing is taken over once it is older than ORPHAN_CLAIM_MS.
   */
  async claim(current: MemoryRecord, op: "update" | "delete", at: Date): Promise<boolean> {
    const claim: VersionClaim = {
      _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version),
      memory_id: current.memory_id,
      version: current.version,
      op,
      claimed_at: at,
    };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await this.claims.insertOne(claim);
        return true;
      } catch (error) {
        if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
        const [held, live] = await Promise.all([this.claims.findOne({ _id: claim._id }), this.memories.findOne({ _id: current._id })]);
        const orphan = held && live?.version === current.version && live.status === "active" && at.getTime() - held.claimed_at.getTime() > ORPHAN_CLAIM_MS;
        if (!orphan) return false;
        await this.claims.deleteOne({ _id: claim._id, claimed_at: held.claimed_at });
      }
    }
    return false;
  }

  /** Gives a claim back when its write was undone. */
  async release(current: MemoryRecord): Promise<void> {
    await this.claims.deleteOne({ _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version) });
  }

  /**
   * SPEC D2: keeps an inactive copy of `current` in memory_versions (idempotent: a copy
   * already there from an earlier attempt or a concurrent update is the same content),
   * then replaces the live document only if it is still at `current.version`.
   * false: another write got there first and nothing live changed.
   */
  async supersede(current: MemoryRecord, next: MemoryRecord, at: Date): Promise<boolean> {
    if (!(await this.claim(current, "update", at))) return false;
    // MP-OBJECT: the new version carries its own provenance and hash, and is unsettled until its event is logged.
    delete next.logged;
    Object.assign(next, governedProvenance(next));
    const { status: _status, logged: _logged, ...content } = current;
    const copy: MemoryVersionRecord = {
      ...content,
      _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version),
      status: "superseded",
      superseded_at: at,
      superseded_by: next.version,
    };
    try {
      await this.versions.updateOne({ _id: copy._id }, { $setOnInsert: copy }, { upsert: true });
    } catch (error) {
      // Two upserts of one new _id race: the loser's copy is the same content, already there.
      if (!(error instanceof MongoServerError && error.code === 11000)) throw error;
    }
    const result = await this.memories.replaceOne({ _id: current._id, version: current.version, status: "active" }, next);
    if (result.modifiedCount !== 1) {
      await this.release(current);
      return false;
    }
    return true;
  }

  /** Undoes a supersede whose event could not be written: the old version is live again. */
  async unsupersede(current: MemoryRecord, next: MemoryRecord): Promise<void> {
    await this.memories.replaceOne({ _id: next._id, version: next.version }, current);
    await this.versions.deleteOne({
      _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version),
    });
    await this.release(current);
  }

  /** The inactive copies of an item's earlier versions, oldest first. */
  async versionsOf(tenantId: string, subjectId: string, memoryId: string, upTo: number): Promise<MemoryVersionRecord[]> {
    const ids = Array.from({ length: Math.max(0, upTo - 1) }, (_, i) => memoryVersionDocId(tenantId, subjectId, memoryId, i + 1));
    const found = await this.versions.find({ _id: { $in: ids } }).toArray();
    return found.sort((a, b) => a.version - b.version);
  }

  /** SPEC D1: a logical delete of the live version. false: it was no longer live at that version. */
  async markDeleted(current: MemoryRecord, at: Date, reason: string | null): Promise<boolean> {
    if (!(await this.claim(current, "delete", at))) return false;
    const result = await this.memories.updateOne(
      { _id: current._id, version: current.version, status: "active" },
      { $set: { status: "deleted", deleted_at: at, delete_reason: reason, updated_at: at } },
    );
    if (result.modifiedCount !== 1) {
      await this.release(current);
      return false;
    }
    return true;
  }

  /** Undoes a markDeleted whose event could not be written. */
  async undelete(current: MemoryRecord): Promise<void> {
    await this.memories.replaceOne({ _id: current._id, version: current.version }, current);
    await this.release(current);
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
