import type { EventLog } from "../event-log";
import { verifyCheckpointSignature, type Checkpointer } from "./checkpoints";
import { verifyChain, type ChainClaim, type ChainVerification } from "./verify";

export interface VerifyRange {
  fromSeq?: number | null;
  toSeq?: number | null;
  /** Every event from seq 1 (or `fromSeq`), not only those after the last good checkpoint. */
  full?: boolean;
}

/**
 * Verifies a tenant's chain against everything that makes claims about it: the events' own
 * hashes, signatures and links, the stored chain head, and every signed checkpoint (whose
 * signature is checked first: a checkpoint that does not verify, or that is signed by a key
 * outside the key set, is itself a break, reported at its seq).
 *
 * Without `fromSeq` and `full`, verification starts at the last good checkpoint (signed by a
 * known key, valid, not acknowledged as broken): the checkpointer verified every event up to
 * it before it signed, so the cost is that of the events appended since (issue 15 §5).
 */
export class ChainAuditor {
  constructor(
    readonly log: EventLog,
    readonly checkpoints: Checkpointer,
  ) {}

  async verify(tenantId: string, range: VerifyRange = {}, acknowledged?: ReadonlySet<number>, pace?: () => Promise<void>): Promise<ChainVerification> {
    const keys = this.checkpoints.keys;
    const claims: ChainClaim[] = [];
    const stored = await this.log.storedHead(tenantId);
    if (stored && stored.seq > 0) claims.push({ seq: stored.seq, hash: stored.hash, source: "chain_head" });
    let badCheckpoint: { seq: number; reason: string } | null = null;
    let anchor: { seq: number; hash: string } | null = null;
    // A bounded range (the background sweep's steps) is held to the checkpoints inside it only:
    // listing and signature-checking every checkpoint of a long log at every step would cost more than the step.
    const from = range.fromSeq ?? null;
    const to = range.toSeq ?? null;
    const listed =
      from !== null && to !== null && !range.full
        ? (await this.checkpoints.list(tenantId, Math.max(0, from - 1), Math.max(1, to - from + 1))).filter((c) => c.seq <= to)
        : await this.checkpoints.list(tenantId, 0, Number.MAX_SAFE_INTEGER);
    for (const checkpoint of listed) {
      const key = keys.byId(checkpoint.key_id);
      const reason = !key
        ? "checkpoint_key_unknown"
        : checkpoint.tenant !== tenantId || !verifyCheckpointSignature(checkpoint, key.publicKey)
          ? "checkpoint_signature_invalid"
          : null;
      if (reason) {
        badCheckpoint ??= { seq: checkpoint.seq, reason };
        continue;
      }
      claims.push({ seq: checkpoint.seq, hash: checkpoint.hash, source: "checkpoint" });
      if (!badCheckpoint && !acknowledged?.has(checkpoint.seq)) anchor = { seq: checkpoint.seq, hash: checkpoint.hash };
    }
    const incremental = !range.full && (range.fromSeq ?? null) === null && (range.toSeq ?? null) === null && anchor !== null;
    const result = await verifyChain(this.log, tenantId, {
      fromSeq: range.fromSeq,
      toSeq: range.toSeq,
      anchor: incremental ? anchor : null,
      claims,
      acknowledged,
      keys,
      // An event whose recomputed hash is the one this process sealed is the event it signed (the
      // hash covers the signature): its Ed25519 check is skipped, which is most of the sweep's CPU.
      trustOwnSeals: true,
      pace,
    });
    if (badCheckpoint && !acknowledged?.has(badCheckpoint.seq) && (result.ok || badCheckpoint.seq < result.firstBrokenSeq!)) {
      return { ...result, ok: false, firstBrokenSeq: badCheckpoint.seq, reason: badCheckpoint.reason, lastHash: null };
    }
    return result;
  }
}
