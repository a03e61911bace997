import type { Collection, Db } from "mongodb";
import { COLLECTIONS } from "./database";
import { eventDocId } from "./ids";
import type { MemoryEvent } from "./event-log";

/** The space of a memory: one repository of a tenant, or the tenant's global space. */
export const GLOBAL_SPACE = "global";
export const repoSpace = (repoId: string): string => `repo:${repoId}`;

/** A dynamic value of seed 001 (truth or utility) as last set by an update. */
export interface DynamicValue {
  target: number;
  confidence: number;
  rationale: string;
  evidence_refs: string[];
  context_problem_id?: string | null;
  updated_at: Date;
  update_id: string;
}

/** An agent memory as stored (seed 001 `memory.write.request`). Text, kind and links never change. */
export interface AgentMemoryRecord {
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
  /** Dynamic values (SPEC D2: the only things changed in place). */
  truth: DynamicValue | null;
  utility: DynamicValue | null;
  /** IF1-CHANGE: the change memory that invalidated this one, if any. */
  invalidated_by: string | null;
  status: "active";
  created_at: Date;
  updated_at: Date;
  created_by: { id: string; roles: string[] };
  content_salt: string;
}

/** One committed IF1-UPDATE with its rationale and evidence, verbatim; events commit to its digest. */
export interface AgentMemoryUpdateRecord {
  _id: string;
  tenant_id: string;
  space: string;
  memory_id: string;
  update_id: string;
  decision_id: string;
  before: { truth: DynamicValue | null; utility: DynamicValue | null };
  after: { truth: DynamicValue | null; utility: DynamicValue | null };
  created_at: Date;
  created_by: { id: string; roles: string[] };
}

const part = (value: string): string => encodeURIComponent(value);

/** Deterministic `_id`: a lookup by (tenant, space, memory id) is a primary-key read. */
export function agentMemoryDocId(tenantId: string, space: string, memoryId: string): string {
  return `${part(tenantId)}:${part(space)}:${part(memoryId)}`;
}

/** Storage of agent memories. Every query names the tenant; nothing here knows GraphQL or HTTP. */
export class AgentMemoryRepository {
  private readonly memories: Collection<AgentMemoryRecord>;
  private readonly updates: Collection<AgentMemoryUpdateRecord>;
  private readonly events: Collection<MemoryEvent>;
  private readonly heads: Collection<{ _id: string; seq: number }>;

  constructor(db: Db) {
    this.memories = db.collection<AgentMemoryRecord>(COLLECTIONS.agentMemories);
    this.updates = db.collection<AgentMemoryUpdateRecord>(COLLECTIONS.agentMemoryUpdates);
    this.events = db.collection<MemoryEvent>(COLLECTIONS.events);
    this.heads = db.collection<{ _id: string; seq: number }>(COLLECTIONS.chainHeads);
  }

  get(tenantId: string, space: string, memoryId: string): Promise<AgentMemoryRecord | null> {
    return this.memories.findOne({ _id: agentMemoryDocId(tenantId, space, memoryId) });
  }

  /** Every agent memory of a tenant: used once per process to build its in-memory index. */
  allOfTenant(tenantId: string): Promise<AgentMemoryRecord[]> {
    return this.memories.find({ tenant_id: tenantId }).toArray();
  }

  async insert(record: AgentMemoryRecord): Promise<void> {
    await this.memories.insertOne(record);
  }

  async remove(record: AgentMemoryRecord): Promise<void> {
    await this.memories.deleteOne({ _id: record._id });
  }

  /** IF1-CHANGE: a status-like dynamic value, set in place (SPEC D2). */
  async setInvalidatedBy(tenantId: string, space: string, memoryId: string, changeId: string | null, now: Date): Promise<void> {
    await this.memories.updateOne({ _id: agentMemoryDocId(tenantId, space, memoryId) }, { $set: { invalidated_by: changeId, updated_at: now } });
  }

  /** IF1-UPDATE commit: truth and/or utility in place (SPEC D2); text is never touched. */
  async setDynamic(
    tenantId: string,
    space: string,
    memoryId: string,
    values: { truth: DynamicValue | null; utility: DynamicValue | null },
    now: Date,
  ): Promise<void> {
    await this.memories.updateOne(
      { _id: agentMemoryDocId(tenantId, space, memoryId) },
      { $set: { truth: values.truth, utility: values.utility, updated_at: now } },
    );
  }

  async insertUpdate(update: AgentMemoryUpdateRecord): Promise<void> {
    await this.updates.insertOne(update);
  }

  async removeUpdate(update: AgentMemoryUpdateRecord): Promise<void> {
    await this.updates.deleteOne({ _id: update._id });
  }

  /**
   * The seq of the tenant's chain head document (0: none yet). It may lag the newest event
   * by one batch. A hit on a tiny collection: on FerretDB/SQLite an `_id` miss costs a large
   * share of a scan, so freshness is probed here and events are then read by existing `_id`s.
   */
  async headSeq(tenantId: string): Promise<number> {
    return (await this.heads.findOne({ _id: tenantId }, { projection: { seq: 1 } }))?.seq ?? 0;
  }

  /** The event of a tenant's chain at `seq`, by `_id` (a primary-key read), or null past the head. */
  eventAt(tenantId: string, seq: number): Promise<MemoryEvent | null> {
    return this.events.findOne({ _id: eventDocId(tenantId, seq) });
  }
}
