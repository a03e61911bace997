import { randomBytes } from "node:crypto";
import type { Collection } from "mongodb";
import type { ContractStore, ErasureMark, ObjectRepair, UnsettledObject } from "../../kernel/contract-store";
import { systemClock, type Clock } from "../../clock";
import type { Logger } from "../../logger";
import type { Database } from "../../store/database";
import { DueMarks, type DueMark, type DueOf } from "../../store/due-marks";
import { ensureIndexes, isDuplicateKey } from "../../store/database";
import { IdLists, type IdListRef } from "../../store/id-lists";
import { checkIntegrity, IntegrityError } from "../../store/provenance";
import { writeOutcomeUnknown } from "../../store/write-outcome";
import {
  COMPANION_COLLECTIONS,
  DEFAULT_PRIVACY,
  FACT_CONTENT_FIELDS,
  PRIVACY_CONTENT_FIELDS,
  PROPOSAL_CONTENT_FIELDS,
  entryHash,
  entryOf,
  erasedBody,
  factDigest,
  headHash,
  headId,
  objectDocId,
  sealFact,
  sealPrivacy,
  sealProposal,
  subjectDocId,
  type ActiveEntry,
  type FactRecord,
  type FactStatus,
  type HeadRecord,
  type PrivacyRecord,
  type PrivacySettings,
  type ProposalRecord,
  type StoredEntry,
} from "./records";

/** Two concurrent upserts of one `_id` can both try the insert; the loser retries as an update. */
async function upsert<T>(write: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!isDuplicateKey(error) || attempt >= 3) throw error;
    }
  }
}

interface SubjectIndex {
  _id: string;
  tenant_id: string;
  subject_id: string;
  facts: StoredEntry[];
  /** optimistic concurrency for removals (this FerretDB ignores $pull with a condition) */
  rev: number;
}

/** A subject's privacy record as operations read it: the settings, the cache generation, the head key. */
export interface PrivacyState {
  settings: PrivacySettings;
  generation: number;
  key: string | null;
}

/** Documents as they were before an erasure, kept in memory until its event is in the log (the undo). */
export interface Snapshot {
  facts: FactRecord[];
  proposals: ProposalRecord[];
  heads: HeadRecord[];
  privacy: PrivacyRecord | null;
  index: SubjectIndex | null;
}

const isFactId = (id: string) => id.startsWith("fact_");
const isProposalId = (id: string) => id.startsWith("prop_");

/**
 * The companion contract's store: facts, proposals, heads, privacy records and the per-subject
 * index of active facts envelopes read. Every query names tenant and subject (SG-SCOPE);
 * nothing here deletes a fact or a proposal (only undo removes an object that was never
 * acknowledged). Every object read is checked against its integrity hash (MP-OBJECT).
 */
export class CompanionStore implements ContractStore {
  readonly contract = "companion";
  private readonly facts: Collection<FactRecord>;
  private readonly heads: Collection<HeadRecord>;
  private readonly proposals: Collection<ProposalRecord>;
  private readonly privacyRecords: Collection<PrivacyRecord>;
  private readonly subjects: Collection<SubjectIndex>;
  /**
   * The `_id`s of each subject's facts, proposals and heads, and of each tenant's facts
   * (src/store/id-lists.ts): what erasure, archiving and DECAY read instead of a scan.
   */
  private readonly lists: IdLists;
  /** Heads this process has listed (bounded): a head rewritten on every observation is listed once. */
  private readonly listedHeads = new Set<string>();
  private readonly due: DueMarks;
  /** Settles an object a read finds without its event (set by the repair; none: such an object is not served). */
  private repair: ObjectRepair | undefined;

  constructor(
    private readonly db: Database,
    logger: Logger,
    private readonly clock: Clock = systemClock,
  ) {
    this.due = new DueMarks(db, COMPANION_DUE_EVENTS, logger);
    this.facts = db.collection<FactRecord>(COMPANION_COLLECTIONS.facts);
    this.heads = db.collection<HeadRecord>(COMPANION_COLLECTIONS.heads);
    this.proposals = db.collection<ProposalRecord>(COMPANION_COLLECTIONS.proposals);
    this.privacyRecords = db.collection<PrivacyRecord>(COMPANION_COLLECTIONS.privacy);
    this.subjects = db.collection<SubjectIndex>(COMPANION_COLLECTIONS.subjects);
    this.lists = new IdLists(db);
  }

  /** SG-SCOPE: the unique (subject_id, tenant_id, memory_id) index of seed 002. */
  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.db, {
      [COMPANION_COLLECTIONS.facts]: [
        { key: { subject_id: 1, tenant_id: 1, memory_id: 1 }, name: "subject_tenant_memory", unique: true },
        { key: { tenant_id: 1, subject_id: 1, status: 1 }, name: "tenant_subject_status" },
      ],
      [COMPANION_COLLECTIONS.proposals]: [{ key: { tenant_id: 1, subject_id: 1, status: 1 }, name: "tenant_subject_status" }],
      [COMPANION_COLLECTIONS.heads]: [{ key: { tenant_id: 1, subject_id: 1 }, name: "tenant_subject" }],
    });
  }

  // ---------------------------------------------------------------- checked reads

  private checkedFact(record: FactRecord | null): FactRecord | null {
    if (!record) return null;
    return checkIntegrity(record as unknown as Record<string, unknown>, FACT_CONTENT_FIELDS, {
      tenantId: record.tenant_id,
      subjectId: record.subject_id,
      memoryId: record.memory_id,
      collection: COMPANION_COLLECTIONS.facts,
    }) as unknown as FactRecord;
  }

  private checkedProposal(record: ProposalRecord | null): ProposalRecord | null {
    if (!record) return null;
    return checkIntegrity(record as unknown as Record<string, unknown>, PROPOSAL_CONTENT_FIELDS, {
      tenantId: record.tenant_id,
      subjectId: record.subject_id,
      memoryId: record.proposal_id,
      collection: COMPANION_COLLECTIONS.proposals,
    }) as unknown as ProposalRecord;
  }

  private checkedHead(head: HeadRecord | null): HeadRecord | null {
    if (head && headHash(head) !== head.integrity_hash) throw new IntegrityError(head.tenant_id, head.subject_id, head._id, COMPANION_COLLECTIONS.heads);
    return head;
  }

  private checkedPrivacy(record: PrivacyRecord | null): PrivacyRecord | null {
    if (!record) return null;
    return checkIntegrity(record as unknown as Record<string, unknown>, PRIVACY_CONTENT_FIELDS, {
      tenantId: record.tenant_id,
      subjectId: record.subject_id,
      memoryId: record._id,
      collection: COMPANION_COLLECTIONS.privacy,
    }) as unknown as PrivacyRecord;
  }

  async fact(tenant: string, subject: string, memoryId: string): Promise<FactRecord | null> {
    const fact = this.checkedFact(await this.facts.findOne({ _id: objectDocId(tenant, subject, memoryId), tenant_id: tenant, subject_id: subject }));
    return fact && ((await this.liveFacts([fact]))[0] ?? null);
  }

  async proposal(tenant: string, subject: string, proposalId: string): Promise<ProposalRecord | null> {
    const proposal = this.checkedProposal(
      await this.proposals.findOne({ _id: objectDocId(tenant, subject, proposalId), tenant_id: tenant, subject_id: subject }),
    );
    if (!proposal) return null;
    const [live] = await this.due.live([proposal], createdDue, (p) => this.settleOne(this.unsettledProposal(p)));
    return live ?? null;
  }

  // ---------------------------------------------------------------- INV-8 on reads

  /**
   * INV-8, MP-LOG: an object without its event is never served as live. Objects written before
   * the repair's watermark, or whose event this process appended or saw, cost nothing more;
   * the others' due marks are looked up by `_id` (one $in for many), and an object whose mark
   * is still there is settled by the repair (its event found, or appended once the write is old
   * enough) or left out: its write is in flight and unacknowledged.
   */
  private liveFacts(facts: FactRecord[]): Promise<FactRecord[]> {
    return this.due.live(facts, createdDue, (f) => this.settleOne(this.unsettledFact(f)));
  }

  private settleOne(object: UnsettledObject): Promise<boolean> {
    return this.repair ? this.repair.settleOne(this, object) : Promise.resolve(false);
  }

  repairWith(repair: ObjectRepair): void {
    this.repair = repair;
  }

  settledBefore(cutoff: Date): void {
    this.due.settledBefore(cutoff);
  }

  async privacy(tenant: string, subject: string): Promise<PrivacyState> {
    const stored = this.checkedPrivacy(await this.privacyRecords.findOne({ _id: subjectDocId(tenant, subject) }));
    if (!stored) return { settings: { ...DEFAULT_PRIVACY, share_with: [] }, generation: 0, key: null };
    return {
      settings: {
        memory_enabled: stored.memory_enabled,
        learn_patterns: stored.learn_patterns,
        share_with: stored.share_with,
        anonymize_dates: stored.anonymize_dates,
        delete_after_days: stored.delete_after_days,
      },
      generation: stored.generation ?? 0,
      key: stored.head_key ?? null,
    };
  }

  /** The head of a fact's content under the subject's key (null without a key: the subject has no heads yet). */
  async head(tenant: string, subject: string, key: string | null, type: string, text: string): Promise<HeadRecord | null> {
    if (!key) return null;
    return this.checkedHead(await this.heads.findOne({ _id: headId(key, tenant, subject, type, text), tenant_id: tenant, subject_id: subject }));
  }

  /**
   * The subject's active facts as envelopes need them: one `_id` lookup (SG-SCOPE: tenant and
   * subject in the key). INV-8: a fact whose event is not in the log is settled or left out;
   * `complete` false when one was left out (its write in flight), so the envelope is not cached.
   */
  async activeEntries(tenant: string, subject: string): Promise<{ entries: ActiveEntry[]; complete: boolean }> {
    const index = await this.subjects.findOne({ _id: subjectDocId(tenant, subject) });
    const entries = index?.facts ?? [];
    for (const entry of entries) {
      if (entryHash(entry) !== entry.integrity_hash) throw new IntegrityError(tenant, subject, entry.memory_id, COMPANION_COLLECTIONS.subjects);
    }
    const live = await this.due.live(entries, createdDue, async (entry) => {
      // Rare (a mark still there): the repair needs the fact's content digest, which the entry does not carry.
      const fact = this.checkedFact(await this.facts.findOne({ _id: objectDocId(tenant, subject, entry.memory_id), tenant_id: tenant, subject_id: subject }));
      return fact !== null && (await this.settleOne(this.unsettledFact(fact)));
    });
    return { entries: live, complete: live.length === entries.length };
  }

  async activeFacts(tenant: string, subject: string): Promise<FactRecord[]> {
    const found = await this.byIds(this.facts, await this.lists.entries(listOf(COMPANION_COLLECTIONS.facts, tenant, subject)));
    return this.liveFacts(found.filter((f) => f.status === "active").map((f) => this.checkedFact(f)!));
  }

  /** DECAY is tenant-wide by nature: it reads the tenant's facts, and no other tenant's. */
  async activeInTenant(tenant: string): Promise<FactRecord[]> {
    const found = await this.byIds(this.facts, await this.lists.entries(listOf(COMPANION_COLLECTIONS.facts, tenant, "*")));
    return this.liveFacts(found.filter((f) => f.status === "active").map((f) => this.checkedFact(f)!));
  }

  /** Documents by `_id`, in `$in` batches (an id whose document is gone, a write undone, is passed over). */
  private async byIds<T extends { _id: string }>(collection: Collection<T>, ids: readonly string[]): Promise<T[]> {
    const out: T[] = [];
    for (let i = 0; i < ids.length; i += 500) out.push(...((await collection.find({ _id: { $in: ids.slice(i, i + 500) } } as never).toArray()) as T[]));
    return out;
  }

  // ---------------------------------------------------------------- facts

  /** The fact, then its entry in the subject's index of active facts (the fact is the truth). */
  async insertFact(record: FactRecord): Promise<void> {
    await this.withDue(dueOf(record.tenant_id, record.subject_id, record.memory_id, "write", record.created_at), () => this.facts.insertOne(record));
    // After the fact; a crash in between leaves its due mark, and the repair adds the entries.
    await this.listFact(record);
    if (record.status !== "active") return;
    // A new fact is in no index yet: one upsert (undo and restore use the idempotent `index`).
    await upsert(() =>
      this.subjects.updateOne(
        { _id: subjectDocId(record.tenant_id, record.subject_id) },
        { $push: { facts: entryOf(record) }, $inc: { rev: 1 }, $setOnInsert: { tenant_id: record.tenant_id, subject_id: record.subject_id } },
        { upsert: true },
      ),
    );
  }

  /** Undo of insertFact: the fact was never acknowledged (INV-8). Idempotent. */
  async removeFact(record: FactRecord): Promise<void> {
    await this.unindex(record);
    await this.facts.deleteOne({ _id: record._id, tenant_id: record.tenant_id, subject_id: record.subject_id });
    await this.due.remove(dueId(record._id, "write"));
  }

  /** Resolves once the due marks of settled events are removed (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    await this.due.idle();
  }

  /**
   * The due mark first, then the object: a process killed in between leaves a mark without
   * its object (dropped once stale), never an object without its mark (no repair could find it).
   */
  private async withDue(mark: DueMark, write: () => Promise<unknown>): Promise<void> {
    await this.due.add(mark);
    try {
      await write();
    } catch (error) {
      // A write whose outcome is unknown (the database died before answering) may be in: its
      // mark stays, and the repair settles whatever is there.
      if (!writeOutcomeUnknown(error)) await this.due.remove(mark._id);
      throw error;
    }
  }

  /** Only the status changes (SG-APPEND); a fact that leaves `active` leaves the index at once. */
  async setStatus(record: FactRecord, status: FactStatus, reason: string | null): Promise<void> {
    await this.facts.updateOne({ _id: record._id, tenant_id: record.tenant_id, subject_id: record.subject_id }, { $set: { status, status_reason: reason } });
    if (status === "active") await this.index(record.tenant_id, record.subject_id, entryOf(record));
    else await this.unindex(record);
  }

  /** Undo of setStatus: the status the fact had when it was read. Idempotent. */
  async restoreStatus(record: FactRecord): Promise<void> {
    await this.setStatus(record, record.status, record.status_reason);
  }

  /** Adds an entry to its subject's index unless it is there (idempotent, so an undo can run it again). */
  private async index(tenant: string, subject: string, entry: StoredEntry): Promise<void> {
    const _id = subjectDocId(tenant, subject);
    for (let attempt = 0; attempt < 20; attempt++) {
      const index = await this.subjects.findOne({ _id });
      if (index?.facts.some((f) => f.memory_id === entry.memory_id)) return;
      if (!index) {
        try {
          await this.subjects.insertOne({ _id, tenant_id: tenant, subject_id: subject, facts: [entry], rev: 1 });
          return;
        } catch (error) {
          if (!isDuplicateKey(error)) throw error;
          continue;
        }
      }
      const result = await this.subjects.updateOne({ _id, rev: index.rev }, { $push: { facts: entry }, $inc: { rev: 1 } });
      if (result.matchedCount === 1) return;
    }
    throw new Error("subject index: too many concurrent changes");
  }

  /** Takes a fact out of its subject's index: read, filter, write if nobody wrote meanwhile. */
  private async unindex(record: Pick<FactRecord, "tenant_id" | "subject_id" | "memory_id">): Promise<void> {
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

  // ---------------------------------------------------------------- proposals and heads

  async insertProposal(record: ProposalRecord): Promise<void> {
    await this.withDue(dueOf(record.tenant_id, record.subject_id, record.proposal_id, "write", record.created_at), () => this.proposals.insertOne(record));
    await this.lists.add(listOf(COMPANION_COLLECTIONS.proposals, record.tenant_id, record.subject_id), [record._id]);
  }

  private async listFact(record: Pick<FactRecord, "_id" | "tenant_id" | "subject_id">): Promise<void> {
    await Promise.all([
      this.lists.add(listOf(COMPANION_COLLECTIONS.facts, record.tenant_id, record.subject_id), [record._id]),
      this.lists.add(listOf(COMPANION_COLLECTIONS.facts, record.tenant_id, "*"), [record._id]),
    ]);
  }

  async removeProposal(record: ProposalRecord): Promise<void> {
    await this.proposals.deleteOne({ _id: record._id, tenant_id: record.tenant_id, subject_id: record.subject_id });
    await this.due.remove(dueId(record._id, "write"));
  }

  /** The proposal's lifecycle only (pending -> applied); its content never changes. */
  async setProposalStatus(record: ProposalRecord, status: ProposalRecord["status"]): Promise<void> {
    await this.proposals.updateOne({ _id: record._id, tenant_id: record.tenant_id, subject_id: record.subject_id }, { $set: { status } });
  }

  /** Writes the head (its undo is restoreHead with the head as it was read). */
  async putHead(head: HeadRecord): Promise<void> {
    await upsert(() => this.heads.replaceOne({ _id: head._id }, head, { upsert: true }));
    // Once per head (this process remembers the heads it listed): erasure finds the subject's heads by `_id`.
    if (!this.listedHeads.has(head._id)) {
      await this.lists.add(listOf(COMPANION_COLLECTIONS.heads, head.tenant_id, head.subject_id), [head._id]);
      if (this.listedHeads.size >= 100_000) this.listedHeads.clear();
      this.listedHeads.add(head._id);
    }
  }

  /** The subject's heads (erasure), by `_id` from its list. */
  private async subjectHeads(tenant: string, subject: string): Promise<HeadRecord[]> {
    const heads = await this.byIds(this.heads, await this.lists.entries(listOf(COMPANION_COLLECTIONS.heads, tenant, subject)));
    return heads.filter((h) => h.tenant_id === tenant && h.subject_id === subject);
  }

  /** Undo of putHead: the head as it was read (or none). */
  async restoreHead(id: string, previous: HeadRecord | null): Promise<void> {
    if (previous) await this.putHead(previous);
    else await this.heads.deleteOne({ _id: id });
  }

  // ---------------------------------------------------------------- privacy

  /** The subject's head key, created on its first write (no content: a random key). */
  async ensureKey(tenant: string, subject: string, now: Date): Promise<string> {
    const _id = subjectDocId(tenant, subject);
    const fresh = randomBytes(32).toString("hex");
    await this.insertPrivacy(_id, { ...this.defaults(tenant, subject, now), generation: 0, head_key: fresh });
    await this.privacyRecords.updateOne({ _id, head_key: { $exists: false } }, { $set: { head_key: fresh } });
    const stored = await this.privacyRecords.findOne({ _id }, { projection: { head_key: 1 } });
    if (!stored?.head_key) throw new Error("companion: the subject's head key could not be created");
    return stored.head_key;
  }

  /**
   * Inserts the subject's privacy record unless it exists. Not an upsert with $setOnInsert:
   * this FerretDB drops null and [] values from $setOnInsert, and the integrity hash covers them.
   */
  private async insertPrivacy(_id: string, record: Omit<PrivacyRecord, "_id">): Promise<boolean> {
    try {
      await this.privacyRecords.insertOne({ _id, ...record });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  private defaults(tenant: string, subject: string, now: Date): Omit<PrivacyRecord, "_id" | "generation" | "head_key"> {
    const { _id: _ignored, ...sealed } = sealPrivacy({
      _id: subjectDocId(tenant, subject),
      tenant_id: tenant,
      subject_id: subject,
      ...DEFAULT_PRIVACY,
      share_with: [],
      updated_at: now,
      generation: 0,
    });
    const { generation: _g, ...rest } = sealed;
    return rest;
  }

  /** The record as stored now (for an undo). */
  async privacyRecord(tenant: string, subject: string): Promise<PrivacyRecord | null> {
    return this.checkedPrivacy(await this.privacyRecords.findOne({ _id: subjectDocId(tenant, subject) }));
  }

  /** New settings; the generation moves on, so every process's cached envelopes of the subject are stale at once. */
  async putPrivacy(tenant: string, subject: string, settings: PrivacySettings, now: Date): Promise<void> {
    const {
      _id,
      generation: _g,
      ...fields
    } = sealPrivacy({ _id: subjectDocId(tenant, subject), tenant_id: tenant, subject_id: subject, ...settings, updated_at: now, generation: 0 });
    await upsert(() => this.privacyRecords.updateOne({ _id }, { $set: fields, $inc: { generation: 1 } }, { upsert: true }));
  }

  /** Undo of putPrivacy: the settings as they were (or the defaults); the generation moves on again, never back. */
  async restorePrivacy(tenant: string, subject: string, previous: PrivacyRecord | null, now: Date): Promise<void> {
    const _id = subjectDocId(tenant, subject);
    let fields: Omit<PrivacyRecord, "_id" | "generation" | "head_key"> = this.defaults(tenant, subject, now);
    if (previous) {
      const { _id: _i, generation: _g, head_key: _k, ...stored } = previous;
      fields = stored;
    }
    await this.privacyRecords.updateOne({ _id }, { $set: fields, $inc: { generation: 1 } });
  }

  /** Forgetting, erasure, consolidation: cached envelopes of the subject are stale from now on, everywhere. */
  async bumpGeneration(tenant: string, subject: string, now: Date): Promise<void> {
    const _id = subjectDocId(tenant, subject);
    for (let attempt = 0; attempt < 3; attempt++) {
      if ((await this.privacyRecords.updateOne({ _id }, { $inc: { generation: 1 } })).matchedCount === 1) return;
      if (await this.insertPrivacy(_id, { ...this.defaults(tenant, subject, now), generation: 1 })) return;
    }
    throw new Error("companion: the subject's privacy record could not be written");
  }

  // ---------------------------------------------------------------- erasure (SPEC D1)

  /**
   * Ids of every fact and proposal of the subject that still holds content. Not checked
   * against integrity hashes: a damaged record must not keep its content from being erased.
   */
  async subjectObjects(tenant: string, subject: string): Promise<{ facts: string[]; proposals: string[] }> {
    const [factIds, proposalIds] = await this.lists.entriesOf([
      listOf(COMPANION_COLLECTIONS.facts, tenant, subject),
      listOf(COMPANION_COLLECTIONS.proposals, tenant, subject),
    ]);
    const [facts, proposals] = await Promise.all([this.byIds(this.facts, factIds), this.byIds(this.proposals, proposalIds)]).then(
      ([f, p]) => [f.filter((o) => o.status !== "erased"), p.filter((o) => o.status !== "erased")] as const,
    );
    return { facts: facts.map((f) => f.memory_id).sort(), proposals: proposals.map((p) => p.proposal_id).sort() };
  }

  /**
   * Removes one object's content: text, source refs, salt; its entry in the envelope index;
   * and every head that points at it (a head's `_id` fingerprints the content under the
   * subject's key). Leaves a tombstone with identity, status "erased" and the mark.
   * `onSnapshot` gets what was there (the undo) before anything is written; null when the
   * store does not hold the object.
   */
  async eraseObject(tenant: string, subject: string, objectId: string, mark: ErasureMark, onSnapshot?: (snapshot: Snapshot) => void): Promise<Snapshot | null> {
    const _id = objectDocId(tenant, subject, objectId);
    const snapshot: Snapshot = { facts: [], proposals: [], heads: [], privacy: null, index: null };
    if (isFactId(objectId)) {
      const fact = await this.facts.findOne({ _id, tenant_id: tenant, subject_id: subject });
      if (!fact) return null;
      snapshot.facts.push(fact);
      snapshot.heads = (await this.subjectHeads(tenant, subject)).filter((h) => h.active_id === objectId);
      onSnapshot?.(snapshot);
      const { _id: _i, provenance: _p, integrity_hash: _h, ...body } = erasedBody(fact);
      const tombstone = sealFact({ _id, ...body, status: "erased", status_reason: "erased", erasure: mark });
      await this.due.add(dueOf(tenant, subject, objectId, "erasure", new Date(mark.at)));
      await this.facts.replaceOne({ _id }, tombstone);
      await this.unindex(fact);
    } else if (isProposalId(objectId)) {
      const proposal = await this.proposals.findOne({ _id, tenant_id: tenant, subject_id: subject });
      if (!proposal) return null;
      snapshot.proposals.push(proposal);
      snapshot.heads = (await this.subjectHeads(tenant, subject)).filter((h) => h.proposal_id === objectId);
      onSnapshot?.(snapshot);
      const { _id: _i, provenance: _p, integrity_hash: _h, ...rest } = proposal;
      const tombstone = sealProposal({ _id, ...rest, fact: erasedBody(proposal.fact), status: "erased", erasure: mark });
      await this.due.add(dueOf(tenant, subject, objectId, "erasure", new Date(mark.at)));
      await this.proposals.replaceOne({ _id }, tombstone);
    } else {
      return null;
    }
    if (snapshot.heads.length > 0) await this.heads.deleteMany({ _id: { $in: snapshot.heads.map((h) => h._id) } });
    return snapshot;
  }

  /**
   * After every object of the subject is erased: the subject's head key is destroyed (so no
   * head id can be recomputed), every remaining head and the envelope index go.
   */
  async eraseSubjectKeys(tenant: string, subject: string, now: Date, onSnapshot?: (snapshot: Snapshot) => void): Promise<Snapshot> {
    const _id = subjectDocId(tenant, subject);
    const snapshot: Snapshot = {
      facts: [],
      proposals: [],
      heads: await this.subjectHeads(tenant, subject),
      privacy: await this.privacyRecords.findOne({ _id }),
      index: await this.subjects.findOne({ _id }),
    };
    onSnapshot?.(snapshot);
    if (snapshot.heads.length > 0) await this.heads.deleteMany({ _id: { $in: snapshot.heads.map((h) => h._id) } });
    await this.privacyRecords.updateOne({ _id }, { $unset: { head_key: "" } });
    if (snapshot.index) await this.subjects.updateOne({ _id }, { $set: { facts: [] }, $inc: { rev: 1 } });
    await this.bumpGeneration(tenant, subject, now);
    return snapshot;
  }

  /** Undo of an erasure whose event could not be written: every document as it was. */
  async restore(snapshot: Snapshot): Promise<void> {
    for (const object of [...snapshot.facts, ...snapshot.proposals]) await this.due.remove(dueId(object._id, "erasure"));
    for (const fact of snapshot.facts) {
      await this.facts.replaceOne({ _id: fact._id }, fact, { upsert: true });
      if (fact.status === "active") await this.index(fact.tenant_id, fact.subject_id, entryOf(fact));
    }
    for (const proposal of snapshot.proposals) await this.proposals.replaceOne({ _id: proposal._id }, proposal, { upsert: true });
    for (const head of snapshot.heads) await this.heads.replaceOne({ _id: head._id }, head, { upsert: true });
    if (snapshot.privacy?.head_key)
      await this.privacyRecords.updateOne({ _id: snapshot.privacy._id }, { $set: { head_key: snapshot.privacy.head_key }, $inc: { generation: 1 } });
    for (const entry of snapshot.index?.facts ?? []) await this.index(entry.tenant_id, entry.subject_id, entry);
  }

  // ---------------------------------------------------------------- ContractStore

  async erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean> {
    const snapshot = await this.eraseObject(tenantId, subjectId, objectId, mark);
    if (snapshot) await this.bumpGeneration(tenantId, subjectId, new Date(mark.at));
    return snapshot !== null;
  }

  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const { facts, proposals } = await this.subjectObjects(tenantId, subjectId);
    return [...facts, ...proposals].sort();
  }

  async lookup(tenantId: string, subjectId: string, objectId: string): Promise<{ found: boolean; erased: boolean }> {
    const _id = objectDocId(tenantId, subjectId, objectId);
    const found = isFactId(objectId)
      ? await this.facts.findOne({ _id, tenant_id: tenantId, subject_id: subjectId }, { projection: { status: 1 } })
      : isProposalId(objectId)
        ? await this.proposals.findOne({ _id, tenant_id: tenantId, subject_id: subjectId }, { projection: { status: 1 } })
        : null;
    return { found: found !== null, erased: found?.status === "erased" };
  }

  /**
   * From the due marks (a small collection), each checked against its object by `_id`: a mark
   * whose object is not (or no longer) in the state it announces never landed, and goes once old.
   */
  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const objects: UnsettledObject[] = [];
    for (const mark of await this.due.oldest(limit)) {
      const _id = objectDocId(mark.tenant_id, mark.subject_id, mark.object_id);
      const fact = isFactId(mark.object_id) ? await this.facts.findOne({ _id }) : null;
      const proposal = isProposalId(mark.object_id) ? await this.proposals.findOne({ _id }) : null;
      const object = fact ?? proposal;
      const announced = mark.kind === "erasure" ? object?.erasure !== undefined && object.erasure.logged_seq === undefined : object !== null && !object.erasure;
      if (announced && fact) {
        objects.push(this.unsettledFact(fact));
      } else if (announced && proposal) {
        objects.push(this.unsettledProposal(proposal));
      } else if (this.clock.now().getTime() - mark.written_at.getTime() > STALE_DUE_MS) {
        await this.due.remove(mark._id);
      }
    }
    return objects;
  }

  private unsettledFact(fact: FactRecord): UnsettledObject {
    const created = fact.statement_type === "ConsolidatedStatement" ? "consolidate" : "create";
    return this.unsettledOf(fact.tenant_id, fact.subject_id, fact.memory_id, fact.created_at, fact, fact.erasure, created, "SUCCESS_STORED");
  }

  private unsettledProposal(proposal: ProposalRecord): UnsettledObject {
    return this.unsettledOf(
      proposal.tenant_id,
      proposal.subject_id,
      proposal.proposal_id,
      proposal.created_at,
      proposal.fact,
      proposal.erasure,
      "create",
      "MISSING_EXPLICIT_CONSENT",
    );
  }

  private unsettledOf(
    tenantId: string,
    subjectId: string,
    objectId: string,
    createdAt: Date,
    body: { content_salt: string | null; type: string; text: string; statement_type: string },
    erasure: ErasureMark | undefined,
    created: "create" | "consolidate",
    stopReason: string,
  ): UnsettledObject {
    if (erasure && erasure.logged_seq === undefined) {
      return {
        tenantId,
        subjectId,
        objectId,
        writtenAt: new Date(erasure.at),
        kind: "erasure",
        version: null,
        missing: {
          event_type: "erase",
          operation: erasure.operation,
          stop_reason: "SUCCESS_DELETED",
          content_digest: null,
          metadata: { reason: erasure.reason },
        },
      };
    }
    return {
      tenantId,
      subjectId,
      objectId,
      writtenAt: createdAt,
      kind: "write",
      version: null,
      missing: {
        event_type: created,
        operation: created === "consolidate" ? "CONSOLIDATE" : "ADD_FACT",
        stop_reason: stopReason,
        content_digest: factDigest(body),
        metadata: { type: body.type, statement_type: body.statement_type },
      },
    };
  }

  async settle(object: UnsettledObject, seq: number, repaired = false): Promise<void> {
    // A write the repair completed may have stopped before its list entries: added again (readers read an entry once).
    if (repaired && object.kind === "write") await this.relist(object.tenantId, object.subjectId, object.objectId);
    await this.markErasureLogged(object, seq);
    await this.due.remove(dueId(objectDocId(object.tenantId, object.subjectId, object.objectId), object.kind));
  }

  /**
   * The object's event is in the log at `seq` (off the request path): its due mark goes,
   * grouped with concurrent ones; an erasure also records the seq on its tombstone.
   */
  async settleObject(kind: UnsettledObject["kind"], tenantId: string, subjectId: string, objectId: string, seq: number): Promise<void> {
    const id = dueId(objectDocId(tenantId, subjectId, objectId), kind);
    // A write: known settled here before the answer leaves, so the writer reads it without a lookup.
    if (kind === "write") return this.due.settled(id);
    await this.markErasureLogged({ kind, tenantId, subjectId, objectId }, seq);
    await this.due.settled(id);
  }

  private async relist(tenant: string, subject: string, objectId: string): Promise<void> {
    const _id = objectDocId(tenant, subject, objectId);
    if (isFactId(objectId) && (await this.facts.findOne({ _id }, { projection: { _id: 1 } })))
      await this.listFact({ _id, tenant_id: tenant, subject_id: subject });
    if (isProposalId(objectId) && (await this.proposals.findOne({ _id }, { projection: { _id: 1 } })))
      await this.lists.add(listOf(COMPANION_COLLECTIONS.proposals, tenant, subject), [_id]);
  }

  private async markErasureLogged(object: Pick<UnsettledObject, "kind" | "tenantId" | "subjectId" | "objectId">, seq: number): Promise<void> {
    if (object.kind !== "erasure") return;
    const collection = (isProposalId(object.objectId) ? this.proposals : this.facts) as unknown as Collection<{ _id: string }>;
    await collection.updateOne({ _id: objectDocId(object.tenantId, object.subjectId, object.objectId) }, { $set: { "erasure.logged_seq": seq } });
  }
}

/** A subject's (or with "*", the tenant's) list of one collection's `_id`s. */
const listOf = (collection: string, tenantId: string, scope: string): IdListRef => ({ collection, tenantId, scope, list: "ids" });

/** The companion's due marks (src/store/due-marks.ts). */
export const COMPANION_DUE_EVENTS = "companion_due_events";
/** A due mark whose object is not in the state it announces after this long never landed: it is dropped. */
const STALE_DUE_MS = 60_000;

const dueId = (docId: string, kind: DueMark["kind"]): string => `${docId}|${kind}`;

/** A fact's, proposal's or index entry's write mark, for reads (an erased object is no live content). */
const createdDue: DueOf<{ tenant_id: string; subject_id: string; created_at: Date; memory_id?: string; proposal_id?: string; erasure?: ErasureMark }> = (o) =>
  o.erasure ? null : { id: dueId(objectDocId(o.tenant_id, o.subject_id, (o.memory_id ?? o.proposal_id)!), "write"), writtenAt: o.created_at };

function dueOf(tenantId: string, subjectId: string, objectId: string, kind: DueMark["kind"], at: Date): DueMark {
  return {
    _id: dueId(objectDocId(tenantId, subjectId, objectId), kind),
    tenant_id: tenantId,
    subject_id: subjectId,
    object_id: objectId,
    kind,
    version: null,
    written_at: at,
  };
}
