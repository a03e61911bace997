#!/usr/bin/env node
// Verifies a memgate audit export (NDJSON) on its own: plain Node, nothing from memgate's src/.
// Usage: node scripts/verify-ndjson.mjs export.ndjson [--checkpoint cp.json --public-key key.pem] [--anchor <prev_hash>]
// cp.json: one checkpoint {tenant, seq, hash, time, signature} (as auditCheckpoints lists it) or an array of them.
// Exit 0: every line verifies (and every checkpoint given is signed by the key and matches the export).
// Exit 1: the first failure is printed as "FAIL seq=<n> <reason>". Rules: docs/AUDIT.md.
import { createHash, createPublicKey, verify } from "node:crypto";
import { readFileSync } from "node:fs";

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
  if (!args.file) throw new Error("usage: verify-ndjson.mjs export.ndjson [--checkpoint cp.json --public-key key.pem] [--anchor prev_hash]");
  if (args.checkpoint && !args.publicKey) throw new Error("--checkpoint needs --public-key");
  return args;
}

function fail(seq, reason) {
  process.stdout.write(`FAIL seq=${seq} ${reason}\n`);
  process.exit(1);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const lines = readFileSync(args.file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  const bySeq = new Map();
  let prev = args.anchor;
  let expectedSeq;
  let tenant;
  for (const [index, line] of lines.entries()) {
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      fail(expectedSeq ?? `line ${index + 1}`, "not_json");
    }
    if (expectedSeq === undefined) {
      expectedSeq = event.seq;
      tenant = event.tenant_id;
      if (prev === undefined) prev = event.seq === 1 ? "0".repeat(64) : event.prev_hash;
    }
    if (event.seq !== expectedSeq) fail(expectedSeq, `seq_mismatch (line has ${event.seq})`);
    if (event.tenant_id !== tenant) fail(expectedSeq, "tenant_mismatch");
    const { hash, ...body } = event;
    if (sha256(jcs(body)) !== hash) fail(expectedSeq, "hash_mismatch");
    if (event.prev_hash !== prev) fail(expectedSeq, "prev_hash_mismatch");
    bySeq.set(event.seq, hash);
    prev = hash;
    expectedSeq++;
  }
  let checkpoints = 0;
  if (args.checkpoint) {
    const key = createPublicKey(readFileSync(args.publicKey, "utf8"));
    const given = JSON.parse(readFileSync(args.checkpoint, "utf8"));
    for (const cp of Array.isArray(given) ? given : [given]) {
      const payload = jcs({ tenant: cp.tenant, seq: cp.seq, hash: cp.hash, time: cp.time });
      if (!verify(null, Buffer.from(payload, "utf8"), key, Buffer.from(cp.signature, "base64"))) fail(cp.seq, "checkpoint_signature_invalid");
      if (tenant !== undefined && cp.tenant !== tenant) fail(cp.seq, "checkpoint_tenant_mismatch");
      if (!bySeq.has(cp.seq))
        fail(cp.seq, lines.length && cp.seq > expectedSeq - 1 ? "truncated (the checkpoint names a later seq)" : "checkpoint_outside_export");
      if (bySeq.get(cp.seq) !== cp.hash) fail(cp.seq, "checkpoint_mismatch");
      checkpoints++;
    }
  }
  process.stdout.write(`OK events=${lines.length} last_seq=${expectedSeq === undefined ? 0 : expectedSeq - 1} checkpoints=${checkpoints}\n`);
}

try {
  main();
} catch (error) {
  process.stderr.write(`verify-ndjson: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(2);
}
