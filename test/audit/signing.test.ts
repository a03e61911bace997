import { generateKeyPairSync, sign } from "node:crypto";
import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock";
import { canonicalJson } from "../../src/store/canonical";
import { eventHash, type MemoryEvent } from "../../src/store/event-log";
import type { Checkpoint } from "../../src/store/log/checkpoints";
import { verifyChain } from "../../src/store/log/verify";
import { buildVariant } from "../policy/build-bundle";
import { POLICY_BUNDLE, startTestGateway, type TestGateway } from "../support/gateway";
import { eventId, eventsOf, preference, STORE, storeMany, VERIFY } from "./support";

const ed25519 = () => {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  return {
    privatePem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    publicPem: publicKey.export({ type: "spki", format: "pem" }).toString(),
    privateKey,
  };
};

describe("a log a database writer cannot bend (issue 12 §6, issue 15 §5)", () => {
  const clock = new ManualClock("2026-05-01T09:00:00.000Z");
  const keyA = ed25519();
  let gw: TestGateway;
  const started: TestGateway[] = [];
  const start = async (env: Record<string, string> = {}, dbName?: string) => {
    const g = await startTestGateway({
      clock,
      dbName,
      env: { MEMGATE_CHECKPOINT_PRIVATE_KEY: keyA.privatePem, MEMGATE_CHECKPOINT_EVERY: "0", MEMGATE_CHECKPOINT_INTERVAL_S: "0", ...env },
    });
    started.push(g);
    return g;
  };
  beforeAll(async () => {
    gw = await start();
  });
  afterAll(async () => {
    for (const g of started) await g.stop().catch(() => undefined);
  });

  const events = (g: TestGateway) => g.gateway.db.collection<MemoryEvent>("memory_events");
  const checkpointer = (g: TestGateway) => g.gateway.auditSystem!.checkpointer;
  const auditorOf = (g: TestGateway, tenant: string) => g.token({ tenant, subjects: [], roles: ["auditor"] });
  const breaksOf = async (g: TestGateway, tenant: string) => (await eventsOf(g.gateway.db, tenant)).filter((e) => e.event_type === "conformance_break");

  it("MP-LOG: every event carries the gateway's key id and an Ed25519 signature over its canonical form; the hash covers both", async () => {
    const agent = await gw.token({ tenant: "signed", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 2);
    const [first] = await eventsOf(gw.gateway.db, "signed");
    const keyId = checkpointer(gw).key.keyId;
    expect(first).toMatchObject({ key_id: keyId, signature: expect.any(String) });
    const { _id, hash, ...body } = first;
    expect(hash).toBe(eventHash(body));
  });

  it("MP-BREAK: an event appended with valid links and hash but without the key is refused by the checkpointer (conformance_break, no checkpoint) and fails verification at its seq", async () => {
    const agent = await gw.token({ tenant: "forge", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 3);
    await gw.gateway.idle();
    expect((await checkpointer(gw).checkpointAll()).map((c) => [c.tenant, c.seq])).toContainEqual(["forge", 3]);
    const [, , third] = await eventsOf(gw.gateway.db, "forge");
    const { _id, hash: _hash, ...body } = third;
    const forged = { ...body, seq: 4, event_id: "00000000-0000-4000-8000-000000000004", prev_hash: third.hash, memory_id: "mem_forged" };
    await events(gw).insertOne({ _id: eventId("forge", 4), ...forged, hash: eventHash(forged) });

    const made = await checkpointer(gw).checkpointAll();
    expect(made.filter((c) => c.tenant === "forge")).toEqual([]);
    expect((await checkpointer(gw).list("forge")).map((c) => c.seq)).toEqual([3]);
    expect(await breaksOf(gw, "forge")).toMatchObject([
      { reason: "chain_unverifiable: signature_invalid at seq 4", metadata: { detected_by: "checkpointer" } },
    ]);
    const refused = (await gw.gql(agent, STORE, { input: preference({ key: "after" }) })).data!.storeMemory;
    expect(refused).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["MP-BREAK: event_chain_unverified"] });
    // Stripping the signature does not help either.
    await events(gw).updateOne({ _id: eventId("forge", 4) }, { $unset: { signature: "", key_id: "" } });
    const stripped = { ...forged } as Partial<MemoryEvent>;
    delete stripped.signature;
    delete stripped.key_id;
    await events(gw).updateOne({ _id: eventId("forge", 4) }, { $set: { hash: eventHash(stripped as MemoryEvent) } });
    expect((await gw.gql(await auditorOf(gw, "forge"), VERIFY, { from: 1 })).data!.verifyAuditChain).toMatchObject({
      ok: false,
      firstBrokenSeq: 4,
      reason: "signature_missing",
    });
  });

  it("MP-BREAK: an event this gateway signed, rewritten behind it with a recomputed hash, is refused by the checkpointer (its own seal is trusted only for the exact bytes it signed)", async () => {
    const agent = await gw.token({ tenant: "reseal", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 3);
    await gw.gateway.idle();
    const log = gw.gateway.services.events;
    const second = (await eventsOf(gw.gateway.db, "reseal"))[1];
    expect(log.sealedHash(second._id)).toBe(second.hash);
    const { _id, hash: _hash, ...body } = second;
    const rewritten = { ...body, memory_id: "mem_swapped" };
    await events(gw).replaceOne({ _id }, { ...rewritten, hash: eventHash(rewritten) } as MemoryEvent);
    expect((await checkpointer(gw).checkpointAll()).filter((c) => c.tenant === "reseal")).toEqual([]);
    expect(await breaksOf(gw, "reseal")).toMatchObject([
      { reason: "chain_unverifiable: signature_invalid at seq 2", metadata: { detected_by: "checkpointer" } },
    ]);
  });

  it("MP-BREAK: a chain rewound by three events is never signed below the seq signed before: conformance_break (chain_rewound), once", async () => {
    const agent = await gw.token({ tenant: "rewind", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 6);
    await gw.gateway.idle();
    await checkpointer(gw).checkpointAll();
    expect((await checkpointer(gw).latest("rewind"))!.seq).toBe(6);
    const third = await events(gw).findOne({ _id: eventId("rewind", 3) });
    await events(gw).deleteMany({ _id: { $in: [4, 5, 6].map((s) => eventId("rewind", s)) } });
    await gw.gateway.db.collection("chain_heads").updateOne({ _id: "rewind" as never }, { $set: { seq: 3, hash: third!.hash } });

    await checkpointer(gw).checkpointAll();
    await checkpointer(gw).checkpointAll(); // a second round reports nothing new
    expect((await checkpointer(gw).list("rewind")).map((c) => c.seq)).toEqual([6]);
    expect(await breaksOf(gw, "rewind")).toMatchObject([{ reason: "chain_unverifiable: chain_rewound at seq 6", metadata: { detected_by: "checkpointer" } }]);
    // From the last good checkpoint, the gateway's own verification says the same.
    expect((await gw.gql(await auditorOf(gw, "rewind"), VERIFY, {})).data!.verifyAuditChain).toMatchObject({ ok: false, firstBrokenSeq: 6 });
  });

  it("MP-LOG: read in one pass or seq by seq, verification finds the same first break (a deleted event, then a swap)", async () => {
    const agent = await gw.token({ tenant: "ways", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 8);
    await gw.gateway.idle();
    const log = gw.gateway.services.events;
    const keys = checkpointer(gw).keys;
    const both = async () => [await verifyChain(log, "ways", { keys, lookupMax: 0 }), await verifyChain(log, "ways", { keys, lookupMax: 1000 })];
    for (const result of await both()) expect(result).toMatchObject({ ok: true, eventsChecked: 8, lastHash: (await eventsOf(gw.gateway.db, "ways"))[7].hash });
    const [a, b] = [await events(gw).findOne({ _id: eventId("ways", 6) }), await events(gw).findOne({ _id: eventId("ways", 7) })];
    await events(gw).deleteMany({ _id: { $in: [a!._id, b!._id] } });
    await events(gw).insertMany([{ ...b!, _id: a!._id }]); // 7's body under 6's id, 7 gone
    for (const result of await both()) expect(result).toMatchObject({ ok: false, firstBrokenSeq: 6, reason: "seq_mismatch" });
    await events(gw).deleteOne({ _id: a!._id });
    for (const result of await both()) expect(result).toMatchObject({ ok: false, firstBrokenSeq: 6, reason: "missing_event" });
    await events(gw).deleteOne({ _id: eventId("ways", 8) });
    for (const result of await both()) expect(result).toMatchObject({ ok: false, firstBrokenSeq: 6, reason: "truncated" });
  });

  it("MP-BREAK: a checkpoint signed by a key outside the key set is reported at its seq, not skipped", async () => {
    const agent = await gw.token({ tenant: "stranger", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 2);
    await gw.gateway.idle();
    const second = (await eventsOf(gw.gateway.db, "stranger"))[1];
    const stranger = ed25519();
    const body = { tenant: "stranger", seq: 2, hash: second.hash, time: clock.now().toISOString() };
    const signature = sign(null, Buffer.from(canonicalJson(body)), stranger.privateKey).toString("base64");
    await gw.gateway.db.collection<Checkpoint>("audit_checkpoints").insertOne({ _id: eventId("stranger", 2), ...body, key_id: "0123456789abcdef", signature });
    expect((await gw.gql(await auditorOf(gw, "stranger"), VERIFY, { from: 1 })).data!.verifyAuditChain).toMatchObject({
      ok: false,
      firstBrokenSeq: 2,
      reason: "checkpoint_key_unknown",
    });
  });

  it("rotation: after a rotation, events and checkpoints of the earlier key verify while its public key is listed (MEMGATE_LOG_PUBLIC_KEYS), and are unknown without it", async () => {
    const agent = await gw.token({ tenant: "rotate", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 3);
    await gw.gateway.idle();
    await checkpointer(gw).checkpointAll();
    const keyB = ed25519();
    const rotated = await start({ MEMGATE_CHECKPOINT_PRIVATE_KEY: keyB.privatePem, MEMGATE_LOG_PUBLIC_KEYS: keyA.publicPem }, gw.dbName);
    await rotated.gateway.auditSystem!.fullVerification;
    await storeMany(rotated, agent, 2, "b");
    await rotated.gateway.idle();
    await checkpointer(rotated).checkpointAll();
    const all = await eventsOf(rotated.gateway.db, "rotate");
    expect(new Set(all.map((e) => e.key_id)).size).toBe(2);
    expect((await rotated.gql(await auditorOf(rotated, "rotate"), VERIFY, { from: 1 })).data!.verifyAuditChain).toMatchObject({
      ok: true,
      eventsChecked: all.length,
    });
    expect(await breaksOf(rotated, "rotate")).toEqual([]);

    const forgetful = await start({ MEMGATE_CHECKPOINT_PRIVATE_KEY: keyB.privatePem }, gw.dbName);
    const result = (await forgetful.gql(await auditorOf(forgetful, "rotate"), VERIFY, { from: 1 })).data!.verifyAuditChain;
    expect(result).toMatchObject({ ok: false, firstBrokenSeq: 1, reason: "signature_key_unknown" });
    // A gateway without the key checks every chain in the background and would report each a break: stopped before the next test's tenants exist.
    await forgetful.stop();
  });

  it("MP-BREAK: start-up verification covers what was appended since the last good checkpoint; the full pass runs in the background and finds an older edit", async () => {
    const agent = await gw.token({ tenant: "fast", subjects: ["alice"], roles: ["agent"] });
    await storeMany(gw, agent, 8);
    await gw.gateway.idle();
    await checkpointer(gw).checkpointAll(); // at 8
    await storeMany(gw, agent, 2, "late");
    await gw.gateway.idle();
    await events(gw).updateOne({ _id: eventId("fast", 2) }, { $set: { stop_reason: "SUCCESS_READ" } });

    const restarted = await start({}, gw.dbName);
    const atStart = (await restarted.gateway.auditSystem!.startupVerification).find((r) => r.tenantId === "fast")!;
    expect(atStart).toMatchObject({ ok: true, fromSeq: 9, eventsChecked: 2 });
    const full = (await restarted.gateway.auditSystem!.fullVerification).find((r) => r.tenantId === "fast")!;
    expect(full).toMatchObject({ ok: false, firstBrokenSeq: 2, reason: "hash_mismatch" });
    expect(await breaksOf(restarted, "fast")).toMatchObject([
      { reason: "chain_unverifiable: hash_mismatch at seq 2", metadata: { detected_by: "background_full_verification" } },
    ]);
  });

  it("MP-BREAK: the start-up check holds no door; a tenant's first request waits for its own tenant's check and is refused when it finds an edit, another tenant's is served", async () => {
    const agent = await gw.token({ tenant: "first", subjects: ["alice"], roles: ["agent"] });
    const bystander = await gw.token({ tenant: "second", subjects: ["bob"], roles: ["agent"] });
    await storeMany(gw, agent, 3);
    await storeMany(gw, bystander, 1);
    await gw.gateway.idle();
    await checkpointer(gw).checkpointAll(); // at 3
    await storeMany(gw, agent, 2, "late");
    await gw.gateway.idle();
    await events(gw).updateOne({ _id: eventId("first", 5) }, { $set: { stop_reason: "SUCCESS_READ" } });

    const restarted = await start({}, gw.dbName);
    // Not awaiting the background check: the request itself waits for its tenant's.
    const refused = (await restarted.gql(agent, STORE, { input: preference({ key: "after" }) })).data!.storeMemory;
    expect(refused).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["MP-BREAK: event_chain_unverified"] });
    expect(await breaksOf(restarted, "first")).toMatchObject([
      { reason: "chain_unverifiable: hash_mismatch at seq 5", metadata: { detected_by: "startup_verification" } },
    ]);
    expect((await restarted.gql(bystander, STORE, { input: preference({ key: "after" }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
    const checked = await restarted.gateway.auditSystem!.startupVerification;
    expect(checked.find((r) => r.tenantId === "first")).toMatchObject({ ok: false, firstBrokenSeq: 5 });
    expect(checked.find((r) => r.tenantId === "second")).toMatchObject({ ok: true });
  });

  it("MP-BREAK C19-FAIL: a bundle signed by an untrusted key and dropped in place is refused: the previous policy stays, one refuse event records it; a restart with the same policy writes nothing", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-dropped-"));
    const bundle = path.join(dir, "bundle.tar.gz");
    copyFileSync(POLICY_BUNDLE, bundle);
    const g = await start({ MEMGATE_POLICY_BUNDLE: bundle });
    const agent = await g.token({ tenant: "drop", subjects: ["alice"], roles: ["agent"] });
    await storeMany(g, agent, 1);
    const inForce = g.gateway.services.policy.hash;
    // Signed with a key the gateway does not trust: refused like a corrupt bundle.
    const strangerKey = path.join(dir, "stranger.pem");
    writeFileSync(strangerKey, ed25519().privatePem);
    const foreign = buildVariant("foreign", "memgate/contract/data.json", (d) => (d.version = "19.9.0"), { MEMGATE_POLICY_SIGNING_KEY: strangerKey });
    copyFileSync(foreign, bundle);
    expect(await g.gateway.services.policy.reload()).toBe(false);
    expect(await g.gateway.services.policy.reload()).toBe(false);
    await g.gateway.auditSystem!.policyWatch.settled();
    expect(g.gateway.services.policy.hash).toBe(inForce);
    const refusals = (await eventsOf(g.gateway.db, "drop")).filter((e) => e.operation === "POLICY_LOAD");
    expect(refusals).toMatchObject([
      { event_type: "refuse", reason: expect.stringMatching(/^policy_bundle_refused: /), metadata: { in_force: { hash: inForce } } },
    ]);
    expect((await g.gql(agent, STORE, { input: preference({ key: "still" }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");

    copyFileSync(POLICY_BUNDLE, bundle);
    const count = (await eventsOf(g.gateway.db, "drop")).length;
    await g.stop();
    const again = await start({ MEMGATE_POLICY_BUNDLE: bundle }, g.dbName);
    await again.gateway.auditSystem!.policyWatch.settled();
    expect((await eventsOf(again.gateway.db, "drop")).length).toBe(count);
  }, 60_000);
});
