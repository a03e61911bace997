import { createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import type { Collection, Db } from "mongodb";
import type { Clock } from "../../clock";
import type { Logger } from "../../logger";
import { canonicalJson } from "../canonical";
import type { EventLog, MemoryEvent } from "../event-log";
import { eventDocId } from "../ids";
import { AUDIT_COLLECTIONS } from "./collections";
import type { LogKeySet, LogPublicKey } from "./event-signing";
import { verifyChain, type ChainVerification } from "./verify";
import { isDuplicateKey } from "../database";

/** What a checkpoint signs, exactly: the RFC 8785 form of these four fields. */
export interface CheckpointBody {
  tenant: string;
  seq: number;
  hash: string;
  time: string;
}

export interface Checkpoint extends CheckpointBody {
  _id: string;
  /** sha256 hex of the signing public key (SPKI DER), first 16 characters. */
  key_id: string;
  /** base64 Ed25519 signature over canonicalJson(CheckpointBody). */
  signature: string;
}

/** The signing half of the log's key set (LogKeySet.signing). */
export type CheckpointKey = LogPublicKey & { privateKey: KeyObject };

export function checkpointPayload(body: CheckpointBody): string {
  return canonicalJson({ tenant: body.tenant, seq: body.seq, hash: body.hash, time: body.time });
}

/** True when the checkpoint's signature is valid for this public key (PEM or KeyObject). */
export function verifyCheckpointSignature(checkpoint: CheckpointBody & { signature: string }, publicKey: string | KeyObject): boolean {
  try {
    const key = typeof publicKey === "string" ? createPublicKey(publicKey) : publicKey;
    return verify(null, Buffer.from(checkpointPayload(checkpoint), "utf8"), key, Buffer.from(checkpoint.signature, "base64"));
  } catch {
    return false;
  }
}

const tenantPrefix = (tenantId: string) => eventDocId(tenantId, 0).slice(0, -12);

/**
 * Signed checkpoints (issue 5 §5, issue 12 §6): at every seq divisible by `every` and every
 * `intervalS` seconds for each tenant whose head moved. Before it signs, the checkpointer
 * verifies the segment since its last checkpoint (hashes, links, signatures); it never signs
 * a head below a seq signed before (a rewound chain) nor one that does not verify: it reports
 * a break instead (`onBreak`, a `conformance_break` event). An auditor who kept a checkpoint
 * can detect a truncated or rewritten log; the gateway verifies from its last one.
 */
export class Checkpointer {
  private readonly checkpoints: Collection<Checkpoint>;
  private timer: NodeJS.Timeout | undefined;
  /** Checkpoint work of this process, one at a time, off the request path. */
  private queue: Promise<unknown> = Promise.resolve();
  /** The highest checkpoint this process saw per tenant (a rewind is judged against it too). */
  private readonly signed = new Map<string, { seq: number; hash: string; time: string }>();
  /** Reports a chain the checkpointer refused to sign (set by the audit system: IntegrityGuard.reportBreak). */
  onBreak: (verification: ChainVerification) => Promise<unknown> = async () => undefined;
  /** Seqs of acknowledged breaks per tenant (IntegrityGuard.acknowledgedSeqs). */
  acknowledgedOf: (tenant: string) => ReadonlySet<number> = () => new Set();
  /** True while the tenant has an unacknowledged break (IntegrityGuard): nothing is signed over a broken chain. */
  brokenOf: (tenant: string) => boolean = () => false;
  /**
   * The background sweep's latest clean pass over the tenant begun at or after `since` (clock ms),
   * if any (ChainSweep.completedSince); absent: there is no sweep, and history is verified here.
   */
  sweptSince: ((tenant: string, since: number) => { startedAt: number; throughSeq: number } | undefined) | undefined;

  constructor(
    db: Db,
    private readonly log: EventLog,
    private readonly clock: Clock,
    readonly keys: LogKeySet,
    private readonly options: {
      every: number;
      intervalS: number;
      /**
       * History below the last checkpoint up to this many events is verified here before signing,
       * when no sweep pass has covered it since that checkpoint (default 2,000: tens of ms).
       */
      inlineHistoryMax?: number;
    },
    private readonly logger: Logger,
  ) {
    this.checkpoints = db.collection<Checkpoint>(AUDIT_COLLECTIONS.checkpoints);
  }

  /** The key this process signs with. */
  get key(): CheckpointKey {
    return this.keys.signing;
  }

  /** EventLog hook: a checkpoint at every multiple of `every`, queued (the appender does not wait for the verification). */
  readonly onAppended = (event: MemoryEvent): void => {
    if (this.options.every > 0 && event.seq % this.options.every === 0) {
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- enqueue logs a failed round and never rejects
      void this.enqueue(() => this.checkpoint(event.tenant_id, event.seq, event.hash));
    }
  };

  start(): void {
    if (this.options.intervalS <= 0 || this.timer) return;
    // enqueue logs a failed round and never rejects.
    this.timer = setInterval(() => {
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- see above
      void this.enqueue(() => this.checkpointAll());
    }, this.options.intervalS * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.settled();
  }

  /** Resolves once the checkpoint work queued so far is done (tests, shutdown). */
  async settled(): Promise<void> {
    let seen: Promise<unknown> | undefined;
    while (seen !== this.queue) {
      seen = this.queue;
      await seen;
    }
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T | undefined> {
    const next = this.queue.then(work).catch((error: unknown) => {
      this.logger.error({ err: error }, "checkpoint round failed");
      return undefined;
    });
    this.queue = next;
    return next;
  }

  /** Signs the head of every tenant whose head is past its latest checkpoint. */
  async checkpointAll(): Promise<Checkpoint[]> {
    const made: Checkpoint[] = [];
    for (const tenant of await this.log.tenants()) {
      const head = await this.log.head(tenant);
      if (head.seq === 0) continue;
      const checkpoint = await this.checkpoint(tenant, head.seq, head.hash);
      if (checkpoint && checkpoint.seq === head.seq) made.push(checkpoint);
    }
    return made;
  }

  /**
   * Signs (tenant, seq, hash) once the segment since the last checkpoint verifies; null when it
   * refused (and reported a break). The last checkpoint is the higher of the database's and
   * this process's memory, so deleting checkpoints does not let a rewind through either.
   */
  async checkpoint(tenant: string, seq: number, hash: string): Promise<Checkpoint | null> {
    // MP-BREAK: a broken chain is not signed over until an admin acknowledges the break.
    if (this.brokenOf(tenant)) return null;
    const last = await this.lastSigned(tenant);
    const acknowledged = this.acknowledgedOf(tenant);
    const trusted = last && !acknowledged.has(last.seq) ? last : null;
    if (trusted && seq <= trusted.seq) {
      // A request older than the last checkpoint (a queued one, another process's) is stale, unless the chain moved back.
      const head = await this.log.head(tenant);
      if (head.seq < trusted.seq) {
        await this.refuse(tenant, trusted.seq, head.seq, "chain_rewound");
        return null;
      }
      const signedEvent = await this.log.get(tenant, trusted.seq);
      if (signedEvent?.hash !== trusted.hash) {
        await this.refuse(tenant, trusted.seq, head.seq, "checkpoint_mismatch");
        return null;
      }
      return null;
    }
    const verification = await verifyChain(this.log, tenant, { anchor: trusted, toSeq: seq, keys: this.keys, acknowledged, trustOwnSeals: true });
    if (!verification.ok) {
      await this.onBreak(verification);
      return null;
    }
    // Issue 22 §3: the segment since the last checkpoint is not enough; the history below it must have
    // been verified again since that checkpoint was signed (an insider may edit any old event).
    if (trusted && last && !(await this.historyVerified(tenant, trusted.seq, Date.parse(last.time), acknowledged))) return null;
    if (verification.toSeq !== seq || verification.lastHash !== hash) {
      await this.refuse(tenant, Math.min(seq, verification.toSeq + 1), seq, verification.toSeq < seq ? "truncated" : "hash_mismatch");
      return null;
    }
    return this.sign(tenant, seq, hash);
  }

  /**
   * True when every event up to `belowSeq` was verified after the checkpoint at `belowSeq` was signed
   * (`signedAt`): by a clean sweep pass begun since, or here when the history is short. False with
   * a break reported, or false for now (a long history waits for the sweep's next pass: the
   * checkpoint is deferred, never signed unverified).
   */
  private async historyVerified(tenant: string, belowSeq: number, signedAt: number, acknowledged: ReadonlySet<number>): Promise<boolean> {
    const swept = this.sweptSince?.(tenant, Number.isNaN(signedAt) ? 0 : signedAt);
    if (swept && swept.throughSeq >= belowSeq) return true;
    // With a sweep, a long history waits for its next pass; without one, it is verified here, whatever its length.
    if (this.sweptSince && belowSeq > (this.options.inlineHistoryMax ?? 2000)) return false;
    const history = await verifyChain(this.log, tenant, { toSeq: belowSeq, keys: this.keys, acknowledged, trustOwnSeals: true });
    if (history.ok) return true;
    await this.onBreak(history);
    return false;
  }

  private async refuse(tenant: string, brokenSeq: number, headSeq: number, reason: string): Promise<void> {
    this.logger.error({ tenant, brokenSeq, headSeq, reason }, "MP-BREAK: the checkpointer refused to sign");
    const head = await this.log.head(tenant);
    await this.onBreak({
      tenantId: tenant,
      ok: false,
      fromSeq: brokenSeq,
      toSeq: headSeq,
      eventsChecked: 0,
      firstBrokenSeq: brokenSeq,
      reason,
      headSeq: head.seq,
      headHash: head.hash,
      checkpointsChecked: 0,
      lastHash: null,
    });
  }

  private async lastSigned(tenant: string): Promise<{ seq: number; hash: string; time: string } | null> {
    const stored = await this.latest(tenant);
    const remembered = this.signed.get(tenant);
    const usable = stored && this.keys.byId(stored.key_id) && verifyCheckpointSignature(stored, this.keys.byId(stored.key_id)!.publicKey) ? stored : null;
    if (usable && (!remembered || usable.seq >= remembered.seq)) return { seq: usable.seq, hash: usable.hash, time: usable.time };
    return remembered ?? null;
  }

  async sign(tenant: string, seq: number, hash: string): Promise<Checkpoint> {
    const body: CheckpointBody = { tenant, seq, hash, time: this.clock.now().toISOString() };
    const signature = sign(null, Buffer.from(checkpointPayload(body), "utf8"), this.key.privateKey).toString("base64");
    const checkpoint: Checkpoint = { _id: eventDocId(tenant, seq), ...body, key_id: this.key.keyId, signature };
    const remember = (cp: Checkpoint) => {
      const known = this.signed.get(tenant);
      if (!known || known.seq < cp.seq) this.signed.set(tenant, { seq: cp.seq, hash: cp.hash, time: cp.time });
      return cp;
    };
    try {
      await this.checkpoints.insertOne(checkpoint);
      return remember(checkpoint);
    } catch (error) {
      // Another process signed this seq already: one checkpoint per seq.
      if (isDuplicateKey(error)) {
        return remember((await this.checkpoints.findOne({ _id: checkpoint._id })) ?? checkpoint);
      }
      throw error;
    }
  }

  /** A tenant's checkpoints in seq order (a small collection: one per `every` events). */
  async list(tenant: string, afterSeq = 0, limit = 1000): Promise<Checkpoint[]> {
    return this.checkpoints
      .find({ _id: { $gt: eventDocId(tenant, afterSeq), $lt: `${tenantPrefix(tenant)};` } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
  }

  async latest(tenant: string): Promise<Checkpoint | null> {
    const [last] = await this.checkpoints
      .find({ _id: { $gt: eventDocId(tenant, 0), $lt: `${tenantPrefix(tenant)};` } })
      .sort({ _id: -1 })
      .limit(1)
      .toArray();
    return last ?? null;
  }
}
