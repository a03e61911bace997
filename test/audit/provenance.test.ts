import { createHash } from "node:crypto";
import canonicalize from "canonicalize";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { eventsOf, LIST, preference, READ, STORE } from "./support";

const CONTENT = [
  "tenant_id",
  "subject_id",
  "memory_id",
  "version",
  "category",
  "key",
  "value",
  "source_kind",
  "ttl_class",
  "source_ref",
  "origin",
  "consent",
  "created_at",
  "expires_at",
  "content_salt",
];

describe("MP-OBJECT provenance on every governed memory", () => {
  const clock = new ManualClock("2026-05-01T09:30:00.000Z");
  let gw: TestGateway;
  let agent: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "prov", subjects: ["alice"], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  it("MP-OBJECT: a stored memory carries statement and verdict type (from its source kind), source_refs, timestamp, validity, scope, jurisdiction, version and integrity_hash", async () => {
    const res = await gw.gql(agent, STORE, {
      input: preference({ category: "PROJECT_CONFIG", sourceKind: "CITED_SOURCE", sourceRef: "doc:123#p4", ttlClass: "MEDIUM" }),
    });
    const memory = res.data!.storeMemory.memory;
    expect(memory.provenance).toEqual({
      statementType: "SourceStatement",
      verdictType: "Factual",
      sourceRefs: ["doc:123#p4"],
      timestamp: "2026-05-01T09:30:00.000Z",
      validFrom: "2026-05-01T09:30:00.000Z",
      validTo: "2026-05-31T09:30:00.000Z",
      temporalScope: "bounded",
      applicabilityScope: { level: "subject", tenant_id: "prov", subject_id: "alice", category: "PROJECT_CONFIG" },
      jurisdiction: null,
      version: 1,
      integrityHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const user = await gw.gql(agent, STORE, { input: preference({ key: "k2" }) });
    expect(user.data!.storeMemory.memory.provenance).toMatchObject({ statementType: "UserProvidedStatement", sourceRefs: [] });

    // The hash is sha256 over the RFC 8785 form of what is stored (docs/AUDIT.md), recomputable by anyone.
    const stored = (await gw.gateway.db.collection("memories").findOne({ memory_id: memory.memoryId }))!;
    const content = Object.fromEntries(CONTENT.map((f) => [f, stored[f] ?? null]));
    const text = canonicalize(JSON.parse(JSON.stringify({ content, provenance: stored.provenance })))!;
    expect(createHash("sha256").update(text).digest("hex")).toBe(memory.provenance.integrityHash);
    expect(stored.integrity_hash).toBe(memory.provenance.integrityHash);
  });

  it("MP-OBJECT MP-BREAK: an item changed in the database answers INTERNAL_INCONSISTENCY on READ and LIST and writes a conformance_break event", async () => {
    const res = await gw.gql(agent, STORE, { input: preference({ key: "tamper-me", value: "original" }) });
    const id = res.data!.storeMemory.memory.memoryId;
    expect((await gw.gql(agent, READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    await gw.gateway.db.collection("memories").updateOne({ memory_id: id }, { $set: { value: "changed behind memgate's back" } });
    const read = (await gw.gql(agent, READ, { id })).data!.memory;
    expect(read).toEqual({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["MP-OBJECT: integrity_hash_mismatch"], memory: null });
    const list = (await gw.gql(agent, LIST, {})).data!.memories;
    expect(list).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", memories: [] });
    const breaks = (await eventsOf(gw.gateway.db, "prov")).filter((e) => e.event_type === "conformance_break");
    expect(breaks).toHaveLength(2);
    expect(breaks[0]).toMatchObject({ memory_id: id, reason: "integrity_hash_mismatch", stop_reason: "INTERNAL_INCONSISTENCY", operation: "READ" });
    expect(JSON.stringify(breaks)).not.toContain("changed behind");
  });

  it("MP-OBJECT MP-BREAK: a read verifies the document as the database returns it (Dates, nulls, nested consent), with the hash it was written with", async () => {
    const res = await gw.gql(agent, STORE, { input: preference({ key: "read-back", value: "kept", sourceRef: "chat:42" }) });
    const id = res.data!.storeMemory.memory.memoryId;
    const stored = await gw.gateway.db.collection("memories").findOne({ memory_id: id });
    // What the gateway hashed at write time is what a read recomputes from the stored document.
    const content = Object.fromEntries(CONTENT.map((f) => [f, stored![f] ?? null]));
    const hash = createHash("sha256")
      .update(canonicalize({ content, provenance: stored!.provenance })!)
      .digest("hex");
    expect(hash).toBe(stored!.integrity_hash);
    expect((await gw.gql(agent, READ, { id })).data!.memory).toMatchObject({ stopReason: "SUCCESS_READ", memory: { value: "kept" } });
  });
});
