import { storedTexts } from "../../kernel/declaration";
import { APPROVE_FIELDS, PROPOSE_FIELDS } from "./fields";
import type { Collection, Document } from "mongodb";
import { HeldRejudgeTarget, type QuarantineMark, type RejudgeCandidate } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { StatusQuarantine, tenantBatch } from "../../store/quarantined";
import { LEDGER_COLLECTIONS, type LedgerItemRecord, type ProposalRecord } from "./store";

type QuarantinableItem = LedgerItemRecord & { quarantine?: QuarantineMark };
type QuarantinableProposal = ProposalRecord & { quarantine?: QuarantineMark };

/**
 * Ledger items under re-audit (issue 13 item 5): the item's text is judged as the final text
 * of an approval (`finalText`, P54-C and every content check); a quarantined item leaves the
 * ledger, selections and forgetting (all of them read `active` items only). Status is outside
 * the integrity hash.
 */
export class LedgerItemRejudge extends HeldRejudgeTarget {
  readonly contract = "ledger";
  readonly kind = "ledger-items";
  private readonly items: Collection<QuarantinableItem>;
  protected readonly held: StatusQuarantine;

  constructor(db: Database) {
    super();
    this.items = db.collection<QuarantinableItem>(LEDGER_COLLECTIONS.items);
    this.held = new StatusQuarantine(this.items as unknown as Collection<Document>, { idField: "memory_id", live: "active" });
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.items, tenantId, after, limit, { _id: 1, subject_id: 1, memory_id: 1, text: 1, kind: 1, status: 1 });
    return batch.map((i) => ({
      docId: i._id,
      objectId: i.memory_id,
      subjectId: i.subject_id,
      texts: i.status === "active" ? storedTexts(APPROVE_FIELDS, i) : ({} as Record<string, string>),
      metadata: { ledger_kind: i.kind },
    }));
  }
}

/** Pending ledger proposals under re-audit: a quarantined one is no longer pending (never listed, approved or declined). */
export class LedgerProposalRejudge extends HeldRejudgeTarget {
  readonly contract = "ledger";
  readonly kind = "ledger-proposals";
  private readonly proposals: Collection<QuarantinableProposal>;
  protected readonly held: StatusQuarantine;

  constructor(db: Database) {
    super();
    this.proposals = db.collection<QuarantinableProposal>(LEDGER_COLLECTIONS.proposals);
    this.held = new StatusQuarantine(this.proposals as unknown as Collection<Document>, { idField: "proposal_id", live: "pending", statusField: "decision" });
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.proposals, tenantId, after, limit, { _id: 1, subject_id: 1, proposal_id: 1, proposed_text: 1, kind: 1, decision: 1 });
    return batch.map((p) => ({
      docId: p._id,
      objectId: p.proposal_id,
      subjectId: p.subject_id,
      texts: p.decision === "pending" ? storedTexts(PROPOSE_FIELDS, p) : ({} as Record<string, string>),
      metadata: { ledger_kind: p.kind },
    }));
  }
}
