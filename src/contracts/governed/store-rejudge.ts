import type { Collection, Document } from "mongodb";
import { erasedFields, storedTexts } from "../../kernel/declaration";
import { HeldRejudgeTarget, type QuarantineMark, type RejudgeCandidate, type RejudgeTarget, type Released } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { GOVERNED_COLLECTIONS } from "./records";
import { quarantinedSubject, StatusQuarantine, tenantBatch } from "../../store/quarantined";
import { STORE_FIELDS } from "./fields";
import type { MemoryRecord, MemoryVersionRecord } from "./store";

type Quarantinable = MemoryRecord & { quarantine?: QuarantineMark };

/** The free text a governed write stored, by declared name (fields.ts: key, value, source_ref, consent.evidence_ref, ...). */
const itemTexts = (item: MemoryRecord | QuarantinableVersion): Record<string, string> => storedTexts(STORE_FIELDS, item);

/** Identity, status and every stored field STORE declares (a text field added there is read with no edit here). */
const ITEM_PROJECTION = {
  _id: 1,
  subject_id: 1,
  memory_id: 1,
  status: 1,
  ...Object.fromEntries(erasedFields(STORE_FIELDS).map((field) => [field, 1])),
} as const;

/**
 * Governed items under re-audit (issue 13 item 5): an active item the policy now refuses
 * becomes `quarantined`, which READ, LIST, UPDATE and DELETE treat like any non-active item
 * (NOT_FOUND, checks/target). `status` is outside the item's integrity hash.
 */
export class GovernedRejudge extends HeldRejudgeTarget {
  readonly contract = "governed";
  readonly kind = "governed-memories";
  private readonly memories: Collection<Quarantinable>;
  protected readonly held: StatusQuarantine;

  constructor(db: Database) {
    super();
    this.memories = db.collection<Quarantinable>(GOVERNED_COLLECTIONS.memories);
    this.held = new StatusQuarantine(this.memories as unknown as Collection<Document>, { idField: "memory_id", live: "active" });
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.memories, tenantId, after, limit, ITEM_PROJECTION);
    return batch.map((m) => ({
      docId: m._id,
      objectId: m.memory_id,
      subjectId: m.subject_id,
      // Only live items are judged; the others keep their place in the walk with nothing to judge.
      texts: m.status === "active" ? itemTexts(m) : ({} as Record<string, string>),
    }));
  }
}

type QuarantinableVersion = Omit<MemoryVersionRecord, "status"> & {
  status: MemoryVersionRecord["status"] | "quarantined" | "erased";
  quarantine?: QuarantineMark;
};

/**
 * Superseded governed versions (memory_versions, SPEC D2) under re-audit: each keeps the
 * key and value an earlier write stored, so the policy judges them as it judges the live
 * item. No read returns a superseded version today; a refused one is still marked
 * `quarantined` so that any later history read (which must list `superseded` versions only)
 * leaves it out, and so that a release or an erasure finds it. The event and the release
 * name the item's `memory_id` with the version in metadata; a release of that id returns
 * every quarantined version of the item.
 */
export class GovernedVersionRejudge implements RejudgeTarget {
  readonly contract = "governed";
  readonly kind = "governed-versions";
  private readonly versions: Collection<QuarantinableVersion>;

  constructor(db: Database) {
    this.versions = db.collection<QuarantinableVersion>(GOVERNED_COLLECTIONS.memoryVersions);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.versions, tenantId, after, limit, { ...ITEM_PROJECTION, version: 1 });
    return batch.map((v) => ({
      docId: v._id,
      objectId: v.memory_id,
      subjectId: v.subject_id,
      texts: v.status === "superseded" ? itemTexts(v) : ({} as Record<string, string>),
      metadata: { version: v.version },
    }));
  }

  async quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const result = await this.versions.updateOne(
      { _id: candidate.docId, status: "superseded" },
      { $set: { status: "quarantined", quarantine: { ...mark, previous_status: "superseded" } } },
    );
    return result.modifiedCount === 1;
  }

  async quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.versions as unknown as Collection<Document>, { tenantId, idField: "memory_id", objectId, subjectId });
  }

  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    const held = await this.versions
      .find({ tenant_id: tenantId, memory_id: objectId, status: "quarantined", ...(subjectId ? { subject_id: subjectId } : {}) })
      .toArray();
    const released: number[] = [];
    for (const version of held) {
      if (!version.quarantine) continue;
      const result = await this.versions.updateOne(
        { _id: version._id, status: "quarantined" },
        { $set: { status: version.quarantine.previous_status as MemoryVersionRecord["status"] }, $unset: { quarantine: "" } },
      );
      if (result.modifiedCount === 1) released.push(version.version);
    }
    return released.length > 0 ? { subjectId: held[0].subject_id, metadata: { versions: released.sort((a, b) => a - b) } } : null;
  }
}
