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

/** A lone high or low surrogate: BSON stores U+FFFD in its place. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** A \udXXX escape in JSON text (not an escaped backslash before "u"): well-formed JSON.stringify writes only lone surrogates so. */
const ESCAPED_SURROGATE = /(?<!\\)((?:\\\\)*)\\u[dD][89a-fA-F][0-9a-fA-F]{2}/g;

/**
 * The JSON value of a document as it will be stored and read back: Dates become ISO
 * strings, `undefined` members disappear (the driver would store them as null), -0
 * becomes 0 (FerretDB does so) and a lone surrogate becomes U+FFFD (BSON's UTF-8 does so,
 * in values and keys). Hash exactly this, store exactly this.
 */
export function storedJson<T>(value: T): T {
  const json = JSON.stringify(value, (_key, v: unknown) => (Object.is(v, -0) ? 0 : typeof v === "string" ? v.replace(LONE_SURROGATE, "\uFFFD") : v));
  // Keys are not passed through the replacer: JSON.stringify writes their lone surrogates as \udXXX escapes.
  return JSON.parse(json.replace(ESCAPED_SURROGATE, "$1\\ufffd")) as T;
}
