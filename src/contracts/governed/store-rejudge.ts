import type { Collection, Document } from "mongodb";
import { tenantIdRange, type QuarantineMark, type RejudgeCandidate, type RejudgeTarget, type Released } from "../../kernel/rejudge";
import { COLLECTIONS, type Database } from "../../store/database";
import { quarantinedSubject } from "../../store/quarantined";
import type { MemoryRecord } from "./store";

type Quarantinable = MemoryRecord & { quarantine?: QuarantineMark };

/**
 * Governed items under re-audit (issue 13 item 5): an active item the policy now refuses
 * becomes `quarantined`, which READ, LIST, UPDATE and DELETE treat like any non-active item
 * (NOT_FOUND, checks/target). `status` is outside the item's integrity hash.
 */
export class GovernedRejudge implements RejudgeTarget {
  readonly contract = "governed";
  readonly kind = "governed-memories";
  private readonly memories: Collection<Quarantinable>;

  constructor(db: Database) {
    this.memories = db.collection<Quarantinable>(COLLECTIONS.memories);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await this.memories
      .find({ _id: tenantIdRange(tenantId, after) }, { projection: { _id: 1, subject_id: 1, memory_id: 1, key: 1, value: 1, status: 1 } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return batch.map((m) => ({
      docId: m._id,
      objectId: m.memory_id,
      subjectId: m.subject_id,
      // Only live items are judged; the others keep their place in the walk with nothing to judge.
      texts: m.status === "active" ? { key: m.key, value: m.value } : ({} as Record<string, string>),
    }));
  }

  async quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const result = await this.memories.updateOne(
      { _id: candidate.docId, status: "active" },
      { $set: { status: "quarantined", quarantine: { ...mark, previous_status: "active" } } },
    );
    return result.modifiedCount === 1;
  }

  async quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.memories as unknown as Collection<Document>, { tenantId, idField: "memory_id", objectId, subjectId });
  }

  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    const found = await this.memories.findOne({
      tenant_id: tenantId,
      memory_id: objectId,
      status: "quarantined",
      ...(subjectId ? { subject_id: subjectId } : {}),
    });
    if (!found?.quarantine) return null;
    const result = await this.memories.updateOne(
      { _id: found._id, status: "quarantined" },
      { $set: { status: found.quarantine.previous_status as MemoryRecord["status"] }, $unset: { quarantine: "" } },
    );
    return result.modifiedCount === 1 ? { subjectId: found.subject_id } : null;
  }
}
