import { createHash, randomBytes } from "node:crypto";
import canonicalize from "canonicalize";

/**
 * RFC 8785 (JCS) canonical JSON, by the `canonicalize` package (the reference
 * implementation's author's). Hashes are computed over what is stored, so values that
 * FerretDB would alter (-0, NUL) must not reach this point.
 */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError("value has no canonical JSON form");
  return text;
}

export function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

export function canonicalHash(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

export function newSalt(): string {
  return randomBytes(16).toString("hex");
}

/**
 * A salted digest of content, for events (SPEC D1): the event commits to the content
 * without holding it, and once the item and its salt are erased the digest cannot be
 * linked back to a guess of the content.
 */
export function saltedDigest(salt: string, content: unknown): string {
  return sha256Hex(`${salt}:${canonicalJson(content)}`);
}

/**
 * The JSON value of a document as it will be stored and read back: Dates become ISO
 * strings, `undefined` members disappear (the driver would store them as null), and -0
 * becomes 0 (FerretDB does so). Hash exactly this, store exactly this.
 */
export function storedJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (Object.is(v, -0) ? 0 : v))) as T;
}
