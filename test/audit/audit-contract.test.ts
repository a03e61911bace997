import { createHash } from "node:crypto";
import { ManualClock } from "../../src/clock";
import { Repair } from "../../src/jobs/repair";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { ACK, ERASE_MEMORY, ERASE_SUBJECT, eventsOf, preference, READ, STORE, storeMany, VERIFY } from "./support";

const CARD = "4111 1111 1111 1111";
const API_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz1234567890";

/** The audit contract on the kernel (issue 11): reasons are declared text, erasure reaches every store, repair is generic. */
describe("the audit contract on the operation kernel", () => {
  const clock = new ManualClock("2026-06-01T10:00:00.000Z");
  let gw: TestGateway;
  let agent: string;
  let alice: string;
  let admin: string;
  let auditor: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "ka", subjects: ["alice", "bob", "carol"], roles: ["agent"] });
    alice = await gw.token({ tenant: "ka", subjects: ["alice"], roles: ["user"], sub: "alice" });
    admin = await gw.token({ tenant: "ka", subjects: [], roles: ["admin"], sub: "root" });
    auditor = await gw.token({ tenant: "ka", subjects: [], roles: ["auditor"] });
  });
  afterAll(() => gw.stop());

  const storeFor = async (subjectId: string, key: string, value = "prefer short answers") => {
    const res = await gw.gql(agent, STORE, { input: preference({ subjectId, key, value }) });
    expect(res.data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
    return res.data!.storeMemory.memory.memoryId as string;
  };

  it("C19-FORBID SPEC-D4 MP-LOG: a card number or an API key as an erase or acknowledgement reason is refused and never lands in memory_events", async () => {
    const id = await storeFor("alice", "reason-check");
    const cases: [string, Record<string, unknown>, string, string][] = [
      ["eraseMemory", { id, reason: `refund to card ${CARD}` }, ERASE_MEMORY, alice],
      ["eraseSubject", { reason: `card ${CARD} on file` }, ERASE_SUBJECT, alice],
      ["eraseSubject", { subject: "alice", reason: `rotate ${API_KEY}` }, ERASE_SUBJECT, admin],
      ["acknowledgeConformanceBreak", { reason: `paid with ${CARD}` }, ACK, admin],
      ["acknowledgeConformanceBreak", { reason: `api key = ${API_KEY}` }, ACK, admin],
    ];
    for (const [field, variables, query, token] of cases) {
      const answer = (await gw.gql(token, query, variables)).data![field];
      expect([field, variables, answer.stopReason]).toEqual([field, variables, "FORBIDDEN_CATEGORY"]);
      expect(answer.explanations.join(" ")).toContain("C19-FORBID");
    }
    // Nothing was erased, and the log holds metadata only.
    expect((await gw.gql(alice, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    const stored = await eventsOf(gw.gateway.db, "ka");
    const events = JSON.stringify(stored);
    for (const secret of [CARD, API_KEY]) expect(events).not.toContain(secret);
    // A fragment of either could turn up by chance inside a hash, a signature or a UUID (one run
    // found "4111" in a hash), so fragments are looked for in everything but those.
    const random = new Set([
      "_id",
      "memory_id",
      "hash",
      "prev_hash",
      "signature",
      "key_id",
      "event_id",
      "decision_id",
      "request_id",
      "policy_hash",
      "content_digest",
    ]);
    const written = JSON.stringify(stored.map((event) => Object.entries(event).filter(([field]) => !random.has(field))));
    for (const fragment of ["4111", "sk-proj"]) expect(written).not.toContain(fragment);
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("4111 1111");
    const refusals = (await eventsOf(gw.gateway.db, "ka")).slice(-cases.length);
    expect(refusals.map((e) => [e.event_type, e.reason])).toEqual(cases.map(() => ["refuse", null]));
  });

  it("C19-ITEM SPEC-D3a: lone or reversed surrogates in a reason answer SCHEMA_INVALID, for erasure and acknowledgement alike", async () => {
    const id = await storeFor("alice", "unicode-check");
    for (const reason of ["x \udc00\ud800", "lone \ud800 high", "lone \udfff low"]) {
      expect((await gw.gql(alice, ERASE_MEMORY, { id, reason })).data!.eraseMemory).toMatchObject({ stopReason: "SCHEMA_INVALID", erasedMemoryIds: [] });
      expect((await gw.gql(alice, ERASE_SUBJECT, { reason })).data!.eraseSubject.stopReason).toBe("SCHEMA_INVALID");
      expect((await gw.gql(admin, ACK, { reason })).data!.acknowledgeConformanceBreak).toMatchObject({ stopReason: "SCHEMA_INVALID", acknowledgedSeq: null });
    }
    expect((await gw.gql(alice, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect((await gw.gql(auditor, VERIFY, {})).data!.verifyAuditChain.ok).toBe(true);
  });

  it("SPEC-D3 SPEC-D5 SG-ISOLATION: eraseMemory for a subject the token does not hold answers identically for a real and a made-up id", async () => {
    const real = await storeFor("bob", "bob-private");
    const madeUp = `mem_${"0".repeat(real.length - 4)}`;
    expect(madeUp).toHaveLength(real.length);
    const before = (await eventsOf(gw.gateway.db, "ka")).length;
    const answers = [];
    for (const id of [real, madeUp]) {
      const { stopReason, explanations, erasedMemoryIds } = (await gw.gql(alice, ERASE_MEMORY, { id, subject: "bob", reason: "not mine" })).data!.eraseMemory;
      answers.push({ stopReason, explanations, erasedMemoryIds });
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(answers[0].stopReason).toBe("NOT_FOUND");
    // The refusals' events tell them apart no better than the answers.
    const refusals = (await eventsOf(gw.gateway.db, "ka")).slice(before);
    expect(refusals).toHaveLength(2);
    const shape = (e: (typeof refusals)[number]) => ({
      type: e.event_type,
      stop: e.stop_reason,
      subject: e.subject_id,
      memory: e.memory_id,
      metadata: e.metadata,
    });
    expect(shape(refusals[0])).toEqual(shape(refusals[1]));
    // And bob's memory is untouched.
    expect(await gw.gateway.db.collection("memories").findOne({ memory_id: real })).toMatchObject({ status: "active", key: "bob-private" });
  });

  it("SPEC-D1 MP-LOG: an erasure that matched nothing still writes its event, with zero ids", async () => {
    const res = (await gw.gql(admin, ERASE_SUBJECT, { subject: "nobody-here", reason: "erasure request, nothing stored" })).data!.eraseSubject;
    expect(res).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [] });
    const last = (await eventsOf(gw.gateway.db, "ka")).pop()!;
    expect(last).toMatchObject({
      event_type: "erase",
      operation: "ERASE_SUBJECT",
      contract: "audit",
      subject_id: "nobody-here",
      memory_id: null,
      stop_reason: "SUCCESS_DELETED",
      // Issue 22 §4: free text is not a reason code: the event says "other", the text is kept outside the chain.
      reason: "other",
      actor: { id: "root", kind: "human" },
      metadata: { erased_objects: 0, note_digest: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect((await gw.gql(auditor, VERIFY, {})).data!.verifyAuditChain.ok).toBe(true);
  });

  it("SPEC-D1: eraseSubject erases every object of the subject in every store, one settled erase event per object, in id order though governed items go 8 at a time", async () => {
    const ids = await storeMany(gw, await gw.token({ tenant: "ka", subjects: ["carol"], roles: ["agent"] }), 20, "CAROLMARK");
    const res = (await gw.gql(admin, ERASE_SUBJECT, { subject: "carol", reason: "account closed" })).data!.eraseSubject;
    expect(res).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [...ids].sort() });
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("CAROLMARK");
    const erases = (await eventsOf(gw.gateway.db, "ka")).filter((e) => e.event_type === "erase" && e.subject_id === "carol");
    expect(erases.map((e) => [e.memory_id, e.metadata.object_contract])).toEqual([...ids].sort().map((id) => [id, "governed"]));
    // The settle mark comes from the write set, off the request path: wait for it on real I/O, not on the clock.
    for (let i = 0; i < 200; i++) {
      const marks = await gw.gateway.db.collection("memories").countDocuments({ subject_id: "carol", "erasure.logged_seq": { $exists: true } });
      if (marks === ids.length) break;
      await new Promise((r) => setTimeout(r, 10)); // real I/O progress, not a clock wait
    }
    const tombstones = await gw.gateway.db.collection("memories").find({ subject_id: "carol" }).toArray();
    expect(tombstones.map((t) => t.erasure.logged_seq).sort()).toEqual(erases.map((e) => e.seq).sort());
  });

  it("SG-LOAD SG-ISOLATION: /metrics counts audit decisions from the kernel", async () => {
    await gw.gql(auditor, VERIFY, {});
    await gw.gql(alice, ERASE_SUBJECT, { reason: "   " });
    await gw.gql(alice, ERASE_MEMORY, { id: "mem_x", subject: "bob", reason: "not mine" });
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    const count = (operation: string, stopReason: string) => {
      const line = text
        .split("\n")
        .find(
          (l) =>
            l.startsWith("memgate_decisions_total{") &&
            l.includes('contract="audit"') &&
            l.includes(`operation="${operation}"`) &&
            l.includes(`stop_reason="${stopReason}"`),
        );
      return line ? Number(line.split(" ").pop()) : 0;
    };
    expect(count("VERIFY_CHAIN", "SUCCESS_READ")).toBeGreaterThanOrEqual(1);
    expect(count("ERASE_SUBJECT", "SCHEMA_INVALID")).toBeGreaterThanOrEqual(1);
    expect(count("ERASE_MEMORY", "NOT_FOUND")).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/memgate_operation_seconds_count\{[^}]*contract="audit"[^}]*operation="VERIFY_CHAIN"/);
    const isolation = text
      .split("\n")
      .find(
        (l) => l.startsWith("memgate_cross_tenant_attempts_total{") && l.includes('operation="audit.ERASE_MEMORY"') && l.includes('kind="foreign_subject"'),
      );
    expect(Number(isolation?.split(" ").pop())).toBeGreaterThanOrEqual(1);
  });

  it("MP-LOG C19-FAIL INV-8: the generic repair settles the unsettled objects of a ContractStore (the governed one), judged by the injected clock", async () => {
    const db = gw.gateway.db;
    const memories = db.collection("memories");
    const store = gw.gateway.services.contracts.governed.stores[0];
    const repair = () => new Repair(db, gw.gateway.services.events, gw.gateway.services.kernel, [store], clock, gw.gateway.logger, 60_000).run();

    const due = db.collection<{ _id: string; [key: string]: unknown }>("memory_due_events");
    const dueMark = (objectId: string) => ({
      _id: `ka:alice:${objectId}|v1`,
      tenant_id: "ka",
      subject_id: "alice",
      object_id: objectId,
      kind: "write",
      version: 1,
      written_at: clock.now(),
    });
    // A crash between event and settle: the event is in the log, the due mark still there.
    const marked = await storeFor("alice", "repair-mark");
    await store.idle?.(); // due marks are removed off the request path
    await due.insertOne(dueMark(marked));
    const ownEvent = (await eventsOf(db, "ka")).find((e) => e.event_type === "create" && e.memory_id === marked)!;
    // A crash between object and event: the object and its due mark are there, its event never written.
    const template = (await memories.findOne({ memory_id: marked }))!;
    await memories.insertOne({ ...template, _id: "ka:alice:mem_repair_orphan" as never, memory_id: "mem_repair_orphan" });
    await due.insertOne(dueMark("mem_repair_orphan"));
    // A crash inside an erasure: the content is gone, its event never written.
    const erasedId = await storeFor("alice", "repair-erasure", "REPAIRMARK biscuits");
    await store.idle?.();
    expect(
      await store.erase("ka", "alice", erasedId, {
        at: clock.now().toISOString(),
        by: "alice",
        reason: "erase me please",
        operation: "ERASE_MEMORY",
        decision_id: null,
      }),
    ).toBe(true);

    // Too young to judge: a live process may still be writing them.
    expect(await repair()).toEqual({ settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 3 });
    clock.advance(61_000);
    expect(await repair()).toEqual({ settled: 1, completed: 1, erasuresCompleted: 1, skippedYoung: 0 });

    expect(ownEvent.seq).toBeGreaterThan(0);
    expect(await due.countDocuments({ object_id: { $in: [marked, "mem_repair_orphan", erasedId] } })).toBe(0);
    const events = await eventsOf(db, "ka");
    const orphan = events.find((e) => e.memory_id === "mem_repair_orphan")!;
    expect(orphan).toMatchObject({
      event_type: "create",
      contract: "governed",
      actor: { kind: "system" },
      reason: expect.stringMatching(/^repair: /),
      metadata: { repaired: true, version: 1 },
    });
    const erasure = events.find((e) => e.memory_id === erasedId && e.event_type === "erase")!;
    expect(erasure).toMatchObject({
      contract: "audit",
      actor: { kind: "system" },
      reason: "repair: erase me please",
      content_digest: null,
      metadata: { repaired: true, object_contract: "governed" },
    });
    expect(await memories.findOne({ memory_id: erasedId })).toMatchObject({ status: "erased", erasure: { logged_seq: erasure.seq } });
    expect(await dumpDatabase(db)).not.toContain("REPAIRMARK");

    // Nothing left to do, and the chain still verifies.
    expect(await store.unsettled(10)).toEqual([]);
    expect(await repair()).toEqual({ settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 0 });
    expect((await gw.gql(auditor, VERIFY, {})).data!.verifyAuditChain.ok).toBe(true);
  });

  it("MP-LOG INV-8: a completion claim its gateway left stale is taken over by the next number, never deleted; four racing repairs complete the object once", async () => {
    const db = gw.gateway.db;
    const store = gw.gateway.services.contracts.governed.stores[0];
    const marked = await storeFor("alice", "repair-race-template");
    await store.idle?.();
    const template = (await db.collection("memories").findOne({ memory_id: marked }))!;
    await db.collection("memories").insertOne({ ...template, _id: "ka:alice:mem_race_orphan" as never, memory_id: "mem_race_orphan" });
    await db.collection("memory_due_events").insertOne({
      _id: "ka:alice:mem_race_orphan|v1" as never,
      tenant_id: "ka",
      subject_id: "alice",
      object_id: "mem_race_orphan",
      kind: "write",
      version: 1,
      written_at: clock.now(),
    });
    // A gateway took the completion and stopped: its claim is there, and old.
    const key = ["write", "ka", "alice", "mem_race_orphan", "1"].join("\u0000");
    const claimId = `${createHash("sha256").update(key).digest("hex")}/0`;
    await db.collection("repair_claims").insertOne({ _id: claimId as never, at: clock.now() });
    clock.advance(61_000);
    const repairs = Array.from(
      { length: 4 },
      () => new Repair(db, gw.gateway.services.events, gw.gateway.services.kernel, [store], clock, gw.gateway.logger, 60_000),
    );
    const reports = await Promise.all(repairs.map((r) => r.run()));
    expect(reports.reduce((sum, r) => sum + r.completed + r.settled, 0)).toBeGreaterThanOrEqual(1);
    expect((await eventsOf(db, "ka")).filter((e) => e.memory_id === "mem_race_orphan")).toHaveLength(1);
    expect(await db.collection("repair_claims").countDocuments({ _id: claimId } as never)).toBe(1);
    expect(await db.collection("repair_claims").countDocuments({ _id: claimId.replace(/\/0$/, "/1") } as never)).toBe(1);
  });
});
