import type { EventLog } from "../event-log";
import { verifyCheckpointSignature, type Checkpointer } from "./checkpoints";
import { verifyChain, type ChainClaim, type ChainVerification } from "./verify";

/**
 * Verifies a tenant's chain against everything that makes claims about it: the events'
 * own hashes and links, the stored chain head, and every signed checkpoint (whose
 * signature is checked first: a checkpoint that does not verify is itself a break).
 */
export class ChainAuditor {
  constructor(
    readonly log: EventLog,
    readonly checkpoints: Checkpointer,
  ) {}

  async verify(
    tenantId: string,
    range: { fromSeq?: number | null; toSeq?: number | null } = {},
    acknowledged?: ReadonlySet<number>,
  ): Promise<ChainVerification> {
    const claims: ChainClaim[] = [];
    const stored = await this.log.storedHead(tenantId);
    if (stored && stored.seq > 0) claims.push({ seq: stored.seq, hash: stored.hash, source: "chain_head" });
    const checkpoints = await this.checkpoints.list(tenantId);
    let badSignature: number | null = null;
    for (const checkpoint of checkpoints) {
      // Signed by another key (rotated, or another process's development key): not a claim this
      // gateway can check. An auditor holding that key checks it with scripts/verify-ndjson.mjs.
      if (checkpoint.key_id !== this.checkpoints.key.keyId) continue;
      if (checkpoint.tenant !== tenantId || !verifyCheckpointSignature(checkpoint, this.checkpoints.key.publicKeyPem)) {
        badSignature ??= checkpoint.seq;
        continue;
      }
      claims.push({ seq: checkpoint.seq, hash: checkpoint.hash, source: "checkpoint" });
    }
    const result = await verifyChain(this.log, tenantId, { ...range, claims, acknowledged });
    if (badSignature !== null && !acknowledged?.has(badSignature) && (result.ok || badSignature < result.firstBrokenSeq!)) {
      return { ...result, ok: false, firstBrokenSeq: badSignature, reason: "checkpoint_signature_invalid" };
    }
    return result;
  }
}
