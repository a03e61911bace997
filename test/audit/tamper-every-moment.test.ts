import { ManualClock } from "../../src/clock";
import type { MemoryEvent } from "../../src/store/event-log";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ACK, CHECKPOINTS, eventId, preference, STORE, storeMany, VERIFY } from "./support";

/**
 * Issue 22 §3: an insider's edit anywhere in the log, below or above the last checkpoint, with the
 * gateway left running, is found (by the background sweep when idle, by the checkpointer before it
 * signs), stops the tenant's writes, is reported by every verify answer until acknowledged, and is
 * never signed over. The sweep is driven by hand (its timer set far beyond the test's length).
 */
describe("tamper-evident at every moment (MP-BREAK, INV-8, issue 22 §3)", () => {
  const clock = new ManualClock("2026-09-01T00:00:00.000Z");
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await startTestGateway({
      clock,
      env: {
        MEMGATE_CHECKPOINT_EVERY: "10",
        MEMGATE_CHECKPOINT_INTERVAL_S: "0",
        MEMGATE_AUDIT_SWEEP_EVENTS_PER_S: "1000",
        MEMGATE_AUDIT_SWEEP_STEP_MS: "60000",
      },
    });
  });
  afterAll(() => gw.stop());

  const audit = () => gw.gateway.auditSystem!;
  const events = () => gw.gateway.db.collection<MemoryEvent>("memory_events");
  const tokens = async (tenant: string) => ({
    agent: await gw.token({ tenant, subjects: ["alice"], roles: ["agent"], sub: "bot" }),
    auditor: await gw.token({ tenant, subjects: [], roles: ["auditor"], sub: "aud" }),
    admin: await gw.token({ tenant, subjects: [], roles: ["admin"], sub: "root" }),
  });
  const verify = async (token: string, vars: Record<string, unknown> = {}) => (await gw.gql(token, VERIFY, vars)).data!.verifyAuditChain;
  const checkpointSeqs = async (token: string) =>
    ((await gw.gql(token, CHECKPOINTS, {})).data!.auditCheckpoints.checkpoints as { seq: number }[]).map((c) => c.seq);
  const breaks = (tenant: string) => events().find({ tenant_id: tenant, event_type: "conformance_break" }).toArray();
  /** An insider with write access to the database changes one field of one event. */
  const edit = (tenant: string, seq: number) => events().updateOne({ _id: eventId(tenant, seq) as never }, { $set: { "metadata.category": "CONSTRAINT" } });
  const settle = async () => {
    await gw.gateway.idle();
    await audit().checkpointer.settled();
  };

  it("MP-BREAK: an edit BELOW the last checkpoint on an idle gateway is found by the sweep; writes stop; every verify answer, default or fromSeq, reports it; no checkpoint is signed over it", async () => {
    const t = await tokens("insider-below");
    await storeMany(gw, t.agent, 25);
    await settle();
    expect(await checkpointSeqs(t.auditor)).toEqual([10, 20]);
    await edit("insider-below", 5);
    // Before the sweep reaches it, the default verify (from the last checkpoint) cannot see it: that was the hole.
    // One sweep step over every tenant's chain finds it.
    await audit().sweep.step(10_000);
    const found = await breaks("insider-below");
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ reason: "chain_unverifiable: hash_mismatch at seq 5", metadata: { detected_by: "background_sweep", broken_seq: 5 } });

    for (const range of [{}, { from: 21 }, { from: 1 }, { from: 6, to: 9 }]) {
      expect({ range, answer: await verify(t.auditor, range) }).toMatchObject({ range, answer: { ok: false, firstBrokenSeq: 5 } });
    }
    expect((await gw.gql(t.agent, STORE, { input: preference({ key: "after-edit" }) })).data!.storeMemory.stopReason).toBe("INTERNAL_INCONSISTENCY");

    // The head moved (the conformance_break and refusal events): the checkpointer is asked, and signs nothing.
    expect((await audit().checkpointer.checkpointAll()).filter((c) => c.tenant === "insider-below")).toEqual([]);
    await settle();
    expect(await checkpointSeqs(t.auditor)).toEqual([10, 20]);
  });

  it("MP-BREAK: an edit below the last checkpoint while writes go on is found by the checkpointer before it signs the next one", async () => {
    const t = await tokens("insider-busy");
    await storeMany(gw, t.agent, 12);
    await settle();
    expect(await checkpointSeqs(t.auditor)).toEqual([10]);
    await edit("insider-busy", 3);
    // Writes go on to seq 20, where the checkpointer verifies the history below its last checkpoint again.
    await storeMany(gw, t.agent, 8, "w");
    await settle();
    expect(await checkpointSeqs(t.auditor)).toEqual([10]);
    expect(await breaks("insider-busy")).toEqual([
      expect.objectContaining({ metadata: expect.objectContaining({ detected_by: "checkpointer", broken_seq: 3 }) }),
    ]);
    expect(await verify(t.auditor)).toMatchObject({ ok: false, firstBrokenSeq: 3 });
  });

  it("MP-BREAK: an edit ABOVE the last checkpoint is found at the next checkpoint and by the sweep; nothing is signed over it", async () => {
    const t = await tokens("insider-above");
    await storeMany(gw, t.agent, 15);
    await settle();
    await edit("insider-above", 13);
    expect(await audit().checkpointer.checkpointAll()).not.toContainEqual(expect.objectContaining({ tenant: "insider-above" }));
    expect(await checkpointSeqs(t.auditor)).toEqual([10]);
    expect(await verify(t.auditor, { from: 11 })).toMatchObject({ ok: false, firstBrokenSeq: 13, reason: "hash_mismatch" });
    await audit().sweep.step(10_000);
    expect((await breaks("insider-above")).map((b) => b.metadata.broken_seq)).toEqual([13]); // once per broken seq
  });

  it("MP-BREAK: once an admin acknowledges the break, verify answers no longer report it, writes resume, and checkpoints are signed again", async () => {
    const t = await tokens("insider-ack");
    await storeMany(gw, t.agent, 12);
    await settle();
    await edit("insider-ack", 4);
    await audit().sweep.step(10_000);
    expect(await verify(t.auditor, { from: 11 })).toMatchObject({ ok: false, firstBrokenSeq: 4 });
    const ack = (await gw.gql(t.admin, ACK, { reason: "restored_from_export" })).data!.acknowledgeConformanceBreak;
    expect(ack).toMatchObject({ stopReason: "SUCCESS_UPDATED", acknowledgedSeq: 4 });
    expect(await verify(t.auditor, { from: 11 })).toMatchObject({ ok: true });
    expect((await gw.gql(t.agent, STORE, { input: preference({ key: "after-ack" }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
    await storeMany(gw, t.agent, 6, "z");
    await settle();
    expect((await checkpointSeqs(t.auditor)).at(-1)).toBe(20);
  });
});
