import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { canonicalJson } from "../canonical";
import type { MemoryEvent } from "../event-log";

/** One Ed25519 public key of the log, by its id: sha256 of its SPKI DER, first 16 hex characters. */
export interface LogPublicKey {
  keyId: string;
  publicKey: KeyObject;
  publicKeyPem: string;
}

/** The key this gateway signs with, and every public key whose signatures it accepts. */
export interface LogKeySet {
  readonly signing: LogPublicKey & { privateKey: KeyObject };
  /** The signing key first, then earlier keys (a rotation keeps them verifiable). */
  readonly publicKeys: readonly LogPublicKey[];
  byId(keyId: string): LogPublicKey | undefined;
}

const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

export function logPublicKey(publicKey: KeyObject): LogPublicKey {
  if (publicKey.asymmetricKeyType !== "ed25519") throw new TypeError("log keys must be Ed25519 keys");
  const der = publicKey.export({ type: "spki", format: "der" });
  return {
    keyId: createHash("sha256").update(der).digest("hex").slice(0, 16),
    publicKey,
    publicKeyPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
  };
}

/**
 * The log's key set: every gateway of a deployment signs with the same private key
 * (MEMGATE_CHECKPOINT_PRIVATE_KEY); after a rotation the earlier public keys are listed in
 * MEMGATE_LOG_PUBLIC_KEYS so what they signed still verifies. A key in neither is unknown.
 */
export function logKeySet(privateKeyPem: string, earlierPublicKeysPem?: string): LogKeySet {
  const privateKey = createPrivateKey(privateKeyPem);
  if (privateKey.asymmetricKeyType !== "ed25519") throw new TypeError("the log signing key must be an Ed25519 key");
  const signing = { ...logPublicKey(createPublicKey(privateKey)), privateKey };
  const earlier = (earlierPublicKeysPem?.match(PEM_BLOCK) ?? []).map((pem) => logPublicKey(createPublicKey(pem)));
  const publicKeys = [signing, ...earlier.filter((k) => k.keyId !== signing.keyId)];
  const index = new Map(publicKeys.map((k) => [k.keyId, k]));
  return { signing, publicKeys, byId: (keyId) => index.get(keyId) };
}

/** What an event's signature covers: its RFC 8785 form without the storage `_id`, the hash and the signature itself. */
export function eventSigningPayload(event: Omit<MemoryEvent, "_id" | "hash"> | MemoryEvent): string {
  const { _id: _unusedId, hash: _unusedHash, signature: _unusedSignature, ...body } = event as MemoryEvent;
  return canonicalJson(body);
}

/**
 * Signs an event body as the log forms it (before its hash): adds `key_id`, then `signature`
 * = base64 Ed25519 over the body with `key_id`. The hash is computed afterwards over both, so
 * the chain commits to every signature.
 */
export function signEventBody<T extends Omit<MemoryEvent, "_id" | "hash">>(body: T, keys: LogKeySet): T {
  const withKey = { ...body, key_id: keys.signing.keyId };
  const signature = sign(null, Buffer.from(eventSigningPayload(withKey), "utf8"), keys.signing.privateKey).toString("base64");
  return { ...withKey, signature };
}

export type EventSignatureProblem = "signature_missing" | "signature_key_unknown" | "signature_invalid";

/** Why an event's signature does not hold with this key set; null when it does. */
export function eventSignatureProblem(event: MemoryEvent, keys: LogKeySet): EventSignatureProblem | null {
  if (typeof event.key_id !== "string" || typeof event.signature !== "string") return "signature_missing";
  const key = keys.byId(event.key_id);
  if (!key) return "signature_key_unknown";
  try {
    return verify(null, Buffer.from(eventSigningPayload(event), "utf8"), key.publicKey, Buffer.from(event.signature, "base64")) ? null : "signature_invalid";
  } catch {
    return "signature_invalid";
  }
}
