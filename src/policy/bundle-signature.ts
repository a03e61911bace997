import { createHash, createPublicKey, type KeyObject } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { calculateJwkThumbprint, compactVerify, decodeProtectedHeader, exportJWK } from "jose";
import { projectRoot } from "../config";
import { PolicyBundleSignatureError } from "./errors";

/** Where `scripts/policy.sh build` keeps the development signing key pair it generates (git-ignored build/). */
export const DEV_POLICY_KEY_DIR = path.join(projectRoot, "build", "keys");
export const DEV_POLICY_PUBLIC_KEY = path.join(DEV_POLICY_KEY_DIR, "policy-signing-public.pem");

/** The public keys a bundle's signature may be made with (several during a rotation). */
export interface BundleTrust {
  /** Where the keys come from, for messages: the configuration or the development key file. */
  readonly source: string;
  /** Read at every load, so a rotated configuration or a regenerated development key is seen. */
  keys(): KeyObject[];
}

/** Algorithms `opa build --signing-alg` may use that are deterministic (a rebuild gives the same bytes). */
const ALGORITHMS = ["EdDSA", "RS256", "RS384", "RS512", "ES256", "ES384", "ES512"];
const HASHES: Record<string, string> = { "SHA-256": "sha256", "SHA-384": "sha384", "SHA-512": "sha512" };
const PEM_BLOCK = /-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g;

/** Every PEM public key in a text (MEMGATE_POLICY_PUBLIC_KEYS may hold several, one after the other). */
export function publicKeysFromPem(text: string): KeyObject[] {
  return (text.match(PEM_BLOCK) ?? []).map((pem) => createPublicKey(pem));
}

/** Keys from the configuration when set; otherwise the development key `scripts/policy.sh build` generates. */
export function bundleTrust(configuredPem: string | undefined, devPublicKeyPath = DEV_POLICY_PUBLIC_KEY): BundleTrust {
  if (configuredPem !== undefined) {
    const keys = publicKeysFromPem(configuredPem);
    if (keys.length === 0) throw new TypeError("MEMGATE_POLICY_PUBLIC_KEYS holds no PEM public key");
    return { source: "MEMGATE_POLICY_PUBLIC_KEYS", keys: () => keys };
  }
  return {
    source: devPublicKeyPath,
    keys: () => (existsSync(devPublicKeyPath) ? publicKeysFromPem(readFileSync(devPublicKeyPath, "utf8")) : []),
  };
}

/**
 * OPA's digest of a bundle file (bundle/hash.go): JSON files are hashed over a canonical walk
 * (keys sorted, compact, Go's string escaping without HTML escapes), every other file over its bytes.
 */
export function opaFileDigest(name: string, bytes: Buffer, algorithm: string): string {
  const hash = createHash(algorithm);
  if (name.endsWith(".json") || name === ".manifest") hash.update(opaJson(JSON.parse(bytes.toString("utf8"))), "utf8");
  else hash.update(bytes);
  return hash.digest("hex");
}

function goString(value: string): string {
  // Go's encoder escapes U+2028 and U+2029 even with SetEscapeHTML(false); JSON.stringify does not.
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function opaJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(opaJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    // Go sorts keys by bytes (UTF-8); for the BMP this is the code-unit order of JS's sort.
    const keys = Object.keys(record).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((k) => `${goString(k)}:${opaJson(record[k])}`).join(",")}}`;
  }
  return typeof value === "string" ? goString(value) : JSON.stringify(value);
}

interface SignedFiles {
  files?: { name?: unknown; hash?: unknown; algorithm?: unknown }[];
}

/**
 * OPA bundle signing (`opa build --bundle --signing-key …`): `.signatures.json` holds one JWT
 * whose payload lists every file of the bundle with its digest. The JWT must verify with one of
 * the trusted keys, and the bundle must hold exactly the files it lists, each with its digest.
 * Throws PolicyBundleSignatureError (the bundle is refused like a corrupt one).
 */
export async function verifyBundleSignature(files: ReadonlyMap<string, Buffer>, trust: BundleTrust): Promise<SignedBy> {
  const raw = files.get(".signatures.json");
  if (!raw) throw new PolicyBundleSignatureError("unsigned", "the bundle has no .signatures.json (build it with scripts/policy.sh build)");
  let jwt: string;
  try {
    const parsed = JSON.parse(raw.toString("utf8")) as { signatures?: unknown };
    if (!Array.isArray(parsed.signatures) || parsed.signatures.length !== 1 || typeof parsed.signatures[0] !== "string") throw new Error("not one signature");
    jwt = parsed.signatures[0];
  } catch (error) {
    throw new PolicyBundleSignatureError("signature_invalid", ".signatures.json does not hold exactly one JWT", { cause: error });
  }
  const keys = trust.keys();
  if (keys.length === 0) throw new PolicyBundleSignatureError("no_trusted_key", `no public key to verify bundles with (${trust.source})`);
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(jwt).alg;
  } catch (error) {
    throw new PolicyBundleSignatureError("signature_invalid", "the signature is not a JWS", { cause: error });
  }
  if (!alg || !ALGORITHMS.includes(alg)) throw new PolicyBundleSignatureError("signature_invalid", `signing algorithm ${String(alg)} is not accepted`);
  let payload: Uint8Array | undefined;
  let signer: KeyObject | undefined;
  for (const key of keys) {
    try {
      payload = (await compactVerify(jwt, key, { algorithms: [alg] })).payload;
      signer = key;
      break;
    } catch {
      // try the next trusted key (a rotation lists the old and the new one)
    }
  }
  if (!payload) throw new PolicyBundleSignatureError("signature_invalid", `the signature does not verify with any trusted key (${trust.source})`);
  let signed: SignedFiles;
  try {
    signed = JSON.parse(Buffer.from(payload).toString("utf8")) as SignedFiles;
  } catch (error) {
    throw new PolicyBundleSignatureError("signature_invalid", "the signed payload is not JSON", { cause: error });
  }
  const listed = new Map<string, { hash: string; algorithm: string }>();
  for (const file of signed.files ?? []) {
    if (typeof file.name !== "string" || typeof file.hash !== "string")
      throw new PolicyBundleSignatureError("signature_invalid", "a signed file entry is malformed");
    listed.set(file.name.replace(/^\/+/, ""), { hash: file.hash, algorithm: typeof file.algorithm === "string" ? file.algorithm : "SHA-256" });
  }
  for (const [name, bytes] of files) {
    if (name === ".signatures.json") continue;
    const expected = listed.get(name);
    if (!expected) throw new PolicyBundleSignatureError("file_not_signed", `${name} is in the bundle but not in its signature`);
    const algorithm = HASHES[expected.algorithm];
    if (!algorithm) throw new PolicyBundleSignatureError("signature_invalid", `unsupported digest ${expected.algorithm}`);
    let digest: string;
    try {
      digest = opaFileDigest(name, bytes, algorithm);
    } catch (error) {
      throw new PolicyBundleSignatureError("digest_mismatch", `${name} cannot be digested`, { cause: error });
    }
    if (digest !== expected.hash) throw new PolicyBundleSignatureError("digest_mismatch", `${name} does not match its signed digest`);
    listed.delete(name);
  }
  if (listed.size > 0) throw new PolicyBundleSignatureError("file_missing", `${[...listed.keys()][0]} is signed but not in the bundle`);
  return { keyId: await keyIdOf(signer!) };
}

/** Who signed a bundle that verified. */
export interface SignedBy {
  /** RFC 7638 JWK thumbprint (SHA-256, base64url) of the public key the signature verified with. */
  keyId: string;
}

/** RFC 7638 thumbprint of a public key: the same key gives the same id wherever it is configured. */
export async function keyIdOf(key: KeyObject): Promise<string> {
  return calculateJwkThumbprint(await exportJWK(key), "sha256");
}

/**
 * The policy version: sha256 over every file of the bundle but `.signatures.json`, each by OPA's
 * own digest (what the signed manifest lists), in name order. Two clones building the same sources
 * with two different keys get the same version; the signature says only who vouched for it.
 */
export function bundleContentDigest(files: ReadonlyMap<string, Buffer>): string {
  const lines = [...files.keys()]
    .filter((name) => name !== ".signatures.json")
    .sort()
    .map((name) => `${name}\u0000${opaFileDigest(name, files.get(name)!, "sha256")}\n`);
  return createHash("sha256").update(lines.join(""), "utf8").digest("hex");
}
