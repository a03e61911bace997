import { actorKind, type Role } from "../../auth/principal";
import type { ErasureMark } from "../../kernel/contract-store";
import { canonicalHash, storedJson } from "../../store/canonical";
import { buildProvenance, integrityHash, IntegrityError, type Provenance, type ProvenanceFields } from "../../store/provenance";

/** The agent contract's collections (seed 001). */
export const AGENT_COLLECTIONS = {
  memories: "agent_memories",
  updates: "agent_memory_updates",
  /** Events a write or an erasure waits for, until they are in the log (never a mark in the object itself). */
  due: "agent_due_events",
} as const;

/** The space of a memory: one repository of a tenant, or the tenant's global space. */
export const GLOBAL_SPACE = "global";
export const repoSpace = (repoId: string): string => `repo:${repoId}`;

export const MEMORY_ID_PREFIX = "am_";
export const UPDATE_ID_PREFIX = "au_";

/**
 * Who a stored agent memory belongs to, for erasure (SPEC D1) and every subject-scoped
 * question about it:
 * - `subject_id`: the subject the write was decided for, `repo:<repo_id>` of the document:
 *   the token had to name it. A global memory belongs to the repository it was learned in.
 * - `author_id`: the token's `sub` that wrote it (a person or an agent).
 * eraseSubject(S) reaches every memory whose subject or author is S (with all its update
 * records), and every update record whose author is S (its rationale and evidence, also where
 * the memory's current truth or utility carries them).
 */
export interface Ownership {
  subject_id: string;
  author_id: string;
}

/** A dynamic value of seed 001 (truth or utility) as set by one update; sealed on its own (it changes in place). */
export interface DynamicValue {
  target: number;
  confidence: number;
  rationale: string;
  evidence_refs: string[];
  context_problem_id: string | null;
  updated_at: Date;
  update_id: string;
  /** The token `sub` that set it (its rationale and evidence are that author's, for erasure). */
  author_id: string;
  /** true once its update was erased: rationale and evidence are gone, the numbers stay. */
  erased: boolean;
  integrity_hash: string;
}

export type MemoryStatus = "active" | "erased" | "quarantined";

/** An agent memory as stored (seed 001 `memory.write.request`). Text, kind and links never change. */
export interface AgentMemoryRecord extends Ownership, ProvenanceFields {
  _id: string;
  tenant_id: string;
  /** "repo:<repo_id>" or "global". */
  space: string;
  /** The repository the write named (for a global memory: where it was learned). */
  repo_id: string;
  memory_id: string;
  scope: "repo" | "global";
  kind: string;
  text: string;
  confidence: number;
  rationale: string | null;
  links: { problem_id: string | null; related_memory_ids: string[]; change_targets: string[] };
  evidence_refs: string[];
  /** Dynamic values (SPEC D2: the only things changed in place), each sealed on its own. */
  truth: DynamicValue | null;
  utility: DynamicValue | null;
  /** IF1-CHANGE: the change memory that invalidated this one, if any (an id, set in place). */
  invalidated_by: string | null;
  status: MemoryStatus;
  created_at: Date;
  updated_at: Date;
  created_by: { id: string; roles: string[] };
  content_salt: string;
  /** Set by erasure (SPEC D1): who erased it, why, for which subject. */
  erasure?: ErasureMark & { subject_id: string };
}

/**
 * What reads and in-place writes use of a memory: all of it but its provenance, integrity hash,
 * creator and erasure mark. The in-process index keeps this much (src/contracts/agent/memory-index.ts);
 * nothing on the request path reads the rest from there.
 */
export type IndexedRecord = Omit<AgentMemoryRecord, "provenance" | "integrity_hash" | "created_by" | "erasure">;

/** One committed IF1-UPDATE with its rationale and evidence, verbatim; events commit to its digest. */
export interface AgentMemoryUpdateRecord extends Ownership, ProvenanceFields {
  _id: string;
  tenant_id: string;
  space: string;
  memory_id: string;
  update_id: string;
  decision_id: string;
  /** What the memory had before: references to earlier updates, never their text (each update keeps its own). */
  before: { truth: DynamicRef | null; utility: DynamicRef | null };
  /** What this update set (null: left as it was). */
  after: { truth: DynamicValue | null; utility: DynamicValue | null };
  status: MemoryStatus;
  created_at: Date;
  created_by: { id: string; roles: string[] };
  erasure?: ErasureMark & { subject_id: string };
}

/** An earlier dynamic value, by reference: its numbers and the update that set it. */
export interface DynamicRef {
  update_id: string;
  target: number;
  confidence: number;
}

const part = (value: string): string => encodeURIComponent(value);

/** Deterministic `_id`: a lookup by (tenant, space, memory id) is a primary-key read. */
export function agentMemoryDocId(tenantId: string, space: string, memoryId: string): string {
  return `${part(tenantId)}:${part(space)}:${part(memoryId)}`;
}

export function agentUpdateDocId(tenantId: string, space: string, memoryId: string, updateId: string): string {
  return `${agentMemoryDocId(tenantId, space, memoryId)}:${part(updateId)}`;
}

/** What a memory's integrity hash covers: everything stored but the dynamic values (sealed on their own), lifecycle times and marks. */
export const MEMORY_CONTENT_FIELDS = [
  "tenant_id",
  "space",
  "repo_id",
  "memory_id",
  "subject_id",
  "author_id",
  "scope",
  "kind",
  "text",
  "confidence",
  "rationale",
  "links",
  "evidence_refs",
  "status",
  "created_at",
  "created_by",
  "content_salt",
  "erasure",
] as const;

/** An update record never changes but by erasure: the hash covers all of it. */
export const UPDATE_CONTENT_FIELDS = [
  "tenant_id",
  "space",
  "memory_id",
  "update_id",
  "decision_id",
  "subject_id",
  "author_id",
  "before",
  "after",
  "status",
  "created_at",
  "created_by",
  "erasure",
] as const;

type Unsealed<T> = Omit<T, "provenance" | "integrity_hash">;

/** A memory before sealMemory gives it provenance and its integrity hash. */
export type UnsealedMemory = Unsealed<AgentMemoryRecord>;

function memoryProvenance(record: Unsealed<AgentMemoryRecord>): Provenance {
  const human = actorKind(record.created_by.roles as Role[]) === "human";
  return buildProvenance({
    // An agent's memory is its inference, with the confidence it gave; a person's note is theirs.
    statementType: human ? "UserProvidedStatement" : "SystemGeneratedStatement",
    verdictType: "Inference",
    sourceRefs: record.evidence_refs,
    createdAt: record.created_at,
    scope: { level: record.scope === "global" ? "tenant" : "repo", tenant_id: record.tenant_id, subject_id: record.subject_id, category: record.kind },
    version: 1,
  });
}

function updateProvenance(record: Unsealed<AgentMemoryUpdateRecord>): Provenance {
  const refs = [...(record.after.truth?.evidence_refs ?? []), ...(record.after.utility?.evidence_refs ?? [])];
  return buildProvenance({
    statementType: "DerivedStatement",
    verdictType: "Inference",
    sourceRefs: refs,
    createdAt: record.created_at,
    scope: { level: "repo", tenant_id: record.tenant_id, subject_id: record.subject_id, category: null },
    version: 1,
  });
}

/**
 * MP-OBJECT: the memory with its provenance and integrity hash, as the database will store
 * and return it (storedJson: what is hashed is exactly what is stored). Dates stay Dates.
 */
export function sealMemory(record: Unsealed<AgentMemoryRecord> & Partial<ProvenanceFields>): AgentMemoryRecord {
  const { provenance: _p, integrity_hash: _h, ...body } = record;
  const provenance = memoryProvenance(body);
  const integrity_hash = integrityHash(storedJson(body) as unknown as Record<string, unknown>, MEMORY_CONTENT_FIELDS, provenance);
  return { ...body, provenance, integrity_hash };
}

export function sealUpdate(record: Unsealed<AgentMemoryUpdateRecord> & Partial<ProvenanceFields>): AgentMemoryUpdateRecord {
  const { provenance: _p, integrity_hash: _h, ...body } = record;
  const provenance = updateProvenance(body);
  const integrity_hash = integrityHash(storedJson(body) as unknown as Record<string, unknown>, UPDATE_CONTENT_FIELDS, provenance);
  return { ...body, provenance, integrity_hash };
}

/** A dynamic value sealed on its own: a later update replaces it whole, so its hash never goes stale. */
export function sealDynamic(value: Omit<DynamicValue, "integrity_hash"> & { integrity_hash?: string }): DynamicValue {
  const { integrity_hash: _h, ...body } = value;
  return { ...body, integrity_hash: canonicalHash(storedJson(body)) };
}

function checkDynamic(value: DynamicValue | null, ids: { tenantId: string; subjectId: string; memoryId: string; collection: string }): void {
  if (value === null) return;
  const { integrity_hash, ...body } = value;
  if (integrity_hash !== canonicalHash(storedJson(body))) throw new IntegrityError(ids.tenantId, ids.subjectId, ids.memoryId, ids.collection);
}

/** A memory as read back: its hash and its dynamic values' hashes must match what is stored (MP-OBJECT). */
export function checkMemory(record: AgentMemoryRecord): AgentMemoryRecord {
  const ids = { tenantId: record.tenant_id, subjectId: record.subject_id ?? null, memoryId: record.memory_id, collection: AGENT_COLLECTIONS.memories };
  const stored = record as unknown as Partial<ProvenanceFields> & Record<string, unknown>;
  if (!stored.provenance || !stored.integrity_hash) throw new IntegrityError(ids.tenantId, ids.subjectId, ids.memoryId, ids.collection);
  if (integrityHash(storedJson(record) as unknown as Record<string, unknown>, MEMORY_CONTENT_FIELDS, stored.provenance) !== stored.integrity_hash) {
    throw new IntegrityError(ids.tenantId, ids.subjectId, ids.memoryId, ids.collection);
  }
  checkDynamic(record.truth, { ...ids, subjectId: record.subject_id });
  checkDynamic(record.utility, { ...ids, subjectId: record.subject_id });
  return record;
}

/** SPEC D1: what an erased memory keeps: identity, ownership, kind and scope, the mark; no text, rationale, links, evidence or salt. */
export function memoryTombstone(record: AgentMemoryRecord, mark: ErasureMark, subjectId: string, at: Date): AgentMemoryRecord {
  return sealMemory({
    _id: record._id,
    tenant_id: record.tenant_id,
    space: record.space,
    repo_id: record.repo_id,
    memory_id: record.memory_id,
    subject_id: record.subject_id,
    author_id: record.author_id,
    scope: record.scope,
    kind: record.kind,
    text: "",
    confidence: record.confidence,
    rationale: null,
    links: { problem_id: null, related_memory_ids: [], change_targets: [] },
    evidence_refs: [],
    truth: null,
    utility: null,
    invalidated_by: null,
    status: "erased",
    created_at: record.created_at,
    updated_at: at,
    created_by: record.created_by,
    content_salt: "",
    erasure: record.erasure ?? { ...mark, subject_id: subjectId },
  });
}

/** An erased update record: which memory, who, when; no rationale, no evidence, no numbers. */
export function updateTombstone(record: AgentMemoryUpdateRecord, mark: ErasureMark, subjectId: string): AgentMemoryUpdateRecord {
  return sealUpdate({
    _id: record._id,
    tenant_id: record.tenant_id,
    space: record.space,
    memory_id: record.memory_id,
    update_id: record.update_id,
    decision_id: record.decision_id,
    subject_id: record.subject_id,
    author_id: record.author_id,
    before: { truth: null, utility: null },
    after: { truth: null, utility: null },
    status: "erased",
    created_at: record.created_at,
    created_by: record.created_by,
    erasure: record.erasure ?? { ...mark, subject_id: subjectId },
  });
}

/** A dynamic value whose update was erased: the numbers stay (ranking is not content), the words go. */
export function erasedDynamic(value: DynamicValue): DynamicValue {
  return sealDynamic({ ...value, rationale: "", evidence_refs: [], erased: true });
}

export const dynamicRef = (value: DynamicValue | null): DynamicRef | null =>
  value ? { update_id: value.update_id, target: value.target, confidence: value.confidence } : null;
