import { buildProvenance, integrityHash, type ProvenanceFields, type StatementType, type VerdictType } from "../../store/provenance";

/** The collections the governed contract keeps (its store and the stores beside it). */
export const GOVERNED_COLLECTIONS = {
  memories: "memories",
  memoryVersions: "memory_versions",
  memorySettings: "memory_settings",
  memoryCounters: "memory_counters",
  memorySlots: "memory_slots",
  memoryClaims: "memory_claims",
} as const;

/**
 * The governed source kinds (policy data `contract.source_kinds`) as seed 004 statement and
 * verdict types. A source kind not listed is a SystemGeneratedStatement/Unanswered: not
 * validated, never "Factual".
 */
const SOURCE_KIND_TYPES: Record<string, { statement: StatementType; verdict: VerdictType }> = {
  USER_EXPLICIT: { statement: "UserProvidedStatement", verdict: "Factual" },
  CITED_SOURCE: { statement: "SourceStatement", verdict: "Factual" },
  SYSTEM_KNOWN: { statement: "SystemGeneratedStatement", verdict: "Factual" },
  DERIVED_UNVERIFIED: { statement: "DerivedStatement", verdict: "Inference" },
};

const typesOf = (sourceKind: string): { statement: StatementType; verdict: VerdictType } =>
  SOURCE_KIND_TYPES[sourceKind] ?? { statement: "SystemGeneratedStatement", verdict: "Unanswered" };

/** The governed (seed 000) item's content fields: what its integrity hash covers. */
export const GOVERNED_CONTENT_FIELDS = [
  "tenant_id",
  "subject_id",
  "memory_id",
  "version",
  "category",
  "key",
  "value",
  "source_kind",
  "ttl_class",
  "source_ref",
  "origin",
  "consent",
  "created_at",
  "expires_at",
  "content_salt",
] as const;

/** MP-OBJECT: provenance and integrity hash of a governed item, from the item itself. */
export function governedProvenance(record: {
  tenant_id: string;
  subject_id: string;
  category: string;
  source_kind: string;
  source_ref: string | null;
  created_at: Date;
  expires_at: Date | null;
  version: number;
}): ProvenanceFields {
  const types = typesOf(record.source_kind);
  const provenance = buildProvenance({
    statementType: types.statement,
    verdictType: types.verdict,
    sourceRefs: [record.source_ref],
    createdAt: record.created_at,
    validTo: record.expires_at,
    scope: { level: "subject", tenant_id: record.tenant_id, subject_id: record.subject_id, category: record.category },
    version: record.version,
  });
  return { provenance, integrity_hash: integrityHash(record as unknown as Record<string, unknown>, GOVERNED_CONTENT_FIELDS, provenance) };
}
