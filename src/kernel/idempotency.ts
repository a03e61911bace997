import { createHash } from "node:crypto";
import type { Outcome } from "./outcome";

/**
 * Retries without duplicates (issue 15 §4). A write that carries an idempotency key answers
 * its first outcome on every retry within the window, and never writes a second item or
 * event: the kernel stores the outcome under `_id` = idempotencyId(tenant, caller, key,
 * operation) as a step of the operation's own write set (after the object, before its
 * events), so it is undone with them, and the unique `_id` lets exactly one of two
 * concurrent attempts (two gateways, a client retrying a timeout) keep its writes: the
 * other undoes its own and answers the first's outcome.
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

export interface StoredOutcome {
  fingerprint: string;
  outcome: Outcome<unknown>;
  createdAt: Date;
}

/** Where outcomes are kept (src/store/idempotency-store.ts). */
export interface IdempotencyStore {
  /** The stored outcome, or null (none, or older than the window: then it is removed). */
  find(id: string, notBefore: Date): Promise<StoredOutcome | null>;
  /** Inserts; false when another attempt holds the id already. */
  insert(id: string, record: StoredOutcome): Promise<boolean>;
  remove(id: string): Promise<void>;
}
