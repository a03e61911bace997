import type { EventLog, MemoryEvent } from "../../store/event-log";
import { TenantMemoryIndex } from "./memory-index";
import { MEMORY_ID_PREFIX, UPDATE_ID_PREFIX } from "./records";
import { AGENT_CONTRACT, type AgentStore } from "./store";

/** Event types of the agent contract that change what a memory looks like. */
const CHANGES = new Set<MemoryEvent["event_type"]>(["create", "invalidate", "update", "quarantine", "release"]);

interface TenantEntry {
  index: TenantMemoryIndex;
  /** Every event with seq <= watermark has been applied. */
  watermark: number;
  /** Seqs above the watermark this process applied itself (its own writes). */
  applied: Set<number>;
  catchingUp: Promise<void> | null;
}

/**
 * One in-process index per tenant, within a byte budget (least recently used tenants go first).
 * Built from the database (the tenant's live agent memories by `_id` from its list, each
 * checked against its integrity hash), then kept fresh from the
 * hash-chained event log: before each read, the events after the watermark are fetched by
 * `_id` (primary-key reads) up to the first seq not in the log yet, and the memories they name
 * are reloaded. An `erase` event of an agent object (SPEC D1) takes the
 * memory out (or reloads it without the erased update's words), so several gateway
 * processes sharing one database stop serving erased text once they see the event. This
 * process's own writes and erasures are in its index before their answer is sent.
 */
export class AgentIndexCache {
  /** In least-recently-used order (a Map iterates in insertion order; a use moves the tenant to the end). */
  private readonly tenants = new Map<string, Promise<TenantEntry>>();
  /** The same entries once built, for changes that must reach the index synchronously. */
  private readonly built = new Map<string, TenantEntry>();

  /**
   * `budgetBytes` (MEMGATE_AGENT_INDEX_CACHE_MB): past it, the least recently used tenants'
   * indexes are dropped (never the one just used); a dropped tenant is rebuilt on its next read
   * from its own list of memories (src/store/id-lists.ts), reading no other tenant's.
   */
  constructor(
    private readonly store: AgentStore,
    private readonly events: EventLog,
    private readonly budgetBytes = 256 * 1024 * 1024,
  ) {
    store.onErased((tenantId, memoryIds) => {
      this.reload(tenantId, memoryIds).catch(() => undefined); // the erase event reaches the index on the next read
    });
  }

  /** The tenant's index, up to date with every event in the log at the time of the call. */
  async fresh(tenantId: string): Promise<TenantMemoryIndex> {
    const entry = await this.entry(tenantId);
    entry.catchingUp ??= this.catchUp(tenantId, entry).finally(() => {
      entry.catchingUp = null;
    });
    await entry.catchingUp;
    this.evict(tenantId);
    return entry.index;
  }

  /** What the built indexes hold (estimated: TenantMemoryIndex.bytes), and how many tenants. */
  usage(): { bytes: number; tenants: number } {
    let bytes = 0;
    for (const entry of this.built.values()) bytes += entry.index.bytes;
    return { bytes, tenants: this.built.size };
  }

  /** Drops least recently used tenants until the built ones fit the budget; `keep` (in use now) stays. */
  private evict(keep: string): void {
    let { bytes } = this.usage();
    if (bytes <= this.budgetBytes) return;
    for (const tenantId of [...this.tenants.keys()]) {
      if (bytes <= this.budgetBytes) break;
      const entry = this.built.get(tenantId);
      if (tenantId === keep || !entry) continue; // one being built is not counted yet
      bytes -= entry.index.bytes;
      this.built.delete(tenantId);
      this.tenants.delete(tenantId);
    }
  }

  /** The index as it is, without a trip to the log (for this process's own writes). */
  async current(tenantId: string): Promise<TenantMemoryIndex> {
    return (await this.entry(tenantId)).index;
  }

  /** This process wrote event `seq`: its effect is already in the index. */
  async markApplied(tenantId: string, seq: number): Promise<void> {
    const entry = await this.entry(tenantId);
    if (seq <= entry.watermark) return;
    entry.applied.add(seq);
    while (entry.applied.delete(entry.watermark + 1)) entry.watermark += 1;
  }

  /** A quarantine or its release in this process (issue 13 item 5): the memory as the database has it now, before the answer. */
  async refresh(tenantId: string, space: string, memoryId: string): Promise<void> {
    const entry = this.built.get(tenantId);
    if (!entry) return; // not built yet: the build reads the database as it is
    const record = await this.store.get(tenantId, space, memoryId);
    if (record) entry.index.upsert(record);
    else entry.index.remove(memoryId);
  }

  /**
   * Erasure in this process: the memories leave the index at once (synchronously, before the
   * erasure answers), then are reloaded as the database has them now (a memory whose update
   * was erased comes back without that update's words; an erased one stays out).
   */
  private async reload(tenantId: string, memoryIds: readonly string[]): Promise<void> {
    const entry = this.built.get(tenantId);
    if (!entry) return; // not built yet (or being built): the erase event reaches it on the next read
    const known = memoryIds.map((id) => entry.index.get(id)?.record).filter((r) => r !== undefined);
    for (const id of memoryIds) entry.index.remove(id);
    for (const record of known) {
      const now = await this.store.get(tenantId, record.space, record.memory_id);
      if (now && now.status === "active") entry.index.upsert(now);
    }
  }

  private entry(tenantId: string): Promise<TenantEntry> {
    let entry = this.tenants.get(tenantId);
    if (entry) {
      // Most recently used: last in the eviction order.
      this.tenants.delete(tenantId);
      this.tenants.set(tenantId, entry);
    } else {
      entry = this.build(tenantId);
      this.tenants.set(tenantId, entry);
      const building = entry;
      entry.then(
        // Unless evicted meanwhile (then its next read builds it again).
        (built) => this.tenants.get(tenantId) === building && this.built.set(tenantId, built),
        () => this.tenants.delete(tenantId), // a failed build is retried next time
      );
    }
    return entry;
  }

  private async build(tenantId: string): Promise<TenantEntry> {
    // Head first: an event written during the scan is replayed afterwards (replay is idempotent).
    const head = await this.events.head(tenantId);
    const index = new TenantMemoryIndex();
    for await (const records of this.store.tenantMemories(tenantId)) for (const record of records) index.upsert(record);
    // INV-8: a memory whose create event is not in the log stays out; that event (the writer's, or
    // the repair's once the write is old) comes after `head` and brings it in on a later read. Read
    // after the memories: a write puts its due mark in before its memory, so a memory read above
    // whose event is not in the log still has its mark now.
    for (const memoryId of await this.store.unsettledCreations(tenantId)) index.remove(memoryId);
    return { index, watermark: head.seq, applied: new Set(), catchingUp: null };
  }

  /**
   * Forward from the watermark by `_id` to the first seq not in the log yet (one lookup when
   * nothing is new), not to the chain-head document: that hint is written after the batch and
   * lags it, so a read right after another gateway's append would have missed the event.
   */
  private async catchUp(tenantId: string, entry: TenantEntry): Promise<void> {
    for await (const event of this.events.eventsAfter(tenantId, entry.watermark)) {
      if (!entry.applied.delete(event.seq)) await this.apply(tenantId, entry, event);
      entry.watermark = event.seq;
    }
  }

  private async apply(tenantId: string, entry: TenantEntry, event: MemoryEvent): Promise<void> {
    const objectId = event.memory_id;
    if (!objectId) return;
    // An admin's release of a quarantine is an audit operation naming the agent object (issue 13 item 5).
    const released = event.event_type === "release" && (event.metadata as { object_contract?: unknown }).object_contract === AGENT_CONTRACT;
    if ((event.contract === AGENT_CONTRACT || released) && CHANGES.has(event.event_type)) {
      if (objectId.startsWith(UPDATE_ID_PREFIX)) {
        // An update's quarantine or release (store-rejudge.ts) changed the words its memory carries.
        const record = await this.store.memoryOfUpdate(tenantId, objectId);
        if (record && record.status === "active") entry.index.upsert(record);
        return;
      }
      const space = (event.metadata as { space?: unknown }).space;
      if (typeof space !== "string") return;
      const record = await this.store.get(tenantId, space, objectId);
      if (record && record.status === "active") entry.index.upsert(record);
      else entry.index.remove(objectId);
      return;
    }
    if (event.event_type === "erase" && (event.metadata as { object_contract?: unknown }).object_contract === AGENT_CONTRACT) {
      if (objectId.startsWith(MEMORY_ID_PREFIX)) {
        entry.index.remove(objectId);
      } else if (objectId.startsWith(UPDATE_ID_PREFIX)) {
        const record = await this.store.memoryOfUpdate(tenantId, objectId);
        if (record && record.status === "active") entry.index.upsert(record);
      }
    }
  }
}
