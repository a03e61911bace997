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

/** What a contract says of one object: its statement and verdict types are the contract's to judge (seed 004 §1.1, §2). */
export interface ProvenanceInput {
  statementType: StatementType;
  verdictType: VerdictType;
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
  const validTo = iso(input.validTo);
  return {
    statement_type: input.statementType,
    verdict_type: input.verdictType,
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
