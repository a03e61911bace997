import type { Collection, Document } from "mongodb";
import { tenantIdRange, type QuarantineMark, type RejudgeCandidate, type RejudgeTarget, type Released } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { quarantinedSubject } from "../../store/quarantined";
import type { AgentIndexCache } from "./index-cache";
import { AGENT_COLLECTIONS, sealMemory, type AgentMemoryRecord } from "./records";

type Quarantinable = AgentMemoryRecord & { quarantine?: QuarantineMark };

/**
 * Agent memories under re-audit (issue 13 item 5). A memory's status is inside its integrity
 * hash, so a quarantine or a release re-seals it. The `quarantine` and `release` events carry
 * the memory's space: every other process's index (index-cache.ts) reloads the memory from
 * them and leaves a non-active one out of every read; this process's index is refreshed at once.
 */
export class AgentRejudge implements RejudgeTarget {
  readonly contract = "agent";
  readonly kind = "agent-memories";
  private readonly memories: Collection<Quarantinable>;

  constructor(
    db: Database,
    private readonly indexes: AgentIndexCache,
  ) {
    this.memories = db.collection<Quarantinable>(AGENT_COLLECTIONS.memories);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await this.memories
      .find(
        { _id: tenantIdRange(tenantId, after) },
        { projection: { _id: 1, subject_id: 1, memory_id: 1, space: 1, kind: 1, text: 1, rationale: 1, status: 1 } },
      )
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
    return batch.map((m) => ({
      docId: m._id,
      objectId: m.memory_id,
      subjectId: m.subject_id,
      texts: m.status === "active" ? { "memory.text": m.text, ...(m.rationale ? { "memory.rationale": m.rationale } : {}) } : ({} as Record<string, string>),
      metadata: { space: m.space, memory_kind: m.kind },
    }));
  }

  async quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const current = await this.memories.findOne({ _id: candidate.docId, status: "active" });
    if (!current) return false;
    const sealed = sealMemory({ ...current, status: "quarantined" });
    const result = await this.memories.replaceOne({ _id: current._id, status: "active" }, { ...sealed, quarantine: { ...mark, previous_status: "active" } });
    await this.indexes.refresh(current.tenant_id, current.space, current.memory_id);
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
    const { quarantine, ...record } = found;
    const sealed = sealMemory({ ...record, status: quarantine.previous_status as AgentMemoryRecord["status"] });
    const result = await this.memories.replaceOne({ _id: found._id, status: "quarantined" }, sealed);
    await this.indexes.refresh(tenantId, found.space, objectId);
    return result.modifiedCount === 1 ? { subjectId: found.subject_id, metadata: { space: found.space } } : null;
  }
}
