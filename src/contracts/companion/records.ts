import { createHmac } from "node:crypto";
import type { ErasureMark } from "../../kernel/contract-store";
import { canonicalHash, saltedDigest, storedJson } from "../../store/canonical";
import { buildProvenance, integrityHash, type ProvenanceFields, type StatementType, type VerdictType } from "../../store/provenance";

/** The collections of the companion contract (seed 002). */
export const COMPANION_COLLECTIONS = {
  facts: "companion_facts",
  heads: "companion_fact_heads",
  proposals: "companion_proposals",
  privacy: "companion_privacy",
  subjects: "companion_subject_index",
} as const;

export type FactStatus = "active" | "inactive" | "archived" | "erased" | "quarantined";

/** What a fact says and where it comes from: the part a proposal holds until it is applied. */
export interface FactBody {
  tenant_id: string;
  subject_id: string;
  type: string;
  text: string;
  confidence: number;
  source: string;
  statement_type: StatementType;
  source_refs: string[];
  job: { id: string; kind: string } | null;
  supersedes: string | null;
  consolidated_from: string[] | null;
  /** MP-CONSOLIDATE: why facts were merged; content (erasable), so the event keeps only its digest. */
  justification?: string | null;
  valid_to: Date | null;
  temporal_scope: "bounded" | "unknown";
  created_by: { id: string; roles: string[] };
  grounding_score: number;
  /** Salt of the event digests (SPEC D1); null once erased, so no digest can be linked back. */
  content_salt: string | null;
}

/** The settle mark: the object's event is in the log at `seq`. */
/** A companion fact (seed 002): insert-only; only `status` changes, each change an event. */
export interface FactRecord extends FactBody, ProvenanceFields {
  _id: string;
  memory_id: string;
  status: FactStatus;
  status_reason: string | null;
  created_at: Date;
  /** SG-DECAY: added_at + the type's window (policy data) */
  expires_at: Date;
  erasure?: ErasureMark;
}

/** A fact held for the person's confirmation (SG-GATE 0.75-0.79). */
export interface ProposalRecord extends ProvenanceFields {
  _id: string;
  tenant_id: string;
  subject_id: string;
  proposal_id: string;
  fact: FactBody;
  status: "pending" | "applied" | "erased" | "quarantined";
  created_at: Date;
  erasure?: ErasureMark;
}

/**
 * One pointer per (tenant, subject, type, normalised text): the active fact and any pending
 * proposal. Its `_id` is a keyed hash under the subject's own key (kept in the privacy
 * record): without the key it fingerprints nothing, and erasure destroys key and heads.
 */
export interface HeadRecord {
  _id: string;
  tenant_id: string;
  subject_id: string;
  active_id: string | null;
  proposal_id: string | null;
  proposal_confidence: number | null;
  observations: number;
  integrity_hash: string;
}

/** The settings a subject chose (SG-PRIVACY). */
export interface PrivacySettings {
  memory_enabled: boolean;
  learn_patterns: boolean;
  share_with: string[];
  anonymize_dates: boolean;
  delete_after_days: number | null;
}

export interface PrivacyRecord extends PrivacySettings, ProvenanceFields {
  _id: string;
  tenant_id: string;
  subject_id: string;
  updated_at: Date;
  /** Bumped by every change that must leave envelopes at once, in every gateway process. */
  generation: number;
  /** The subject's key of head ids; absent until the first write, destroyed by erasure. */
  head_key?: string;
}

/** What an envelope needs of an active fact; kept per subject so an envelope is one `_id` read. */
export interface ActiveEntry {
  memory_id: string;
  tenant_id: string;
  subject_id: string;
  type: string;
  text: string;
  confidence: number;
  created_at: Date;
  expires_at: Date;
}

export interface StoredEntry extends ActiveEntry {
  integrity_hash: string;
}

export const DEFAULT_PRIVACY: PrivacySettings = { memory_enabled: true, learn_patterns: true, share_with: [], anonymize_dates: false, delete_after_days: null };

const part = (v: string) => encodeURIComponent(v);
export const objectDocId = (tenant: string, subject: string, id: string) => `${part(tenant)}:${part(subject)}:${part(id)}`;
export const subjectDocId = (tenant: string, subject: string) => `${part(tenant)}:${part(subject)}`;

/** The head id of a fact: a keyed hash of its content identity under the subject's key, never its content. */
export function headId(key: string, tenant: string, subject: string, type: string, text: string): string {
  const normal = text.trim().replace(/\s+/g, " ").toLowerCase();
  return `${subjectDocId(tenant, subject)}:${createHmac("sha256", key).update(`${type}\n${normal}`).digest("hex").slice(0, 32)}`;
}

/** The salted digest an event commits to (SPEC D1): null once the salt is erased. */
export function factDigest(body: Pick<FactBody, "content_salt" | "type" | "text">): string | null {
  return body.content_salt ? saltedDigest(body.content_salt, { type: body.type, text: body.text }) : null;
}

// ---------------------------------------------------------------- MP-OBJECT

/** What a fact's integrity hash covers: everything but its lifecycle (status, settle and erasure marks). */
export const FACT_CONTENT_FIELDS = [
  "tenant_id",
  "subject_id",
  "memory_id",
  "type",
  "text",
  "confidence",
  "source",
  "statement_type",
  "source_refs",
  "job",
  "supersedes",
  "consolidated_from",
  "justification",
  "created_at",
  "expires_at",
  "valid_to",
  "temporal_scope",
  "created_by",
  "grounding_score",
  "content_salt",
] as const;

export const PROPOSAL_CONTENT_FIELDS = ["tenant_id", "subject_id", "proposal_id", "fact", "created_at"] as const;

export const PRIVACY_CONTENT_FIELDS = [
  "tenant_id",
  "subject_id",
  "memory_enabled",
  "learn_patterns",
  "share_with",
  "anonymize_dates",
  "delete_after_days",
  "updated_at",
] as const;

/** seed 004 §1.1: a manual fact is the person's word; an extracted or merged one is an inference. */
const verdictOf = (body: Pick<FactBody, "statement_type">): VerdictType => (body.statement_type === "UserProvidedStatement" ? "Factual" : "Inference");

function factProvenance(body: FactBody, createdAt: Date) {
  return buildProvenance({
    statementType: body.statement_type,
    verdictType: verdictOf(body),
    sourceRefs: body.source_refs,
    createdAt,
    validTo: body.valid_to,
    scope: { level: "subject", tenant_id: body.tenant_id, subject_id: body.subject_id, category: body.type },
    version: 1,
  });
}

type Unsealed<T> = Omit<T, "provenance" | "integrity_hash">;

/** MP-OBJECT: provenance and the integrity hash over exactly what is stored. */
export function sealFact(record: Unsealed<FactRecord>): FactRecord {
  const provenance = factProvenance(record, record.created_at);
  return { ...record, provenance, integrity_hash: integrityHash(record as unknown as Record<string, unknown>, FACT_CONTENT_FIELDS, provenance) };
}

export function sealProposal(record: Unsealed<ProposalRecord>): ProposalRecord {
  const provenance = factProvenance(record.fact, record.created_at);
  return { ...record, provenance, integrity_hash: integrityHash(record as unknown as Record<string, unknown>, PROPOSAL_CONTENT_FIELDS, provenance) };
}

export function sealPrivacy(record: Unsealed<PrivacyRecord>): PrivacyRecord {
  const provenance = buildProvenance({
    statementType: "UserProvidedStatement",
    verdictType: "Factual",
    sourceRefs: [],
    createdAt: record.updated_at,
    scope: { level: "subject", tenant_id: record.tenant_id, subject_id: record.subject_id, category: null },
    version: 1,
  });
  return { ...record, provenance, integrity_hash: integrityHash(record as unknown as Record<string, unknown>, PRIVACY_CONTENT_FIELDS, provenance) };
}

/** Heads and index entries are pointers and copies, not statements: a hash over what is stored, no provenance. */
export function headHash(head: Omit<HeadRecord, "integrity_hash">): string {
  const { _id, tenant_id, subject_id, active_id, proposal_id, proposal_confidence, observations } = head;
  return canonicalHash(storedJson({ _id, tenant_id, subject_id, active_id, proposal_id, proposal_confidence, observations }));
}

export function sealHead(head: Omit<HeadRecord, "integrity_hash">): HeadRecord {
  return { ...head, integrity_hash: headHash(head) };
}

export function entryHash(entry: ActiveEntry): string {
  const { memory_id, tenant_id, subject_id, type, text, confidence, created_at, expires_at } = entry;
  return canonicalHash(storedJson({ memory_id, tenant_id, subject_id, type, text, confidence, created_at, expires_at }));
}

export function entryOf(record: FactRecord): StoredEntry {
  const entry: ActiveEntry = {
    memory_id: record.memory_id,
    tenant_id: record.tenant_id,
    subject_id: record.subject_id,
    type: record.type,
    text: record.text,
    confidence: record.confidence,
    created_at: record.created_at,
    expires_at: record.expires_at,
  };
  return { ...entry, integrity_hash: entryHash(entry) };
}

/** A fact's body with its content removed (SPEC D1): identity, type and lifecycle stay. */
export function erasedBody<T extends FactBody>(body: T): T {
  return { ...body, text: "", source_refs: [], justification: null, content_salt: null, grounding_score: 0 };
}
