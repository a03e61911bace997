import type { Collection, Db } from "mongodb";
import { COLLECTIONS } from "../store/database";
import { memoryDocId } from "../store/ids";
import type { MemoryRecord } from "../store/memory-repository";
import { governedProvenance } from "../store/provenance";
import type { ErasureMark } from "./repair";

/**
 * SPEC D1 physical erasure, per store. Each contract whose store holds content registers
 * one ErasableStore with the ErasureRegistry (src/gateway.ts); the erasure service then
 * erases a memory id (or a whole subject) in every registered store. Events are never
 * touched: they hold salted digests only, and the salt goes with the content, so the chain
 * and every checkpoint still verify.
 */
export interface ErasableStore {
  readonly name: string;
  /** Whether the store holds this memory and whether it is erased already. */
  lookup(tenantId: string, subjectId: string, memoryId: string): Promise<{ found: boolean; erased: boolean }>;
  /** Ids of the subject's memories that still hold content (any status but erased). */
  memoryIds(tenantId: string, subjectId: string): Promise<string[]>;
  /**
   * Removes the memory's content from every place the store keeps it (current record,
   * versions, salts), leaving a tombstone with identity, status "erased" and `mark`.
   * Idempotent. Returns false when the store does not hold the memory.
   */
  erase(tenantId: string, subjectId: string, memoryId: string, mark: ErasureMark): Promise<boolean>;
  /** Records that the erase event is in the log (seq), completing the erasure. */
  settle(tenantId: string, subjectId: string, memoryId: string, seq: number): Promise<void>;
}

export class ErasureRegistry {
  private readonly stores: ErasableStore[] = [];

  register(store: ErasableStore): void {
    if (this.stores.some((s) => s.name === store.name)) throw new Error(`erasable store ${store.name} is registered twice`);
    this.stores.push(store);
  }

  all(): readonly ErasableStore[] {
    return this.stores;
  }
}

type Tombstoned = MemoryRecord & { erasure?: ErasureMark };

/** The governed contract's items (`memories`) and their versions (`memory_versions`). */
export class GovernedErasableStore implements ErasableStore {
  readonly name = "governed";
  private readonly memories: Collection<Tombstoned>;
  private readonly versions: Collection<Record<string, unknown> & { _id: string }>;

  constructor(db: Db) {
    this.memories = db.collection<Tombstoned>(COLLECTIONS.memories);
    this.versions = db.collection(COLLECTIONS.memoryVersions);
  }

  async lookup(tenantId: string, subjectId: string, memoryId: string) {
    const item = await this.memories.findOne({ _id: memoryDocId(tenantId, subjectId, memoryId) }, { projection: { status: 1 } });
    return { found: item !== null, erased: item?.status === "erased" };
  }

  async memoryIds(tenantId: string, subjectId: string): Promise<string[]> {
    const items = await this.memories
      .find({ tenant_id: tenantId, subject_id: subjectId, status: { $ne: "erased" } }, { projection: { memory_id: 1 } })
      .toArray();
    return items.map((i) => i.memory_id).sort();
  }

  async erase(tenantId: string, subjectId: string, memoryId: string, mark: ErasureMark): Promise<boolean> {
    const _id = memoryDocId(tenantId, subjectId, memoryId);
    const item = await this.memories.findOne({ _id });
    if (!item) return false;
    // Versions first: if the process stops here, the item still shows what is left to erase.
    const versions = await this.versions.find({ tenant_id: tenantId, subject_id: subjectId, memory_id: memoryId }).toArray();
    for (const version of versions) {
      await this.versions.replaceOne(
        { _id: version._id },
        { tenant_id: tenantId, subject_id: subjectId, memory_id: memoryId, version: version.version ?? null, status: "erased", erasure: mark },
      );
    }
    const tombstone: Tombstoned = {
      _id,
      tenant_id: tenantId,
      subject_id: subjectId,
      memory_id: memoryId,
      version: item.version,
      category: item.category,
      key: "",
      value: "",
      source_kind: item.source_kind,
      ttl_class: item.ttl_class,
      source_ref: null,
      origin: item.origin,
      consent: { explicit: item.consent?.explicit ?? false, evidence_ref: null },
      status: "erased",
      created_at: item.created_at,
      updated_at: new Date(mark.at),
      expires_at: item.expires_at,
      created_by: item.created_by,
      content_salt: "",
      ...(item.logged ? { logged: item.logged } : {}),
      erasure: item.erasure?.logged_seq !== undefined ? item.erasure : mark,
    };
    Object.assign(tombstone, governedProvenance(tombstone)); // the integrity hash covers what is stored now
    await this.memories.replaceOne({ _id }, tombstone);
    return true;
  }

  async settle(tenantId: string, subjectId: string, memoryId: string, seq: number): Promise<void> {
    await this.memories.updateOne({ _id: memoryDocId(tenantId, subjectId, memoryId) }, { $set: { "erasure.logged_seq": seq } });
  }
}
