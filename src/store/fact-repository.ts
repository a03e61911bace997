import { createHash } from "node:crypto";
import { MongoServerError, type Collection, type Db } from "mongodb";
import { ensureIndexes } from "./database";

/** Two concurrent upserts of one `_id` can both try the insert; the loser retries as an update. */
async function upsert<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === 11000) || attempt >= 3) throw error;
    }
  }
}

export const FACT_COLLECTIONS = {
  facts: "companion_facts",
  heads: "companion_fact_heads",
  proposals: "companion_proposals",
  privacy: "companion_privacy",
  subjects: "companion_subject_index",
} as const;

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

interface SubjectIndex {
  _id: string;
  tenant_id: string;
  subject_id: string;
  facts: ActiveEntry[];
  /** optimistic concurrency for removals (this FerretDB ignores $pull with a condition) */
  rev: number;
}

export type FactStatus = "active" | "inactive" | "archived" | "erased";

/** A companion fact (seed 002): insert-only; only `status` changes, each change an event. */
export interface FactRecord {
  _id: string;
  tenant_id: string;
  subject_id: string;
  memory_id: string;
  type: string;
  text: string;
  confidence: number;
  source: string;
  statement_type: string;
  source_refs: string[];
  job: { id: string; kind: string } | null;
  status: FactStatus;
  status_reason: string | null;
  supersedes: string | null;
  consolidated_from: string[] | null;
  created_at: Date;
  /** SG-DECAY: added_at + the type's window (policy data) */
  expires_at: Date;
  valid_to: Date | null;
  temporal_scope: "bounded" | "unknown";
  created_by: { id: string; roles: string[] };
  grounding_score: number;
  content_salt: string;
}

/** One pointer per (tenant, subject, type, text): the active fact and any pending proposal. */
export interface FactHead {
  _id: string;
  active_id: string | null;
  proposal_id: string | null;
  proposal_confidence: number | null;
  observations: number;
}

export interface ProposalRecord {
  _id: string;
  tenant_id: string;
  subject_id: string;
  proposal_id: string;
  head_id: string;
  fact: Omit<FactRecord, "_id" | "memory_id" | "status" | "status_reason" | "created_at" | "expires_at">;
  status: "pending" | "applied";
  created_at: Date;
}

export interface PrivacySettings {
  _id: string;
  tenant_id: string;
  subject_id: string;
  memory_enabled: boolean;
  learn_patterns: boolean;
  share_with: string[];
  anonymize_dates: boolean;
  delete_after_days: number | null;
  updated_at: Date;
  /** bumped by every change that must leave envelopes at once, in every gateway process */
  generation: number;
}

export type PrivacyView = Omit<PrivacySettings, "_id" | "tenant_id" | "subject_id" | "updated_at">;

export const DEFAULT_PRIVACY = { memory_enabled: true, learn_patterns: true, share_with: [] as string[], anonymize_dates: false, delete_after_days: null as number | null };

const part = (v: string) => encodeURIComponent(v);
export const factDocId = (tenant: string, subject: string, id: string) => `${part(tenant)}:${part(subject)}:${part(id)}`;
export const subjectDocId = (tenant: string, subject: string) => `${part(tenant)}:${part(subject)}`;

/** The head key of a fact: its content identity, never its content. */
export function headId(tenant: string, subject: string, type: string, text: string): string {
  const normal = text.trim().replace(/\s+/g, " ").toLowerCase();
  return `${subjectDocId(tenant, subject)}:${createHash("sha256").update(`${type}\n${normal}`).digest("hex").slice(0, 32)}`;
}

/** Storage of companion facts. Every query names tenant and subject (SG-SCOPE). Nothing here deletes. */
export class FactRepository {
  readonly facts: Collection<FactRecord>;
  readonly heads: Collection<FactHead>;
  readonly proposals: Collection<ProposalRecord>;
  readonly privacy: Collection<PrivacySettings>;
  private readonly subjects: Collection<SubjectIndex>;

  constructor(db: Db) {
    this.facts = db.collection<FactRecord>(FACT_COLLECTIONS.facts);
    this.heads = db.collection<FactHead>(FACT_COLLECTIONS.heads);
    this.proposals = db.collection<ProposalRecord>(FACT_COLLECTIONS.proposals);
    this.privacy = db.collection<PrivacySettings>(FACT_COLLECTIONS.privacy);
    this.subjects = db.collection<SubjectIndex>(FACT_COLLECTIONS.subjects);
  }

  /**
   * SG-SCOPE: the unique (subject_id, tenant_id, memory_id) index of seed 002. Only missing
   * indexes are created: this FerretDB drops the connection when asked to create one again.
   */
  static async ensureIndexes(db: Db): Promise<void> {
    await ensureIndexes(db, {
      [FACT_COLLECTIONS.facts]: [
        { key: { subject_id: 1, tenant_id: 1, memory_id: 1 }, name: "subject_tenant_memory", unique: true },
        { key: { tenant_id: 1, subject_id: 1, status: 1 }, name: "tenant_subject_status" },
      ],
    });
  }

  get(tenant: string, subject: string, memoryId: string): Promise<FactRecord | null> {
    return this.facts.findOne({ _id: factDocId(tenant, subject, memoryId), tenant_id: tenant, subject_id: subject });
  }

  /** The fact, then its entry in the subject's index of active facts (the fact is the truth). */
  async insert(record: FactRecord): Promise<void> {
    await this.facts.insertOne(record);
    if (record.status !== "active") return;
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
    await upsert(() =>
      this.subjects.updateOne(
        { _id: subjectDocId(record.tenant_id, record.subject_id) },
        { $push: { facts: entry }, $inc: { rev: 1 }, $setOnInsert: { tenant_id: record.tenant_id, subject_id: record.subject_id } },
        { upsert: true },
      ),
    );
  }

  /** Removes a fact that was never acknowledged (its event could not be written; INV-8). */
  async rollback(record: FactRecord): Promise<void> {
    await this.facts.deleteOne({ _id: record._id, tenant_id: record.tenant_id, subject_id: record.subject_id });
    await this.unindex(record);
  }

  /** Takes a fact out of its subject's index: read, filter, write if nobody wrote meanwhile. */
  private async unindex(record: FactRecord): Promise<void> {
    const _id = subjectDocId(record.tenant_id, record.subject_id);
    for (let attempt = 0; attempt < 20; attempt++) {
      const index = await this.subjects.findOne({ _id });
      if (!index || !index.facts.some((f) => f.memory_id === record.memory_id)) return;
      const facts = index.facts.filter((f) => f.memory_id !== record.memory_id);
      const result = await this.subjects.updateOne({ _id, rev: index.rev }, { $set: { facts }, $inc: { rev: 1 } });
      if (result.matchedCount === 1) return;
    }
    throw new Error("subject index: too many concurrent changes");
  }

  /** Only the status changes (SG-APPEND); a fact that leaves `active` leaves the index at once. */
  async setStatus(record: FactRecord, status: FactStatus, reason: string): Promise<void> {
    await this.facts.updateOne({ _id: record._id, tenant_id: record.tenant_id, subject_id: record.subject_id }, { $set: { status, status_reason: reason } });
    if (status !== "active") await this.unindex(record);
  }

  /**
   * SPEC D1 erasure, on the subject's explicit request: the text leaves every record of the
   * subject (facts, proposals, the envelope index); ids, types and statuses stay for audit.
   */
  async erase(tenant: string, subject: string): Promise<string[]> {
    const facts = await this.facts.find({ tenant_id: tenant, subject_id: subject }, { projection: { memory_id: 1, status: 1 } }).toArray();
    await this.facts.updateMany({ tenant_id: tenant, subject_id: subject }, { $set: { text: "", status: "erased", status_reason: "erased" } });
    await this.proposals.updateMany({ tenant_id: tenant, subject_id: subject }, { $set: { "fact.text": "", status: "applied" } });
    await this.subjects.updateOne({ _id: subjectDocId(tenant, subject) }, { $set: { facts: [] }, $inc: { rev: 1 } });
    return facts.map((f) => f.memory_id);
  }

  /** The subject's active facts as envelopes need them: one `_id` lookup (SG-SCOPE: tenant and subject in the key). */
  async activeEntries(tenant: string, subject: string): Promise<ActiveEntry[]> {
    const index = await this.subjects.findOne({ _id: subjectDocId(tenant, subject) });
    return index?.facts ?? [];
  }

  active(tenant: string, subject: string): Promise<FactRecord[]> {
    return this.facts.find({ tenant_id: tenant, subject_id: subject, status: "active" }).toArray();
  }

  activeInTenant(tenant: string): Promise<FactRecord[]> {
    return this.facts.find({ tenant_id: tenant, status: "active" }).toArray();
  }

  head(id: string): Promise<FactHead | null> {
    return this.heads.findOne({ _id: id });
  }

  async putHead(head: FactHead): Promise<void> {
    await upsert(() => this.heads.replaceOne({ _id: head._id }, head, { upsert: true }));
  }

  proposal(tenant: string, subject: string, proposalId: string): Promise<ProposalRecord | null> {
    return this.proposals.findOne({ _id: factDocId(tenant, subject, proposalId), tenant_id: tenant, subject_id: subject });
  }

  async putProposal(p: ProposalRecord): Promise<void> {
    await upsert(() => this.proposals.replaceOne({ _id: p._id }, p, { upsert: true }));
  }

  async getPrivacy(tenant: string, subject: string): Promise<PrivacyView> {
    const stored = await this.privacy.findOne({ _id: subjectDocId(tenant, subject) });
    if (!stored) return { ...DEFAULT_PRIVACY, share_with: [], generation: 0 };
    return {
      memory_enabled: stored.memory_enabled,
      learn_patterns: stored.learn_patterns,
      share_with: stored.share_with,
      anonymize_dates: stored.anonymize_dates,
      delete_after_days: stored.delete_after_days,
      generation: stored.generation ?? 0,
    };
  }

  /** New settings; the generation moves on, so every process's cached envelopes of the subject are stale at once. */
  async putPrivacy(settings: Omit<PrivacySettings, "generation">): Promise<void> {
    const { _id, ...fields } = settings;
    await upsert(() => this.privacy.updateOne({ _id }, { $set: fields, $inc: { generation: 1 } }, { upsert: true }));
  }

  /** Forgetting, erasure, consolidation: cached envelopes of the subject are stale from now on, everywhere. */
  async bumpGeneration(tenant: string, subject: string, now: Date): Promise<void> {
    await upsert(() =>
      this.privacy.updateOne(
        { _id: subjectDocId(tenant, subject) },
        { $inc: { generation: 1 }, $setOnInsert: { tenant_id: tenant, subject_id: subject, ...DEFAULT_PRIVACY, share_with: [], updated_at: now } },
        { upsert: true },
      ),
    );
  }
}
