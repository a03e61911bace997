#!/usr/bin/env node
// Verifies a memgate audit export (NDJSON) on its own: plain Node, nothing from memgate's src/.
// Usage: node scripts/verify-ndjson.mjs export.ndjson [--public-key keys.pem] [--checkpoint cp.json] [--anchor <hash of seq after_seq>]
// Line 1 is the export's signed manifest (tenant, after_seq, to_seq, anchor, public keys); the events follow.
// keys.pem: the log's public key(s), PEM, one after the other (as auditCheckpoints or `npm run audit:export
//   -- --public-key` gives them); without it the keys listed in the manifest are used (that trusts the
//   gateway that served the export: pin them with --public-key).
// cp.json: one checkpoint {tenant, seq, hash, time, key_id, signature} (as auditCheckpoints lists it) or an array of them.
// Refused: a missing or unsigned manifest, an export that does not start at its anchor (64 zeros when
// after_seq is 0; for a later start, the hash you pass with --anchor or a checkpoint names), fewer events
// than the manifest states (an empty export of a non-empty range), and any event whose hash, link or
// Ed25519 signature fails. Exit 0: OK; 1: "FAIL seq=<n> <reason>"; 2: cannot run. Rules: docs/AUDIT.md.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

const GENESIS = "0".repeat(64);

/** RFC 8785 (JCS): sorted keys (UTF-16 code units), ECMAScript number and string forms, no whitespace. */
function jcs(value) {
  if (value === null || typeof value === "boolean" || typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("non-finite number");
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => jcs(v === undefined ? null : v)).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${jcs(value[k])}`).join(",")}}`;
  }
  throw new Error(`cannot canonicalize a ${typeof value}`);
}
const sha256 = (text) => createHash("sha256").update(text, "utf8").digest("hex");

function parseArgs(argv) {
  const args = { file: undefined, checkpoint: undefined, publicKey: undefined, anchor: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--checkpoint") args.checkpoint = argv[++i];
    else if (a === "--public-key") args.publicKey = argv[++i];
    else if (a === "--anchor") args.anchor = argv[++i];
    else if (!args.file) args.file = a;
    else throw new Error(`unexpected argument ${a}`);
  }
  if (!args.file) throw new Error("usage: verify-ndjson.mjs export.ndjson [--public-key keys.pem] [--checkpoint cp.json] [--anchor hash]");
  return args;
}

function fail(seq, reason) {
  process.stdout.write(`FAIL seq=${seq} ${reason}\n`);
  process.exit(1);
}

/** Key id as memgate computes it: sha256 of the SPKI DER, first 16 hex characters. */
function keyEntry(pem) {
  const key = createPublicKey(pem);
  return [
    createHash("sha256")
      .update(key.export({ type: "spki", format: "der" }))
      .digest("hex")
      .slice(0, 16),
    key,
  ];
}

const signatureValid = (payload, key, signature) => {
  try {
    return verify(null, Buffer.from(payload, "utf8"), key, Buffer.from(signature, "base64"));
  } catch {
    return false;
  }
};

function main() {
  const args = parseArgs(process.argv.slice(2));
  const lines = readFileSync(args.file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  let manifest;
  try {
    manifest = JSON.parse(lines[0] ?? "null");
  } catch {
    manifest = null;
  }
  if (!manifest || manifest.memgate_export !== 1) fail(0, "no_manifest (the first line is not a memgate export manifest: an empty file, or its head was cut)");
  const { tenant, after_seq: afterSeq, to_seq: toSeq } = manifest;
  if (!Number.isInteger(afterSeq) || !Number.isInteger(toSeq) || afterSeq < 0 || toSeq < afterSeq) fail(0, "manifest_range_invalid");

  const pinned = args.publicKey !== undefined;
  const pems = pinned
    ? (readFileSync(args.publicKey, "utf8").match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g) ?? [])
    : (manifest.keys ?? []).map((k) => k.public_key);
  const keys = new Map(pems.map(keyEntry));
  if (keys.size === 0) fail(0, "no_public_key");
  const { signature: manifestSignature, ...manifestBody } = manifest;
  const manifestKey = keys.get(manifest.key_id);
  if (!manifestKey) fail(0, "manifest_key_unknown");
  if (!signatureValid(jcs(manifestBody), manifestKey, manifestSignature ?? "")) fail(0, "manifest_signature_invalid");

  let checkpoints = [];
  if (args.checkpoint) {
    const given = JSON.parse(readFileSync(args.checkpoint, "utf8"));
    checkpoints = Array.isArray(given) ? given : [given];
  }
  // Where the export must start: genesis, or a hash the auditor holds (--anchor, or a checkpoint at after_seq).
  let anchor;
  if (afterSeq === 0) anchor = GENESIS;
  else anchor = args.anchor ?? checkpoints.find((cp) => cp.seq === afterSeq && cp.tenant === tenant)?.hash;
  if (anchor === undefined)
    fail(
      afterSeq + 1,
      `anchor_unpinned (the export starts after seq ${afterSeq}: pass --anchor <hash of seq ${afterSeq}> from your earlier export, or a checkpoint at that seq)`,
    );
  if (manifest.anchor !== anchor) fail(afterSeq + 1, "anchor_mismatch (the manifest's anchor is not the one expected)");

  const bySeq = new Map();
  let prev = anchor;
  let expectedSeq = afterSeq + 1;
  for (const [index, line] of lines.slice(1).entries()) {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      fail(expectedSeq ?? `line ${index + 2}`, "not_json");
    }
    if (expectedSeq > toSeq) fail(event.seq, "beyond_manifest (more events than the manifest states)");
    if (event.seq !== expectedSeq) fail(expectedSeq, `seq_mismatch (line has ${event.seq})`);
    if (event.tenant_id !== tenant) fail(expectedSeq, "tenant_mismatch");
    const { hash, ...body } = event;
    if (sha256(jcs(body)) !== hash) fail(expectedSeq, "hash_mismatch");
    if (typeof event.key_id !== "string" || typeof event.signature !== "string") fail(expectedSeq, "signature_missing");
    const key = keys.get(event.key_id);
    if (!key) fail(expectedSeq, "signature_key_unknown");
    const { signature, ...signed } = body;
    if (!signatureValid(jcs(signed), key, signature)) fail(expectedSeq, "signature_invalid");
    if (event.prev_hash !== prev)
      fail(expectedSeq, expectedSeq === afterSeq + 1 ? "anchor_mismatch (the first event does not link to the anchor)" : "prev_hash_mismatch");
    bySeq.set(event.seq, hash);
    prev = hash;
    expectedSeq++;
  }
  if (expectedSeq <= toSeq) fail(expectedSeq, `truncated (the manifest states events up to seq ${toSeq})`);

  let checked = 0;
  for (const cp of checkpoints) {
    const payload = jcs({ tenant: cp.tenant, seq: cp.seq, hash: cp.hash, time: cp.time });
    const keyId = cp.key_id ?? cp.keyId; // as stored, or as the GraphQL auditCheckpoints query names it
    if (keyId !== undefined && !keys.has(keyId)) fail(cp.seq, "checkpoint_key_unknown");
    const candidates = keyId !== undefined ? [keys.get(keyId)] : [...keys.values()];
    if (!candidates.some((k) => signatureValid(payload, k, cp.signature))) fail(cp.seq, "checkpoint_signature_invalid");
    if (cp.tenant !== tenant) fail(cp.seq, "checkpoint_tenant_mismatch");
    if (cp.seq === afterSeq) continue; // the anchor, checked above
    if (cp.seq > toSeq) {
      // Signed before the export started yet past its end: the log lost that tail. Signed later: not this export's business.
      if (cp.time <= manifest.exported_at) fail(cp.seq, "truncated (a checkpoint signed before the export names a later seq)");
      continue;
    }
    if (cp.seq < afterSeq) continue; // before this export: an earlier export's business
    if (bySeq.get(cp.seq) !== cp.hash) fail(cp.seq, "checkpoint_mismatch");
    checked++;
  }
  process.stdout.write(
    `OK tenant=${tenant} events=${toSeq - afterSeq} seq=${afterSeq + 1}..${toSeq} anchor=${afterSeq === 0 ? "genesis" : anchor.slice(0, 12)} checkpoints=${checked} keys=${pinned ? "pinned" : "from the export"}\n`,
  );
}

try {
  main();
} catch (error) {
  process.stderr.write(`verify-ndjson: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
