import { randomBytes } from "node:crypto";
import { performance } from "node:perf_hooks";
import { MongoNotConnectedError, MongoTopologyClosedError, type Collection } from "mongodb";
import type { Logger } from "../../logger";
import type { Database } from "../../store/database";
import { GOVERNED_COLLECTIONS } from "./records";
import { LookupQueue } from "../../store/lookup-queue";

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

/** A tenant's settings and its subjects' (only those an admin has set). */
interface TenantSettings {
  tenant: MemorySettingsValues | null;
  subjects: Map<string, MemorySettingsValues | null>;
}

/** The tenant's and the subject's settings as the policy sees them (input.settings). */
export interface SettingsInput {
  tenant: MemorySettingsValues | null;
  subject: MemorySettingsValues | null;
}

/**
 * The one document every settings change bumps (`_id` "settings"), and one per caching
 * process (`_id` "process:<id>"): the newest epoch it has dropped its cache for, and when
 * it last said so (its heartbeat).
 */
interface EpochDoc {
  _id: string;
  n?: number;
  kind?: "process";
  epoch?: number;
  at?: Date;
}

const EPOCH_COLLECTION = "memory_settings_epoch";
const EPOCH_ID = "settings";
const DEFAULT_POLL_MS = 100;
/** A process's cache serves only while its heartbeat was written this recently. */
const HEARTBEAT_MS = 1_000;
const HEARTBEAT_STALE_MS = 2 * HEARTBEAT_MS;
/** A process whose heartbeat is older than this (by the changer's clock) has no usable cache. */
const PROCESS_GONE_MS = 3 * HEARTBEAT_MS;
const PROCESS_FORGOTTEN_MS = 3_600_000;
const MAX_CACHED_TENANTS = 10_000;

const part = (value: string): string => encodeURIComponent(value);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `_id`s: `<tenant>` for the tenant, `<tenant>:<subject>` for a subject, so reads are `_id` lookups. */
export function settingsDocId(tenantId: string, subjectId: string | null): string {
  return subjectId ? `${part(tenantId)}:${part(subjectId)}` : part(tenantId);
}

/**
 * Settings (C19-POLICY, C19-CAP), read by every operation and changed by an admin now and
 * then: so each process caches them, and a change reaches every process's cache through
 * one epoch document that each polls every `pollMs`, off the request path.
 *
 * Exact, not eventual: a process answers from its cache only while its newest completed
 * poll *started* less than `leaseMs` ago (and its heartbeat is fresh). A change answers
 * once every live process has acknowledged its epoch (each does on the poll that sees it),
 * and at the latest `leaseMs` after it: any request that begins after the change answered
 * then finds, in any process, a cache cleared by a poll that started after the change, or
 * no usable cache (and reads the documents). A process whose polls stall (a long pause, a
 * database slower than the lease) reads from the database; alone, a change answers at once.
 */
export class SettingsStore {
  private readonly settings: Collection<MemorySettingsRecord>;
  /** Concurrent requests' settings lookups (subjects this process has not cached), one `$in` between them. */
  private readonly lookups: LookupQueue<MemorySettingsRecord>;
  private readonly epochs: Collection<EpochDoc>;
  /** The tenant's and one subject's settings documents, by (tenant, subject): the cache. */
  private readonly tenants = new Map<string, TenantSettings>();
  private readonly loading = new Map<string, Promise<TenantSettings>>();
  private readonly processId = `process:${Date.now().toString(36)}${randomBytes(4).toString("hex")}`;
  /** Bumped by every invalidation: a read that started before one must not fill the cache. */
  private generation = 0;
  private epoch: number | undefined;
  private leaseFrom = -Infinity;
  private heartbeatAt = -Infinity;
  private polling = false;
  private timer: NodeJS.Timeout | undefined;
  readonly pollMs: number;
  readonly leaseMs: number;

  constructor(
    db: Database,
    private readonly logger: Logger,
    options: { pollMs?: number } = {},
  ) {
    this.settings = db.collection<MemorySettingsRecord>(GOVERNED_COLLECTIONS.memorySettings);
    this.epochs = db.collection<EpochDoc>(EPOCH_COLLECTION);
    this.lookups = new LookupQueue(this.settings);
    this.pollMs = options.pollMs ?? DEFAULT_POLL_MS;
    this.leaseMs = this.pollMs * 10;
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- poll() settles its own errors
    this.timer = setInterval(() => void this.poll(), this.pollMs);
    this.timer.unref();
    // The driver reconnects a closed client on its next command: the poll ends with the gateway's client.
    db.client.once("topologyClosed", () => this.close());
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- poll() settles its own errors
    void this.poll();
  }

  /** Resolves once a poll that started now has completed: the cache then serves settings (tests, benchmarks). */
  async ready(): Promise<void> {
    const from = performance.now();
    while (this.timer && this.leaseFrom < from) await sleep(this.pollMs / 2);
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.leaseFrom = -Infinity;
  }

  /**
   * The tenant's and the subject's settings. While the lease holds, from the cache, which
   * holds the tenant's and each subject's settings documents read so far; otherwise two `_id`
   * lookups. Either way the lookups of concurrent requests go in one `$in` (LookupQueue).
   */
  async forSubject(tenantId: string, subjectId: string): Promise<SettingsInput> {
    if (this.leaseHolds()) {
      const key = `${tenantId}\n${subjectId}`;
      const cached = this.tenants.get(key) ?? (await this.load(key, tenantId, subjectId));
      return { tenant: cached.tenant, subject: subjectId ? (cached.subjects.get(subjectId) ?? null) : null };
    }
    const [tenant, subject] = await Promise.all([
      this.lookups.get(settingsDocId(tenantId, null)),
      subjectId ? this.lookups.get(settingsDocId(tenantId, subjectId)) : Promise.resolve(null),
    ]);
    return { tenant: settingsInput(tenant), subject: settingsInput(subject) };
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
    await this.propagated(await this.changed());
  }

  /** Bumps the epoch every process polls, so each drops its cached settings; returns the new epoch. */
  async changed(): Promise<number> {
    this.invalidate();
    const doc = await this.epochs.findOneAndUpdate({ _id: EPOCH_ID }, { $inc: { n: 1 } }, { upsert: true, returnDocument: "after" });
    this.invalidate();
    return doc?.n ?? 0;
  }

  /** Resolves once no process can answer from settings cached before `epoch` (see the class). */
  async propagated(epoch: number): Promise<void> {
    const deadline = performance.now() + this.leaseMs;
    while (performance.now() < deadline) {
      const live = Date.now() - PROCESS_GONE_MS;
      const others = await this.epochs.find({ kind: "process", _id: { $ne: this.processId } }).toArray();
      const gone = others.filter((p) => (p.at?.getTime() ?? 0) < Date.now() - PROCESS_FORGOTTEN_MS).map((p) => p._id);
      if (gone.length > 0) await this.epochs.deleteMany({ _id: { $in: gone }, kind: "process" });
      if (others.every((p) => (p.at?.getTime() ?? 0) < live || (p.epoch ?? -1) >= epoch)) return;
      await sleep(Math.min(this.pollMs / 2, Math.max(0, deadline - performance.now())));
    }
  }

  /**
   * Loads the tenant's and the subject's settings documents (`_id` lookups, grouped with
   * concurrent requests' into one `$in`: a filter on tenant_id would scan every tenant's
   * settings on FerretDB) once for all concurrent callers; cached unless a change came meanwhile.
   */
  private load(key: string, tenantId: string, subjectId: string): Promise<TenantSettings> {
    const pending = this.loading.get(key);
    if (pending) return pending;
    const generation = this.generation;
    const loading = (async () => {
      const ids = [settingsDocId(tenantId, null), ...(subjectId ? [settingsDocId(tenantId, subjectId)] : [])];
      const docs = (await Promise.all(ids.map((id) => this.lookups.get(id)))).filter((doc) => doc !== null);
      const entry: TenantSettings = {
        tenant: settingsInput(docs.find((d) => d.subject_id === null) ?? null),
        subjects: new Map(docs.filter((d) => d.subject_id !== null).map((d) => [d.subject_id!, settingsInput(d)])),
      };
      if (generation === this.generation && this.leaseHolds()) {
        if (this.tenants.size >= MAX_CACHED_TENANTS) this.tenants.clear();
        this.tenants.set(key, entry);
      }
      return entry;
    })().finally(() => {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    });
    this.loading.set(key, loading);
    return loading;
  }

  private leaseHolds(): boolean {
    const now = performance.now();
    return now - this.leaseFrom < this.leaseMs && now - this.heartbeatAt < HEARTBEAT_STALE_MS;
  }

  private invalidate(): void {
    this.generation++;
    this.tenants.clear();
    this.loading.clear();
  }

  private async poll(): Promise<void> {
    if (this.polling || !this.timer) return;
    this.polling = true;
    const started = performance.now();
    try {
      const doc = await this.epochs.findOne({ _id: EPOCH_ID });
      const n = doc?.n ?? 0;
      const moved = n !== this.epoch;
      if (moved) {
        this.invalidate();
        this.epoch = n;
      }
      // The acknowledgement a change waits for, and the heartbeat that says this process caches.
      if (moved || started - this.heartbeatAt >= HEARTBEAT_MS) {
        await this.epochs.updateOne({ _id: this.processId }, { $set: { kind: "process", epoch: n, at: new Date() } }, { upsert: true });
        this.heartbeatAt = started;
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
