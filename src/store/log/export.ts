import { sign } from "node:crypto";
import { canonicalJson } from "../canonical";
import { GENESIS_HASH, seqBatches, type EventLog, type MemoryEvent } from "../event-log";
import type { LogKeySet } from "./event-signing";

/** Ranges up to this long are read by `_id` batches (EventLog.bySeqs, as src/store/log/verify.ts does). */
const LOOKUP_MAX = 2000;

/**
 * The first line of an NDJSON export (issue 12 §7): which range it holds and where it starts,
 * signed by the gateway so the range cannot be edited with the file. An auditor's verifier
 * refuses an export that does not start at `anchor` (GENESIS for after_seq 0) or holds fewer
 * events than `to_seq - after_seq`.
 */
export interface ExportManifest {
  memgate_export: 1;
  tenant: string;
  /** Events with seq in (after_seq, to_seq] follow, in order. */
  after_seq: number;
  /** The head when the export started. */
  to_seq: number;
  /** The hash of the event at after_seq (64 zeros for after_seq 0): the first event's prev_hash. */
  anchor: string | null;
  exported_at: string;
  /** The public keys whose signatures the events may carry (the signing key first). */
  keys: { key_id: string; public_key: string }[];
  /** The key that signed this manifest, and its base64 Ed25519 signature over the manifest without `signature`. */
  key_id: string;
  signature: string;
}

export async function exportManifest(log: EventLog, keys: LogKeySet, tenant: string, afterSeq: number, now: Date): Promise<ExportManifest> {
  const head = await log.head(tenant);
  const toSeq = Math.max(afterSeq, head.seq);
  const anchor = afterSeq === 0 ? GENESIS_HASH : ((await log.get(tenant, afterSeq))?.hash ?? null);
  const body: Omit<ExportManifest, "signature"> = {
    memgate_export: 1,
    tenant,
    after_seq: afterSeq,
    to_seq: toSeq,
    anchor,
    exported_at: now.toISOString(),
    keys: keys.publicKeys.map((k) => ({ key_id: k.keyId, public_key: k.publicKeyPem })),
    key_id: keys.signing.keyId,
  };
  const signature = sign(null, Buffer.from(canonicalJson(body), "utf8"), keys.signing.privateKey).toString("base64");
  return { ...body, signature };
}

/**
 * The events of (afterSeq, toSeq] in seq order: a short range by `_id` lookups, a long one in one
 * pass (EventLog.segment: FerretDB pushes down no `_id` range, so one pass costs one scan, not
 * one per page). Stops at the first missing seq: the export is then short of its manifest, and
 * verifiers say so.
 */
export async function* orderedEvents(log: EventLog, tenant: string, afterSeq: number, toSeq: number): AsyncIterable<MemoryEvent> {
  if (toSeq <= afterSeq) return;
  if (toSeq - afterSeq <= LOOKUP_MAX) {
    // A short range (an auditor resuming after the seq they hold): `_id` batches, in order.
    for (const seqs of seqBatches(afterSeq + 1, toSeq)) {
      for (const event of await log.bySeqs(tenant, seqs)) {
        if (!event) return; // stops at the first missing seq, as below
        yield event;
      }
    }
    return;
  }
  const pending = new Map<number, MemoryEvent>();
  let next = afterSeq + 1;
  const cursor = log.segment(tenant, afterSeq + 1, toSeq);
  try {
    for await (const event of cursor) {
      pending.set(Number(event._id.slice(-12)), event);
      for (let ready = pending.get(next); ready; ready = pending.get(next)) {
        pending.delete(next++);
        yield ready;
      }
      if (pending.size > 10_000) return; // a seq this far behind is missing
    }
  } finally {
    await cursor.close().catch(() => undefined);
  }
}
