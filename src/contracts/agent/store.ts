import type { Collection } from "mongodb";
import type { Clock } from "../../clock";
import type { ContractStore, ErasureMark, ObjectRepair, UnsettledObject } from "../../kernel/contract-store";
import type { Database } from "../../store/database";
import { ensureIndexes, isDuplicateKey } from "../../store/database";
import { IdLists, type IdListRef } from "../../store/id-lists";
import {
  AGENT_COLLECTIONS,
  MEMORY_ID_PREFIX,
  UPDATE_ID_PREFIX,
  agentMemoryDocId,
  checkMemory,
  erasedDynamic,
  memoryTombstone,
  updateTombstone,
  type AgentMemoryRecord,
  type AgentMemoryUpdateRecord,
  type DynamicValue,
  type IndexedRecord,
} from "./records";

export const AGENT_CONTRACT = "agent";

/**
 * The event one write (or erasure) of one object waits for (docs/AUDIT.md "Object and
 * event"): inserted beside the write, deleted once the event is in the log (off the request
 * path). It never lives in the object: FerretDB applies an update as read-modify-write, and a
 * mark written into a memory while an update or an invalidation changes it could put the old
 * values back. The repair pass lists these (ContractStore.unsettled) to find or complete the event.
 */
export interface DueEvent {
  _id: string;
  tenant_id: string;
  /** The subject the event is recorded under (the repair matches it). */
  subject_id: string;
  object_id: string;
  kind: UnsettledObject["kind"];
  written_at: Date;
  missing: UnsettledObject["missing"];
  /** An erasure's mark, so that the repair can complete an erasure a stopped process left halfway. */
  mark?: ErasureMark;
}

/** A due record whose write never landed (a crash before it, or an undo that stopped halfway) is dropped after this long. */
export const STALE_DUE_MS = 3_600_000;

export function dueEvent(
  tenantId: string,
  subjectId: string,
  objectId: string,
  decisionId: string,
  kind: DueEvent["kind"],
  at: Date,
  missing: DueEvent["missing"],
): DueEvent {
  return {
    _id: `${encodeURIComponent(tenantId)}:${encodeURIComponent(objectId)}:${encodeURIComponent(decisionId)}:${kind}`,
    tenant_id: tenantId,
    subject_id: subjectId,
    object_id: objectId,
    kind,
    written_at: at,
    missing: { ...missing, decision_id: missing.decision_id ?? decisionId },
  };
}

/** What erasure changed, so the in-process indexes can drop or refresh the memories at once. */
export type ErasureListener = (tenantId: string, memoryIds: readonly string[]) => void;

/**
 * The dynamic values an update sets (its `after` holds null for what it left as it was), as
 * `from` has them: an update of truth never writes utility back as it was read, nor the other
 * way round, and its undo puts back only what it changed.
 */
function changedFields(
  update: AgentMemoryUpdateRecord,
  from: Pick<AgentMemoryRecord, "truth" | "utility">,
): Partial<Record<"truth" | "utility", DynamicValue | null>> {
  const set: Partial<Record<"truth" | "utility", DynamicValue | null>> = {};
  for (const field of ["truth", "utility"] as const) if (update.after[field] !== null) set[field] = from[field];
  return set;
}

/** Where an agent object lives: `_id` = tenant and object id (memory or update id), `doc_id` = the object's `_id`. */
interface Locator {
  _id: string;
  doc_id: string;
}

export const AGENT_LOCATORS = "agent_locators";

const locatorId = (tenantId: string, objectId: string): string => `${encodeURIComponent(tenantId)}:${encodeURIComponent(objectId)}`;

/** A tenant's (scope "*"), a subject's or a memory's list of agent `_id`s. */
const listOf = (tenantId: string, scope: string, list: string): IdListRef => ({ collection: AGENT_COLLECTIONS.memories, tenantId, scope, list });

const unsettledOf = (d: DueEvent): UnsettledObject => ({
  tenantId: d.tenant_id,
  subjectId: d.subject_id,
  objectId: d.object_id,
  writtenAt: d.written_at,
  kind: d.kind,
  version: null,
  missing: { ...d.missing, decision_id: d.missing.decision_id ?? null },
});

/** Ids per `$in` read of objects. */
const BATCH = 500;
const isMemoryId = (id: string) => id.startsWith(MEMORY_ID_PREFIX);
const isUpdateId = (id: string) => id.startsWith(UPDATE_ID_PREFIX);
const owns = (record: { subject_id: string; author_id: string }, subjectId: string) => record.subject_id === subjectId || record.author_id === subjectId;

/**
 * The agent contract's store (seed 001): memories, their update records and the events they
 * wait for. Every query names the tenant; memories are read back checked against their
 * integrity hashes (MP-OBJECT). Erasure (SPEC D1) reads only what it needs, unchecked, so a
 * damaged record never keeps its content from being erased. Nothing here knows GraphQL or HTTP.
 */
export class AgentStore implements ContractStore {
  readonly contract = AGENT_CONTRACT;
  private readonly memories: Collection<AgentMemoryRecord>;
  private readonly updates: Collection<AgentMemoryUpdateRecord>;
  private readonly due: Collection<DueEvent>;
  private readonly listeners: ErasureListener[] = [];
  private repair: ObjectRepair | undefined;
  /**
   * Where a memory or update id lives (`memory_id` alone does not give the `_id`, which holds the
   * space): one insert-only document per object, written before the object.
   */
  private readonly locators: Collection<Locator>;
  /**
   * The `_id`s of each tenant's memories (the index's cold build), of each subject's own and
   * authored memories and updates (erasure), and of each memory's updates (src/store/id-lists.ts).
   */
  private readonly lists: IdLists;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.memories = db.collection<AgentMemoryRecord>(AGENT_COLLECTIONS.memories);
    this.updates = db.collection<AgentMemoryUpdateRecord>(AGENT_COLLECTIONS.updates);
    this.due = db.collection<DueEvent>(AGENT_COLLECTIONS.due);
    this.locators = db.collection<Locator>(AGENT_LOCATORS);
    this.lists = new IdLists(db);
  }

  /** The object's `_id`, from its locator (null: no such object, or written before locators existed). */
  private async locate(tenantId: string, objectId: string): Promise<string | null> {
    return (await this.locators.findOne({ _id: locatorId(tenantId, objectId) }))?.doc_id ?? null;
  }

  private async memoryById(tenantId: string, memoryId: string): Promise<AgentMemoryRecord | null> {
    const _id = await this.locate(tenantId, memoryId);
    return _id ? this.memories.findOne({ _id, tenant_id: tenantId }) : null;
  }

  private async updateById(tenantId: string, updateId: string): Promise<AgentMemoryUpdateRecord | null> {
    const _id = await this.locate(tenantId, updateId);
    return _id ? this.updates.findOne({ _id, tenant_id: tenantId }) : null;
  }

  /** Before the object (a locator without its object is read as no object; never the opposite). */
  private async addLocator(tenantId: string, objectId: string, docId: string): Promise<void> {
    try {
      await this.locators.insertOne({ _id: locatorId(tenantId, objectId), doc_id: docId });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // a retry, or a repair: the same object
    }
  }

  /** After the object: the lists it belongs to (a crash before leaves its due record, and the repair adds them). */
  private async listMemory(record: Pick<AgentMemoryRecord, "_id" | "tenant_id" | "subject_id" | "author_id">): Promise<void> {
    const refs = [listOf(record.tenant_id, "*", "memories"), listOf(record.tenant_id, record.subject_id, "owned")];
    if (record.author_id !== record.subject_id) refs.push(listOf(record.tenant_id, record.author_id, "owned"));
    await Promise.all(refs.map((ref) => this.lists.add(ref, [record._id])));
  }

  private async listUpdate(update: Pick<AgentMemoryUpdateRecord, "_id" | "tenant_id" | "author_id" | "memory_id">): Promise<void> {
    await Promise.all([
      this.lists.add(listOf(update.tenant_id, update.author_id, "updates"), [update._id]),
      this.lists.add(listOf(update.tenant_id, update.memory_id, "updates of"), [update._id]),
    ]);
  }

  /** Documents by `_id`, in `$in` batches (an id whose document is gone, a write undone, is passed over). */
  private async byIds<T extends { _id: string }>(collection: Collection<T>, ids: readonly string[]): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < ids.length; i += BATCH) out.push(...((await collection.find({ _id: { $in: ids.slice(i, i + BATCH) } } as never).toArray()) as T[]));
    return out;
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, {
      [AGENT_COLLECTIONS.memories]: [
        { key: { tenant_id: 1, space: 1, memory_id: 1 }, name: "tenant_space_memory", unique: true },
        { key: { tenant_id: 1, memory_id: 1 }, name: "tenant_memory" },
        { key: { tenant_id: 1, subject_id: 1 }, name: "tenant_subject" },
        { key: { tenant_id: 1, author_id: 1 }, name: "tenant_author" },
      ],
      [AGENT_COLLECTIONS.updates]: [
        { key: { tenant_id: 1, memory_id: 1, created_at: 1 }, name: "tenant_memory_created" },
        { key: { tenant_id: 1, update_id: 1 }, name: "tenant_update" },
        { key: { tenant_id: 1, author_id: 1 }, name: "tenant_author" },
      ],
      [AGENT_COLLECTIONS.due]: [{ key: { written_at: 1 }, name: "written_at" }],
    });
  }

  repairWith(repair: ObjectRepair): void {
    this.repair = repair;
  }

  /**
   * INV-8 for the in-process index (index-cache.ts): the tenant's memories whose create event
   * may not be in the log (their due record is still there; a scan of the small due collection).
   * Each is settled now (its event found, or appended once the write is old enough, as the
   * repair does) or left out of the index until its event arrives.
   */
  async unsettledCreations(tenantId: string): Promise<string[]> {
    const due = await this.due.find({ tenant_id: tenantId, kind: "write", "missing.event_type": "create" }).toArray();
    const withheld: string[] = [];
    for (const d of due) {
      const object = unsettledOf(d);
      if (!this.repair || !(await this.repair.settleOne(this, object))) withheld.push(d.object_id);
    }
    return withheld;
  }

  /** Called with the memories an erasure changed (the contract's index cache listens). */
  onErased(listener: ErasureListener): void {
    this.listeners.push(listener);
  }

  // ---------------------------------------------------------------- checked reads

  async get(tenantId: string, space: string, memoryId: string): Promise<AgentMemoryRecord | null> {
    const record = await this.memories.findOne({ _id: agentMemoryDocId(tenantId, space, memoryId), tenant_id: tenantId });
    return record ? checkMemory(record) : null;
  }

  /**
   * Every live agent memory of a tenant, a batch at a time: read once per process to build its
   * in-memory index, which keeps a smaller copy of each, so a large tenant's records are never all
   * in memory at once (at 100,000 memories the stored records took 445 MB of heap).
   */
  async *tenantMemories(tenantId: string): AsyncGenerator<AgentMemoryRecord[]> {
    const ids = await this.lists.entries(listOf(tenantId, "*", "memories"));
    for (let i = 0; i < ids.length; i += BATCH) {
      const records = await this.byIds(this.memories, ids.slice(i, i + BATCH));
      yield records.filter((r) => r.tenant_id === tenantId && r.status !== "erased").map(checkMemory);
    }
  }

  /** The memory an update record belongs to (for a reader that learns of the update's erasure). */
  async memoryOfUpdate(tenantId: string, updateId: string): Promise<AgentMemoryRecord | null> {
    const update = await this.updateById(tenantId, updateId);
    return update ? this.get(tenantId, update.space, update.memory_id) : null;
  }

  // ---------------------------------------------------------------- writes (each with its undo)

  async insertMemory(record: AgentMemoryRecord, due: DueEvent): Promise<void> {
    await this.due.insertOne(due);
    await this.addLocator(record.tenant_id, record.memory_id, record._id);
    await this.memories.insertOne(record);
    await this.listMemory(record);
  }

  /** Undo of insertMemory: the memory was never acknowledged (INV-8). Idempotent. */
  async removeMemory(record: AgentMemoryRecord, due: DueEvent): Promise<void> {
    await this.memories.deleteOne({ _id: record._id, tenant_id: record.tenant_id });
    await this.due.deleteOne({ _id: due._id });
  }

  /** IF1-CHANGE: an id set in place (SPEC D2); restoreInvalidatedBy puts back what `record` had. */
  async setInvalidatedBy(record: IndexedRecord, changeId: string, now: Date, due: DueEvent): Promise<void> {
    await this.due.insertOne(due);
    await this.memories.updateOne({ _id: record._id, tenant_id: record.tenant_id, status: "active" }, { $set: { invalidated_by: changeId, updated_at: now } });
  }

  async restoreInvalidatedBy(record: IndexedRecord, due: DueEvent): Promise<void> {
    await this.memories.updateOne(
      { _id: record._id, tenant_id: record.tenant_id, status: "active" },
      { $set: { invalidated_by: record.invalidated_by, updated_at: record.updated_at } },
    );
    await this.due.deleteOne({ _id: due._id });
  }

  /**
   * IF1-UPDATE commit: the update record, then the values it sets (truth and/or utility, only
   * those) in place (SPEC D2); text is never touched.
   */
  async applyUpdate(record: IndexedRecord, update: AgentMemoryUpdateRecord, now: Date, due: DueEvent): Promise<void> {
    await this.due.insertOne(due);
    await this.addLocator(update.tenant_id, update.update_id, update._id);
    await this.updates.insertOne(update);
    await this.listUpdate(update);
    await this.memories.updateOne(
      { _id: record._id, tenant_id: record.tenant_id, status: "active" },
      { $set: { ...changedFields(update, update.after), updated_at: now } },
    );
  }

  /** Undo of applyUpdate: the values as they were read, the update record gone. Idempotent. */
  async revertUpdate(record: IndexedRecord, update: AgentMemoryUpdateRecord, due: DueEvent): Promise<void> {
    await this.memories.updateOne(
      { _id: record._id, tenant_id: record.tenant_id, status: "active" },
      { $set: { ...changedFields(update, record), updated_at: record.updated_at } },
    );
    await this.updates.deleteOne({ _id: update._id, tenant_id: update.tenant_id });
    await this.due.deleteOne({ _id: due._id });
  }

  /** The event is in the log: nothing is due any more (off the request path; repair catches a miss). */
  async settled(due: DueEvent): Promise<void> {
    await this.due.deleteOne({ _id: due._id });
  }

  // ---------------------------------------------------------------- erasure (SPEC D1)

  /** Ids of every memory the subject wrote or owns, and of every update it authored elsewhere, that still hold content. */
  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const [owned, authoredUpdates] = await this.lists.entriesOf([listOf(tenantId, subjectId, "owned"), listOf(tenantId, subjectId, "updates")]);
    const [memoryRecords, updateRecords] = await Promise.all([this.byIds(this.memories, owned), this.byIds(this.updates, authoredUpdates)]);
    const mine = <T extends { tenant_id: string; subject_id: string; author_id: string; status: string }>(r: T) =>
      r.tenant_id === tenantId && r.status !== "erased" && (r.subject_id === subjectId || r.author_id === subjectId);
    const memories = new Set(memoryRecords.filter(mine).map((m) => m.memory_id));
    // An update of a memory erased with it needs no erasure of its own.
    const own = updateRecords.filter((u) => mine(u) && u.author_id === subjectId && !memories.has(u.memory_id)).map((u) => u.update_id);
    return [...memories, ...new Set(own)].sort();
  }

  async lookup(tenantId: string, subjectId: string, objectId: string): Promise<{ found: boolean; erased: boolean }> {
    const record = isMemoryId(objectId) ? await this.memoryById(tenantId, objectId) : isUpdateId(objectId) ? await this.updateById(tenantId, objectId) : null;
    if (!record || !owns(record, subjectId)) return { found: false, erased: false };
    return { found: true, erased: record.status === "erased" };
  }

  /**
   * A memory: its text, rationale, links, evidence refs, truth and utility (rationale and
   * evidence), salt and every update record of it become tombstones. An update: its rationale
   * and evidence leave its record and, where the memory's current truth or utility still
   * carries them, the memory. Then the in-process indexes forget them (other processes follow
   * the `erase` event). Idempotent; false when the subject owns no such object.
   */
  async erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean> {
    const at = new Date(mark.at);
    const due = (memoryOrUpdate: string): DueEvent => ({
      ...dueEvent(tenantId, subjectId, memoryOrUpdate, mark.decision_id ?? mark.at, "erasure", at, {
        event_type: "erase",
        operation: mark.operation,
        stop_reason: "SUCCESS_DELETED",
        content_digest: null,
        metadata: {},
        reason: mark.reason,
        decision_id: mark.decision_id,
      }),
      mark,
    });
    if (isMemoryId(objectId)) {
      const memory = await this.memoryById(tenantId, objectId);
      if (!memory || !owns(memory, subjectId)) return false;
      await this.due.replaceOne({ _id: due(objectId)._id }, due(objectId), { upsert: true });
      // Update records first: if the process stops here, the memory still shows what is left to erase.
      const updates = await this.byIds(this.updates, await this.lists.entries(listOf(tenantId, objectId, "updates of")));
      for (const update of updates.filter((u) => u.tenant_id === tenantId && u.memory_id === objectId)) {
        if (update.status !== "erased") await this.updates.replaceOne({ _id: update._id }, updateTombstone(update, mark, subjectId));
      }
      if (memory.status !== "erased") await this.memories.replaceOne({ _id: memory._id }, memoryTombstone(memory, mark, subjectId, at));
      this.erased(tenantId, [objectId]);
      return true;
    }
    if (isUpdateId(objectId)) {
      const update = await this.updateById(tenantId, objectId);
      if (!update || !owns(update, subjectId)) return false;
      await this.due.replaceOne({ _id: due(objectId)._id }, due(objectId), { upsert: true });
      if (update.status !== "erased") await this.updates.replaceOne({ _id: update._id }, updateTombstone(update, mark, subjectId));
      const memory = await this.memories.findOne({ _id: agentMemoryDocId(tenantId, update.space, update.memory_id), tenant_id: tenantId });
      const carries = (value: DynamicValue | null) => value !== null && value.update_id === objectId && !value.erased;
      if (memory && (carries(memory.truth) || carries(memory.utility))) {
        const scrub = (value: DynamicValue | null) => (value && carries(value) ? erasedDynamic(value) : value);
        await this.memories.updateOne({ _id: memory._id, tenant_id: tenantId }, { $set: { truth: scrub(memory.truth), utility: scrub(memory.utility) } });
      }
      this.erased(tenantId, [update.memory_id]);
      return true;
    }
    return false;
  }

  private erased(tenantId: string, memoryIds: string[]): void {
    for (const listener of this.listeners) listener(tenantId, memoryIds);
  }

  // ---------------------------------------------------------------- settle and repair

  /**
   * Due events, oldest first, of writes that landed. A due record is written before its
   * object, so one whose write is not there was never acknowledged (a crash in between, or an
   * undo that stopped halfway): no event is owed; it is left for a live writer, then dropped
   * once stale. An erasure that stopped halfway is completed here first: content that was
   * asked to go never stays.
   */
  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const due = await this.due.find({}).sort({ written_at: 1 }).limit(limit).toArray();
    const objects: UnsettledObject[] = [];
    for (const d of due) {
      if (!(await this.landed(d))) {
        if (this.clock.now().getTime() - d.written_at.getTime() > STALE_DUE_MS) await this.due.deleteOne({ _id: d._id });
        continue;
      }
      objects.push(unsettledOf(d));
    }
    return objects;
  }

  /** Whether the write a due record announces is in the database (an erasure is completed if it is not). */
  private async landed(d: DueEvent): Promise<boolean> {
    const isUpdate = isUpdateId(d.object_id);
    const find = () => (isUpdate ? this.updateById(d.tenant_id, d.object_id) : this.memoryById(d.tenant_id, d.object_id));
    if (d.kind === "erasure") {
      const object = await find();
      if (!object) return false;
      if (object.status !== "erased" && d.mark) await this.erase(d.tenant_id, d.subject_id, d.object_id, d.mark);
      return true;
    }
    const metadata = d.missing.metadata as { update_id?: unknown; invalidated_by?: unknown };
    switch (d.missing.event_type) {
      case "update":
        return (await this.updateById(d.tenant_id, String(metadata.update_id))) !== null;
      case "invalidate":
        return (await this.memoryById(d.tenant_id, d.object_id))?.invalidated_by === metadata.invalidated_by;
      default:
        return (await find()) !== null;
    }
  }

  /** The event of `object` is in the log at `seq`: its due records go (a write's and an erasure's alike). */
  async settle(object: UnsettledObject, _seq: number, repaired = false): Promise<void> {
    // A write the repair completed may have stopped before its list entries: added again (readers read an entry once).
    if (repaired && object.kind === "write") {
      const memory = isMemoryId(object.objectId) ? await this.memoryById(object.tenantId, object.objectId) : null;
      if (memory) await this.listMemory(memory);
      const update =
        object.missing.event_type === "update"
          ? await this.updateById(object.tenantId, String((object.missing.metadata as { update_id?: unknown }).update_id))
          : null;
      if (update) await this.listUpdate(update);
    }
    await this.due.deleteMany({ tenant_id: object.tenantId, object_id: object.objectId, kind: object.kind, subject_id: object.subjectId });
  }
}
