import { performance } from "node:perf_hooks";
import { MongoNotConnectedError, MongoTopologyClosedError, type Collection } from "mongodb";
import type { Logger } from "../../logger";
import { COLLECTIONS, type Database } from "../../store/database";

/** What an admin sets for a tenant (subject_id null) or one subject (C19-POLICY, C19-CAP). */
export interface MemorySettingsValues {
  enabled?: boolean | null;
  max_items_per_subject?: number | null;
  max_writes_per_window?: number | null;
}

export interface MemorySettingsRecord extends MemorySettingsValues {
  _id: string;
  tenant_id: string;
  subject_id: string | null;
  updated_at: Date;
  updated_by: { id: string; roles: string[] };
}

/** The tenant's and the subject's settings as the policy sees them (input.settings). */
export interface SettingsInput {
  tenant: MemorySettingsValues | null;
  subject: MemorySettingsValues | null;
}

/** The one document every settings change bumps; every process polls it. */
interface EpochDoc {
  _id: string;
  n: number;
}

const EPOCH_COLLECTION = "memory_settings_epoch";
const EPOCH_ID = "settings";
const DEFAULT_POLL_MS = 50;
const MAX_CACHED = 100_000;

const part = (value: string): string => encodeURIComponent(value);

/** `_id`s: `<tenant>` for the tenant, `<tenant>:<subject>` for a subject, so reads are `_id` lookups. */
export function settingsDocId(tenantId: string, subjectId: string | null): string {
  return subjectId ? `${part(tenantId)}:${part(subjectId)}` : part(tenantId);
}

/**
 * Settings (C19-POLICY, C19-CAP), read on every operation and changed by an admin now and
 * then: so they are cached in each process, and a change invalidates every process's cache
 * through one epoch document that each process polls every `pollMs` (off the request path).
 *
 * A lease makes that exact, not eventual: a process answers from its cache only while its
 * newest completed poll *started* less than `leaseMs` ago, and a settings change answers
 * only `leaseMs` after it bumped the epoch. Any request that begins after the change has
 * answered therefore finds, in any process, a cache that a poll started after the change
 * has already cleared, or no usable cache (then it reads the documents). A process whose
 * polls stall (a long pause, the database gone) simply reads from the database.
 */
export class SettingsStore {
  private readonly settings: Collection<MemorySettingsRecord>;
  private readonly epochs: Collection<EpochDoc>;
  private readonly cache = new Map<string, MemorySettingsValues | null>();
  /** Bumped by every invalidation: a read that started before one must not fill the cache. */
  private generation = 0;
  private epoch: number | undefined;
  private leaseFrom = -Infinity;
  private polling = false;
  private timer: NodeJS.Timeout | undefined;
  readonly pollMs: number;
  readonly leaseMs: number;

  constructor(
    db: Database,
    private readonly logger: Logger,
    options: { pollMs?: number } = {},
  ) {
    this.settings = db.collection<MemorySettingsRecord>(COLLECTIONS.memorySettings);
    this.epochs = db.collection<EpochDoc>(EPOCH_COLLECTION);
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.leaseMs = this.pollMs * 4;
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
    // The driver reconnects a closed client on its next command: the poll ends with the gateway's client.
    db.client.once("topologyClosed", () => this.close());
    void this.poll();
  }

  /** Resolves once a poll that started now has completed: the cache then serves settings (tests, benchmarks). */
  async ready(): Promise<void> {
    const from = performance.now();
    while (this.timer && this.leaseFrom < from) await new Promise<void>((resolve) => setTimeout(resolve, this.pollMs / 2));
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.leaseFrom = -Infinity;
  }

  /** The tenant's and the subject's settings: from the cache while the lease holds, else two `_id` lookups. */
  async forSubject(tenantId: string, subjectId: string): Promise<SettingsInput> {
    const [tenant, subject] = await Promise.all([this.values(tenantId, null), subjectId ? this.values(tenantId, subjectId) : Promise.resolve(null)]);
    return { tenant, subject };
  }

  async get(tenantId: string, subjectId: string | null): Promise<MemorySettingsRecord | null> {
    return this.settings.findOne({ _id: settingsDocId(tenantId, subjectId) });
  }

  /** Writes the whole record (given values merged by the caller); `changed()` then tells every process. */
  async put(record: MemorySettingsRecord): Promise<void> {
    this.invalidate();
    await this.settings.replaceOne({ _id: record._id }, record, { upsert: true });
  }

  /** Puts back what was there before (or nothing) when the change's event could not be written, and tells every process. */
  async restore(id: string, previous: MemorySettingsRecord | null): Promise<void> {
    this.invalidate();
    if (previous) await this.settings.replaceOne({ _id: id }, previous, { upsert: true });
    else await this.settings.deleteOne({ _id: id });
    await this.changed();
  }

  /** Bumps the epoch every process polls, so each drops its cached settings (see the class). */
  async changed(): Promise<void> {
    this.invalidate();
    await this.epochs.updateOne({ _id: EPOCH_ID }, { $inc: { n: 1 } }, { upsert: true });
    this.invalidate();
  }

  /** Resolves when every process's cache has dropped what was there before the last change (see the class). */
  async propagated(): Promise<void> {
    await new Promise<void>((resolve) => setTimeout(resolve, this.leaseMs));
  }

  private async values(tenantId: string, subjectId: string | null): Promise<MemorySettingsValues | null> {
    const id = settingsDocId(tenantId, subjectId);
    if (this.leaseHolds() && this.cache.has(id)) return this.cache.get(id)!;
    const generation = this.generation;
    const leased = this.leaseHolds();
    const values = settingsInput(await this.settings.findOne({ _id: id }));
    if (leased && generation === this.generation) {
      if (this.cache.size >= MAX_CACHED) this.cache.clear();
      this.cache.set(id, values);
    }
    return values;
  }

  private leaseHolds(): boolean {
    return performance.now() - this.leaseFrom < this.leaseMs;
  }

  private invalidate(): void {
    this.generation++;
    this.cache.clear();
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.timer) return;
    this.polling = true;
    const started = performance.now();
    try {
      const doc = await this.epochs.findOne({ _id: EPOCH_ID });
      const n = doc?.n ?? 0;
      if (n !== this.epoch) {
        this.invalidate();
        this.epoch = n;
      }
      this.leaseFrom = Math.max(this.leaseFrom, started);
    } catch (error) {
      if (error instanceof MongoTopologyClosedError || error instanceof MongoNotConnectedError) this.close();
      else this.logger.debug({ err: error }, "settings epoch poll failed; settings are read from the database until it answers");
    } finally {
      this.polling = false;
    }
  }
}

/** The policy's view of a settings record: values only. */
export function settingsInput(record: MemorySettingsRecord | null): MemorySettingsValues | null {
  if (!record) return null;
  return {
    enabled: record.enabled ?? null,
    max_items_per_subject: record.max_items_per_subject ?? null,
    max_writes_per_window: record.max_writes_per_window ?? null,
  };
}
