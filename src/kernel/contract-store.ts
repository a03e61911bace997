/**
 * What every contract's store offers the kernel and the log (one interface, so start-up
 * repair, erasure and integrity checks run over all of them generically). A store keeps
 * the objects of one contract, possibly in several collections; it alone knows MongoDB.
 *
 * Crash consistency without transactions (docs/AUDIT.md "Object and event"): an object is
 * written first, without a settle mark; its event is appended; the mark is set after.
 * `unsettled` lists objects whose mark is missing, so the repair pass can find their event
 * or complete it, for every contract alike.
 */
export interface ContractStore {
  /** The contract's name, as events record it. */
  readonly contract: string;
  /** Creates the indexes the store's reads need (idempotent; only missing ones). */
  ensureIndexes(): Promise<void>;

  /** Objects written but not yet marked settled (writes and erasures), oldest first. */
  unsettled(limit: number): Promise<UnsettledObject[]>;
  /**
   * Marks the object settled: its event is in the log at `seq`. `repaired`: the event is the
   * repair's, so the write stopped before its event and perhaps before the object's list
   * entries (src/store/id-lists.ts), which the store then adds again.
   */
  settle(object: UnsettledObject, seq: number, repaired?: boolean): Promise<void>;

  /** Ids of every object of the subject that still holds content (any status but erased). */
  objectIds(tenantId: string, subjectId: string): Promise<string[]>;
  /** Whether the store holds the object, and whether it is erased already. */
  lookup(tenantId: string, subjectId: string, objectId: string): Promise<{ found: boolean; erased: boolean }>;
  /**
   * SPEC D1: removes the object's content from every place the store keeps it (record,
   * versions, update records, salts, content fingerprints), leaving a tombstone with identity,
   * status "erased" and `mark`. Idempotent. false when the store does not hold the object.
   */
  erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean>;
  /**
   * Optional: `erase` for a page of one subject's objects in a few batched commands (absent: the
   * objects are erased one by one). Only where erasing an object writes that object's documents
   * alone (no document two objects share). One answer per id, in order.
   */
  eraseMany?(tenantId: string, subjectId: string, objectIds: readonly string[], mark: ErasureMark): Promise<boolean[]>;

  /**
   * Optional: resolves once the background work of answered requests (settle marks, counters
   * written off the request path) is written; the gateway awaits it before closing the database.
   */
  idle?(): Promise<void>;

  /**
   * Optional (INV-8 on reads, docs/FAULTS.md "Unsettled objects on reads"): the repair pass
   * settled every object of the store written before `cutoff`; reads of those need no check.
   */
  settledBefore?(cutoff: Date): void;
  /** Optional: the repair a read uses to settle one unsettled object now, instead of serving it. */
  repairWith?(repair: ObjectRepair): void;
}

/** Settles one object on a read's behalf (src/jobs/repair.ts). */
export interface ObjectRepair {
  /**
   * Finds the object's event (another process may have appended it) and settles the object,
   * or, once it is older than the repair's minimum age, appends the missing event under the
   * repair's claim. true: the object has its event and may be served; false: its write is
   * still in flight (or another process is completing it), and it is not served.
   */
  settleOne(store: ContractStore, object: UnsettledObject): Promise<boolean>;
}

/** An object the repair pass must settle: the event it waits for, and the event to write if none exists. */
export interface UnsettledObject {
  tenantId: string;
  subjectId: string;
  objectId: string;
  /** When the write happened (injected clock): younger ones may belong to a live process. */
  writtenAt: Date;
  /** "write": a create/update/consolidate waiting for its event; "erasure": an erase waiting for its event. */
  kind: "write" | "erasure";
  /** The version the event must name (metadata.version), when the contract versions objects. */
  version: number | null;
  /**
   * What the repair appends when no event is found (as the system actor, with a reason).
   * `reason`: what the event's reason should carry after "repair: " (an erasure's own reason);
   * `decision_id`: the decision the write belonged to, when the store kept it.
   */
  missing: {
    event_type: "create" | "update" | "consolidate" | "erase" | "delete" | "invalidate";
    operation: string;
    stop_reason: string;
    content_digest: string | null;
    metadata: Record<string, unknown>;
    reason?: string | null;
    decision_id?: string | null;
  };
}

/** What an erased object keeps about its erasure (no content). */
export interface ErasureMark {
  at: string;
  by: string;
  reason: string;
  operation: string;
  decision_id: string | null;
  logged_seq?: number;
}
