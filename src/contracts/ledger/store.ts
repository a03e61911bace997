import { MongoServerError, type Collection, type Db } from "mongodb";
import type { ContractStore, ErasureMark, UnsettledObject } from "../../kernel/contract-store";
import { COLLECTIONS, ensureIndexes } from "../../store/database";
import { memoryDocId } from "../../store/ids";
import { buildProvenance, checkIntegrity, integrityHash, type ProvenanceFields } from "../../store/provenance";

/** seed 003 MemorySource, as stored. `note` is free text: gone once declined or erased. */
export interface LedgerSource {
  source_type: string;
  source_id: string | null;
  note?: string | null;
}

export type ProposalDecisionState = "pending" | "approved" | "declined" | "erased";

/**
 * The event a write waits for (SPEC D1, docs/AUDIT.md "Object and event"): set with the write,
 * replaced by `logged` once the event is in the log, so the repair pass can find or complete it.
 */
export interface Settling {
  event_type: "create" | "delete" | "invalidate";
  operation: string;
  stop_reason: string;
  at: Date;
  content_digest: string | null;
  /** Metadata only (kind, source type, lengths): what the event carries. */
  metadata: Record<string, unknown>;
}

interface Lifecycle {
  settling?: Settling;
  logged?: { seq: number; event_type: string };
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
  status: "active" | "deleted" | "erased";
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
    sourceKind: "DERIVED_UNVERIFIED",
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
    sourceKind: "USER_EXPLICIT",
    sourceRefs: [record.proposal_id, sourceRef(record.source)],
    createdAt: record.created_at,
    scope: { level: "subject", tenant_id: record.tenant_id, subject_id: record.subject_id, category: record.kind },
    version: 1,
  });
  return { ...record, provenance, integrity_hash: integrityHash(record, ITEM_CONTENT_FIELDS, provenance) };
}

const without = <T extends object>(record: T, ...keys: string[]): T => {
  const copy = { ...record } as Record<string, unknown>;
  for (const key of keys) delete copy[key];
  return copy as T;
};

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

const LEDGER_INDEXES = {
  [COLLECTIONS.ledgerProposals]: [{ key: { tenant_id: 1, subject_id: 1, decision: 1, created_at: -1 }, name: "tenant_subject_decision_created" }],
  [COLLECTIONS.ledgerItems]: [{ key: { tenant_id: 1, subject_id: 1, status: 1, created_at: -1 }, name: "tenant_subject_status_created" }],
};

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

  constructor(private readonly db: Db) {
    this.proposals = db.collection<ProposalRecord>(COLLECTIONS.ledgerProposals);
    this.items = db.collection<LedgerItemRecord>(COLLECTIONS.ledgerItems);
  }

  ensureIndexes(): Promise<void> {
    return ensureIndexes(this.db, LEDGER_INDEXES);
  }

  // ---- proposals

  async insertProposal(record: ProposalRecord): Promise<void> {
    await this.proposals.insertOne(record);
  }

  async deleteProposal(record: ProposalRecord): Promise<void> {
    await this.proposals.deleteOne({ _id: record._id });
  }

  async getProposal(tenantId: string, subjectId: string, proposalId: string): Promise<ProposalRecord | null> {
    const record = await this.proposals.findOne({ _id: memoryDocId(tenantId, subjectId, proposalId) });
    return record && this.checkedProposal(record);
  }

  /** Whether an approval has claimed the proposal's item (it may not have marked the proposal yet). */
  async itemClaimed(tenantId: string, subjectId: string, proposalId: string): Promise<boolean> {
    const item = await this.items.findOne({ _id: memoryDocId(tenantId, subjectId, itemIdOf(proposalId)) }, { projection: { _id: 1 } });
    return item !== null;
  }

  /** Which of the subjects holds the object (a proposal or an item), if any. */
  async ownerOf(tenantId: string, subjectIds: readonly string[], objectId: string): Promise<string | null> {
    const found = await this.collectionOf(objectId).findOne({ _id: { $in: subjectIds.map((s) => memoryDocId(tenantId, s, objectId)) } }, { projection: { subject_id: 1 } });
    return found?.subject_id ?? null;
  }

  async pendingProposals(tenantId: string, subjectId: string, limit: number): Promise<ProposalRecord[]> {
    const records = await this.proposals
      .find({ tenant_id: tenantId, subject_id: subjectId, decision: "pending" })
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return records.map((r) => this.checkedProposal(r));
  }

  /** Marks a pending proposal approved; false when it was no longer pending (a concurrent decision). */
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
  async markDeclined(record: ProposalRecord, at: Date, settling: Settling): Promise<boolean> {
    const declined = withProposalProvenance({
      ...without(record, "proposed_text", "settling", "logged", "provenance", "integrity_hash"),
      source: { source_type: record.source.source_type, source_id: record.source.source_id },
      decision: "declined" as const,
      decided_at: at,
      final_text: null,
      result_memory_id: null,
      settling,
    });
    const result = await this.proposals.replaceOne({ _id: record._id, decision: "pending" }, declined);
    return result.modifiedCount === 1;
  }

  /** Puts a declined proposal back as it was read (the decline's event could not be written). */
  async restoreDeclined(record: ProposalRecord): Promise<void> {
    await this.proposals.replaceOne({ _id: record._id, decision: "declined" }, record);
  }

  // ---- items

  /** Inserts the item; false when another approval of the same proposal inserted it first. */
  async claimItem(record: LedgerItemRecord): Promise<boolean> {
    try {
      await this.items.insertOne(record);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async deleteItem(record: LedgerItemRecord): Promise<void> {
    await this.items.deleteOne({ _id: record._id });
  }

  async getItem(tenantId: string, subjectId: string, memoryId: string): Promise<LedgerItemRecord | null> {
    const record = await this.items.findOne({ _id: memoryDocId(tenantId, subjectId, memoryId) });
    return record && this.checkedItem(record);
  }

  /** Active items only (P54-E), newest first. */
  async activeItems(tenantId: string, subjectId: string, limit: number): Promise<LedgerItemRecord[]> {
    const records = await this.items
      .find({ tenant_id: tenantId, subject_id: subjectId, status: "active" })
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .toArray();
    return records.map((r) => this.checkedItem(r));
  }

  /** The active items among `memoryIds` held by any of the subjects (P54-F: only what was selected). */
  async activeAmong(tenantId: string, subjectIds: readonly string[], memoryIds: readonly string[]): Promise<LedgerItemRecord[]> {
    if (memoryIds.length === 0 || subjectIds.length === 0) return [];
    const ids = subjectIds.flatMap((s) => memoryIds.map((m) => memoryDocId(tenantId, s, m)));
    const records = await this.items.find({ _id: { $in: ids }, status: "active" }).toArray();
    return records.map((r) => this.checkedItem(r));
  }

  /** Logical forgetting (SPEC D1): false when the item was not active. */
  async markDeleted(record: LedgerItemRecord, at: Date, settling: Settling): Promise<boolean> {
    const result = await this.items.updateOne({ _id: record._id, status: "active" }, { $set: { status: "deleted", deleted_at: at, updated_at: at, settling } });
    return result.modifiedCount === 1;
  }

  async revertDeleted(record: LedgerItemRecord): Promise<void> {
    await this.items.updateOne(
      { _id: record._id, status: "deleted" },
      { $set: { status: "active", deleted_at: null, updated_at: record.updated_at }, $unset: { settling: "" } },
    );
  }

  // ---- ContractStore: settle, repair, erasure

  /** The write's event is in the log at `seq`: its settling mark becomes `logged` (off the request path). */
  async settleWrite(tenantId: string, subjectId: string, objectId: string, eventType: Settling["event_type"], seq: number): Promise<void> {
    await this.collectionOf(objectId).updateOne(
      { _id: memoryDocId(tenantId, subjectId, objectId), "settling.event_type": eventType },
      { $set: { logged: { seq, event_type: eventType } }, $unset: { settling: "" } },
    );
  }

  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const filter = { $or: [{ settling: { $exists: true } }, { erasure: { $exists: true }, "erasure.logged_seq": { $exists: false } }] };
    const [proposals, items] = await Promise.all([
      this.proposals.find(filter).limit(limit).toArray(),
      this.items.find(filter).limit(limit).toArray(),
    ]);
    const objects = [...proposals.map((p) => unsettledOf(p, p.proposal_id)), ...items.map((i) => unsettledOf(i, i.memory_id))];
    return objects.sort((a, b) => a.writtenAt.getTime() - b.writtenAt.getTime()).slice(0, limit);
  }

  async settle(object: UnsettledObject, seq: number): Promise<void> {
    if (object.kind === "write") {
      const eventType = object.missing.event_type as Settling["event_type"];
      return this.settleWrite(object.tenantId, object.subjectId, object.objectId, eventType, seq);
    }
    const _id = memoryDocId(object.tenantId, object.subjectId, object.objectId);
    await this.collectionOf(object.objectId).updateOne({ _id, erasure: { $exists: true } }, { $set: { "erasure.logged_seq": seq } });
    // An item's erasure erased its proposal too (it holds the same text): one event covers both.
    if (object.objectId.startsWith(ITEM_PREFIX)) {
      const proposal = memoryDocId(object.tenantId, object.subjectId, proposalIdOf(object.objectId));
      await this.proposals.updateOne({ _id: proposal, "erasure.via": object.objectId, "erasure.logged_seq": { $exists: false } }, { $set: { "erasure.logged_seq": seq } });
    }
  }

  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const [proposals, items] = await Promise.all([
      this.proposals.find({ tenant_id: tenantId, subject_id: subjectId, decision: { $ne: "erased" } }, { projection: { proposal_id: 1 } }).toArray(),
      this.items.find({ tenant_id: tenantId, subject_id: subjectId, status: { $ne: "erased" } }, { projection: { memory_id: 1 } }).toArray(),
    ]);
    return [...proposals.map((p) => p.proposal_id), ...items.map((i) => i.memory_id)].sort();
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
      ...without(item, "provenance", "integrity_hash"),
      text: "",
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
    const tombstone = withProposalProvenance({
      ...without(proposal, "proposed_text", "provenance", "integrity_hash"),
      source: { source_type: proposal.source.source_type, source_id: null },
      final_text: null,
      decision: "erased" as const,
      erasure: proposal.erasure?.logged_seq !== undefined ? proposal.erasure : mark,
    });
    await this.proposals.replaceOne({ _id: proposal._id }, tombstone);
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
      collection: COLLECTIONS.ledgerProposals,
    }) as unknown as ProposalRecord;
  }

  private checkedItem(record: LedgerItemRecord): LedgerItemRecord {
    return checkIntegrity(record as unknown as Record<string, unknown>, ITEM_CONTENT_FIELDS, {
      tenantId: record.tenant_id,
      subjectId: record.subject_id,
      memoryId: record.memory_id,
      collection: COLLECTIONS.ledgerItems,
    }) as unknown as LedgerItemRecord;
  }
}

function unsettledOf(record: Lifecycle & { tenant_id: string; subject_id: string }, objectId: string): UnsettledObject {
  const base = { tenantId: record.tenant_id, subjectId: record.subject_id, objectId, version: null };
  if (record.settling) {
    const s = record.settling;
    return {
      ...base,
      writtenAt: s.at,
      kind: "write",
      missing: { event_type: s.event_type, operation: s.operation, stop_reason: s.stop_reason, content_digest: s.content_digest, metadata: s.metadata },
    };
  }
  const mark = record.erasure!;
  return {
    ...base,
    writtenAt: new Date(mark.at),
    kind: "erasure",
    missing: { event_type: "erase", operation: mark.operation, stop_reason: "SUCCESS_DELETED", content_digest: null, metadata: { requested_by: mark.by } },
  };
}

/** The `_id` of a proposal or an item: tenant, subject and object id, so a read is an `_id` lookup. */
export const ledgerDocId = memoryDocId;
