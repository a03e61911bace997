import type { Collection, Db } from "mongodb";
import { claimByNumber } from "../claims";
import { isDuplicateKey } from "../database";
import type { EventActor } from "../event-log";

/**
 * Progress of one tenant's walk under one bundle, `_id` = leaseId(tenant, bundle hash): one
 * primary-key read per status query. One record per walk, so a process still enforcing an
 * older bundle (a rollout in progress) never overwrites the walk of a newer one.
 */
export interface ReauditProgressRecord {
  _id: string;
  tenant_id: string;
  policy_hash: string;
  policy_version: string;
  state: "running" | "done";
  started_at: string;
  updated_at: string;
  finished_at: string | null;
  /** Per target kind: the `_id` cursor of the walk and its counts. */
  targets: Record<string, { after: string | null; scanned: number; quarantined: number; done: boolean }>;
  /** Database round trips of the walk (scans, quarantines, progress writes): the cost a tenant's re-audit had. */
  round_trips: number;
}

export const REAUDIT_COLLECTION = "reaudit_progress";
/**
 * Beside the walks, `_id` = the encoded tenant (never holding the ':' of a walk's `_id`): the
 * bundle of the tenant's latest walk. A bundle loaded again after another one (a rollback)
 * walks again, since objects written in between were judged only by the other bundle.
 */
export interface LatestWalk {
  _id: string;
  policy_hash: string;
}
/** Who walks a tenant under a bundle now: one process each, `_id` = leaseId(tenant, bundle hash). */
export const REAUDIT_LEASES = "reaudit_leases";

export interface WalkLease {
  _id: string;
  owner: string;
  policy_hash: string;
  expires_at: Date;
}

/** A walk renews its lease every batch; a lease this old belongs to a process that stopped. */
export const LEASE_MS = 30_000;

/** Walks under different bundles (a rollout in progress) do not wait for each other: each has its own lease and progress. */
export const leaseId = (tenantId: string, hash: string): string => `${encodeURIComponent(tenantId)}:${hash}`;
/** The `_id` of a tenant's LatestWalk: without the ':' every walk's `_id` has. */
export const latestWalkId = (tenantId: string): string => encodeURIComponent(tenantId);

/** The actor of quarantine events: the gateway re-judging under a new bundle. */
export const REAUDIT_ACTOR: EventActor = { id: "memgate-reaudit", roles: ["job"], kind: "system" };

/** Reads a tenant's walk under a bundle (the audit contract's reauditStatus asks for the bundle in force). */
export class ReauditProgress {
  readonly records: Collection<ReauditProgressRecord>;

  constructor(db: Db) {
    this.records = db.collection<ReauditProgressRecord>(REAUDIT_COLLECTION);
  }

  get(tenantId: string, hash: string): Promise<ReauditProgressRecord | null> {
    return this.records.findOne({ _id: leaseId(tenantId, hash) });
  }
}

/**
 * Where the re-audit (src/jobs/reaudit.ts) keeps its walks: the leases that give one process
 * each tenant's walk under a bundle, the takeover claims beside them, each tenant's latest walk,
 * and the progress records.
 */
export class ReauditWalks {
  readonly progress: ReauditProgress;
  private readonly leases: Collection<WalkLease>;
  /** Takeover claims beside the leases (`_id` "<lease>/<expired owner>/<n>"); a read by a lease's `_id` never meets one. */
  private readonly takeovers: Collection<{ _id: string; at: Date }>;
  private readonly latest: Collection<LatestWalk>;

  constructor(db: Db) {
    this.progress = new ReauditProgress(db);
    this.leases = db.collection<WalkLease>(REAUDIT_LEASES);
    this.takeovers = db.collection<{ _id: string; at: Date }>(REAUDIT_LEASES);
    this.latest = db.collection<LatestWalk>(REAUDIT_COLLECTION);
  }

  /** false: the lease is held (or was just taken). */
  async insertLease(lease: WalkLease): Promise<boolean> {
    try {
      await this.leases.insertOne(lease);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  lease(id: string): Promise<WalkLease | null> {
    return this.leases.findOne({ _id: id });
  }

  /** Takes over an expired holder's lease: a numbered claim on it (claims.ts), then the lease replaced. */
  async takeOver(expired: WalkLease, lease: WalkLease, now: number, leaseMs: number): Promise<boolean> {
    const claimed = await claimByNumber(
      this.takeovers,
      `${expired._id}/${expired.owner}`,
      { at: new Date(now) },
      (claim) => claim.at.getTime() > now - leaseMs,
    );
    if (!claimed) return false;
    return (await this.leases.replaceOne({ _id: expired._id, owner: expired.owner }, lease)).matchedCount === 1;
  }

  /** false: the lease is no longer `owner`'s. */
  async renew(id: string, owner: string, expiresAt: Date): Promise<boolean> {
    return (await this.leases.updateOne({ _id: id, owner }, { $set: { expires_at: expiresAt } })).matchedCount === 1;
  }

  async release(id: string, owner: string): Promise<void> {
    await this.leases.deleteOne({ _id: id, owner });
  }

  async latestWalkHash(tenantId: string): Promise<string | undefined> {
    return (await this.latest.findOne({ _id: latestWalkId(tenantId) }))?.policy_hash;
  }

  /** A new walk: its progress record, and the tenant's latest walk. */
  async begin(record: ReauditProgressRecord): Promise<void> {
    await this.progress.records.replaceOne({ _id: record._id }, record, { upsert: true });
    await this.latest.replaceOne({ _id: latestWalkId(record.tenant_id) }, { policy_hash: record.policy_hash }, { upsert: true });
  }

  async recordProgress(id: string, set: Partial<ReauditProgressRecord> & Record<string, unknown>): Promise<void> {
    await this.progress.records.updateOne({ _id: id }, { $set: set });
  }
}
