import type { Collection, Db } from "mongodb";
import { MongoServerError } from "mongodb";
import { COLLECTIONS } from "./database";

/** seed 003 MemoryKind / MemorySource, as stored. */
export interface LedgerSource {
  source_type: string;
  source_id: string | null;
  note: string | null;
}

export type ProposalDecisionState = "pending" | "approved" | "declined";

/** seed 003 MemoryProposal. A declined one keeps decision metadata only (P54-D, SPEC D4). */
export interface ProposalRecord {
  _id: string;
  tenant_id: string;
  subject_id: string;
  proposal_id: string;
  /** Absent once declined. */
  proposed_text?: string;
  kind: string;
  /** `note` is absent once declined: it is free text. */
  source: { source_type: string; source_id: string | null; note?: string | null };
  created_at: Date;
  proposed_by: { id: string; roles: string[] };
  decision: ProposalDecisionState;
  decided_at: Date | null;
  final_text: string | null;
  result_memory_id: string | null;
}

/** seed 003 MemoryItem: exists only after the owner approved a proposal (P54-A). */
export interface LedgerItemRecord {
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
  status: "active" | "deleted";
  deleted_at: Date | null;
  approved_by: { id: string; roles: string[] };
  content_salt: string;
}

const part = (value: string): string => encodeURIComponent(value);

export function proposalDocId(tenantId: string, subjectId: string, proposalId: string): string {
  return `${part(tenantId)}:${part(subjectId)}:${part(proposalId)}`;
}

export function ledgerItemDocId(tenantId: string, subjectId: string, memoryId: string): string {
  return `${part(tenantId)}:${part(subjectId)}:${part(memoryId)}`;
}

export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/**
 * Proposals and ledger items of seed 003, in their own collections: nothing else in
 * memgate reads them, so ledger items reach no other read or policy input (P54-G).
 * Every query names tenant and subject.
 */
export class LedgerRepository {
  private readonly proposals: Collection<ProposalRecord>;
  private readonly items: Collection<LedgerItemRecord>;

  constructor(db: Db) {
    this.proposals = db.collection<ProposalRecord>(COLLECTIONS.ledgerProposals);
    this.items = db.collection<LedgerItemRecord>(COLLECTIONS.ledgerItems);
  }

  async insertProposal(record: ProposalRecord): Promise<void> {
    await this.proposals.insertOne(record);
  }

  async deleteProposal(record: ProposalRecord): Promise<void> {
    await this.proposals.deleteOne({ _id: record._id });
  }

  getProposal(tenantId: string, subjectId: string, proposalId: string): Promise<ProposalRecord | null> {
    return this.proposals.findOne({ _id: proposalDocId(tenantId, subjectId, proposalId) });
  }

  pendingProposals(tenantId: string, subjectId: string, limit: number): Promise<ProposalRecord[]> {
    return this.proposals
      .find({ tenant_id: tenantId, subject_id: subjectId, decision: "pending" })
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }

  /** Marks a pending proposal approved; false when it was no longer pending (a concurrent decision). */
  async markApproved(record: ProposalRecord, finalText: string, memoryId: string, at: Date): Promise<boolean> {
    const result = await this.proposals.updateOne(
      { _id: record._id, decision: "pending" },
      { $set: { decision: "approved", decided_at: at, final_text: finalText, result_memory_id: memoryId } },
    );
    return result.modifiedCount === 1;
  }

  /** Undoes markApproved when the approval could not be completed (no item without its event). */
  async revertApproval(record: ProposalRecord): Promise<void> {
    await this.proposals.updateOne(
      { _id: record._id, decision: "approved" },
      { $set: { decision: "pending", decided_at: null, final_text: null, result_memory_id: null } },
    );
  }

  /**
   * P54-D: the proposed text and the free-text note leave the record; only decision
   * metadata stays. False when the proposal was no longer pending.
   */
  async markDeclined(record: ProposalRecord, at: Date): Promise<boolean> {
    const result = await this.proposals.updateOne(
      { _id: record._id, decision: "pending" },
      { $set: { decision: "declined", decided_at: at, final_text: null, result_memory_id: null }, $unset: { proposed_text: "", "source.note": "" } },
    );
    return result.modifiedCount === 1;
  }

  async insertItem(record: LedgerItemRecord): Promise<void> {
    await this.items.insertOne(record);
  }

  async deleteItem(record: LedgerItemRecord): Promise<void> {
    await this.items.deleteOne({ _id: record._id });
  }

  getItem(tenantId: string, subjectId: string, memoryId: string): Promise<LedgerItemRecord | null> {
    return this.items.findOne({ _id: ledgerItemDocId(tenantId, subjectId, memoryId) });
  }

  /** Active items only (P54-E), newest first. */
  activeItems(tenantId: string, subjectId: string, limit: number): Promise<LedgerItemRecord[]> {
    return this.items
      .find({ tenant_id: tenantId, subject_id: subjectId, status: "active" })
      .sort({ created_at: -1, _id: -1 })
      .limit(limit)
      .toArray();
  }

  /** Logical forgetting (SPEC D1): false when the item was not active. */
  async markDeleted(record: LedgerItemRecord, at: Date): Promise<boolean> {
    const result = await this.items.updateOne(
      { _id: record._id, status: "active" },
      { $set: { status: "deleted", deleted_at: at, updated_at: at } },
    );
    return result.modifiedCount === 1;
  }

  async revertDeleted(record: LedgerItemRecord): Promise<void> {
    await this.items.updateOne({ _id: record._id, status: "deleted" }, { $set: { status: "active", deleted_at: null, updated_at: record.updated_at } });
  }
}
