import type { Collection, Document } from "mongodb";
import { nestedFields, storedTexts } from "../../kernel/declaration";
import type { QuarantineMark, RejudgeCandidate, RejudgeTarget, Released } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { quarantinedSubject, tenantBatch } from "../../store/quarantined";
import { UPDATE_FIELDS, WRITE_FIELDS } from "./fields";
import type { AgentIndexCache } from "./index-cache";
import {
  AGENT_COLLECTIONS,
  agentMemoryDocId,
  sealDynamic,
  sealMemory,
  sealUpdate,
  type AgentMemoryRecord,
  type AgentMemoryUpdateRecord,
  type DynamicValue,
} from "./records";

type Quarantinable = AgentMemoryRecord & { quarantine?: QuarantineMark };
type QuarantinableUpdate = AgentMemoryUpdateRecord & { quarantine?: QuarantineMark };

const DYNAMIC = ["truth", "utility"] as const;
const MEMORY_FIELDS = nestedFields(WRITE_FIELDS, "memory");
const UPDATES_FIELDS = nestedFields(UPDATE_FIELDS, "updates");

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
    const batch = await tenantBatch(this.memories, tenantId, after, limit, {
      _id: 1,
      subject_id: 1,
      memory_id: 1,
      space: 1,
      kind: 1,
      text: 1,
      rationale: 1,
      evidence_refs: 1,
      status: 1,
    });
    return batch.map((m) => ({
      docId: m._id,
      objectId: m.memory_id,
      subjectId: m.subject_id,
      // The memory's stored text by the names its write declared (memory.text, memory.rationale, memory.evidence_refs[i]).
      texts: m.status === "active" ? storedTexts(MEMORY_FIELDS, m, "memory.") : ({} as Record<string, string>),
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

/** The free text an update set, by the field names its write declared (updates.truth.rationale ...). */
const updateTexts = (update: AgentMemoryUpdateRecord): Record<string, string> => storedTexts(UPDATES_FIELDS, update.after, "updates.");

/** A dynamic value without its update's words (the numbers stay: ranking is not content), as erasure leaves one. */
const withoutWords = (value: DynamicValue): DynamicValue => sealDynamic({ ...value, rationale: "", evidence_refs: [] });

/**
 * Agent memory update records (agent_memory_updates) under re-audit (issue 13 item 5). No
 * read returns an update record itself; its rationale and evidence refs are returned where
 * the memory's current truth or utility carries them (every read, the UPDATE answer's
 * `before`). A refused update is re-sealed `quarantined` (its status is inside its hash) and
 * the memory's truth or utility that carries it loses its words, as erasure of the update
 * does, keeping its numbers; a release puts back the value the update set, unless a later
 * update replaced it meanwhile. The events name the update id with the memory's space and id,
 * so every process's index reloads the memory (index-cache.ts).
 */
export class AgentUpdateRejudge implements RejudgeTarget {
  readonly contract = "agent";
  readonly kind = "agent-updates";
  private readonly updates: Collection<QuarantinableUpdate>;
  private readonly memories: Collection<AgentMemoryRecord>;

  constructor(
    db: Database,
    private readonly indexes: AgentIndexCache,
  ) {
    this.updates = db.collection<QuarantinableUpdate>(AGENT_COLLECTIONS.updates);
    this.memories = db.collection<AgentMemoryRecord>(AGENT_COLLECTIONS.memories);
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.updates, tenantId, after, limit, { _id: 1, subject_id: 1, update_id: 1, memory_id: 1, space: 1, after: 1, status: 1 });
    return batch.map((u) => ({
      docId: u._id,
      objectId: u.update_id,
      subjectId: u.subject_id,
      texts: u.status === "active" ? updateTexts(u) : ({} as Record<string, string>),
      metadata: { space: u.space, of_memory: u.memory_id },
    }));
  }

  async quarantine(_tenantId: string, candidate: RejudgeCandidate, mark: QuarantineMark): Promise<boolean> {
    const current = await this.updates.findOne({ _id: candidate.docId, status: "active" });
    if (!current) return false;
    const { quarantine: _q, ...record } = current;
    const sealed = sealUpdate({ ...record, status: "quarantined" });
    const result = await this.updates.replaceOne({ _id: current._id, status: "active" }, { ...sealed, quarantine: { ...mark, previous_status: "active" } });
    if (result.modifiedCount !== 1) return false;
    await this.setCarried(current, (value) => withoutWords(value));
    await this.indexes.refresh(current.tenant_id, current.space, current.memory_id);
    return true;
  }

  async quarantined(tenantId: string, objectId: string, subjectId: string | null): Promise<{ subjectId: string } | null> {
    return quarantinedSubject(this.updates as unknown as Collection<Document>, { tenantId, idField: "update_id", objectId, subjectId });
  }

  async release(tenantId: string, objectId: string, subjectId: string | null): Promise<Released | null> {
    const found = await this.updates.findOne({
      tenant_id: tenantId,
      update_id: objectId,
      status: "quarantined",
      ...(subjectId ? { subject_id: subjectId } : {}),
    });
    if (!found?.quarantine) return null;
    const { quarantine, ...record } = found;
    const sealed = sealUpdate({ ...record, status: quarantine.previous_status as AgentMemoryUpdateRecord["status"] });
    const result = await this.updates.replaceOne({ _id: found._id, status: "quarantined" }, sealed);
    if (result.modifiedCount !== 1) return null;
    await this.setCarried(found, (_value, field) => found.after[field]!);
    await this.indexes.refresh(tenantId, found.space, found.memory_id);
    return { subjectId: found.subject_id, metadata: { space: found.space, of_memory: found.memory_id } };
  }

  /** Replaces the memory's truth / utility where it still carries this update (a later update's value is left alone). */
  private async setCarried(update: AgentMemoryUpdateRecord, next: (value: DynamicValue, field: (typeof DYNAMIC)[number]) => DynamicValue): Promise<void> {
    const _id = agentMemoryDocId(update.tenant_id, update.space, update.memory_id);
    for (const field of DYNAMIC) {
      const value = update.after[field];
      if (!value) continue;
      await this.memories.updateOne(
        { _id, tenant_id: update.tenant_id, [`${field}.update_id`]: update.update_id, [`${field}.erased`]: false },
        { $set: { [field]: next(value, field) } },
      );
    }
  }
}
