import { ManualClock } from "../../src/clock";
import type { ErasureMark } from "../../src/kernel/contract-store";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference as item } from "../support/governed";

const FIELDS = "stopReason explanations memory { memoryId key value version }";
const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($input: UpdateMemoryInput!) { updateMemory(input: $input) { ${FIELDS} } }`;
const DELETE = `mutation($id: ID!, $subject: ID, $reason: String) { deleteMemory(memoryId: $id, subjectId: $subject, reason: $reason) { ${FIELDS} } }`;
const READ = `query($id: ID!, $subject: ID) { memory(memoryId: $id, subjectId: $subject) { ${FIELDS} } }`;
const LIST = `query($subject: ID) { memories(subjectId: $subject) { stopReason explanations memories { memoryId key value } } }`;
const SETTINGS = `mutation($input: MemorySettingsInput!) { setMemorySettings(input: $input) { stopReason explanations } }`;

/** Lone and reversed surrogates: the database would store U+FFFD, and the item's integrity hash would never match again. */
const ILL_FORMED = ["x \udc00\ud800", "lone high \ud83d end", "lone low \ude00"];

describe("the governed contract on the kernel (issue 11)", () => {
  const clock = new ManualClock("2026-06-01T08:00:00.000Z");
  let gw: TestGateway;
  let n = 0;
  const subject = async (tenant = "kernel") => {
    const id = `s${++n}`;
    return { id, token: await gw.token({ tenant, subjects: [id], roles: ["agent"] }) };
  };
  const store = async (token: string, over: Record<string, unknown> = {}) => (await gw.gql(token, STORE, { input: item(over) })).data!.storeMemory;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
  });
  afterAll(() => gw.stop());

  it("issue-11 C19-ITEM D3a: a lone or reversed surrogate in key, value or source_ref answers SCHEMA_INVALID, stores nothing, and the subject's list still reads back", async () => {
    const { token } = await subject();
    const kept = await store(token, { key: "kept", value: "prefer short answers" });
    const cited = (sourceRef: string) => ({
      category: "PROJECT_CONFIG",
      ttlClass: "LONG",
      sourceKind: "CITED_SOURCE",
      key: "branch",
      value: "main",
      sourceRef,
    });
    for (const bad of ILL_FORMED) {
      for (const [field, over] of [
        ["key", { key: bad }],
        ["value", { value: bad }],
        ["source_ref", cited(`doc:${bad}`)],
      ] as const) {
        const res = await store(token, over);
        expect([field, bad, res.stopReason]).toEqual([field, bad, "SCHEMA_INVALID"]);
        expect(res.explanations).toContain(`C19-ITEM: ${field}_ill_formed_unicode`);
      }
      const update = (await gw.gql(token, UPDATE, { input: { ...item({ value: bad }), memoryId: kept.memory.memoryId } })).data!.updateMemory;
      expect(update.stopReason).toBe("SCHEMA_INVALID");
      expect((await gw.gql(token, DELETE, { id: kept.memory.memoryId, reason: bad })).data!.deleteMemory.stopReason).toBe("SCHEMA_INVALID");
    }
    const list = (await gw.gql(token, LIST, {})).data!.memories;
    expect(list).toMatchObject({ stopReason: "SUCCESS_LISTED", memories: [{ memoryId: kept.memory.memoryId, key: "kept", value: "prefer short answers" }] });
    expect((await gw.gql(token, READ, { id: kept.memory.memoryId })).data!.memory).toMatchObject({ stopReason: "SUCCESS_READ", memory: { version: 1 } });
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("\ufffd");
  });

  it("issue-11 C19-FORBID D4: a card number or an API key in a DELETE reason is FORBIDDEN_CATEGORY, is stored nowhere, and the item stays", async () => {
    const { token } = await subject();
    const id = (await store(token)).memory.memoryId;
    for (const reason of [
      "refund to card 4111 1111 1111 1111 please",
      "rotate sk_live_4eC39HqLyjWDarjtT1zdp7dc now",
      "token ghp_abcdefghijklmnopqrstuvwxyz0123456789",
    ]) {
      const res = (await gw.gql(token, DELETE, { id, reason })).data!.deleteMemory;
      expect([reason, res.stopReason]).toEqual([reason, "FORBIDDEN_CATEGORY"]);
    }
    const everything = await dumpDatabase(gw.gateway.db);
    for (const secret of ["4111 1111 1111 1111", "sk_live_4eC39", "ghp_abcdefghij"]) expect(everything).not.toContain(secret);
    expect((await gw.gql(token, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    // an ordinary reason still deletes, and is kept in the event
    expect((await gw.gql(token, DELETE, { id, reason: "no longer true" })).data!.deleteMemory.stopReason).toBe("SUCCESS_DELETED");
  });

  it("issue-11 D3 D5 SG-ISOLATION: READ, UPDATE and DELETE for a subject the token does not hold answer alike for a real and a made-up id", async () => {
    const owner = await subject();
    const real = (await store(owner.token)).memory.memoryId;
    const stranger = await subject();
    const madeUp = `mem_${"0".repeat(8)}-0000-4000-8000-${"0".repeat(12)}`;
    const ask = async (id: string) => ({
      read: (await gw.gql(stranger.token, READ, { id, subject: owner.id })).data!.memory,
      update: (await gw.gql(stranger.token, UPDATE, { input: { ...item(), memoryId: id, subjectId: owner.id } })).data!.updateMemory,
      delete: (await gw.gql(stranger.token, DELETE, { id, subject: owner.id })).data!.deleteMemory,
    });
    const [forReal, forMadeUp] = [await ask(real), await ask(madeUp)];
    expect(forReal).toEqual(forMadeUp);
    expect(forReal.read).toEqual({ stopReason: "NOT_FOUND", explanations: ["AUTHZ-SUBJECT: subject_not_in_token"], memory: null });
    expect(forReal.delete.stopReason).toBe("NOT_FOUND");
    expect(forReal.update.stopReason).toBe("POLICY_DISABLED");
    // the item is untouched, and each attempt counted as a cross-subject attempt
    expect((await gw.gql(owner.token, READ, { id: real })).data!.memory).toMatchObject({ stopReason: "SUCCESS_READ", memory: { version: 1 } });
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/memgate_cross_tenant_attempts_total\{operation="governed\.READ",kind="foreign_subject"\} [1-9]/);
  });

  it("issue-11 SG-LOAD: /metrics counts governed decisions by operation and stop reason, with their latency", async () => {
    const { token } = await subject("metrics-co");
    const id = (await store(token)).memory.memoryId;
    await store(token, { category: "HEALTH_NOTE" });
    await gw.gql(token, READ, { id });
    await gw.gql(token, LIST, {});
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    const count = (operation: string, stopReason: string) => {
      const match = new RegExp(`memgate_decisions_total\\{contract="governed",operation="${operation}",stop_reason="${stopReason}"\\} (\\d+)`).exec(metrics);
      return match ? Number(match[1]) : 0;
    };
    expect(count("STORE", "SUCCESS_STORED")).toBeGreaterThanOrEqual(1);
    expect(count("STORE", "FORBIDDEN_CATEGORY")).toBeGreaterThanOrEqual(1);
    expect(count("READ", "SUCCESS_READ")).toBeGreaterThanOrEqual(1);
    expect(count("LIST", "SUCCESS_LISTED")).toBeGreaterThanOrEqual(1);
    expect(metrics).toMatch(/memgate_operation_seconds_count\{contract="governed",operation="STORE"\} [1-9]/);
  });

  it("issue-11 MP-OBJECT SPEC D1: the governed store settles writes off the request path, lists what is unsettled, and erases an item with its versions to a content-free tombstone", async () => {
    const { id: subjectId, token } = await subject("store-co");
    const governed = gw.gateway.services.contracts.governed.store;
    const v1 = await store(token, { key: "erase-me", value: "MARKER-ERASE-7 v1", consent: { explicit: true, evidenceRef: "msg:MARKER-ERASE-7" } });
    const id = v1.memory.memoryId;
    await gw.gql(token, UPDATE, { input: { ...item({ key: "erase-me", value: "MARKER-ERASE-7 v2" }), memoryId: id } });
    await governed.idle();
    const live = await gw.gateway.db.collection("memories").findOne({ memory_id: id });
    expect(live).toMatchObject({ version: 2 });
    const due = gw.gateway.db.collection<{ _id: string; [key: string]: unknown }>("memory_due_events");
    expect(await due.countDocuments({ object_id: id })).toBe(0);
    expect((await governed.unsettled(100)).filter((u) => u.objectId === id)).toEqual([]);

    // a version written but never settled (a process stopped before its event) keeps its due mark, and is listed with the event to complete it
    await due.insertOne({
      _id: `${live!._id}|v2`,
      tenant_id: "store-co",
      subject_id: subjectId,
      object_id: id,
      kind: "write",
      version: 2,
      written_at: clock.now(),
    });
    const [pending] = (await governed.unsettled(100)).filter((u) => u.objectId === id);
    expect(pending).toMatchObject({
      tenantId: "store-co",
      subjectId,
      kind: "write",
      version: 2,
      missing: { event_type: "update", operation: "UPDATE", stop_reason: "SUCCESS_UPDATED" },
    });
    expect(pending.missing.content_digest).toMatch(/^[0-9a-f]{64}$/);
    await governed.settle(pending, 99);
    expect(await due.countDocuments({ object_id: id })).toBe(0);

    expect(await governed.objectIds("store-co", subjectId)).toEqual([id]);
    expect(await governed.lookup("store-co", subjectId, id)).toEqual({ found: true, erased: false });
    const mark: ErasureMark = { at: clock.now().toISOString(), by: "admin-1", reason: "subject asked", operation: "ERASE_MEMORY", decision_id: null };
    expect(await governed.erase("store-co", subjectId, id, mark)).toBe(true);
    expect(await governed.erase("store-co", subjectId, "mem_nothing", mark)).toBe(false);
    expect(await governed.lookup("store-co", subjectId, id)).toEqual({ found: true, erased: true });
    expect(await governed.objectIds("store-co", subjectId)).toEqual([]);
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("MARKER-ERASE-7");
    const [erasure] = (await governed.unsettled(100)).filter((u) => u.objectId === id);
    expect(erasure).toMatchObject({ kind: "erasure", missing: { event_type: "erase", stop_reason: "SUCCESS_DELETED", content_digest: null } });
    await governed.settle(erasure, 100);
    expect((await governed.unsettled(100)).filter((u) => u.objectId === id)).toEqual([]);
    // the tombstone's integrity hash covers what is stored: it reads as not found, never as a broken object
    expect((await gw.gql(token, READ, { id })).data!.memory.stopReason).toBe("NOT_FOUND");
  });
});

describe("issue-11 C19-POLICY: settings changed through one gateway process hold in another at once", () => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    a = await startTestGateway();
    b = await startTestGateway({ env: { MEMGATE_DB_NAME: a.dbName } });
  });
  afterAll(async () => {
    await b.stop();
    await a.stop();
  });

  it("issue-11 C19-POLICY C19-CAP: once setMemorySettings has answered in process A, process B's cached settings are gone", async () => {
    const admin = await a.token({ tenant: "two-procs", subjects: [], roles: ["admin"] });
    const alice = await a.token({ tenant: "two-procs", subjects: ["alice"], roles: ["agent"] });
    await b.gateway.services.contracts.governed.store.settings.ready();
    // B serves alice, so it has her (empty) settings cached
    const id = (await b.gql(alice, STORE, { input: item() })).data!.storeMemory.memory.memoryId;
    expect((await b.gql(alice, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");

    expect((await a.gql(admin, SETTINGS, { input: { enabled: false } })).data!.setMemorySettings.stopReason).toBe("SUCCESS_UPDATED");
    expect((await b.gql(alice, READ, { id })).data!.memory).toMatchObject({ stopReason: "POLICY_DISABLED", explanations: ["C19-POLICY: memory_disabled"] });
    expect((await b.gql(alice, STORE, { input: item() })).data!.storeMemory.stopReason).toBe("POLICY_DISABLED");

    expect((await a.gql(admin, SETTINGS, { input: { subjectId: "alice", enabled: true, maxItemsPerSubject: 1 } })).data!.setMemorySettings.stopReason).toBe(
      "SUCCESS_UPDATED",
    );
    expect((await b.gql(alice, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect((await b.gql(alice, STORE, { input: item() })).data!.storeMemory).toMatchObject({
      stopReason: "ENTITLEMENT_CAP",
      explanations: ["C19-CAP: max_items_per_subject_reached"],
    });
  });
});
