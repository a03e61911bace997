import type { Collection, Db } from "mongodb";
import type { ContractStore, ErasureMark, ObjectRepair, UnsettledObject } from "../../kernel/contract-store";
import { erasedFields, withoutFields } from "../../kernel/declaration";
import { ensureIndexes, isDuplicateKey } from "../../store/database";
import { memoryDocId } from "../../store/ids";
import { buildProvenance, checkIntegrity, integrityHash, type ProvenanceFields } from "../../store/provenance";
import { entryObjectId, IdLists, newestFirst, newestOrder, timeEntry, type IdListRef } from "../../store/id-lists";
import { SettledReads, type DueOf } from "../../store/settled-reads";
import { writeOutcomeUnknown } from "../../store/write-outcome";
import { APPROVE_FIELDS, PROPOSE_FIELDS } from "./fields";

/** seed 003 MemorySource, as stored. `note` is free text: gone once declined or erased. */
export interface LedgerSource {
  source_type: string;
  source_id: string | null;
  note?: string | null;
}

export type ProposalDecisionState = "pending" | "approved" | "declined" | "erased" | "quarantined";

/**
 * The event a write waits for (docs/AUDIT.md "Object and event"). It is recorded beside the
 * write, in its own collection, and removed once the event is in the log (off the request
 * path), so the repair pass can find or complete it. It never lives in the object itself:
 * FerretDB applies an update as read-modify-write, so a settle mark written into the object
 * while its owner forgets or declines it could put the old state back (a lost update).
 */
export interface DueEvent {
  event_type: "create" | "delete" | "invalidate";
  operation: string;
  stop_reason: string;
  /** Tells apart the marks of two concurrent attempts (only one of them writes). */
  decision_id: string;
  at: Date;
  content_digest: string | null;
  /** Metadata only (kind, source type, lengths): what the event carries. */
  metadata: Record<string, unknown>;
}

interface DueMark extends DueEvent {
  _id: string;
  tenant_id: string;
  subject_id: string;
  object_id: string;
}

interface Lifecycle {
  erasure?: ErasureMark & { via?: string };
}

/** seed 003 MemoryProposal. A declined one keeps decision metadata only (P54-D, SPEC D4). */
export interface ProposalRecord extends ProvenanceFields, Lifecycle {
  _id: string;
  tenant_id: string;
  subject_id: string;
  proposal_id: string;
  /** Absent once declined or erased. */
  proposed_text?: string;
  kind: string;
  source: LedgerSource;
  created_at: Date;
  proposed_by: { id: string; roles: string[] };
  decision: ProposalDecisionState;
  decided_at: Date | null;
  final_text: string | null;
  result_memory_id: string | null;
}

/** seed 003 MemoryItem: exists only after the owner approved a proposal (P54-A). */
export interface LedgerItemRecord extends ProvenanceFields, Lifecycle {
  _id: string;
  tenant_id: string;
  subject_id: string;
  memory_id: string;
  /** Exactly the approved final text (P54-B). */
  text: string;
  kind: string;
  source: LedgerSource;
  proposal_id: string;
  proposed_at: Date;
  created_at: Date;
  updated_at: Date;
  status: "active" | "deleted" | "erased" | "quarantined";
  deleted_at: Date | null;
  approved_by: { id: string; roles: string[] };
  content_salt: string;
}

/** What the integrity hash of each object covers: its content, never its lifecycle (MP-OBJECT). */
export const PROPOSAL_CONTENT_FIELDS = [
  "tenant_id",
  "subject_id",
  "proposal_id",
  "proposed_text",
  "kind",
  "source",
  "created_at",
  "proposed_by",
  "final_text",
  "result_memory_id",
] as const;

export const ITEM_CONTENT_FIELDS = [
  "tenant_id",
  "subject_id",
  "memory_id",
  "text",
  "kind",
  "source",
  "proposal_id",
  "proposed_at",
  "created_at",
  "approved_by",
  "content_salt",
] as const;

export const PROPOSAL_PREFIX = "prop_";
export const ITEM_PREFIX = "mem_";

/** The item an approval creates has an id derived from its proposal's, so the `_id` admits one item per proposal. */
export const itemIdOf = (proposalId: string): string => ITEM_PREFIX + proposalId.slice(PROPOSAL_PREFIX.length);
export const proposalIdOf = (memoryId: string): string => PROPOSAL_PREFIX + memoryId.slice(ITEM_PREFIX.length);

const sourceRef = (source: LedgerSource): string => (source.source_id ? `${source.source_type}:${source.source_id}` : source.source_type);

/** MP-OBJECT for a proposal: an agent's derived statement, an inference until its owner approves it. */
export function withProposalProvenance<T extends Omit<ProposalRecord, keyof ProvenanceFields>>(record: T): T & ProvenanceFields {
  const provenance = buildProvenance({
    statementType: "DerivedStatement",
    verdictType: "Inference",
    sourceRefs: [sourceRef(record.source)],
    createdAt: record.created_at,
    scope: { level: "subject", tenant_id: record.tenant_id, subject_id: record.subject_id, category: record.kind },
    version: 1,
  });
  return { ...record, provenance, integrity_hash: integrityHash(record, PROPOSAL_CONTENT_FIELDS, provenance) };
}

/** MP-OBJECT for a ledger item: what its owner approved, in their words. */
export function withItemProvenance<T extends Omit<LedgerItemRecord, keyof ProvenanceFields>>(record: T): T & ProvenanceFields {
  const provenance = buildProvenance({
    statementType: "UserProvidedStatement",
    verdictType: "Factual",
    sourceRefs: [record.proposal_id, sourceRef(record.source)],
    createdAt: record.created_at,
    scope: { level: "subject", tenant_id: record.tenant_id, subject_id: record.subject_id, category: record.kind },
    version: 1,
  });
  return { ...record, provenance, integrity_hash: integrityHash(record, ITEM_CONTENT_FIELDS, provenance) };
}

/** What an erasure removes (SPEC D1): the fields PROPOSE and APPROVE declare stored (fields.ts), under the records' names. */
const PROPOSAL_ERASED = erasedFields(PROPOSE_FIELDS);
const ITEM_ERASED = erasedFields(APPROVE_FIELDS);

const without = <T extends object>(record: T, ...keys: string[]): T => {
  const copy = { ...record } as Record<string, unknown>;
  for (const key of keys) delete copy[key];
  return copy as T;
};

/** The collections the ledger keeps: proposals and the items approved from them. */
export const LEDGER_COLLECTIONS = { proposals: "ledger_proposals", items: "ledger_items" } as const;

/** Writes of the ledger whose event is not in the log yet (see DueEvent). */
export const LEDGER_DUE_EVENTS = "ledger_due_events";

const LEDGER_INDEXES = {
  [LEDGER_COLLECTIONS.proposals]: [{ key: { tenant_id: 1, subject_id: 1, decision: 1, created_at: -1 }, name: "tenant_subject_decision_created" }],
  [LEDGER_COLLECTIONS.items]: [{ key: { tenant_id: 1, subject_id: 1, status: 1, created_at: -1 }, name: "tenant_subject_status_created" }],
  [LEDGER_DUE_EVENTS]: [{ key: { at: 1 }, name: "at" }],
};

/** Where a write stands: the object it is about and the event it waits for. */
export interface DueAt {
  tenantId: string;
  subjectId: string;
  objectId: string;
  due: DueEvent;
}

const dueMarkId = (at: DueAt): string => `${memoryDocId(at.tenantId, at.subjectId, at.objectId)}|${at.due.event_type}|${at.due.decision_id}`;

/** What reads know an object by (INV-8): its create, whichever decision wrote it. */
const createdKey = (tenantId: string, subjectId: string, objectId: string): string => `${memoryDocId(tenantId, subjectId, objectId)}|create`;

/** A proposal's or an item's create mark, for reads (an erased object is no live content). */
const createdDue: DueOf<{ tenant_id: string; subject_id: string; created_at: Date; memory_id?: string; proposal_id?: string; erasure?: unknown }> = (o) =>
  o.erasure ? null : { id: createdKey(o.tenant_id, o.subject_id, (o.memory_id ?? o.proposal_id)!), writtenAt: o.created_at };

/**
 * Proposals and ledger items of seed 003, in their own collections: nothing else in memgate
 * reads them, so ledger items reach no other read or policy input (P54-G). Every query names
 * tenant and subject; every object carries MP-OBJECT provenance and an integrity hash over
 * what is stored, checked on every read. Implements the one store interface, so repair and
 * erasure (SPEC D1) reach proposals and items like any other contract's objects.
 */
export class LedgerStore implements ContractStore {
  readonly contract = "ledger";
  private readonly proposals: Collection<ProposalRecord>;
  private readonly items: Collection<LedgerItemRecord>;
  private readonly dueEvents: Collection<DueMark>;
  /** INV-8 on reads: what this process knows settled (src/store/settled-reads.ts). */
  private readonly reads = new SettledReads();
  /** Each subject's proposals and items, by `_id` (src/store/id-lists.ts): what the lists and erasure read instead of a scan. */
  private readonly lists: IdLists;
  /** Settles an object a read finds without its event (set by the repair; none: such an object is not served). */
  private repair: ObjectRepair | undefined;

  constructor(private readonly db: Db) {
    this.proposals = db.collection<ProposalRecord>(LEDGER_COLLECTIONS.proposals);
    this.items = db.collection<LedgerItemRecord>(LEDGER_COLLECTIONS.items);
    this.dueEvents = db.collection<DueMark>(LEDGER_DUE_EVENTS);
    this.lists = new IdLists(db);
  }

  ensureIndexes(): Promise<void> {
    return ensureIndexes(this.db, LEDGER_INDEXES);
  }

  /**
   * Records the write's due event, then runs the write: a process killed in between leaves a
   * mark without its write (dropped once stale), never a write without its mark (which no
   * repair could find). A mark stays only beside a write that was applied.
   */
  private async withDue<T>(at: DueAt, write: () => Promise<T>, applied: (result: T) => boolean): Promise<T> {
    const mark: DueMark = { _id: dueMarkId(at), tenant_id: at.tenantId, subject_id: at.subjectId, object_id: at.objectId, ...at.due };
    await this.dueEvents.insertOne(mark);
    let keep = false;
    try {
      const result = await write();
      keep = applied(result);
      return result;
    } catch (error) {
      // A write whose outcome is unknown (the database died before answering) may be in: its
      // mark stays, and the repair settles whatever is there.
      keep = writeOutcomeUnknown(error);
      throw error;
    } finally {
      if (!keep) await this.dueEvents.deleteOne({ _id: mark._id });
    }
  }

  /** The write's event is in the log: its due mark goes (off the request path). */
  async settled(at: DueAt): Promise<void> {
    // Known here before the answer leaves: the writer reads its write without a lookup.
    if (at.due.event_type === "create") this.reads.remember(createdKey(at.tenantId, at.subjectId, at.objectId), at.due.at);
    await this.dueEvents.deleteOne({ _id: dueMarkId(at) });
  }

  // ---- INV-8 on reads

  /**
   * INV-8, MP-LOG: an object without its create event is never served as live. Objects written
   * before the repair's watermark, or whose event this process appended or saw, cost nothing
   * more; the others' create marks are looked up (one query of the small due collection), and
   * an object whose mark is still there is settled by the repair (its event found, or appended
   * once the write is old enough) or left out: its write is in flight and unacknowledged.
   */
  private live<T extends { tenant_id: string; subject_id: string; created_at: Date; memory_id?: string; proposal_id?: string; erasure?: unknown }>(
    objects: T[],
  ): Promise<T[]> {
    return this.reads.live(
      objects,
      createdDue,
      async (keys) => {
        const wanted = objects.filter((o) => keys.includes(createdKey(o.tenant_id, o.subject_id, (o.memory_id ?? o.proposal_id)!)));
        const marks = await this.dueEvents
          .find({ tenant_id: wanted[0].tenant_id, object_id: { $in: wanted.map((o) => (o.memory_id ?? o.proposal_id)!) }, event_type: "create" })
          .toArray();
        return new Map(marks.map((mark) => [createdKey(mark.tenant_id, mark.subject_id, mark.object_id), mark]));
      },
      (_object, mark) => (this.repair ? this.repair.settleOne(this, dueObject(mark)) : Promise.resolve(false)),
    );
  }

  repairWith(repair: ObjectRepair): void {
    this.repair = repair;
  }

  settledBefore(cutoff: Date): void {
    this.reads.settledBefore(cutoff);
  }

  // ---- proposals

  /** PROPOSE: the proposal, with its due `create` event. */
  async insertProposal(record: ProposalRecord, due: DueEvent): Promise<void> {
    const at = { tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.proposal_id, due };
    await this.withDue(
      at,
      async () => {
        await this.proposals.insertOne(record);
        // After the proposal; a crash in between leaves its due mark, and the repair adds the entry.
        await this.lists.add(proposalsOf(record.tenant_id, record.subject_id), [timeEntry(record.created_at, record.proposal_id)]);
      },
      () => true,
    );
  }

  /** Undoes insertProposal. */
  async deleteProposal(record: ProposalRecord, due: DueEvent): Promise<void> {
    await Promise.all([
      this.proposals.deleteOne({ _id: record._id }),
      this.settled({ tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.proposal_id, due }),
    ]);
    this.reads.forget(createdKey(record.tenant_id, record.subject_id, record.proposal_id));
  }

  async getProposal(tenantId: string, subjectId: string, proposalId: string): Promise<ProposalRecord | null> {
    const record = await this.proposals.findOne({ _id: memoryDocId(tenantId, subjectId, proposalId) });
    if (!record) return null;
    const [live] = await this.live([this.checkedProposal(record)]);
    return live ?? null;
  }

  /** Whether an approval has claimed the proposal's item (it may not have marked the proposal yet). */
  async itemClaimed(tenantId: string, subjectId: string, proposalId: string): Promise<boolean> {
    const item = await this.items.findOne({ _id: memoryDocId(tenantId, subjectId, itemIdOf(proposalId)) }, { projection: { _id: 1 } });
    return item !== null;
  }

  /** Which of the subjects holds the object (a proposal or an item), if any. */
  async ownerOf(tenantId: string, subjectIds: readonly string[], objectId: string): Promise<string | null> {
    const found = await this.collectionOf(objectId).findOne(
      { _id: { $in: subjectIds.map((s) => memoryDocId(tenantId, s, objectId)) } },
      { projection: { subject_id: 1 } },
    );
    return found?.subject_id ?? null;
  }

  async pendingProposals(tenantId: string, subjectId: string, limit: number): Promise<ProposalRecord[]> {
    return newestFirst(
      await this.lists.entries(proposalsOf(tenantId, subjectId)),
      limit,
      async (proposalIds) => {
        const records = await this.proposals.find({ _id: { $in: proposalIds.map((p) => memoryDocId(tenantId, subjectId, p)) } }).toArray();
        return this.live(records.filter((r) => r.decision === "pending").map((r) => this.checkedProposal(r)));
      },
      newestOrder,
    );
  }

  /** Marks a pending proposal approved (its item carries the event); false when it was no longer pending. */
  async markApproved(record: ProposalRecord, finalText: string, memoryId: string, at: Date): Promise<boolean> {
    const approved = withProposalProvenance({ ...record, decision: "approved" as const, decided_at: at, final_text: finalText, result_memory_id: memoryId });
    const result = await this.proposals.updateOne(
      { _id: record._id, decision: "pending" },
      { $set: { decision: "approved", decided_at: at, final_text: finalText, result_memory_id: memoryId, integrity_hash: approved.integrity_hash } },
    );
    return result.modifiedCount === 1;
  }

  /** Undoes markApproved when the approval could not be completed (no item without its event). */
  async revertApproval(record: ProposalRecord): Promise<void> {
    await this.proposals.updateOne(
      { _id: record._id, decision: "approved" },
      { $set: { decision: "pending", decided_at: null, final_text: null, result_memory_id: null, integrity_hash: record.integrity_hash } },
    );
  }

  /**
   * P54-D: the proposed text and the free-text note leave the record; only decision metadata
   * stays. False when the proposal was no longer pending. `restoreDeclined` undoes it.
   */
  async markDeclined(record: ProposalRecord, at: Date, due: DueEvent): Promise<boolean> {
    const declined = withProposalProvenance({
      ...without(record, "proposed_text", "provenance", "integrity_hash"),
      source: { source_type: record.source.source_type, source_id: record.source.source_id },
      decision: "declined" as const,
      decided_at: at,
      final_text: null,
      result_memory_id: null,
    });
    return this.withDue(
      { tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.proposal_id, due },
      async () => (await this.proposals.replaceOne({ _id: record._id, decision: "pending" }, declined)).modifiedCount === 1,
      (done) => done,
    );
  }

  /** Puts a declined proposal back as it was read (the decline's event could not be written). */
  async restoreDeclined(record: ProposalRecord, due: DueEvent): Promise<void> {
    await Promise.all([
      this.proposals.replaceOne({ _id: record._id, decision: "declined" }, record),
      this.settled({ tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.proposal_id, due }),
    ]);
  }

  // ---- items

  /** Inserts the item with its due `create` event; false when another approval of the same proposal inserted it first. */
  async claimItem(record: LedgerItemRecord, due: DueEvent): Promise<boolean> {
    return this.withDue(
      { tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.memory_id, due },
      async () => {
        try {
          await this.items.insertOne(record);
        } catch (error) {
          if (isDuplicateKey(error)) return false;
          throw error;
        }
        await this.lists.add(itemsOf(record.tenant_id, record.subject_id), [timeEntry(record.created_at, record.memory_id)]);
        return true;
      },
      (claimed) => claimed,
    );
  }

  /** Undoes claimItem (never called for a claim that lost: the item is the winner's). */
  async deleteItem(record: LedgerItemRecord, due: DueEvent): Promise<void> {
    await Promise.all([
      this.items.deleteOne({ _id: record._id }),
      this.settled({ tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.memory_id, due }),
    ]);
    this.reads.forget(createdKey(record.tenant_id, record.subject_id, record.memory_id));
  }

  async getItem(tenantId: string, subjectId: string, memoryId: string): Promise<LedgerItemRecord | null> {
    const record = await this.items.findOne({ _id: memoryDocId(tenantId, subjectId, memoryId) });
    if (!record) return null;
    const [live] = await this.live([this.checkedItem(record)]);
    return live ?? null;
  }

  /** Active items only (P54-E), newest first. */
  async activeItems(tenantId: string, subjectId: string, limit: number): Promise<LedgerItemRecord[]> {
    return newestFirst(
      await this.lists.entries(itemsOf(tenantId, subjectId)),
      limit,
      async (memoryIds) => {
        const records = await this.items.find({ _id: { $in: memoryIds.map((m) => memoryDocId(tenantId, subjectId, m)) } }).toArray();
        return this.live(records.filter((r) => r.status === "active").map((r) => this.checkedItem(r)));
      },
      newestOrder,
    );
  }

  /** The active items among `memoryIds` held by any of the subjects (P54-F: only what was selected). */
  async activeAmong(tenantId: string, subjectIds: readonly string[], memoryIds: readonly string[]): Promise<LedgerItemRecord[]> {
    if (memoryIds.length === 0 || subjectIds.length === 0) return [];
    const ids = subjectIds.flatMap((s) => memoryIds.map((m) => memoryDocId(tenantId, s, m)));
    const records = await this.items.find({ _id: { $in: ids }, status: "active" }).toArray();
    return this.live(records.map((r) => this.checkedItem(r)));
  }

  /** Logical forgetting (SPEC D1) with its due `invalidate` event: false when the item was not active. */
  async markDeleted(record: LedgerItemRecord, at: Date, due: DueEvent): Promise<boolean> {
    return this.withDue(
      { tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.memory_id, due },
      async () =>
        (await this.items.updateOne({ _id: record._id, status: "active" }, { $set: { status: "deleted", deleted_at: at, updated_at: at } })).modifiedCount ===
        1,
      (done) => done,
    );
  }

  async revertDeleted(record: LedgerItemRecord, due: DueEvent): Promise<void> {
    await Promise.all([
      this.items.updateOne({ _id: record._id, status: "deleted" }, { $set: { status: "active", deleted_at: null, updated_at: record.updated_at } }),
      this.settled({ tenantId: record.tenant_id, subjectId: record.subject_id, objectId: record.memory_id, due }),
    ]);
  }

  // ---- ContractStore: repair and erasure

  /**
   * Writes whose event is still due (a mark beside a write the object shows; a mark whose
   * write never landed is not one) and erasures whose event is not marked, oldest first.
   */
  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const erasing = { erasure: { $exists: true }, "erasure.logged_seq": { $exists: false } };
    const [marks, proposals, items] = await Promise.all([
      this.dueEvents.find({}).sort({ at: 1 }).limit(limit).toArray(),
      this.proposals.find(erasing).limit(limit).toArray(),
      this.items.find(erasing).limit(limit).toArray(),
    ]);
    this.reads.scanned(marks.length < limit ? null : marks[marks.length - 1].at);
    const writes: UnsettledObject[] = [];
    for (const mark of marks) {
      if (await this.landed(mark)) writes.push(dueObject(mark));
    }
    const erasures = [...proposals.map((p) => erasureObject(p, p.proposal_id)), ...items.map((i) => erasureObject(i, i.memory_id))];
    return [...writes, ...erasures].sort((a, b) => a.writtenAt.getTime() - b.writtenAt.getTime()).slice(0, limit);
  }

  async settle(object: UnsettledObject, seq: number, repaired = false): Promise<void> {
    if (object.kind === "write") {
      // The write may have stopped before its list entry: add it again (readers read an entry once).
      if (repaired && object.missing.event_type === "create") await this.relist(object.tenantId, object.subjectId, object.objectId);
      await this.dueEvents.deleteMany({
        tenant_id: object.tenantId,
        subject_id: object.subjectId,
        object_id: object.objectId,
        event_type: object.missing.event_type as DueEvent["event_type"],
      });
      return;
    }
    const _id = memoryDocId(object.tenantId, object.subjectId, object.objectId);
    await this.collectionOf(object.objectId).updateOne({ _id, erasure: { $exists: true } }, { $set: { "erasure.logged_seq": seq } });
    // An item's erasure erased its proposal too (it holds the same text): one event covers both.
    if (object.objectId.startsWith(ITEM_PREFIX)) {
      const proposal = memoryDocId(object.tenantId, object.subjectId, proposalIdOf(object.objectId));
      await this.proposals.updateOne(
        { _id: proposal, "erasure.via": object.objectId, "erasure.logged_seq": { $exists: false } },
        { $set: { "erasure.logged_seq": seq } },
      );
    }
  }

  /** From the subject's lists, each object read by `_id` in batches. */
  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const [proposalEntries, itemEntries] = await this.lists.entriesOf([proposalsOf(tenantId, subjectId), itemsOf(tenantId, subjectId)]);
    const out = new Set<string>();
    for (const [entries, collection] of [
      [proposalEntries, this.collectionOf(PROPOSAL_PREFIX)],
      [itemEntries, this.collectionOf(ITEM_PREFIX)],
    ] as const) {
      const ids = entries.map((entry) => memoryDocId(tenantId, subjectId, entryObjectId(entry)));
      for (let i = 0; i < ids.length; i += 500) {
        const found = await collection
          .find({ _id: { $in: ids.slice(i, i + 500) } }, { projection: { decision: 1, status: 1, proposal_id: 1, memory_id: 1 } })
          .toArray();
        for (const o of found as unknown as { decision?: string; status?: string; proposal_id?: string; memory_id?: string }[]) {
          if (o.memory_id === undefined ? o.decision !== "erased" : o.status !== "erased") out.add((o.memory_id ?? o.proposal_id)!);
        }
      }
    }
    return [...out].sort();
  }

  /** Adds a proposal's or an item's list entry again (the repair of a write that stopped before it). */
  private async relist(tenantId: string, subjectId: string, objectId: string): Promise<void> {
    const _id = memoryDocId(tenantId, subjectId, objectId);
    if (objectId.startsWith(PROPOSAL_PREFIX)) {
      const proposal = await this.proposals.findOne({ _id }, { projection: { created_at: 1 } });
      if (proposal) await this.lists.add(proposalsOf(tenantId, subjectId), [timeEntry(proposal.created_at, objectId)]);
      return;
    }
    const item = await this.items.findOne({ _id }, { projection: { created_at: 1 } });
    if (item) await this.lists.add(itemsOf(tenantId, subjectId), [timeEntry(item.created_at, objectId)]);
  }

  async lookup(tenantId: string, subjectId: string, objectId: string): Promise<{ found: boolean; erased: boolean }> {
    const _id = memoryDocId(tenantId, subjectId, objectId);
    if (objectId.startsWith(PROPOSAL_PREFIX)) {
      const proposal = await this.proposals.findOne({ _id }, { projection: { decision: 1 } });
      return { found: proposal !== null, erased: proposal?.decision === "erased" };
    }
    const item = await this.items.findOne({ _id }, { projection: { status: 1 } });
    return { found: item !== null, erased: item?.status === "erased" };
  }

  /**
   * SPEC D1: an item loses its text, its source and its salt (so its events' digests cannot be
   * linked back to a guess); its proposal, which holds the same text, is erased with it. A
   * proposal loses proposed_text, final_text and its source id and note. Both stay as tombstones.
   */
  async erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean> {
    const _id = memoryDocId(tenantId, subjectId, objectId);
    if (objectId.startsWith(PROPOSAL_PREFIX)) {
      const proposal = await this.proposals.findOne({ _id });
      if (!proposal) return false;
      await this.eraseProposal(proposal, mark);
      return true;
    }
    const item = await this.items.findOne({ _id });
    if (!item) return false;
    // The proposal first: if the process stops here, the item still shows what is left to erase.
    const proposal = await this.proposals.findOne({ _id: memoryDocId(tenantId, subjectId, item.proposal_id) });
    if (proposal) await this.eraseProposal(proposal, { ...mark, via: item.memory_id });
    const tombstone = withItemProvenance({
      ...withoutFields(without(item, "provenance", "integrity_hash"), ITEM_ERASED),
      text: "", // an item's text is a string, also on a tombstone
      source: { source_type: item.source.source_type, source_id: null, note: null },
      content_salt: "",
      status: "erased" as const,
      updated_at: new Date(mark.at),
      erasure: item.erasure?.logged_seq !== undefined ? item.erasure : mark,
    });
    await this.items.replaceOne({ _id }, tombstone);
    return true;
  }

  private async eraseProposal(proposal: ProposalRecord, mark: ErasureMark & { via?: string }): Promise<void> {
    const tombstone = withProposalProvenance(
      withoutFields(
        {
          ...without(proposal, "provenance", "integrity_hash"),
          source: { source_type: proposal.source.source_type, source_id: null },
          final_text: null,
          decision: "erased" as const,
          erasure: proposal.erasure?.logged_seq !== undefined ? proposal.erasure : mark,
        },
        PROPOSAL_ERASED,
      ),
    );
    await this.proposals.replaceOne({ _id: proposal._id }, tombstone);
  }

  /** Whether the object shows the write a due mark is for (else the write never landed). */
  private async landed(mark: DueMark): Promise<boolean> {
    const _id = memoryDocId(mark.tenant_id, mark.subject_id, mark.object_id);
    if (mark.object_id.startsWith(PROPOSAL_PREFIX)) {
      const proposal = await this.proposals.findOne({ _id }, { projection: { decision: 1 } });
      return proposal !== null && (mark.event_type === "create" || proposal.decision !== "pending");
    }
    const item = await this.items.findOne({ _id }, { projection: { status: 1 } });
    return item !== null && (mark.event_type === "create" || item.status !== "active");
  }

  /** Proposal and item ids never collide: `prop_…` and `mem_…`. */
  private collectionOf(objectId: string): Collection<Lifecycle & { _id: string; subject_id: string }> {
    return (objectId.startsWith(PROPOSAL_PREFIX) ? this.proposals : this.items) as unknown as Collection<Lifecycle & { _id: string; subject_id: string }>;
  }

  private checkedProposal(record: ProposalRecord): ProposalRecord {
    return checkIntegrity(record as unknown as Record<string, unknown>, PROPOSAL_CONTENT_FIELDS, {
      tenantId: record.tenant_id,
      subjectId: record.subject_id,
      memoryId: record.proposal_id,
      collection: LEDGER_COLLECTIONS.proposals,
    }) as unknown as ProposalRecord;
  }

  private checkedItem(record: LedgerItemRecord): LedgerItemRecord {
    return checkIntegrity(record as unknown as Record<string, unknown>, ITEM_CONTENT_FIELDS, {
      tenantId: record.tenant_id,
      subjectId: record.subject_id,
      memoryId: record.memory_id,
      collection: LEDGER_COLLECTIONS.items,
    }) as unknown as LedgerItemRecord;
  }
}

function dueObject(mark: DueMark): UnsettledObject {
  return {
    tenantId: mark.tenant_id,
    subjectId: mark.subject_id,
    objectId: mark.object_id,
    writtenAt: mark.at,
    kind: "write",
    version: null,
    missing: {
      event_type: mark.event_type,
      operation: mark.operation,
      stop_reason: mark.stop_reason,
      content_digest: mark.content_digest,
      metadata: mark.metadata,
    },
  };
}

function erasureObject(record: Lifecycle & { tenant_id: string; subject_id: string }, objectId: string): UnsettledObject {
  const mark = record.erasure!;
  return {
    tenantId: record.tenant_id,
    subjectId: record.subject_id,
    objectId,
    writtenAt: new Date(mark.at),
    kind: "erasure",
    version: null,
    missing: { event_type: "erase", operation: mark.operation, stop_reason: "SUCCESS_DELETED", content_digest: null, metadata: { requested_by: mark.by } },
  };
}

const proposalsOf = (tenantId: string, subjectId: string): IdListRef => ({
  collection: LEDGER_COLLECTIONS.proposals,
  tenantId,
  scope: subjectId,
  list: "proposals",
});
const itemsOf = (tenantId: string, subjectId: string): IdListRef => ({ collection: LEDGER_COLLECTIONS.items, tenantId, scope: subjectId, list: "items" });

/** The `_id` of a proposal or an item: tenant, subject and object id, so a read is an `_id` lookup. */
export const ledgerDocId = memoryDocId;
