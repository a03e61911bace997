import { canonicalHash, storedJson } from "./canonical";

/** seed 004 §2: what kind of statement a stored object is. */
export const STATEMENT_TYPES = ["SourceStatement", "UserProvidedStatement", "SystemGeneratedStatement", "DerivedStatement", "ConsolidatedStatement"] as const;
export type StatementType = (typeof STATEMENT_TYPES)[number];

/** seed 004 §1.1 */
export const VERDICT_TYPES = ["Factual", "Inference", "False", "Unanswered"] as const;
export type VerdictType = (typeof VERDICT_TYPES)[number];

/**
 * MP-OBJECT: the provenance every stored memory object carries. Either `valid_to` is set
 * (a time-bound statement) or `temporal_scope` says "unknown" explicitly (seed 004 §5).
 */
export interface Provenance {
  statement_type: StatementType;
  verdict_type: VerdictType;
  source_refs: string[];
  /** Creation time of this version (ISO 8601). */
  timestamp: string;
  valid_from: string | null;
  valid_to: string | null;
  temporal_scope: "bounded" | "unknown";
  applicability_scope: { level: "subject" | "tenant" | "repo" | "global"; tenant_id: string; subject_id: string | null; category: string | null };
  jurisdiction: string | null;
  version: number;
}

/** The stored object: provenance plus the integrity hash over its content fields. */
export interface ProvenanceFields {
  provenance: Provenance;
  /** sha256 hex over the RFC 8785 form of the object's content fields (see docs/AUDIT.md). */
  integrity_hash: string;
}

/**
 * Source kinds of every contract mapped to seed 004 statement and verdict types. A source
 * kind not listed is a SystemGeneratedStatement/Unanswered: not validated, never "Factual".
 */
const SOURCE_KIND_TYPES: Record<string, { statement: StatementType; verdict: VerdictType }> = {
  USER_EXPLICIT: { statement: "UserProvidedStatement", verdict: "Factual" },
  CITED_SOURCE: { statement: "SourceStatement", verdict: "Factual" },
  SYSTEM_KNOWN: { statement: "SystemGeneratedStatement", verdict: "Factual" },
  DERIVED_UNVERIFIED: { statement: "DerivedStatement", verdict: "Inference" },
  CONSOLIDATED: { statement: "ConsolidatedStatement", verdict: "Inference" },
};

export function statementTypeOf(sourceKind: string): { statement: StatementType; verdict: VerdictType } {
  return SOURCE_KIND_TYPES[sourceKind] ?? { statement: "SystemGeneratedStatement", verdict: "Unanswered" };
}

export interface ProvenanceInput {
  sourceKind: string;
  /** Overrides the mapping (for example a consolidation). */
  statementType?: StatementType;
  verdictType?: VerdictType;
  sourceRefs: (string | null | undefined)[];
  createdAt: Date | string;
  validFrom?: Date | string | null;
  /** Set for time-bound statements (for example a TTL); absent means temporal_scope "unknown". */
  validTo?: Date | string | null;
  scope: Provenance["applicability_scope"];
  jurisdiction?: string | null;
  version: number;
}

const iso = (value: Date | string | null | undefined): string | null => (value === null || value === undefined ? null : new Date(value).toISOString());

/** MP-OBJECT: builds the provenance of one object; reusable by every contract's store. */
export function buildProvenance(input: ProvenanceInput): Provenance {
  const mapped = statementTypeOf(input.sourceKind);
  const validTo = iso(input.validTo);
  return {
    statement_type: input.statementType ?? mapped.statement,
    verdict_type: input.verdictType ?? mapped.verdict,
    source_refs: input.sourceRefs.filter((r): r is string => typeof r === "string" && r !== ""),
    timestamp: iso(input.createdAt)!,
    valid_from: iso(input.validFrom ?? input.createdAt),
    valid_to: validTo,
    temporal_scope: validTo ? "bounded" : "unknown",
    applicability_scope: input.scope,
    jurisdiction: input.jurisdiction ?? null,
    version: input.version,
  };
}

/**
 * The integrity hash of a stored object: sha256 over the RFC 8785 canonical JSON of
 * `{content: <the named content fields>, provenance}`, taken from the value as stored
 * (Dates as ISO strings, no undefined, no -0). Dynamic fields (status, timestamps of
 * lifecycle changes, settle marks) are not content and are left out.
 */
export function integrityHash(record: Record<string, unknown>, contentFields: readonly string[], provenance: Provenance): string {
  return canonicalHash(storedJson(hashedPart(record, contentFields, provenance)));
}

function hashedPart(record: Record<string, unknown>, contentFields: readonly string[], provenance: Provenance) {
  const content: Record<string, unknown> = {};
  for (const field of contentFields) content[field] = record[field] === undefined ? null : record[field];
  return { content, provenance };
}

/**
 * integrityHash of a document read back from the database, without storedJson's JSON round
 * trip (a READ's largest own cost after the policy): the document already is what storedJson
 * makes of a value (no lone surrogate or undefined survives BSON), and canonicalize writes its
 * Dates through toJSON and -0 as 0, as storedJson does. What canonicalize refuses (NaN or
 * Infinity written behind the gateway's back) cannot match, so it answers null.
 */
function readBackHash(record: Record<string, unknown>, contentFields: readonly string[], provenance: Provenance): string | null {
  try {
    return canonicalHash(hashedPart(record, contentFields, provenance));
  } catch {
    return null;
  }
}

/** Raised on a read whose recomputed integrity hash differs from the stored one. */
export class IntegrityError extends Error {
  readonly code = "INTEGRITY_MISMATCH" as const;
  constructor(
    readonly tenantId: string,
    readonly subjectId: string | null,
    readonly memoryId: string,
    readonly collection: string,
  ) {
    super(`integrity hash mismatch on a stored ${collection} object`);
    this.name = new.target.name;
  }
}

/** Recomputes and compares; a record stored before provenance existed has none and is not judged. */
export function checkIntegrity<T extends Record<string, unknown>>(
  record: T,
  contentFields: readonly string[],
  ids: { tenantId: string; subjectId: string | null; memoryId: string; collection: string },
): T {
  const stored = record as unknown as Partial<ProvenanceFields>;
  if (!stored.integrity_hash || !stored.provenance) {
    throw new IntegrityError(ids.tenantId, ids.subjectId, ids.memoryId, ids.collection);
  }
  if (readBackHash(record, contentFields, stored.provenance) !== stored.integrity_hash) {
    throw new IntegrityError(ids.tenantId, ids.subjectId, ids.memoryId, ids.collection);
  }
  return record;
}

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

/** Provenance and integrity hash of a governed item, from the item itself. */
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
  const provenance = buildProvenance({
    sourceKind: record.source_kind,
    sourceRefs: [record.source_ref],
    createdAt: record.created_at,
    validTo: record.expires_at,
    scope: { level: "subject", tenant_id: record.tenant_id, subject_id: record.subject_id, category: record.category },
    version: record.version,
  });
  return { provenance, integrity_hash: integrityHash(record as unknown as Record<string, unknown>, GOVERNED_CONTENT_FIELDS, provenance) };
}
