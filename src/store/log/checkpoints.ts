import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { MongoServerError, type Collection, type Db } from "mongodb";
import type { Clock } from "../../clock";
import type { Logger } from "../../logger";
import { canonicalJson } from "../canonical";
import type { EventLog, MemoryEvent } from "../event-log";
import { eventDocId } from "../ids";
import { AUDIT_COLLECTIONS } from "./collections";

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

export interface CheckpointKey {
  privateKey: KeyObject;
  publicKey: KeyObject;
  publicKeyPem: string;
  keyId: string;
}

export function checkpointKey(privateKeyPem: string): CheckpointKey {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new TypeError("the checkpoint key must be an Ed25519 key");
  const publicKey = createPublicKey(privateKey);
  const der = publicKey.export({ type: "spki", format: "der" });
  return {
    privateKey,
    publicKey,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    keyId: createHash("sha256").update(der).digest("hex").slice(0, 16),
  };
}

export function checkpointPayload(body: CheckpointBody): string {
  return canonicalJson({ tenant: body.tenant, seq: body.seq, hash: body.hash, time: body.time });
}

/** True when the checkpoint's signature is valid for this public key (PEM). */
export function verifyCheckpointSignature(checkpoint: CheckpointBody & { signature: string }, publicKeyPem: string): boolean {
  try {
    return verify(null, Buffer.from(checkpointPayload(checkpoint), "utf8"), createPublicKey(publicKeyPem), Buffer.from(checkpoint.signature, "base64"));
  } catch {
    return false;
  }
}

const tenantPrefix = (tenantId: string) => eventDocId(tenantId, 0).slice(0, -12);

/**
 * Signed checkpoints (issue 5 §5): at every seq divisible by `every` (exactly one process
 * appends that seq, so exactly one checkpoint), and every `intervalS` seconds for each tenant
 * whose head moved. An auditor who kept one can detect a truncated or rewritten log.
 */
export class Checkpointer {
  private readonly checkpoints: Collection<Checkpoint>;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    db: Db,
    private readonly log: EventLog,
    private readonly clock: Clock,
    readonly key: CheckpointKey,
    private readonly options: { every: number; intervalS: number },
    private readonly logger: Logger,
  ) {
    this.checkpoints = db.collection<Checkpoint>(AUDIT_COLLECTIONS.checkpoints);
  }

  /** EventLog hook: a checkpoint at every multiple of `every`. */
  readonly onAppended = async (event: MemoryEvent): Promise<void> => {
    if (this.options.every > 0 && event.seq % this.options.every === 0) {
      await this.sign(event.tenant_id, event.seq, event.hash);
    }
  };

  start(): void {
    if (this.options.intervalS <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      this.running = this.running
        .then(async () => void (await this.checkpointAll()))
        .catch((error: unknown) => {
          this.logger.error({ err: error }, "checkpoint round failed");
        });
    }, this.options.intervalS * 1000);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** Signs the head of every tenant whose head is past its latest checkpoint. */
  async checkpointAll(): Promise<Checkpoint[]> {
    const made: Checkpoint[] = [];
    for (const tenant of await this.log.tenants()) {
      const head = await this.log.head(tenant);
      const latest = await this.latest(tenant);
      if (head.seq > 0 && (!latest || latest.seq < head.seq)) made.push(await this.sign(tenant, head.seq, head.hash));
    }
    return made;
  }

  async sign(tenant: string, seq: number, hash: string): Promise<Checkpoint> {
    const body: CheckpointBody = { tenant, seq, hash, time: this.clock.now().toISOString() };
    const signature = sign(null, Buffer.from(checkpointPayload(body), "utf8"), this.key.privateKey).toString("base64");
    const checkpoint: Checkpoint = { _id: eventDocId(tenant, seq), ...body, key_id: this.key.keyId, signature };
    try {
      await this.checkpoints.insertOne(checkpoint);
      return checkpoint;
    } catch (error) {
      // Another process signed this seq already: one checkpoint per seq.
      if (error instanceof MongoServerError && error.code === 11000) {
        return (await this.checkpoints.findOne({ _id: checkpoint._id })) ?? checkpoint;
      }
      throw error;
    }
  }

  /** A tenant's checkpoints in seq order, read by `_id` range. */
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
