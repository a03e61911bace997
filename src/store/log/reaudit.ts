import type { Collection, Db } from "mongodb";
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
