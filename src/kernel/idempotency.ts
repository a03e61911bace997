import { createHash } from "node:crypto";
import type { Outcome } from "./outcome";

/**
 * Retries without duplicates (issue 15 §4, INV-8, MP-LOG). A write that carries an
 * idempotency key answers its first outcome on every retry within the window, and never
 * writes a second item or event, even when the process that made the first attempt died
 * halfway through it:
 *
 * 1. reserve: before anything is read or written, the kernel takes the key for this attempt
 *    (`_id` = idempotencyId(tenant, caller, key, operation), state "pending", the request's
 *    fingerprint, a random attempt id, `created_at` by the injected clock). One round trip,
 *    which also returns the record when another attempt holds the key;
 * 2. declare: an operation that creates objects names them, and the value it will answer,
 *    before writing them (`Writes.creating`); the kernel keeps them, with the decision's
 *    outcome, in the reservation (one round trip, conditional on the attempt still holding
 *    the key). Operations that declare nothing keep their outcome after their steps, before
 *    their events, the same way;
 * 3. the objects, then their events (the group commit);
 * 4. complete: the record is marked "done", off the request path and grouped with other
 *    attempts' marks (like the settle marks).
 *
 * A retry that finds the key: "done" answers the outcome; "pending" and younger than the
 * write timeout (`staleMs`, the repair's minimum age: an attempt that old is presumed dead,
 * as the repair presumes of an unsettled object) waits briefly for it, then answers
 * INTERNAL_INCONSISTENCY "idempotency_in_progress" (IdempotencyInProgressError: retry
 * later); "pending" and stale: if it holds an outcome and every declared object exists, the
 * first attempt's writes are in (the repair completes any missing event) and its outcome is
 * the answer; otherwise nothing of it stayed and the retry takes the key over and runs the write:
 * the unique `_id` of a claim on the dead attempt lets one retry win, which then replaces the
 * record with its own reservation. (Never delete-then-insert: FerretDB evaluates a conditional
 * delete's filter apart from the delete by `_id`, so a late delete could remove the new
 * reservation; only an insert of a new `_id` arbitrates.) An attempt that fails or is undone frees the key;
 * a read (no write set) frees it too.
 *
 * Doors carry the key in `CallContext.idempotencyKey`: the `Idempotency-Key` HTTP header
 * (GraphQL over HTTP, POST /v1/memory); the MCP door passes its request's
 * `_meta["memgate/idempotencyKey"]` (IDEMPOTENCY_META_KEY) the same way.
 */
export const IDEMPOTENCY_HEADER = "idempotency-key";
export const IDEMPOTENCY_META_KEY = "memgate/idempotencyKey";

/** 1 to 255 visible ASCII characters (RFC 9110 token-ish; a UUID fits). */
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

export class IdempotencyKeyError extends Error {
  readonly code = "IDEMPOTENCY_KEY_INVALID" as const;
  constructor() {
    super("Idempotency-Key must be 1 to 255 visible ASCII characters");
    this.name = new.target.name;
  }
}

/** The same key reused for a different request (another operation's body): refused, nothing written. */
export class IdempotencyKeyReusedError extends Error {
  readonly code = "IDEMPOTENCY_KEY_REUSED" as const;
  constructor() {
    super("this Idempotency-Key was used for a different request");
    this.name = new.target.name;
  }
}

/**
 * Another attempt with this key is under way (younger than the write timeout) and did not
 * finish while this one waited, or took the key over from this one: nothing written, answered
 * INTERNAL_INCONSISTENCY with the explanation "C19-FAIL: idempotency_in_progress"; retry later.
 */
export class IdempotencyInProgressError extends Error {
  readonly code = "IDEMPOTENCY_IN_PROGRESS" as const;
  constructor() {
    super("another attempt with this Idempotency-Key is in progress");
    this.name = new.target.name;
  }
}

/** A door's header or `_meta` value: undefined when absent, the key when well formed, else IdempotencyKeyError. */
export function parseIdempotencyKey(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const raw = Array.isArray(value) ? value[0] : value;
  if (typeof raw !== "string" || !KEY_PATTERN.test(raw)) throw new IdempotencyKeyError();
  return raw;
}

export function idempotencyId(tenantId: string, callerId: string, key: string, operation: string): string {
  return createHash("sha256")
    .update(JSON.stringify([tenantId, callerId, key, operation]))
    .digest("hex");
}

/** A digest of the request as sent, to tell a retry from a different request under the same key. */
export function requestFingerprint(raw: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(raw ?? null))
    .digest("hex");
}

/** An object a keyed write set declared before creating it: what a retry looks up after a crash. */
export interface ReservedObject {
  contract: string;
  tenantId: string;
  subjectId: string;
  objectId: string;
}

/** What an attempt writes when it takes a key. */
export interface Reservation {
  fingerprint: string;
  /** Random per attempt: every later change of the record is conditional on it. */
  attempt: string;
  createdAt: Date;
}

export interface IdempotencyRecord extends Reservation {
  /** "pending": an attempt holds the key; "done": its writes and events are in. */
  state: "pending" | "done";
  /** The outcome the attempt answers, once it is known (declared, or kept after the steps). */
  outcome?: Outcome<unknown>;
  /** The objects the attempt declared before writing them. */
  objects?: ReservedObject[];
}

/** What an attempt leaves its record when it is over. */
export type FinishedAttempt = { id: string; attempt: string; state: "done"; outcome?: Outcome<unknown> } | { id: string; attempt: string; state: "free" };

/** Where reservations and outcomes are kept (src/store/idempotency-store.ts). Every change but `reserve` is conditional on `attempt`. */
export interface IdempotencyStore {
  /** Takes the key for this attempt (one round trip): null when taken, else the record that holds it. */
  reserve(id: string, reservation: Reservation): Promise<IdempotencyRecord | null>;
  /** Keeps the outcome and the objects the attempt is about to write; false when the attempt no longer holds the key. */
  declare(id: string, attempt: string, outcome: Outcome<unknown>, objects: ReservedObject[]): Promise<boolean>;
  /** Back to a bare reservation (the declared writes were undone, a lost race is judged again). */
  undeclare(id: string, attempt: string): Promise<void>;
  /**
   * Off the request path, many at once: each attempt's writes and events are in ("done", with
   * `outcome` for a refusal, which declared none), or it wrote nothing to keep ("free": a read).
   */
  finish(changes: readonly FinishedAttempt[]): Promise<void>;
  /** Frees the key if `attempt` still holds it (only ever called by that attempt). */
  release(id: string, attempt: string): Promise<void>;
  /**
   * Takes the key over from `staleAttempt` (dead, or past the window): one caller wins, by the
   * unique `_id` of a claim on that attempt, and its reservation replaces the record. false: another
   * caller won (or the record changed); read it again. A claim made before `claimStaleBefore` whose
   * record still names `staleAttempt` did not take (its claimant died between claim and replace, or
   * a late write of the old attempt overwrote the replacement): the next claim in line may be taken.
   */
  supersede(id: string, staleAttempt: string, reservation: Reservation, claimStaleBefore: Date): Promise<boolean>;
}
