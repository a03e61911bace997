import { storedTexts } from "../../kernel/declaration";
import { ADD_FACT_FIELDS, CONSOLIDATE_FIELDS } from "./fields";
import type { Collection, Document } from "mongodb";
import { HeldRejudgeTarget, type QuarantineMark, type RejudgeCandidate, type RejudgeTarget, type Released } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { quarantinedSubject, StatusQuarantine, tenantBatch } from "../../store/quarantined";
import type { Envelope } from "./envelope";
import type { EnvelopeCache } from "./envelope-cache";
import { COMPANION_COLLECTIONS, type FactRecord, type ProposalRecord } from "./records";
import type { CompanionStore } from "./store";

type Quarantinable = FactRecord & { quarantine?: QuarantineMark };
type QuarantinableProposal = ProposalRecord & { quarantine?: QuarantineMark };

/**
 * Companion facts under re-audit (issue 13 item 5). A quarantined fact leaves the subject's
 * index of active facts (what envelopes are built from) through the store's own status
 * change, and this process's cached envelopes of the subject go at once; other processes'
 * cached envelopes expire within envelope_cache_seconds.
 */
/** A stored fact is an added or a consolidated one: the stored text of both declarations. */
const FACT_FIELDS = { ...ADD_FACT_FIELDS, ...CONSOLIDATE_FIELDS };

export class CompanionRejudge implements RejudgeTarget {
  readonly contract = "companion";
  readonly kind = "companion-facts";
  private readonly facts: Collection<Quarantinable>;

  constructor(
    db: Database,
    private readonly store: CompanionStore,
    private readonly cache: EnvelopeCache<Envelope>,
  ) {
    this.facts = db.collection<Quarantinable>(COMPANION_COLLECTIONS.facts);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.facts, tenantId, after, limit, { _id: 1, subject_id: 1, memory_id: 1, type: 1, text: 1, justification: 1, status: 1 });
    return batch.map((f) => ({
      docId: f._id,
      objectId: f.memory_id,
      subjectId: f.subject_id,
      // A consolidated fact's justification was judged with its write (consolidateMemories declares it text).
      texts: f.status === "active" ? storedTexts(FACT_FIELDS, f) : ({} as Record<string, string>),
      metadata: { fact_type: f.type },
    }));
  }

  async quarantine(tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const fact = await this.store.fact(tenantId, candidate.subjectId, candidate.objectId);
    if (!fact || fact.status !== "active") return false;
    await this.facts.updateOne({ _id: fact._id, status: "active" }, { $set: { quarantine: { ...mark, previous_status: "active" } } });
    await this.store.setStatus(fact, "quarantined", "quarantined");
    this.cache.invalidateSubject(tenantId, candidate.subjectId);
    return true;
  }

  async quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.facts as unknown as Collection<Document>, { tenantId, idField: "memory_id", objectId, subjectId });
  }

  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    const found = await this.facts.findOne({
      tenant_id: tenantId,
      memory_id: objectId,
      status: "quarantined",
      ...(subjectId ? { subject_id: subjectId } : {}),
    });
    if (!found?.quarantine) return null;
    const fact = await this.store.fact(tenantId, found.subject_id, objectId);
    if (!fact) return null;
    await this.store.setStatus(fact, found.quarantine.previous_status as FactRecord["status"], null);
    await this.facts.updateOne({ _id: found._id }, { $unset: { quarantine: "" } });
    this.cache.invalidateSubject(tenantId, found.subject_id);
    return { subjectId: found.subject_id };
  }
}

/**
 * Companion proposals held by the gate (SG-GATE 0.75-0.79, companion_proposals) under
 * re-audit. A held fact's text comes back out when the person confirms it (confirmProposal
 * applies it as an active fact, in every envelope after) or when a matching fact reinforces
 * it (addFact): both read `pending` proposals only, so a quarantined one is NOT_FOUND to a
 * confirmation and no longer pending to a reinforcement. Its status is outside its
 * integrity hash; no envelope holds a proposal, so no cache needs to go.
 */
export class CompanionProposalRejudge extends HeldRejudgeTarget {
  readonly contract = "companion";
  readonly kind = "companion-proposals";
  private readonly proposals: Collection<QuarantinableProposal>;
  protected readonly held: StatusQuarantine;

  constructor(db: Database) {
    super();
    this.proposals = db.collection<QuarantinableProposal>(COMPANION_COLLECTIONS.proposals);
    this.held = new StatusQuarantine(this.proposals as unknown as Collection<Document>, { idField: "proposal_id", live: "pending" });
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.proposals, tenantId, after, limit, {
      _id: 1,
      subject_id: 1,
      proposal_id: 1,
      "fact.type": 1,
      "fact.text": 1,
      status: 1,
    });
    return batch.map((p) => ({
      docId: p._id,
      objectId: p.proposal_id,
      subjectId: p.subject_id,
      // Judged by the field name addFact declared for it: the held text is the fact's `text`.
      texts: p.status === "pending" ? storedTexts(ADD_FACT_FIELDS, p.fact) : ({} as Record<string, string>),
      metadata: { fact_type: p.fact?.type },
    }));
  }
}
