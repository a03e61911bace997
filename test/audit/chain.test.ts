import { ManualClock } from "../../src/clock";
import { EventLog, eventHash, type MemoryEvent } from "../../src/store/event-log";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { eventId, eventsOf, storeMany, STORE, preference, VERIFY } from "./support";

describe("the event log (MP-LOG) and its verification", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({ clock, env: { MEMGATE_CHECKPOINT_EVERY: "5", MEMGATE_CHECKPOINT_INTERVAL_S: "0" } });
  });
  afterAll(() => gw.stop());

  const tokens = async (tenant: string) => ({
    agent: await gw.token({ tenant, subjects: ["alice"], roles: ["agent"], sub: "bot-7" }),
    auditor: await gw.token({ tenant, subjects: [], roles: ["auditor"], sub: "aud-1" }),
  });
  const events = () => gw.gateway.db.collection<MemoryEvent>("memory_events");
  const verify = async (token: string, vars: Record<string, unknown> = {}) => (await gw.gql(token, VERIFY, vars)).data!.verifyAuditChain;

  it("MP-LOG SG-AUDIT D4: every decision is one event with id, tenant, subject, gap-free seq, type, memory id, actor, time, stop reason, decision id, policy hash, contract version, request id, salted digest, prev_hash and hash", async () => {
    const { agent } = await tokens("fields");
    const stored = await gw.gql(agent, STORE, { input: preference() });
    await gw.gql(agent, STORE, { input: preference({ category: "NOT_ALLOWED", value: "secret-ish text 991" }) });
    const [create, refuse] = await eventsOf(gw.gateway.db, "fields");
    expect(create).toMatchObject({
      tenant_id: "fields",
      subject_id: "alice",
      seq: 1,
      event_type: "create",
      operation: "STORE",
      contract: "governed",
      memory_id: stored.data!.storeMemory.memory.memoryId,
      actor: { id: "bot-7", roles: ["agent"], kind: "system" },
      stop_reason: "SUCCESS_STORED",
      timestamp: "2026-03-01T12:00:00.000Z",
      prev_hash: "0".repeat(64),
    });
    expect(create.event_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(create.decision_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(create.policy_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(create.contract_version).toBe("19.1.0");
    expect(create.request_id).toBeTruthy();
    expect(create.content_digest).toMatch(/^[0-9a-f]{64}$/);
    const { _id, hash, ...body } = create;
    expect(hash).toBe(eventHash(body));
    expect(refuse).toMatchObject({ seq: 2, event_type: "refuse", stop_reason: "FORBIDDEN_CATEGORY", content_digest: null, prev_hash: hash });
    expect(JSON.stringify(refuse)).not.toContain("secret-ish");
    expect(JSON.stringify(create)).not.toContain("prefer concise");
  });

  it("MP-LOG MP-FORGET: invalidate, archive and erase events are refused by the log without a reason", async () => {
    const log = new EventLog(gw.gateway.db, clock);
    const draft = {
      tenant_id: "reasons",
      subject_id: "alice",
      operation: "X",
      memory_id: "m1",
      actor: { id: "a", roles: [], kind: "human" as const },
      stop_reason: "SUCCESS_UPDATED",
      decision_id: null,
      policy_hash: null,
      contract_version: null,
      request_id: null,
      content_digest: null,
      metadata: {},
    };
    for (const event_type of ["invalidate", "archive", "erase"] as const) {
      await expect(log.append({ ...draft, event_type, reason: null })).rejects.toThrow(/needs a reason/);
      await expect(log.append({ ...draft, event_type, reason: "  " })).rejects.toThrow(/needs a reason/);
    }
    const ok = await log.append({ ...draft, event_type: "invalidate", reason: "obsolete: superseded by a newer preference" });
    expect(ok).toMatchObject({ seq: 1, reason: "obsolete: superseded by a newer preference" });
    expect(await events().countDocuments({ tenant_id: "reasons" })).toBe(1);
  });

  it("SG-AUDIT MP-LOG: verifyAuditChain is the auditor's, for the token's tenant only; an agent is refused and the refusal is logged", async () => {
    const { agent, auditor } = await tokens("verify-ok");
    await storeMany(gw, agent, 7);
    await gw.gateway.idle(); // the checkpoint at seq 5 is signed off the request path
    const result = await verify(auditor, { from: 1 });
    expect(result).toMatchObject({
      stopReason: "SUCCESS_READ",
      ok: true,
      fromSeq: 1,
      toSeq: 7,
      eventsChecked: 7,
      firstBrokenSeq: null,
      headSeq: 7,
      checkpointsChecked: 1,
    });
    // Without a range: from the last good checkpoint (seq 5), which the checkpointer verified before it signed.
    expect(await verify(auditor)).toMatchObject({ ok: true, fromSeq: 6, toSeq: 7, eventsChecked: 2 });
    expect(await verify(auditor, { from: 3, to: 5 })).toMatchObject({ ok: true, eventsChecked: 3 });
    expect(await verify(auditor, { from: 6, to: 1000 })).toMatchObject({ ok: true, eventsChecked: 2, toSeq: 7 });
    const refused = await verify(agent);
    expect(refused).toMatchObject({ stopReason: "POLICY_DISABLED", ok: null, eventsChecked: null });
    const last = (await eventsOf(gw.gateway.db, "verify-ok")).pop()!;
    expect(last).toMatchObject({ event_type: "refuse", operation: "VERIFY_CHAIN", stop_reason: "POLICY_DISABLED", subject_id: null });
    const other = await gw.token({ tenant: "someone-else", roles: ["auditor"], subjects: [] });
    expect(await verify(other)).toMatchObject({ ok: true, eventsChecked: 0, headSeq: 0 });
    expect((await verify(auditor, { from: -1 })).stopReason).toBe("SCHEMA_INVALID");
    expect((await verify(auditor, { from: 5, to: 2 })).stopReason).toBe("SCHEMA_INVALID");
  });

  async function tamperedChain(tenant: string) {
    const t = await tokens(tenant);
    await storeMany(gw, t.agent, 6);
    // The chain head and settle marks are written off the request path: let them land before tampering.
    await gw.gateway.idle();
    return t;
  }

  it("MP-LOG MP-BREAK: one changed field of one event is detected at that seq (hash_mismatch) and logged as conformance_break", async () => {
    const { auditor } = await tamperedChain("tamper-edit");
    await events().updateOne({ _id: eventId("tamper-edit", 3) }, { $set: { "metadata.category": "CONSTRAINT" } });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 3, reason: "hash_mismatch", eventsChecked: 2 });
    const breaks = await events().find({ tenant_id: "tamper-edit", event_type: "conformance_break" }).toArray();
    expect(breaks).toHaveLength(1);
    expect(breaks[0]).toMatchObject({ reason: "chain_unverifiable: hash_mismatch at seq 3", actor: { kind: "policy-engine" } });
  });

  it("MP-LOG: a deleted event is detected at its seq (missing_event)", async () => {
    const { auditor } = await tamperedChain("tamper-delete");
    await events().deleteOne({ _id: eventId("tamper-delete", 4) });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 4, reason: "missing_event" });
  });

  it("MP-LOG: two swapped events are detected at the first of them (seq_mismatch)", async () => {
    const { auditor } = await tamperedChain("tamper-swap");
    const [a, b] = [await events().findOne({ _id: eventId("tamper-swap", 2) }), await events().findOne({ _id: eventId("tamper-swap", 3) })];
    const { _id: idA, ...bodyA } = a!;
    const { _id: idB, ...bodyB } = b!;
    // The unique (tenant_id, seq) index makes the attacker go through delete and insert.
    await events().deleteMany({ _id: { $in: [idA, idB] } });
    await events().insertMany([
      { _id: idA, ...bodyB },
      { _id: idB, ...bodyA },
    ]);
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 2, reason: "seq_mismatch" });
  });

  it("MP-LOG: a forged event inserted into the chain is detected at its own seq: its hash when made up, its signature when the hash and link are right", async () => {
    const { auditor } = await tamperedChain("tamper-insert");
    const all = await eventsOf(gw.gateway.db, "tamper-insert");
    // Shift events 3..6 up by one, as an attacker making room must.
    for (const e of all.slice(2).reverse()) {
      const { _id, ...body } = e;
      await events().insertOne({ ...body, _id: eventId("tamper-insert", e.seq + 1), seq: e.seq + 1 });
      await events().deleteOne({ _id });
    }
    const forgedBody = { ...all[2], event_id: "forged", seq: 3, prev_hash: all[1].hash, memory_id: "mem_forged" };
    const { _id: _forgedId, hash: _forgedHash, ...body } = forgedBody;
    await events().insertOne({ ...body, _id: eventId("tamper-insert", 3), hash: "f".repeat(64) });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 3, reason: "hash_mismatch" });
    await events().updateOne({ _id: eventId("tamper-insert", 3) }, { $set: { hash: eventHash(body) } });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 3, reason: "signature_invalid" });
  });

  it("MP-LOG: a rewrite from an old point with every hash recomputed fails the first rewritten event's signature, and the signed checkpoint", async () => {
    const { auditor } = await tamperedChain("tamper-rewrite");
    const all = await eventsOf(gw.gateway.db, "tamper-rewrite");
    let prev = all[1].hash;
    for (const e of all.slice(2)) {
      const { _id, hash: _oldHash, ...body } = e;
      const rewritten = { ...body, prev_hash: prev, metadata: { ...body.metadata, category: "REMINDER" } };
      prev = eventHash(rewritten);
      await events().replaceOne({ _id }, { ...rewritten, hash: prev });
    }
    await gw.gateway.db.collection("chain_heads").updateOne({ _id: "tamper-rewrite" as never }, { $set: { hash: prev } });
    expect(await verify(auditor)).toMatchObject({ ok: false, firstBrokenSeq: 5, reason: "checkpoint_mismatch" });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 3, reason: "signature_invalid" });
  });

  it("MP-LOG: a truncated tail is detected at the first missing seq, from the chain head or, if that is rewritten too, from a checkpoint", async () => {
    const { auditor } = await tamperedChain("tamper-truncate");
    await events().deleteMany({ _id: { $in: [eventId("tamper-truncate", 5), eventId("tamper-truncate", 6)] } });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 5, reason: "truncated" });
    const tail = await events().findOne({ _id: eventId("tamper-truncate", 4) });
    await gw.gateway.idle(); // the conformance_break just appended moves the head off the request path
    await gw.gateway.db.collection("chain_heads").updateOne({ _id: "tamper-truncate" as never }, { $set: { seq: 4, hash: tail!.hash } });
    // the conformance_break event written by the first verification took seq 5 again: remove it as the attacker would
    await events().deleteMany({ tenant_id: "tamper-truncate", seq: { $gt: 4 } });
    expect(await verify(auditor, { from: 1 })).toMatchObject({ ok: false, firstBrokenSeq: 5, reason: "truncated" });
    expect(await verify(auditor)).toMatchObject({ ok: false, firstBrokenSeq: 5, reason: "truncated" });
  });
});
