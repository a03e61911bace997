import type { Collection, Document } from "mongodb";
import { tenantIdRange, type QuarantineMark, type RejudgeCandidate, type RejudgeTarget, type Released } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { quarantinedSubject } from "../../store/quarantined";
import type { Envelope } from "./envelope";
import type { EnvelopeCache } from "./envelope-cache";
import { COMPANION_COLLECTIONS, type FactRecord } from "./records";
import type { CompanionStore } from "./store";

type Quarantinable = FactRecord & { quarantine?: QuarantineMark };

/**
 * Companion facts under re-audit (issue 13 item 5). A quarantined fact leaves the subject's
 * index of active facts (what envelopes are built from) through the store's own status
 * change, and this process's cached envelopes of the subject go at once; other processes'
 * cached envelopes expire within envelope_cache_seconds.
 */
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
    const batch = await this.facts
      .find({ _id: tenantIdRange(tenantId, after) }, { projection: { _id: 1, subject_id: 1, memory_id: 1, type: 1, text: 1, status: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return batch.map((f) => ({
      docId: f._id,
      objectId: f.memory_id,
      subjectId: f.subject_id,
      texts: f.status === "active" ? { text: f.text } : ({} as Record<string, string>),
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
