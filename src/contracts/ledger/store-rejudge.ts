import type { Collection, Document } from "mongodb";
import { tenantIdRange, type QuarantineMark, type RejudgeCandidate, type RejudgeTarget, type Released } from "../../kernel/rejudge";
import { COLLECTIONS, type Database } from "../../store/database";
import { quarantinedSubject } from "../../store/quarantined";
import type { LedgerItemRecord, ProposalRecord } from "./store";

type QuarantinableItem = LedgerItemRecord & { quarantine?: QuarantineMark };
type QuarantinableProposal = ProposalRecord & { quarantine?: QuarantineMark };

const onlySubject = (subjectId: string | null) => (subjectId ? { subject_id: subjectId } : {});

/**
 * Ledger items under re-audit (issue 13 item 5): the item's text is judged as the final text
 * of an approval (`finalText`, P54-C and every content check); a quarantined item leaves the
 * ledger, selections and forgetting (all of them read `active` items only). Status is outside
 * the integrity hash.
 */
export class LedgerItemRejudge implements RejudgeTarget {
  readonly contract = "ledger";
  readonly kind = "ledger-items";
  private readonly items: Collection<QuarantinableItem>;

  constructor(db: Database) {
    this.items = db.collection<QuarantinableItem>(COLLECTIONS.ledgerItems);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await this.items
      .find({ _id: tenantIdRange(tenantId, after) }, { projection: { _id: 1, subject_id: 1, memory_id: 1, text: 1, kind: 1, status: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return batch.map((i) => ({
      docId: i._id,
      objectId: i.memory_id,
      subjectId: i.subject_id,
      texts: i.status === "active" ? { finalText: i.text } : ({} as Record<string, string>),
      metadata: { ledger_kind: i.kind },
    }));
  }

  async quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const result = await this.items.updateOne(
      { _id: candidate.docId, status: "active" },
      { $set: { status: "quarantined", quarantine: { ...mark, previous_status: "active" } } },
    );
    return result.modifiedCount === 1;
  }

  async quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.items as unknown as Collection<Document>, { tenantId, idField: "memory_id", objectId, subjectId });
  }

  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    const found = await this.items.findOne({ tenant_id: tenantId, memory_id: objectId, status: "quarantined", ...onlySubject(subjectId) });
    if (!found?.quarantine) return null;
    const status = found.quarantine.previous_status as LedgerItemRecord["status"];
    const result = await this.items.updateOne({ _id: found._id, status: "quarantined" }, { $set: { status }, $unset: { quarantine: "" } });
    return result.modifiedCount === 1 ? { subjectId: found.subject_id } : null;
  }
}

/** Pending ledger proposals under re-audit: a quarantined one is no longer pending (never listed, approved or declined). */
export class LedgerProposalRejudge implements RejudgeTarget {
  readonly contract = "ledger";
  readonly kind = "ledger-proposals";
  private readonly proposals: Collection<QuarantinableProposal>;

  constructor(db: Database) {
    this.proposals = db.collection<QuarantinableProposal>(COLLECTIONS.ledgerProposals);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await this.proposals
      .find({ _id: tenantIdRange(tenantId, after) }, { projection: { _id: 1, subject_id: 1, proposal_id: 1, proposed_text: 1, kind: 1, decision: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return batch.map((p) => ({
      docId: p._id,
      objectId: p.proposal_id,
      subjectId: p.subject_id,
      texts: p.decision === "pending" && p.proposed_text ? { proposedText: p.proposed_text } : ({} as Record<string, string>),
      metadata: { ledger_kind: p.kind },
    }));
  }

  async quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const result = await this.proposals.updateOne(
      { _id: candidate.docId, decision: "pending" },
      { $set: { decision: "quarantined", quarantine: { ...mark, previous_status: "pending" } } },
    );
    return result.modifiedCount === 1;
  }

  async quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.proposals as unknown as Collection<Document>, {
      tenantId,
      idField: "proposal_id",
      objectId,
      subjectId,
      statusField: "decision",
    });
  }

  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    const found = await this.proposals.findOne({ tenant_id: tenantId, proposal_id: objectId, decision: "quarantined", ...onlySubject(subjectId) });
    if (!found?.quarantine) return null;
    const decision = found.quarantine.previous_status as ProposalRecord["decision"];
    const result = await this.proposals.updateOne({ _id: found._id, decision: "quarantined" }, { $set: { decision }, $unset: { quarantine: "" } });
    return result.modifiedCount === 1 ? { subjectId: found.subject_id } : null;
  }
}
