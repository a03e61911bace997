import type { Collection, IndexDescription } from "mongodb";
import type { ContractStore, ErasureMark, ObjectRepair, UnsettledObject } from "../../kernel/contract-store";
import { erasedFields, withoutFields } from "../../kernel/declaration";
import { systemClock, type Clock } from "../../clock";
import type { Logger } from "../../logger";
import { bulkWriteChunked } from "../../store/bulk";
import { saltedDigest } from "../../store/canonical";
import { ensureIndexes, type Database, isDuplicateKey } from "../../store/database";
import { memoryDocId, memoryVersionDocId } from "../../store/ids";
import { checkIntegrity, type ProvenanceFields } from "../../store/provenance";
import { DueMarks, type DueMark } from "../../store/due-marks";
import { entryObjectId, IdLists, newestFirst, newestOrder, timeEntry, type IdListRef } from "../../store/id-lists";
import { InsertQueue } from "../../store/insert-queue";
import { LookupQueue } from "../../store/lookup-queue";
import { DELETE_FIELDS, STORE_FIELDS, UPDATE_FIELDS } from "./fields";
import { GOVERNED_COLLECTIONS, GOVERNED_CONTENT_FIELDS, governedProvenance } from "./records";
import { CounterStore, type CountDelta, type StaleWindow } from "./store-counters";
import { SlotStore } from "./store-slots";
import { SettingsStore } from "./store-settings";

export type MemoryStatus = "active" | "deleted" | "erased" | "quarantined";

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
  /** Written by earlier versions of memgate once the version's event was in the log; today a due mark says what is not. */
  logged?: { seq: number; version: number | null };
  /** SPEC D2: the version this one replaced (absent on version 1). */
  supersedes?: number | null;
  updated_by?: { id: string; roles: string[] } | null;
  /** SPEC D1: set by a logical DELETE. */
  deleted_at?: Date | null;
  delete_reason?: string | null;
  /** SPEC D1: set by a physical erasure (the record is then a content-free tombstone). */
  erasure?: ErasureMark;
}

/** Which write took a version (the arbiter of concurrent UPDATE / DELETE). */
interface VersionClaim {
  _id: string;
  memory_id: string;
  version: number;
  op: "update" | "delete";
  claimed_at: Date;
}

const ORPHAN_CLAIM_MS = 60_000;
/** The governed items' due marks (src/store/due-marks.ts). */
export const MEMORY_DUE_EVENTS = "memory_due_events";
/** A due mark whose write is not in the database after this long never landed (a crash, or an undo): it is dropped. */
const STALE_DUE_MS = 60_000;

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
  /** Only the items stored under this key (a client's lookup by key). */
  key?: string;
  now: Date;
  limit: number;
  /** Keyset cursor: items strictly after this (created_at desc, _id desc). */
  after?: { createdAt: Date; id: string };
}

/** The indexes the store's reads need besides `_id` (on MongoDB they carry the list reads; see INDEXES in src/store/database.ts). */
const INDEXES: Readonly<Record<string, readonly IndexDescription[]>> = {
  [GOVERNED_COLLECTIONS.memories]: [
    { key: { tenant_id: 1, subject_id: 1, memory_id: 1 }, name: "tenant_subject_memory", unique: true },
    { key: { tenant_id: 1, subject_id: 1, status: 1, created_at: -1 }, name: "tenant_subject_status_created" },
  ],
  [GOVERNED_COLLECTIONS.memoryVersions]: [
    { key: { tenant_id: 1, subject_id: 1, memory_id: 1, version: 1 }, name: "tenant_subject_memory_version", unique: true },
  ],
};

/**
 * The governed contract's store: items (`memories`), their superseded versions
 * (`memory_versions`), version claims (`memory_claims`), and beside them the settings and
 * the quota counters. Every query names tenant and subject (SG-SCOPE); every item read is
 * checked against its integrity hash (MP-OBJECT). Settle marks and counter increments are
 * group-committed off the request path.
 */
export class GovernedStore implements ContractStore {
  readonly contract = "governed";
  readonly settings: SettingsStore;
  readonly counters: CounterStore;
  /** Numbered quota slots: caps that hold under concurrency (issue 15 §2). */
  readonly slots: SlotStore;
  private readonly memories: Collection<MemoryRecord>;
  /** Concurrent reads' primary-key lookups, one query between them. */
  private readonly lookups: LookupQueue<MemoryRecord>;
  private readonly versions: Collection<MemoryVersionRecord>;
  private readonly claims: Collection<VersionClaim>;
  private readonly due: DueMarks;
  private readonly inserts: InsertQueue<MemoryRecord>;
  /** Each subject's items, by `_id` (src/store/id-lists.ts): what LIST and erasure read instead of a scan. */
  private readonly lists: IdLists;
  /** Settles an item a read finds without its event (set by the repair; none: such an item is not served). */
  private repair: ObjectRepair | undefined;

  constructor(
    private readonly db: Database,
    logger: Logger,
    private readonly clock: Clock = systemClock,
    options: { settingsPollMs?: number } = {},
  ) {
    this.memories = db.collection<MemoryRecord>(GOVERNED_COLLECTIONS.memories);
    this.versions = db.collection<MemoryVersionRecord>(GOVERNED_COLLECTIONS.memoryVersions);
    this.claims = db.collection<VersionClaim>(GOVERNED_COLLECTIONS.memoryClaims);
    this.settings = new SettingsStore(db, logger, { pollMs: options.settingsPollMs });
    this.counters = new CounterStore(db, logger);
    this.due = new DueMarks(db, MEMORY_DUE_EVENTS, logger);
    this.slots = new SlotStore(db, logger);
    this.inserts = new InsertQueue(this.memories);
    this.lookups = new LookupQueue(this.memories);
    this.lists = new IdLists(db);
  }

  /** Resolves once every settle mark and counter increment queued so far is written (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([this.due.idle(), this.counters.idle()]);
  }

  /** Back-pressure: a write waits while too many settle marks or counter increments are still to be written. */
  async room(): Promise<void> {
    await Promise.all([this.due.room(), this.counters.room()]);
  }

  // ---- items ----

  /**
   * A primary-key lookup: the `_id` is derived from tenant, subject and memory id. INV-8: a
   * live version whose event is not in the log is settled first or not returned (`live`).
   */
  async get(tenantId: string, subjectId: string, memoryId: string): Promise<MemoryRecord | null> {
    const record = await this.lookups.get(memoryDocId(tenantId, subjectId, memoryId));
    if (!record) return null;
    const [live] = await this.live([verified(record)]);
    return live ?? null;
  }

  /**
   * INV-8, MP-LOG: an item without its event is never served as live. Items written before the
   * repair's watermark, or whose event this process appended or saw, cost nothing more; the
   * others' due marks are looked up by `_id` (src/store/due-marks.ts), and an item with its
   * mark still there is settled by the repair (its event found, or appended once the write is
   * old enough) or left out: its write is in flight and unacknowledged.
   */
  private live(records: MemoryRecord[]): Promise<MemoryRecord[]> {
    return this.due.live(
      records,
      (r) => (r.status === "active" ? { id: dueId(r._id, r.version), writtenAt: r.updated_at } : null),
      (r) => (this.repair ? this.repair.settleOne(this, unsettledWrite(r)) : Promise.resolve(false)),
    );
  }

  repairWith(repair: ObjectRepair): void {
    this.repair = repair;
  }

  settledBefore(cutoff: Date): void {
    this.due.settledBefore(cutoff);
  }

  /**
   * MP-OBJECT: a new item's provenance and integrity hash, computed over what `insert` will
   * store. STORE seals before its keyed answer is kept, so a retry answers the same provenance.
   */
  seal(record: MemoryRecord): void {
    Object.assign(record, governedProvenance(record));
  }

  /**
   * Stores an item sealed by `seal` (once: the hash is SHA-256 over its canonical form).
   * Concurrent STOREs' due marks go in one insert, then their items in another and their list
   * entries in a third, side by side (the request still waits for its own). The mark first: a
   * process killed in between leaves a mark without its item (dropped once stale), never an
   * item no repair could find.
   */
  async insert(record: MemoryRecord, at: Date): Promise<void> {
    const due = writeDue(record, at);
    await this.due.add(due);
    // The item and its list entry together (each grouped with concurrent STOREs'): an entry
    // without its item is skipped by readers, and an item without its entry (a crash between
    // them) keeps its due mark, so the repair adds the entry.
    const [item, entry] = await Promise.allSettled([
      this.inserts.insert(record),
      this.lists.add(itemsOf(record.tenant_id, record.subject_id), [listEntry(record)]),
    ]);
    if (item.status === "rejected") {
      // A failed insert may still be in (the database died after writing it, before answering):
      // the item goes before its mark, so no item is ever left without the mark the repair finds
      // it by. If that fails too, the mark stays and the repair settles whatever is there.
      await this.rollback(record).catch(() => undefined);
      throw item.reason;
    }
    if (entry.status === "rejected") throw entry.reason;
  }

  /** Removes an item that was never acknowledged (its event could not be written). */
  async rollback(record: MemoryRecord): Promise<void> {
    await this.memories.deleteOne({ _id: record._id, version: record.version });
    await this.due.remove(dueId(record._id, record.version));
  }

  /**
   * Optimistic concurrency without transactions: the one write (UPDATE or DELETE) that
   * inserts the claim of a version may change it; the database's unique `_id` is the arbiter
   * (FerretDB does not make a filtered replace atomic). A claim left by a process that died
   * before finishing is taken over once it is older than ORPHAN_CLAIM_MS.
   */
  private async claim(current: MemoryRecord, op: "update" | "delete", at: Date): Promise<boolean> {
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
        if (!isDuplicateKey(error)) throw error;
        const [held, live] = await Promise.all([this.claims.findOne({ _id: claim._id }), this.memories.findOne({ _id: current._id })]);
        const orphan = held && live?.version === current.version && live.status === "active" && at.getTime() - held.claimed_at.getTime() > ORPHAN_CLAIM_MS;
        if (!orphan) return false;
        await this.claims.deleteOne({ _id: claim._id, claimed_at: held.claimed_at });
      }
    }
    return false;
  }

  /** Gives a claim back when its write was undone. */
  private async release(current: MemoryRecord): Promise<void> {
    await this.claims.deleteOne({ _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version) });
  }

  /**
   * SPEC D2: keeps an inactive copy of `current` in memory_versions (idempotent: a copy
   * already there from an earlier attempt is the same content), then replaces the live
   * document only if it is still at `current.version`. false: another write got there
   * first and nothing live changed.
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
      if (!isDuplicateKey(error)) throw error;
    }
    await this.due.add(writeDue(next, at));
    const result = await this.memories.replaceOne({ _id: current._id, version: current.version, status: "active" }, next);
    if (result.modifiedCount !== 1) {
      await this.due.remove(dueId(next._id, next.version));
      await this.versions.deleteOne({ _id: copy._id, superseded_by: next.version });
      await this.release(current);
      return false;
    }
    return true;
  }

  /** Undoes a supersede whose event could not be written: the old version is live again. */
  async unsupersede(current: MemoryRecord, next: MemoryRecord): Promise<void> {
    await this.memories.replaceOne({ _id: next._id, version: next.version }, current);
    await this.due.remove(dueId(next._id, next.version));
    await this.versions.deleteOne({ _id: memoryVersionDocId(current.tenant_id, current.subject_id, current.memory_id, current.version) });
    await this.release(current);
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

  /**
   * A subject's live, unexpired items, newest first, after a keyset cursor, at most
   * `query.limit`. Items left out as unsettled (INV-8) are made up for by reading further.
   */
  async list(query: ListQuery): Promise<MemoryRecord[]> {
    const { tenantId, subjectId } = query;
    return newestFirst(
      await this.lists.entries(itemsOf(tenantId, subjectId)),
      query.limit,
      async (memoryIds) => {
        const items = await this.memories.find({ _id: { $in: memoryIds.map((m) => memoryDocId(tenantId, subjectId, m)) } }).toArray();
        // Entries whose item is gone (undone), not live, expired, of another category or key are passed over.
        const wanted = items.filter(
          (m) =>
            m.status === "active" &&
            m.expires_at > query.now &&
            (query.category === undefined || m.category === query.category) &&
            (query.key === undefined || m.key === query.key),
        );
        return this.live(wanted.map(verified));
      },
      newestOrder,
      query.after && timeEntry(query.after.createdAt, decodeURIComponent(query.after.id.slice(query.after.id.lastIndexOf(":") + 1))),
    );
  }

  // ---- settle (the event's part, off the request path) ----

  /**
   * Settles a write once its event is in the log: the version's due mark goes and the
   * subject's quota counts move, each group-committed with those of concurrent requests;
   * the write slots of the subject's past windows go with the counts of those windows.
   */
  async settleWrite(
    record: MemoryRecord,
    counts: { delta: CountDelta; staleWindows: readonly StaleWindow[]; slots: { item?: number; write?: number; windowStart?: number } },
  ): Promise<void> {
    const { tenant_id: tenantId, subject_id: subjectId } = record;
    const counted = this.counters.add(tenantId, subjectId, counts.delta, counts.staleWindows);
    // This process's reads count the increment from now on, so its slot numbers are no longer in flight.
    this.slots.settled(tenantId, subjectId, { kind: "item" }, counts.slots.item);
    this.slots.settled(tenantId, subjectId, { kind: "write", windowStart: counts.slots.windowStart ?? counts.delta.windowStart }, counts.slots.write);
    await Promise.all([
      this.due.settled(dueId(record._id, record.version), record.updated_at),
      counted,
      this.slots.dropWindows(tenantId, subjectId, counts.staleWindows),
    ]);
  }

  // ---- ContractStore ----

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, INDEXES);
  }

  /**
   * From the due marks (a small collection), each checked against its item by `_id`: a mark
   * whose write is not (or no longer) there never landed, and goes once it is old.
   */
  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const found: UnsettledObject[] = [];
    for (const mark of await this.due.oldest(limit)) {
      const item = await this.memories.findOne({ _id: memoryDocId(mark.tenant_id, mark.subject_id, mark.object_id) });
      if (mark.kind === "erasure" && item?.erasure && item.erasure.logged_seq === undefined) found.push(unsettledErasure(item, item.erasure));
      else if (mark.kind === "write" && item?.version === mark.version && item.status !== "erased") found.push(unsettledWrite(item));
      else if (this.clock.now().getTime() - mark.written_at.getTime() > STALE_DUE_MS) await this.due.remove(mark._id);
    }
    return found;
  }

  async settle(object: UnsettledObject, seq: number, repaired = false): Promise<void> {
    const _id = memoryDocId(object.tenantId, object.subjectId, object.objectId);
    if (object.kind === "erasure") {
      await this.memories.updateOne({ _id }, { $set: { "erasure.logged_seq": seq } });
      await this.due.remove(dueId(_id, null));
      return;
    }
    // The write may have stopped before its list entry: add it again (readers read an entry once) before the mark goes.
    const item = repaired ? await this.memories.findOne({ _id }, { projection: { tenant_id: 1, subject_id: 1, memory_id: 1, created_at: 1 } }) : null;
    if (item) await this.lists.add(itemsOf(item.tenant_id, item.subject_id), [listEntry(item)]);
    await this.due.remove(dueId(_id, object.version ?? 1));
  }

  /** From the subject's list, each item read by `_id` in batches. */
  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const ids = (await this.lists.entries(itemsOf(tenantId, subjectId))).map((entry) => memoryDocId(tenantId, subjectId, entryObjectId(entry)));
    const out = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      for (const item of await this.memories.find({ _id: { $in: ids.slice(i, i + 500) } }, { projection: { memory_id: 1, status: 1 } }).toArray()) {
        if (item.status !== "erased") out.add(item.memory_id);
      }
    }
    return [...out].sort();
  }

  async lookup(tenantId: string, subjectId: string, objectId: string): Promise<{ found: boolean; erased: boolean }> {
    const item = await this.memories.findOne({ _id: memoryDocId(tenantId, subjectId, objectId) }, { projection: { status: 1 } });
    return { found: item !== null, erased: item?.status === "erased" };
  }

  /**
   * SPEC D1: every superseded version becomes a content-free tombstone, then the item
   * itself (its identity and lifecycle only: the declared stored fields, key, value, source
   * ref, consent evidence and delete reason, and the salt go; the integrity hash recomputed
   * over what stays). Claims and counters hold no content.
   */
  async erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean> {
    return (await this.eraseMany(tenantId, subjectId, [objectId], mark))[0];
  }

  /**
   * `erase` for a page of the subject's items in a few commands: the items and their versions
   * read by `_id` (`$in`), the versions' tombstones in bulk writes, the due marks, the items'
   * tombstones in bulk writes (src/store/bulk.ts). Versions first: if the process stops in
   * between, an item still shows what is left to erase. Nothing here needs the bulk writes to be
   * atomic (a retry erases what is left; each tombstone is whole).
   */
  async eraseMany(tenantId: string, subjectId: string, objectIds: readonly string[], mark: ErasureMark): Promise<boolean[]> {
    const ids = objectIds.map((objectId) => memoryDocId(tenantId, subjectId, objectId));
    const items = await this.memories.find(ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } }).toArray();
    if (items.length === 0) return ids.map(() => false);
    // Every version by `_id` (memory_versions ids are derived from the version number), up to and
    // including the live version's: a copy under it is not expected, but content anywhere must go (SPEC D1).
    const versionOf = new Map(
      items.flatMap((item) =>
        Array.from({ length: Math.max(1, item.version) }, (_, v) => [memoryVersionDocId(tenantId, subjectId, item.memory_id, v + 1), item] as const),
      ),
    );
    const versions = await this.versions.find({ _id: { $in: [...versionOf.keys()] } }).toArray();
    if (versions.length > 0) {
      await bulkWriteChunked(
        this.versions,
        versions.map((version) => ({
          replaceOne: { filter: { _id: version._id }, replacement: versionTombstone(versionOf.get(version._id)!, version, mark) },
        })),
      );
    }
    const tombstones = items.map((item) => itemTombstone(item, mark));
    await Promise.all(tombstones.filter((_, i) => items[i].erasure?.logged_seq === undefined).map((tombstone) => this.due.add(erasureDue(tombstone, mark))));
    await bulkWriteChunked(
      this.memories,
      tombstones.map((tombstone) => ({ replaceOne: { filter: { _id: tombstone._id }, replacement: tombstone } })),
    );
    const erased = new Set(items.map((item) => item._id));
    return ids.map((id) => erased.has(id));
  }
}

/** A version's tombstone: identity and status only. */
function versionTombstone(item: MemoryRecord, version: MemoryVersionRecord, mark: ErasureMark): MemoryVersionRecord {
  return {
    tenant_id: item.tenant_id,
    subject_id: item.subject_id,
    memory_id: item.memory_id,
    version: version.version ?? null,
    status: "erased",
    erasure: mark,
  } as unknown as MemoryVersionRecord;
}

/**
 * SPEC D1: an item's tombstone keeps its identity and lifecycle only: the declared stored fields
 * (key, value, source ref, consent evidence, delete reason) and the salt go (ERASED_FIELDS); the
 * integrity hash is recomputed over what stays. Claims and counters hold no content.
 */
function itemTombstone(item: MemoryRecord, mark: ErasureMark): MemoryRecord {
  const tombstone: MemoryRecord = withoutFields(
    {
      _id: item._id,
      tenant_id: item.tenant_id,
      subject_id: item.subject_id,
      memory_id: item.memory_id,
      version: item.version,
      category: item.category,
      source_kind: item.source_kind,
      ttl_class: item.ttl_class,
      origin: item.origin,
      consent: { explicit: item.consent?.explicit ?? false },
      status: "erased",
      created_at: item.created_at,
      updated_at: new Date(mark.at),
      expires_at: item.expires_at,
      created_by: item.created_by,
      content_salt: "",
      ...(item.logged ? { logged: item.logged } : {}),
      erasure: item.erasure?.logged_seq !== undefined ? item.erasure : mark,
    } as MemoryRecord,
    ERASED_FIELDS,
  );
  Object.assign(tombstone, governedProvenance(tombstone)); // the integrity hash covers what is stored now
  return tombstone;
}

/** What an erasure removes from an item (SPEC D1): the fields its operations declare stored (fields.ts), nested ones by path. */
export const ERASED_FIELDS = erasedFields(STORE_FIELDS, UPDATE_FIELDS, DELETE_FIELDS);

/** A subject's list of items. */
const itemsOf = (tenantId: string, subjectId: string): IdListRef => ({ collection: GOVERNED_COLLECTIONS.memories, tenantId, scope: subjectId, list: "items" });

/** An item's list entry: it sorts as LIST orders items. */
const listEntry = (item: Pick<MemoryRecord, "created_at" | "memory_id">): string => timeEntry(item.created_at, item.memory_id);

const dueId = (itemId: string, version: number | null): string => (version === null ? `${itemId}|erase` : `${itemId}|v${version}`);

function writeDue(record: MemoryRecord, at: Date): DueMark {
  return {
    _id: dueId(record._id, record.version),
    tenant_id: record.tenant_id,
    subject_id: record.subject_id,
    object_id: record.memory_id,
    kind: "write",
    version: record.version,
    written_at: at,
  };
}

function erasureDue(record: MemoryRecord, mark: ErasureMark): DueMark {
  return { ...writeDue(record, new Date(mark.at)), _id: dueId(record._id, null), kind: "erasure", version: null };
}

/** A write whose event is not (yet) marked: the repair looks for its event, or appends this one. */
function unsettledWrite(item: MemoryRecord): UnsettledObject {
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
      content_digest: item.status === "erased" ? null : contentDigest(item),
      metadata: { repaired: true, category: item.category, version: item.version, created_by: item.created_by?.id ?? null },
    },
  };
}

function unsettledErasure(item: MemoryRecord, mark: ErasureMark): UnsettledObject {
  return {
    tenantId: item.tenant_id,
    subjectId: item.subject_id,
    objectId: item.memory_id,
    writtenAt: new Date(mark.at),
    kind: "erasure",
    version: item.version,
    missing: {
      event_type: "erase",
      operation: mark.operation,
      stop_reason: "SUCCESS_DELETED",
      content_digest: null,
      metadata: { repaired: true, requested_by: mark.by },
      reason: mark.reason,
      decision_id: mark.decision_id,
    },
  };
}

/** SPEC D1: what an item's events commit to: a salted digest of its key and value, never the content. */
export function contentDigest(record: Pick<MemoryRecord, "content_salt" | "key" | "value">): string {
  return saltedDigest(record.content_salt, { key: record.key, value: record.value });
}

/** MP-OBJECT: every read recomputes the integrity hash; a mismatch throws IntegrityError. */
function verified(record: MemoryRecord): MemoryRecord {
  return checkIntegrity(record as unknown as Record<string, unknown>, GOVERNED_CONTENT_FIELDS, {
    tenantId: record.tenant_id,
    subjectId: record.subject_id,
    memoryId: record.memory_id,
    collection: GOVERNED_COLLECTIONS.memories,
  }) as unknown as MemoryRecord;
}
