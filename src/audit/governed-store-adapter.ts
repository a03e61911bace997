/**
 * TEMPORARY (issue 11, branch k-audit): the ContractStore of today's governed items, so that
 * erasure and the generic repair reach them before the governed contract moves onto the
 * kernel. At merge it is REPLACED by the governed contract's own store
 * (src/contracts/governed/store.ts, listed by governedContract(deps).stores): delete this
 * file, its registration in src/gateway.ts and `temporaryGovernedSettleHook` there.
 */
import { type Collection, type Db } from "mongodb";
import type { ContractStore, ErasureMark, UnsettledObject } from "../kernel/contract-store";
import { saltedDigest } from "../store/canonical";
import { COLLECTIONS, ensureIndexes, INDEXES } from "../store/database";
import type { AppendHook, EventType } from "../store/event-log";
import { memoryDocId } from "../store/ids";
import type { MemoryRecord } from "../store/memory-repository";
import { governedProvenance } from "../store/provenance";

type Tombstoned = MemoryRecord & { erasure?: ErasureMark };

/** The governed contract's items (`memories`) and their versions (`memory_versions`). */
export class GovernedStoreAdapter implements ContractStore {
  readonly contract = "governed";
  private readonly memories: Collection<Tombstoned>;
  private readonly versions: Collection<Record<string, unknown> & { _id: string }>;

  constructor(private readonly db: Db) {
    this.memories = db.collection<Tombstoned>(COLLECTIONS.memories);
    this.versions = db.collection(COLLECTIONS.memoryVersions);
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, {
      [COLLECTIONS.memories]: INDEXES[COLLECTIONS.memories],
      [COLLECTIONS.memoryVersions]: INDEXES[COLLECTIONS.memoryVersions],
    });
  }

  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const items = await this.memories
      .find({ $or: [{ logged: { $exists: false } }, { erasure: { $exists: true }, "erasure.logged_seq": { $exists: false } }] })
      .sort({ updated_at: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return items.map((item) => (item.erasure && item.erasure.logged_seq === undefined ? erasureOf(item, item.erasure) : writeOf(item)));
  }

  async settle(object: UnsettledObject, seq: number): Promise<void> {
    const _id = memoryDocId(object.tenantId, object.subjectId, object.objectId);
    if (object.kind === "erasure") {
      await this.memories.updateOne({ _id, erasure: { $exists: true } }, { $set: { "erasure.logged_seq": seq } });
      return;
    }
    // Only the version the event is about: a newer version waits for its own event.
    const filter = object.version === null ? { _id } : { _id, version: object.version };
    await this.memories.updateOne(filter, { $set: { logged: { seq, version: object.version } } });
  }

  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const items = await this.memories
      .find({ tenant_id: tenantId, subject_id: subjectId, status: { $ne: "erased" } }, { projection: { memory_id: 1 } })
      .toArray();
    return items.map((i) => i.memory_id).sort();
  }

  async lookup(tenantId: string, subjectId: string, objectId: string) {
    const item = await this.memories.findOne({ _id: memoryDocId(tenantId, subjectId, objectId) }, { projection: { status: 1 } });
    return { found: item !== null, erased: item?.status === "erased" };
  }

  async erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean> {
    const _id = memoryDocId(tenantId, subjectId, objectId);
    const item = await this.memories.findOne({ _id });
    if (!item) return false;
    // Versions first: if the process stops here, the item still shows what is left to erase.
    const versions = await this.versions.find({ tenant_id: tenantId, subject_id: subjectId, memory_id: objectId }).toArray();
    for (const version of versions) {
      await this.versions.replaceOne(
        { _id: version._id },
        { tenant_id: tenantId, subject_id: subjectId, memory_id: objectId, version: version.version ?? null, status: "erased", erasure: mark },
      );
    }
    const tombstone: Tombstoned = {
      _id,
      tenant_id: tenantId,
      subject_id: subjectId,
      memory_id: objectId,
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
}

function writeOf(item: Tombstoned): UnsettledObject {
  const updated = item.version > 1;
  return {
    tenantId: item.tenant_id,
    subjectId: item.subject_id,
    objectId: item.memory_id,
    writtenAt: item.updated_at,
    kind: "write",
    version: item.version,
    missing: {
      event_type: updated ? "update" : "create",
      operation: updated ? "UPDATE" : "STORE",
      stop_reason: updated ? "SUCCESS_UPDATED" : "SUCCESS_STORED",
      content_digest: item.status === "erased" ? null : saltedDigest(item.content_salt, { key: item.key, value: item.value }),
      metadata: { category: item.category, created_by: item.created_by?.id ?? null },
      reason: "the item was stored but its event was not written before the process stopped",
    },
  };
}

function erasureOf(item: Tombstoned, mark: ErasureMark): UnsettledObject {
  return {
    tenantId: item.tenant_id,
    subjectId: item.subject_id,
    objectId: item.memory_id,
    writtenAt: new Date(mark.at),
    kind: "erasure",
    version: null,
    missing: {
      event_type: "erase",
      operation: mark.operation,
      stop_reason: "SUCCESS_DELETED",
      content_digest: null,
      metadata: { requested_by: mark.by },
      reason: mark.reason,
      decision_id: mark.decision_id,
    },
  };
}

const CONTENT_EVENTS: readonly EventType[] = ["create", "update", "consolidate"];

/**
 * TEMPORARY, like the adapter: today's GovernedMemoryService appends its events through the
 * Governor, not the kernel's write set, so its items get their settle mark from this
 * EventLog hook. The governed contract on the kernel settles through `writes.event({settle})`;
 * at merge, delete this hook and its registration in src/gateway.ts.
 */
export function temporaryGovernedSettleHook(store: GovernedStoreAdapter): AppendHook {
  return async (event) => {
    if ((event.contract ?? "governed") !== "governed" || !event.memory_id || !event.subject_id) return;
    if (!CONTENT_EVENTS.includes(event.event_type)) return;
    const version = typeof event.metadata.version === "number" ? event.metadata.version : null;
    await store.settle(
      { tenantId: event.tenant_id, subjectId: event.subject_id, objectId: event.memory_id, writtenAt: new Date(event.timestamp), kind: "write", version, missing: { event_type: "create", operation: event.operation, stop_reason: event.stop_reason, content_digest: null, metadata: {} } },
      event.seq,
    );
  };
}
