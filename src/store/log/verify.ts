import { eventHash, GENESIS_HASH, seqBatches, type EventLog, type MemoryEvent } from "../event-log";
import { eventSignatureProblem, type LogKeySet } from "./event-signing";

/** What a verification found: the first seq at which the chain stops being trustworthy, and why. */
export interface ChainVerification {
  tenantId: string;
  ok: boolean;
  fromSeq: number;
  toSeq: number;
  eventsChecked: number;
  firstBrokenSeq: number | null;
  /**
   * hash_mismatch | missing_event | seq_mismatch | tenant_mismatch | prev_hash_mismatch | truncated |
   * signature_missing | signature_key_unknown | signature_invalid | checkpoint_mismatch | chain_head_mismatch |
   * checkpoint_signature_invalid | checkpoint_key_unknown | chain_rewound
   */
  reason: string | null;
  headSeq: number;
  headHash: string;
  checkpointsChecked: number;
  /** The hash of the event at `toSeq` as verified (null when nothing was checked or it broke). */
  lastHash: string | null;
}

/** A claim about the chain from outside it: a signed checkpoint, or the stored chain head. */
export interface ChainClaim {
  seq: number;
  hash: string;
  source: "checkpoint" | "chain_head";
}

export interface VerifyOptions {
  fromSeq?: number | null;
  toSeq?: number | null;
  /**
   * An event already proven (a good checkpoint: the checkpointer verified everything up to it
   * before it signed): verification starts after it, so its cost is that of the new events.
   */
  anchor?: { seq: number; hash: string } | null;
  /** Claims to hold the chain to (checkpoints already signature-checked, the chain head). */
  claims?: ChainClaim[];
  /** Seqs of breaks an admin acknowledged: the chain is re-anchored there (MP-BREAK). */
  acknowledged?: ReadonlySet<number>;
  /** When set, every event's signature must verify with one of these keys (issue 12 §6). */
  keys?: LogKeySet;
  /** Segments up to this long are read by `_id` batches, longer ones in one pass (default LOOKUP_MAX). */
  lookupMax?: number;
  /** Trust the signatures of the events this process signed (EventLog.sealedHash): the checkpointer's read-back. */
  trustOwnSeals?: boolean;
  /** Awaited after every PACE_EVERY events read: how a long background pass makes room for requests (AuditSystem). */
  pace?: () => Promise<void>;
}

/** Out-of-order events held while waiting for a lower seq; past this, the lower one is missing. */
const REORDER_WINDOW = 10_000;
/**
 * Up to this many events are read by `_id` in batches (EventLog.bySeqs: one `$in` query each,
 * answered from the `_id` index by MongoDB and by the embedded FerretDB as patched), more in
 * one pass over the collection: a tail since a checkpoint costs its own events, a full
 * verification one pass.
 */
const LOOKUP_MAX = 2000;
/** Events read between two calls of `pace`. */
export const PACE_EVERY = 256;

/**
 * Why one event does not fit where it is; null when it does. `sealedHere` is the hash this
 * process gave the event when it signed it, if it did: an event whose recomputed hash is that
 * one carries the signature made here, so only an event from elsewhere is Ed25519-verified.
 */
export function checkEvent(event: MemoryEvent, tenantId: string, seq: number, prevHash: string, keys?: LogKeySet, sealedHere?: string): string | null {
  if (event.seq !== seq) return "seq_mismatch";
  if (event.tenant_id !== tenantId) return "tenant_mismatch";
  const { _id: _unused, hash, ...body } = event;
  if (eventHash(body) !== hash) return "hash_mismatch";
  if (keys && sealedHere !== hash) {
    const problem = eventSignatureProblem(event, keys);
    if (problem) return problem;
  }
  if (event.prev_hash !== prevHash) return "prev_hash_mismatch";
  return null;
}

/** The seq an event is stored under (its `_id`), whatever its own `seq` field says. */
const storedSeq = (event: MemoryEvent): number => Number(event._id.slice(-12));

/**
 * Walks a tenant's chain in seq order, recomputing every hash and checking every signature
 * (docs/AUDIT.md): a changed field breaks that event's hash and signature, a deleted event
 * leaves its seq missing, a swap or a forged insertion breaks seq, signature or prev_hash, and
 * a truncated tail falls short of the chain head and of any checkpoint that names a later seq.
 * A long segment is read in one pass (EventLog.segment) and put in order here, a short one by `_id`.
 */
export async function verifyChain(log: EventLog, tenantId: string, options: VerifyOptions = {}): Promise<ChainVerification> {
  const claims = [...(options.claims ?? [])].sort((a, b) => a.seq - b.seq);
  const acknowledged = options.acknowledged ?? new Set<number>();
  const anchor = options.anchor ?? null;
  const fromSeq = anchor ? anchor.seq + 1 : Math.max(1, options.fromSeq ?? 1);
  const claimedTop = claims.length ? claims[claims.length - 1].seq : 0;
  const found = await log.head(tenantId);
  const headSeq = Math.max(found.seq, claimedTop);
  // Past the highest seq anything claims there is nothing to check (and nothing missing).
  const toSeq = Math.min(options.toSeq ?? headSeq, headSeq);

  let checked = 0;
  let checkpointsChecked = 0;
  let next = fromSeq;
  const result = (firstBrokenSeq: number | null, reason: string | null): ChainVerification => ({
    tenantId,
    ok: firstBrokenSeq === null,
    fromSeq,
    toSeq,
    eventsChecked: checked,
    firstBrokenSeq,
    reason,
    headSeq: found.seq,
    headHash: found.hash,
    checkpointsChecked,
    lastHash: firstBrokenSeq === null && next > fromSeq ? prevHash : anchor && fromSeq > toSeq ? anchor.hash : null,
  });

  let prevHash = GENESIS_HASH;
  if (anchor) {
    const anchored = await log.get(tenantId, anchor.seq);
    if (anchored?.hash !== anchor.hash) return result(anchor.seq, anchored ? "checkpoint_mismatch" : found.seq < anchor.seq ? "truncated" : "missing_event");
    prevHash = anchor.hash;
  } else if (fromSeq > 1) {
    prevHash = (await log.get(tenantId, fromSeq - 1))?.hash ?? "";
  }

  const claimsBySeq = new Map<number, ChainClaim[]>();
  for (const claim of claims) claimsBySeq.set(claim.seq, [...(claimsBySeq.get(claim.seq) ?? []), claim]);

  /** Checks the event at `seq`; a reason when the chain breaks there. */
  const visit = (seq: number, event: MemoryEvent): string | null => {
    const why = checkEvent(event, tenantId, seq, prevHash, options.keys, options.trustOwnSeals ? log.sealedHash(event._id) : undefined);
    if (why && !(acknowledged.has(seq) || (why === "prev_hash_mismatch" && acknowledged.has(seq - 1)))) return why;
    prevHash = event.hash;
    checked++;
    for (const claim of claimsBySeq.get(seq) ?? []) {
      if (claim.hash !== event.hash) return `${claim.source}_mismatch`;
      if (claim.source === "checkpoint") checkpointsChecked++;
    }
    return null;
  };

  if (fromSeq > toSeq) return result(null, null);
  const pending = new Map<number, MemoryEvent>();
  let highestSeen = 0;
  let read = 0;
  const cursor = toSeq - fromSeq < (options.lookupMax ?? LOOKUP_MAX) ? null : log.segment(tenantId, fromSeq, toSeq);
  async function* lookups(): AsyncIterable<MemoryEvent> {
    for (const seqs of seqBatches(fromSeq, toSeq)) for (const event of await log.bySeqs(tenantId, seqs)) if (event) yield event;
  }
  try {
    const drain = (final: boolean): ChainVerification | null => {
      for (;;) {
        const event = pending.get(next);
        if (event) {
          pending.delete(next);
          const why = visit(next, event);
          if (why) return result(next, why);
          next++;
          continue;
        }
        if (next > toSeq) return null;
        if (!final && pending.size < REORDER_WINDOW) return null;
        if (acknowledged.has(next)) {
          next++; // acknowledged gap: take the next event's prev_hash as it is
          continue;
        }
        return result(next, highestSeen > next ? "missing_event" : "truncated");
      }
    };
    for await (const event of cursor ?? lookups()) {
      const seq = storedSeq(event);
      if (seq < next) continue;
      highestSeen = Math.max(highestSeen, seq);
      pending.set(seq, event);
      const failed = drain(false);
      if (failed) return failed;
      if (options.pace && ++read % PACE_EVERY === 0) await options.pace();
    }
    return drain(true) ?? result(null, null);
  } finally {
    await cursor?.close().catch(() => undefined);
  }
}
