import { eventHash, GENESIS_HASH, type EventLog, type MemoryEvent } from "../event-log";
import { eventDocId } from "../ids";

/** What a verification found: the first seq at which the chain stops being trustworthy, and why. */
export interface ChainVerification {
  tenantId: string;
  ok: boolean;
  fromSeq: number;
  toSeq: number;
  eventsChecked: number;
  firstBrokenSeq: number | null;
  /** hash_mismatch | missing_event | seq_mismatch | tenant_mismatch | prev_hash_mismatch | truncated | checkpoint_mismatch */
  reason: string | null;
  headSeq: number;
  headHash: string;
  checkpointsChecked: number;
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
  /** Claims to hold the chain to (checkpoints already signature-checked, the chain head). */
  claims?: ChainClaim[];
  /** Seqs of breaks an admin acknowledged: the chain is re-anchored there (MP-BREAK). */
  acknowledged?: ReadonlySet<number>;
  pageSize?: number;
}

/** Why one event does not fit where it is; null when it does. */
export function checkEvent(event: MemoryEvent, tenantId: string, seq: number, prevHash: string): string | null {
  if (event.seq !== seq) return "seq_mismatch";
  if (event.tenant_id !== tenantId) return "tenant_mismatch";
  const { _id: _unused, hash, ...body } = event;
  if (eventHash(body) !== hash) return "hash_mismatch";
  if (event.prev_hash !== prevHash) return "prev_hash_mismatch";
  return null;
}

/**
 * Walks a tenant's chain by `_id` in seq order, recomputing every hash (docs/AUDIT.md):
 * a changed field breaks that event's hash, a deleted event leaves its seq missing, a
 * swap or a forged insertion breaks seq or prev_hash, and a truncated tail falls short of
 * the chain head and of any checkpoint that names a later seq.
 */
export async function verifyChain(log: EventLog, tenantId: string, options: VerifyOptions = {}): Promise<ChainVerification> {
  const pageSize = options.pageSize ?? 500;
  const claims = [...(options.claims ?? [])].sort((a, b) => a.seq - b.seq);
  const acknowledged = options.acknowledged ?? new Set<number>();
  const fromSeq = Math.max(1, options.fromSeq ?? 1);
  const claimedTop = claims.length ? claims[claims.length - 1].seq : 0;
  const found = await log.head(tenantId);
  const headSeq = Math.max(found.seq, claimedTop);
  // Past the highest seq anything claims there is nothing to check (and nothing missing).
  const toSeq = Math.min(options.toSeq ?? headSeq, headSeq);

  let prevHash = GENESIS_HASH;
  if (fromSeq > 1) {
    const anchor = await log.get(tenantId, fromSeq - 1);
    prevHash = anchor?.hash ?? "";
  }
  const result = (eventsChecked: number, firstBrokenSeq: number | null, reason: string | null, checkpointsChecked: number): ChainVerification => ({
    tenantId,
    ok: firstBrokenSeq === null,
    fromSeq,
    toSeq,
    eventsChecked,
    firstBrokenSeq,
    reason,
    headSeq: found.seq,
    headHash: found.hash,
    checkpointsChecked,
  });

  const claimsBySeq = new Map<number, ChainClaim[]>();
  for (const claim of claims) claimsBySeq.set(claim.seq, [...(claimsBySeq.get(claim.seq) ?? []), claim]);
  let checked = 0;
  let checkpointsChecked = 0;
  let seq = fromSeq;
  while (seq <= toSeq) {
    const page = await log.range(tenantId, seq, Math.min(toSeq, seq + pageSize - 1), pageSize);
    const byId = new Map<string, MemoryEvent>(page.map((e) => [e._id, e]));
    const pageEnd = Math.min(toSeq, seq + pageSize - 1);
    for (; seq <= pageEnd; seq++) {
      const event = byId.get(eventDocId(tenantId, seq));
      if (!event) {
        if (acknowledged.has(seq)) continue; // acknowledged gap: take the next event's prev_hash as it is
        const later = await log.range(tenantId, seq + 1, toSeq, 1);
        return result(checked, seq, later.length === 0 ? "truncated" : "missing_event", checkpointsChecked);
      }
      const why = checkEvent(event, tenantId, seq, prevHash);
      if (why && !(acknowledged.has(seq) || (why === "prev_hash_mismatch" && acknowledged.has(seq - 1)))) {
        return result(checked, seq, why, checkpointsChecked);
      }
      prevHash = event.hash;
      checked++;
      for (const claim of claimsBySeq.get(seq) ?? []) {
        if (claim.hash !== event.hash) return result(checked, seq, `${claim.source}_mismatch`, checkpointsChecked);
        if (claim.source === "checkpoint") checkpointsChecked++;
      }
    }
  }
  return result(checked, null, null, checkpointsChecked);
}
