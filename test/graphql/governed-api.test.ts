import { ManualClock } from "../../src/clock";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation Store($input: StoreMemoryInput!) {
  storeMemory(input: $input) {
    stopReason decisionId policyVersion contractVersion explanations
    memory { memoryId subjectId version category key value sourceKind ttlClass sourceRef createdAt expiresAt advisory }
  }
}`;
const READ = `query Read($id: ID!, $subject: ID) {
  memory(memoryId: $id, subjectId: $subject) { stopReason explanations memory { memoryId key value } }
}`;
const LIST = `query List($subject: ID, $category: String, $limit: Int, $after: String) {
  memories(subjectId: $subject, category: $category, limit: $limit, after: $after) {
    stopReason explanations nextCursor memories { memoryId key }
  }
}`;

describe("governed memory over GraphQL (foundation)", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let alice: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    alice = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  it("C19-OPS C19-STOP C19-VERSION: STORE then READ a PREFERENCE, each stamped with policy and contract version", async () => {
    const stored = await gw.gql(alice, STORE, { input: preference() });
    const decision = stored.data!.storeMemory;
    expect(decision.stopReason).toBe("SUCCESS_STORED");
    expect(decision.contractVersion).toBe("19.1.0");
    expect(decision.policyVersion).toMatch(/^[0-9a-f]{64}$/);
    expect(decision.memory).toMatchObject({ subjectId: "alice", version: 1, key: "tone", value: "prefer concise responses", advisory: true });
    expect(decision.memory.createdAt).toBe("2026-03-01T12:00:00.000Z");

    const read = await gw.gql(alice, READ, { id: decision.memory.memoryId });
    expect(read.data!.memory).toMatchObject({ stopReason: "SUCCESS_READ", memory: { key: "tone", value: "prefer concise responses" } });
  });

  it("C19-CAT INV-1: a category off the allowlist is FORBIDDEN_CATEGORY and none of its value is stored anywhere (D4)", async () => {
    const secret = "ZETA-4417 weekly notes";
    const res = await gw.gql(alice, STORE, { input: preference({ category: "HEALTH_NOTE", value: secret }) });
    expect(res.data!.storeMemory).toMatchObject({ stopReason: "FORBIDDEN_CATEGORY", memory: null, explanations: ["C19-CAT: category_not_allowed"] });
    const everything = await dumpDatabase(gw.gateway.db);
    expect(everything).not.toContain("ZETA-4417");
    expect(everything).not.toContain("HEALTH_NOTE");
  });

  it("C19-CAT: each of the five allowed categories stores within its bounds", async () => {
    for (const [category, ttlClass] of [
      ["PREFERENCE", "SHORT"],
      ["WORKFLOW_DEFAULT", "MEDIUM"],
      ["PROJECT_CONFIG", "LONG"],
      ["CONSTRAINT", "SHORT"],
      ["REMINDER", "MEDIUM"],
    ]) {
      const res = await gw.gql(alice, STORE, { input: preference({ category, ttlClass, key: `k-${category}` }) });
      expect([category, res.data!.storeMemory.stopReason]).toEqual([category, "SUCCESS_STORED"]);
    }
  });

  it("C19-ITEM INV-6: a value over its category's bound is BOUNDS_EXCEEDED and nothing is stored", async () => {
    const res = await gw.gql(alice, STORE, { input: preference({ category: "CONSTRAINT", value: "y".repeat(257) }) });
    expect(res.data!.storeMemory.stopReason).toBe("BOUNDS_EXCEEDED");
    expect(await gw.gateway.db.collection("memories").countDocuments({ value: "y".repeat(257) })).toBe(0);
  });

  it("SG-ISOLATION D5: another tenant's token gets NOT_FOUND for the memory id, and its LIST is empty", async () => {
    const stored = await gw.gql(alice, STORE, { input: preference({ key: "isolation" }) });
    const id = stored.data!.storeMemory.memory.memoryId;
    const globex = await gw.token({ tenant: "globex", subjects: ["alice"], roles: ["admin"] });
    const read = await gw.gql(globex, READ, { id, subject: "alice" });
    expect(read.data!.memory).toEqual({ stopReason: "NOT_FOUND", explanations: ["C19-STOP: no_such_memory"], memory: null });
    const list = await gw.gql(globex, LIST, { subject: "alice" });
    expect(list.data!.memories).toMatchObject({ stopReason: "SUCCESS_LISTED", memories: [] });
  });

  it("D5: a subject that is not in the token is NOT_FOUND on READ and POLICY_DISABLED on STORE", async () => {
    const bobToken = await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["agent"] });
    const stored = await gw.gql(bobToken, STORE, { input: preference({ key: "bob-only" }) });
    const id = stored.data!.storeMemory.memory.memoryId;
    expect((await gw.gql(alice, READ, { id, subject: "bob" })).data!.memory.stopReason).toBe("NOT_FOUND");
    const write = await gw.gql(alice, STORE, { input: preference({ subjectId: "bob" }) });
    expect(write.data!.storeMemory).toMatchObject({ stopReason: "POLICY_DISABLED", explanations: ["AUTHZ-SUBJECT: subject_not_in_token"] });
  });

  it("C19-TTL D6: expiry is judged by the injected clock", async () => {
    const token = await gw.token({ tenant: "acme", subjects: ["dave"], roles: ["agent"] });
    const stored = await gw.gql(token, STORE, { input: preference({ ttlClass: "SHORT", key: "short-lived" }) });
    const id = stored.data!.storeMemory.memory.memoryId;
    clock.advance(24 * 3600 * 1000 - 1);
    expect((await gw.gql(token, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect((await gw.gql(token, LIST, {})).data!.memories.memories).toHaveLength(1);
    clock.advance(1);
    expect((await gw.gql(token, READ, { id })).data!.memory.stopReason).toBe("NOT_FOUND");
    expect((await gw.gql(token, LIST, {})).data!.memories.memories).toHaveLength(0);
  });

  it("C19-OPS: LIST pages newest first with a cursor, filters by category, and refuses bad limits and cursors", async () => {
    const token = await gw.token({ tenant: "acme", subjects: ["erin"], roles: ["agent"] });
    for (const key of ["a", "b", "c"]) {
      clock.advance(1000);
      await gw.gql(token, STORE, { input: preference({ key }) });
    }
    await gw.gql(token, STORE, { input: preference({ key: "d", category: "CONSTRAINT" }) });
    const first = (await gw.gql(token, LIST, { limit: 2, category: "PREFERENCE" })).data!.memories;
    expect(first.memories.map((m: { key: string }) => m.key)).toEqual(["c", "b"]);
    const second = (await gw.gql(token, LIST, { limit: 2, category: "PREFERENCE", after: first.nextCursor })).data!.memories;
    expect(second.memories.map((m: { key: string }) => m.key)).toEqual(["a"]);
    expect(second.nextCursor).toBeNull();
    expect((await gw.gql(token, LIST, { limit: 101 })).data!.memories.stopReason).toBe("BOUNDS_EXCEEDED");
    expect((await gw.gql(token, LIST, { limit: 0 })).data!.memories.stopReason).toBe("SCHEMA_INVALID");
    expect((await gw.gql(token, LIST, { after: "not-a-cursor" })).data!.memories.stopReason).toBe("SCHEMA_INVALID");
  });

  it("SG-AUDIT D4: a store writes one create event with a digest; a refusal writes one refuse event with metadata only", async () => {
    const token = await gw.token({ tenant: "audit-co", subjects: ["frank"], roles: ["agent"] });
    const stored = await gw.gql(token, STORE, { input: preference({ value: "uses tabs" }) });
    await gw.gql(token, STORE, { input: preference({ category: "RELIGION", value: "OMEGA-991" }) });
    const events = await gw.gateway.db.collection("memory_events").find({ tenant_id: "audit-co" }).sort({ seq: 1 }).toArray();
    expect(events.map((e) => [e.seq, e.event_type, e.stop_reason])).toEqual([
      [1, "create", "SUCCESS_STORED"],
      [2, "refuse", "FORBIDDEN_CATEGORY"],
    ]);
    expect(events[0]).toMatchObject({ memory_id: stored.data!.storeMemory.memory.memoryId, decision_id: stored.data!.storeMemory.decisionId });
    expect(events[0].content_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(events[1].prev_hash).toBe(events[0].hash);
    expect(events[1]).toMatchObject({ content_digest: null, memory_id: null, metadata: { category: null, lengths: { value: 9 } } });
    expect(JSON.stringify(events)).not.toContain("uses tabs");
    expect(JSON.stringify(events)).not.toContain("OMEGA-991");
  });

  it("C19-STOP D3a: values GraphQL cannot type-check still get a stop reason, not a GraphQL error", async () => {
    const res = await gw.gql(alice, STORE, { input: preference({ sourceKind: "HEARSAY", ttlClass: "FOREVER" }) });
    expect(res.errors).toBeUndefined();
    expect(res.data!.storeMemory.stopReason).toBe("SCHEMA_INVALID");
    expect(res.data!.storeMemory.explanations).toEqual(["C19-ITEM: source_kind_unknown", "C19-ITEM: ttl_class_unknown"]);
  });

  it("C19-VERSION: the contract query is read from the policy bundle", async () => {
    const res = await gw.gql(
      alice,
      "{ contract { version policyVersion stopReasons sourceKinds categories { name valueMax ttlClasses sourceKinds } ttlClasses { name seconds } } }",
    );
    const contract = res.data!.contract;
    expect(contract.version).toBe("19.1.0");
    expect(contract.policyVersion).toBe(gw.gateway.services.policy.hash);
    expect(contract.categories.map((c: { name: string }) => c.name).sort()).toEqual([
      "CONSTRAINT",
      "PREFERENCE",
      "PROJECT_CONFIG",
      "REMINDER",
      "WORKFLOW_DEFAULT",
    ]);
    expect(contract.categories.find((c: { name: string }) => c.name === "REMINDER")).toEqual({
      name: "REMINDER",
      valueMax: 512,
      ttlClasses: ["SHORT", "MEDIUM"],
      sourceKinds: ["USER_EXPLICIT"],
    });
    expect(contract.stopReasons[0]).toBe("INTERNAL_INCONSISTENCY");
    expect(contract.ttlClasses.map((t: { name: string }) => t.name)).toEqual(["SHORT", "MEDIUM", "LONG"]);
  });
});
