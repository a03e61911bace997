import { execFile } from "node:child_process";
import { verify as verifySignature, createPublicKey, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import canonicalize from "canonicalize";
import { ManualClock } from "../../src/clock";
import { eventHash } from "../../src/store/event-log";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { CHECKPOINTS, ERASE_MEMORY, ERASE_SUBJECT, eventsOf, preference, READ, STORE, storeMany, UPDATE, VERIFY } from "./support";

const run = promisify(execFile);
const VERIFIER = path.resolve(__dirname, "..", "..", "scripts", "verify-ndjson.mjs");

async function standalone(...args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [VERIFIER, ...args]);
    return { code: 0, out: stdout };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

describe("checkpoints, export and erasure", () => {
  const clock = new ManualClock("2026-04-01T08:00:00.000Z");
  let gw: TestGateway;
  let agent: string;
  let auditor: string;
  const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-export-"));

  beforeAll(async () => {
    gw = await startTestGateway({ clock, env: { MEMGATE_CHECKPOINT_EVERY: "4", MEMGATE_CHECKPOINT_INTERVAL_S: "0" } });
    agent = await gw.token({ tenant: "exp", subjects: ["alice", "bob"], roles: ["agent"] });
    auditor = await gw.token({ tenant: "exp", subjects: [], roles: ["auditor"] });
  });
  afterAll(() => gw.stop());

  const exportNdjson = async (token: string | null, query = "") =>
    fetch(`${gw.url}/audit/export.ndjson${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it("MP-LOG: checkpoints are Ed25519 signatures over {tenant, seq, hash, time} every N events, listed with the public key", async () => {
    await storeMany(gw, agent, 9);
    await gw.gateway.idle(); // checkpoints are signed off the request path
    const res = (await gw.gql(auditor, CHECKPOINTS, {})).data!.auditCheckpoints;
    expect(res.stopReason).toBe("SUCCESS_LISTED");
    expect(res.checkpoints.map((c: { seq: number }) => c.seq)).toEqual([4, 8]);
    const events = await eventsOf(gw.gateway.db, "exp");
    for (const cp of res.checkpoints) {
      expect(cp.hash).toBe(events[cp.seq - 1].hash);
      const payload = canonicalize({ tenant: cp.tenant, seq: cp.seq, hash: cp.hash, time: cp.time })!;
      expect(verifySignature(null, Buffer.from(payload), createPublicKey(res.publicKey), Buffer.from(cp.signature, "base64"))).toBe(true);
    }
    expect((await gw.gql(agent, CHECKPOINTS, {})).data!.auditCheckpoints).toMatchObject({ stopReason: "POLICY_DISABLED", checkpoints: [], publicKey: null });
    // T seconds: a round signs each tenant's head that moved past its last checkpoint
    const made = await gw.gateway.auditSystem!.checkpointer.checkpointAll();
    expect(made.map((c) => [c.tenant, c.seq])).toContainEqual(["exp", 10]);
  });

  it("MP-LOG SG-AUDIT: GET /audit/export.ndjson streams one event per line for an auditor; the standalone verifier accepts it and a checkpoint", async () => {
    expect((await exportNdjson(null)).status).toBe(401);
    const refused = await exportNdjson(agent);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ stopReason: "POLICY_DISABLED" });
    expect((await exportNdjson(auditor, "?afterSeq=abc")).status).toBe(400);

    const res = await exportNdjson(auditor);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/x-ndjson");
    const text = await res.text();
    const [manifest, ...lines] = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    // The export states its range and anchor, signed by the gateway (issue 12 §7).
    expect(manifest).toMatchObject({
      memgate_export: 1,
      tenant: "exp",
      after_seq: 0,
      to_seq: lines.length,
      anchor: "0".repeat(64),
      key_id: expect.any(String),
    });
    expect(lines[0]).toMatchObject({ seq: 1, tenant_id: "exp", key_id: manifest.key_id, signature: expect.any(String) });
    expect(lines.map((l) => l.seq)).toEqual(lines.map((_, i) => i + 1));
    expect(lines[0]._id).toBeUndefined();
    const file = path.join(dir, "export.ndjson");
    writeFileSync(file, text);
    const cps = (await gw.gql(auditor, CHECKPOINTS, {})).data!.auditCheckpoints;
    writeFileSync(path.join(dir, "cp.json"), JSON.stringify(cps.checkpoints[1]));
    writeFileSync(path.join(dir, "key.pem"), cps.publicKey);
    const ok = await standalone(file, "--checkpoint", path.join(dir, "cp.json"), "--public-key", path.join(dir, "key.pem"));
    expect(ok).toEqual({ code: 0, out: `OK tenant=exp events=${lines.length} seq=1..${lines.length} anchor=genesis checkpoints=1 keys=pinned\n` });
    // without a pinned key, the keys the manifest lists (the gateway's)
    expect(await standalone(file)).toMatchObject({ code: 0, out: expect.stringContaining("keys=from the export") });

    const partial = await (await exportNdjson(auditor, "?afterSeq=5")).text();
    const partialLines = partial.trim().split("\n");
    expect(JSON.parse(partialLines[0])).toMatchObject({ after_seq: 5, anchor: lines[4].hash });
    expect(JSON.parse(partialLines[1]).seq).toBe(6);
    writeFileSync(path.join(dir, "partial.ndjson"), partial);
    // a later start needs the auditor's own anchor (the hash of seq 5 from the earlier export, or a checkpoint)
    expect(await standalone(path.join(dir, "partial.ndjson"))).toMatchObject({ code: 1, out: expect.stringMatching(/^FAIL seq=6 anchor_unpinned/) });
    expect(await standalone(path.join(dir, "partial.ndjson"), "--anchor", lines[4].hash)).toMatchObject({ code: 0 });
    expect(await standalone(path.join(dir, "partial.ndjson"), "--anchor", lines[3].hash)).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^FAIL seq=6 anchor_mismatch/),
    });

    const raw = text.trim().split("\n");
    const refusal = async (name: string, content: string, ...args: string[]) => {
      writeFileSync(path.join(dir, name), content);
      return standalone(path.join(dir, name), ...args);
    };
    // a direct edit of one event in an export: found at its seq
    const edited = [...raw];
    edited[3] = edited[3].replace('"STORE"', '"DELETE"');
    expect(await refusal("tampered.ndjson", edited.join("\n"))).toEqual({ code: 1, out: "FAIL seq=3 hash_mismatch\n" });
    // the same edit with the hash recomputed: the gateway's signature fails
    const forged = { ...lines[2], operation: "DELETE" };
    const { hash: _hash, ...forgedBody } = forged;
    edited[3] = JSON.stringify({ ...forgedBody, hash: eventHash(forgedBody as never) });
    expect(await refusal("resigned.ndjson", edited.join("\n"))).toEqual({ code: 1, out: "FAIL seq=3 signature_invalid\n" });
    // head cut: without the manifest, or with it but without the first events, or with its range edited to match
    expect(await refusal("headless.ndjson", raw.slice(3).join("\n"))).toMatchObject({ code: 1, out: expect.stringMatching(/^FAIL seq=0 no_manifest/) });
    expect(await refusal("cut.ndjson", [raw[0], ...raw.slice(3)].join("\n"))).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^FAIL seq=1 seq_mismatch/),
    });
    const moved = JSON.stringify({ ...manifest, after_seq: 2, anchor: lines[1].hash });
    expect(await refusal("moved.ndjson", [moved, ...raw.slice(3)].join("\n"), "--anchor", lines[1].hash)).toMatchObject({
      code: 1,
      out: "FAIL seq=0 manifest_signature_invalid\n",
    });
    // an empty export of a non-empty range, and an empty file
    expect(await refusal("empty-range.ndjson", raw[0])).toMatchObject({ code: 1, out: expect.stringMatching(/^FAIL seq=1 truncated/) });
    expect(await refusal("empty.ndjson", "")).toMatchObject({ code: 1, out: expect.stringMatching(/^FAIL seq=0 no_manifest/) });
    // a truncated export stops short of the range its manifest states
    expect(
      await refusal("short.ndjson", raw.slice(0, 7).join("\n"), "--checkpoint", path.join(dir, "cp.json"), "--public-key", path.join(dir, "key.pem")),
    ).toMatchObject({
      code: 1,
      out: expect.stringMatching(/^FAIL seq=7 truncated/),
    });
    // a checkpoint whose signature does not verify
    writeFileSync(path.join(dir, "forged-cp.json"), JSON.stringify({ ...cps.checkpoints[1], hash: "0".repeat(64) }));
    expect(await standalone(file, "--checkpoint", path.join(dir, "forged-cp.json"), "--public-key", path.join(dir, "key.pem"))).toMatchObject({
      code: 1,
      out: "FAIL seq=8 checkpoint_signature_invalid\n",
    });
    // a key the auditor did not pin
    writeFileSync(path.join(dir, "other.pem"), generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }));
    expect(await standalone(file, "--public-key", path.join(dir, "other.pem"))).toEqual({ code: 1, out: "FAIL seq=0 manifest_key_unknown\n" });
  });

  it("SPEC D1 MP-FORGET: eraseMemory by the subject removes the content from items and versions, keeps the events, and the chain, checkpoints and export still verify", async () => {
    const user = await gw.token({ tenant: "exp", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const stored = await gw.gql(agent, STORE, { input: preference({ key: "snack-note", value: "ERASE-ME-7731 oat biscuits", sourceRef: "doc:42" }) });
    const id = stored.data!.storeMemory.memory.memoryId;
    await gw.gateway.db.collection("memory_versions").insertOne({
      _id: `exp:alice:${id}:v1` as never,
      tenant_id: "exp",
      subject_id: "alice",
      memory_id: id,
      version: 1,
      key: "snack-note",
      value: "ERASE-ME-7731 oat biscuits",
    });
    const before = await eventsOf(gw.gateway.db, "exp");

    expect((await gw.gql(user, ERASE_MEMORY, { id, reason: "" })).data!.eraseMemory).toMatchObject({
      stopReason: "SCHEMA_INVALID",
      explanations: ["MP-LOG: reason_required"],
    });
    expect((await gw.gql(agent, ERASE_MEMORY, { id, reason: "x" })).data!.eraseMemory.stopReason).toBe("POLICY_DISABLED");
    expect((await gw.gql(user, ERASE_MEMORY, { id: "mem_nope", reason: "x" })).data!.eraseMemory.stopReason).toBe("NOT_FOUND");
    expect((await gw.gql(user, ERASE_MEMORY, { id, reason: "x", subject: "bob" })).data!.eraseMemory.stopReason).toBe("NOT_FOUND");
    expect(await dumpDatabase(gw.gateway.db)).toContain("ERASE-ME-7731");

    const erased = (await gw.gql(user, ERASE_MEMORY, { id, reason: "art17_1b_consent_withdrawn" })).data!.eraseMemory;
    expect(erased).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [id] });
    const dump = await dumpDatabase(gw.gateway.db);
    expect(dump).not.toContain("ERASE-ME-7731");
    expect(dump).not.toContain("oat biscuits");
    expect(dump).not.toContain("snack-note");
    const item = await gw.gateway.db.collection("memories").findOne({ memory_id: id });
    expect(item).toMatchObject({ status: "erased", content_salt: "", erasure: { reason: "art17_1b_consent_withdrawn", by: "alice" } });
    expect((item as any).erasure.logged_seq).toEqual(expect.any(Number));
    expect((await gw.gql(user, READ, { id })).data!.memory.stopReason).toBe("NOT_FOUND");
    expect((await gw.gql(user, ERASE_MEMORY, { id, reason: "again" })).data!.eraseMemory.stopReason).toBe("NOT_FOUND");

    const after = await eventsOf(gw.gateway.db, "exp");
    expect(after.slice(0, before.length)).toEqual(before); // events kept, with their digests
    expect(after.find((e) => e.event_type === "erase")).toMatchObject({
      memory_id: id,
      reason: "art17_1b_consent_withdrawn",
      actor: { id: "alice", kind: "human" },
    });
    expect((await gw.gql(auditor, VERIFY, {})).data!.verifyAuditChain).toMatchObject({ ok: true, checkpointsChecked: expect.any(Number) });
    const text = await (await exportNdjson(auditor)).text();
    writeFileSync(path.join(dir, "after.ndjson"), text);
    expect((await standalone(path.join(dir, "after.ndjson"), "--checkpoint", path.join(dir, "cp.json"), "--public-key", path.join(dir, "key.pem"))).code).toBe(
      0,
    );
  });

  it("SPEC D1: eraseSubject by an admin erases every memory of the subject, one erase event each; other subjects keep theirs", async () => {
    const admin = await gw.token({ tenant: "exp", subjects: [], roles: ["admin"], sub: "root" });
    const bobAgent = await gw.token({ tenant: "exp", subjects: ["bob"], roles: ["agent"] });
    await storeMany(gw, bobAgent, 3, "BOBSECRET");
    const res = (await gw.gql(admin, ERASE_SUBJECT, { subject: "bob", reason: "account closed" })).data!.eraseSubject;
    expect(res.stopReason).toBe("SUCCESS_DELETED");
    expect(res.erasedMemoryIds).toHaveLength(3);
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("BOBSECRET");
    const erases = (await eventsOf(gw.gateway.db, "exp")).filter((e) => e.event_type === "erase" && e.subject_id === "bob");
    expect(erases).toHaveLength(3);
    expect(await gw.gateway.db.collection("memories").countDocuments({ subject_id: "alice", status: "active" })).toBeGreaterThan(0);
    expect((await gw.gql(auditor, VERIFY, {})).data!.verifyAuditChain.ok).toBe(true);
  });

  it("SPEC D1 MP-FORGET: a subject with more items than one erasure page (205, some updated) is erased whole, one erase event each, in id order", async () => {
    const admin = await gw.token({ tenant: "exp", subjects: [], roles: ["admin"], sub: "root" });
    const carolAgent = await gw.token({ tenant: "exp", subjects: ["carol"], roles: ["agent"] });
    const ids: string[] = [];
    for (let i = 0; i < 205; i += 5) {
      if (i % 90 === 0) clock.advance(3_600_000); // a new write window: the subject's rate allows 100 an hour
      const stored = await Promise.all(
        [0, 1, 2, 3, 4].map(async (j) => {
          const input = preference({ subjectId: "carol", key: `page-${i + j}`, value: `PAGESECRET ${i + j}` });
          return (await gw.gql(carolAgent, STORE, { input })).data!.storeMemory;
        }),
      );
      expect(stored.map((s) => s.stopReason)).toEqual(stored.map(() => "SUCCESS_STORED"));
      ids.push(...stored.map((s) => s.memory.memoryId as string));
    }
    clock.advance(3_600_000);
    for (const id of ids.slice(0, 20)) {
      const updated = (
        await gw.gql(carolAgent, UPDATE, { input: { ...preference({ subjectId: "carol", key: "page", value: "PAGESECRET updated" }), memoryId: id } })
      ).data!.updateMemory;
      expect(updated.stopReason).toBe("SUCCESS_UPDATED");
    }
    const res = (await gw.gql(admin, ERASE_SUBJECT, { subject: "carol", reason: "account closed" })).data!.eraseSubject;
    expect(res.stopReason).toBe("SUCCESS_DELETED");
    expect(res.erasedMemoryIds).toEqual([...ids].sort());
    await gw.gateway.idle();
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("PAGESECRET");
    const erases = (await eventsOf(gw.gateway.db, "exp")).filter((e) => e.event_type === "erase" && e.subject_id === "carol");
    expect(erases.map((e) => e.memory_id)).toEqual([...ids].sort());
    expect(await gw.gateway.db.collection("memory_versions").countDocuments({ subject_id: "carol", status: { $ne: "erased" } })).toBe(0);
    expect((await gw.gql(auditor, VERIFY, {})).data!.verifyAuditChain.ok).toBe(true);
  }, 240_000);

  it("SPEC D1 D3a: bad erasure requests get a typed stop reason and change nothing but the refusal's own event", async () => {
    const user = await gw.token({ tenant: "exp", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const memories = async () => JSON.stringify(await gw.gateway.db.collection("memories").find({}).sort({ _id: 1 }).toArray());
    await gw.gateway.idle(); // settle marks of the previous test's erasures land off the request path
    const before = await memories();
    const cases: [Record<string, unknown>, string][] = [
      [{ id: "", reason: "r" }, "SCHEMA_INVALID"],
      [{ id: "x".repeat(65), reason: "r" }, "BOUNDS_EXCEEDED"],
      [{ id: "mem_1", reason: "r".repeat(257) }, "BOUNDS_EXCEEDED"],
      [{ id: "mem_1", reason: "bad\u0007bell" }, "SCHEMA_INVALID"],
      // An empty subject is not one the token holds: only authz answers (SPEC D5, no existence oracle).
      [{ id: "mem_1", reason: "ok", subject: "" }, "NOT_FOUND"],
    ];
    for (const [vars, expected] of cases) {
      const res = await gw.gql(user, ERASE_MEMORY, vars);
      expect([vars, res.data!.eraseMemory.stopReason]).toEqual([vars, expected]);
    }
    const subject = (await gw.gql(user, ERASE_SUBJECT, { reason: "   " })).data!.eraseSubject;
    expect(subject).toMatchObject({ stopReason: "SCHEMA_INVALID", erasedMemoryIds: [] });
    expect(await memories()).toBe(before);
    const last = (await eventsOf(gw.gateway.db, "exp")).slice(-6);
    expect(last.every((e) => e.event_type === "refuse")).toBe(true);
    expect(JSON.stringify(last)).not.toContain("bell");
  });
});
