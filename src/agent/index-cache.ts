import type { AgentMemoryRepository } from "../store/agent-memory-repository";
import type { EventLog } from "../store/event-log";
import { TenantMemoryIndex } from "./memory-index";

/** Events of the agent contract carry this in their metadata, with the memory's space. */
export const AGENT_EVENT_MARK = "agent";

interface TenantEntry {
  index: TenantMemoryIndex;
  /** Every event with seq <= watermark has been applied. */
  watermark: number;
  /** Seqs above the watermark this process applied itself (its own writes). */
  applied: Set<number>;
  catchingUp: Promise<void> | null;
}

/**
 * One in-process index per tenant. Built once from the database (one scan of the
 * tenant's agent memories), then kept fresh from the hash-chained event log: before each
 * read, the tenant's chain head is read and events between the watermark and the head are
 * fetched by `_id` (primary-key reads), and the memories they name are reloaded. Steady
 * state costs one small `_id` hit per read, so several gateway processes can share one
 * database and see each other's writes (within one event-log batch). This process's own
 * writes are in its index before their answer is sent.
 */
export class AgentIndexCache {
  private readonly tenants = new Map<string, Promise<TenantEntry>>();

  constructor(
    private readonly repository: AgentMemoryRepository,
    private readonly events: EventLog,
  ) {}

  /** The tenant's index, up to date with every event in the log at the time of the call. */
  async fresh(tenantId: string): Promise<TenantMemoryIndex> {
    const entry = await this.entry(tenantId);
    entry.catchingUp ??= this.catchUp(tenantId, entry).finally(() => {
      entry.catchingUp = null;
    });
    await entry.catchingUp;
    return entry.index;
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

  private entry(tenantId: string): Promise<TenantEntry> {
    let entry = this.tenants.get(tenantId);
    if (!entry) {
      entry = this.build(tenantId);
      this.tenants.set(tenantId, entry);
      entry.catch(() => this.tenants.delete(tenantId)); // a failed build is retried next time
    }
    return entry;
  }

  private async build(tenantId: string): Promise<TenantEntry> {
    // Head first: an event written during the scan is replayed afterwards (replay is idempotent).
    const head = await this.events.head(tenantId);
    const index = new TenantMemoryIndex();
    for (const record of await this.repository.allOfTenant(tenantId)) index.upsert(record);
    return { index, watermark: head.seq, applied: new Set(), catchingUp: null };
  }

  private async catchUp(tenantId: string, entry: TenantEntry): Promise<void> {
    const head = await this.repository.headSeq(tenantId);
    while (entry.watermark < head) {
      const next = entry.watermark + 1;
      if (!entry.applied.delete(next)) {
        const event = await this.repository.eventAt(tenantId, next);
        if (!event) return; // not visible yet: the next read picks it up
        const metadata = event.metadata as { contract?: string; space?: string };
        if (metadata.contract === AGENT_EVENT_MARK && metadata.space && event.memory_id && event.stop_reason.startsWith("SUCCESS_")) {
          const record = await this.repository.get(tenantId, metadata.space, event.memory_id);
          if (record) entry.index.upsert(record);
        }
      }
      entry.watermark = next;
    }
  }
}
