import { newSalt } from "../../store/canonical";
import { objectDocId, sealFact, type FactRecord } from "./records";

export interface MergeInput {
  tenant: string;
  subjectId: string;
  memoryId: string;
  type: string;
  text: string;
  now: Date;
  invoker: { id: string; roles: string[]; job: { id: string; kind: string } | null };
  groundingScore: number;
  justification: string;
}

/**
 * MP-CONSOLIDATE MP-TEMPORAL: the ConsolidatedStatement of several facts. It keeps the union
 * of their source_refs, the most restrictive temporal scope (earliest valid_to, earliest decay)
 * and the weakest confidence, and names its inputs; the inputs themselves are not touched here.
 */
export function mergeFacts(originals: FactRecord[], m: MergeInput): FactRecord {
  const bounded = originals.map((f) => f.valid_to).filter((d): d is Date => d !== null);
  const validTo = bounded.length > 0 ? new Date(Math.min(...bounded.map((d) => d.getTime()))) : null;
  return sealFact({
    _id: objectDocId(m.tenant, m.subjectId, m.memoryId),
    tenant_id: m.tenant,
    subject_id: m.subjectId,
    memory_id: m.memoryId,
    type: m.type,
    text: m.text,
    confidence: Math.min(...originals.map((f) => f.confidence)),
    source: "job",
    statement_type: "ConsolidatedStatement",
    source_refs: [...new Set(originals.flatMap((f) => f.source_refs))],
    job: m.invoker.job,
    status: "active",
    status_reason: null,
    supersedes: null,
    consolidated_from: originals.map((f) => f.memory_id),
    justification: m.justification,
    created_at: m.now,
    expires_at: new Date(Math.min(...originals.map((f) => f.expires_at.getTime()))),
    valid_to: validTo,
    temporal_scope: validTo ? "bounded" : "unknown",
    created_by: { id: m.invoker.id, roles: m.invoker.roles },
    grounding_score: m.groundingScore,
    content_salt: newSalt(),
  });
}
