import { randomUUID } from "node:crypto";
import { ManualClock } from "../../src/clock";
import type { LedgerStore } from "../../src/contracts/ledger/store";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { APPROVE, DECLINE, FORGET, LEDGER, PENDING, PROPOSE, SELECT, approved, proposal, propose } from "./helpers";

const ERASE_MEMORY = `mutation($id: ID!, $reason: String!) { eraseMemory(memoryId: $id, reason: $reason) { stopReason explanations erasedMemoryIds } }`;
const ERASE_SUBJECT = `mutation($reason: String!) { eraseSubject(reason: $reason) { stopReason explanations erasedMemoryIds } }`;

const CARD = "4111 1111 1111 1111";
const API_KEY = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB";

/** The ledger contract as the kernel runs it (issue 11): hygiene, detectors on every text, no oracle, the one store interface. */
describe("the ledger on the operation kernel (issue 11)", () => {
  const clock = new ManualClock("2026-08-03T10:00:00.000Z");
  let gw: TestGateway;
  let agent: string;
  let alice: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "acme", subjects: ["alice", "bob"], roles: ["agent"], sub: "reflection-agent" });
    alice = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
  });
  afterAll(() => gw.stop());

  const proposals = () => gw.gateway.db.collection("ledger_proposals");
  const items = () => gw.gateway.db.collection("ledger_items");
  const events = () => gw.gateway.db.collection("memory_events");
  const store = () => gw.gateway.services.contracts.ledger.stores[0] as LedgerStore;

  it("C19-ITEM SPEC-D3a: lone and reversed surrogates in proposedText, source.note, source.sourceId and finalText answer SCHEMA_INVALID; nothing is stored and the lists still read", async () => {
    const bad = ["I prefer \udc00\ud800 QZS-HYGIENE", "\ud800 QZS-HYGIENE", "QZS-HYGIENE \udfff"];
    for (const text of bad) {
      for (const [input, field] of [
        [proposal({ proposedText: text }), "proposedText"],
        [proposal({ source: { sourceType: "phase3_reflection", note: text } }), "source.note"],
        [proposal({ source: { sourceType: "phase3_reflection", sourceId: text } }), "source.sourceId"],
      ] as const) {
        const res = (await gw.gql(agent, PROPOSE, { input })).data!.proposeMemory;
        expect([field, res.stopReason, res.proposalId]).toEqual([field, "SCHEMA_INVALID", null]);
        expect(res.explanations).toContain(`C19-ITEM: ${field}_ill_formed_unicode`);
      }
    }
    const id = await propose(gw, agent);
    for (const text of bad) {
      const res = (await gw.gql(alice, APPROVE, { id, text })).data!.approveProposal;
      expect(res).toMatchObject({ stopReason: "SCHEMA_INVALID", memory: null });
      expect(res.explanations).toContain("C19-ITEM: finalText_ill_formed_unicode");
    }
    expect(await proposals().findOne({ proposal_id: id })).toMatchObject({ decision: "pending" });
    const everything = await dumpDatabase(gw.gateway.db);
    expect(everything).not.toContain("QZS-HYGIENE");
    expect(everything).not.toContain("\ufffd");
    // the subject's lists read back: no poisoned object
    expect((await gw.gql(alice, PENDING, {})).data!.pendingProposals.stopReason).toBe("SUCCESS_LISTED");
    expect((await gw.gql(alice, LEDGER, {})).data!.ledger.stopReason).toBe("SUCCESS_LISTED");
  });

  it.each([
    ["a card number", "source.note", { sourceType: "phase3_reflection", note: `After the call, card ${CARD}` }],
    ["an API key", "source.note", { sourceType: "phase3_reflection", note: `After the call ${API_KEY}` }],
    ["a card number", "source.sourceId", { sourceType: "phase3_reflection", sourceId: CARD.replace(/ /g, "") }],
    ["an API key", "source.sourceId", { sourceType: "phase3_reflection", sourceId: API_KEY }],
  ])("C19-FORBID SPEC-D4 P54-SOURCE: %s in %s is FORBIDDEN_CATEGORY and is stored nowhere, not even in the refusal's event", async (_what, field, source) => {
    const res = (await gw.gql(agent, PROPOSE, { input: proposal({ proposedText: "I prefer mornings QZC-SOURCE", source }) })).data!.proposeMemory;
    expect(res).toMatchObject({ stopReason: "FORBIDDEN_CATEGORY", proposalId: null });
    expect(res.explanations.some((e: string) => e.startsWith("C19-FORBID: ") && e.endsWith(`_in_${field}`))).toBe(true);
    const everything = await dumpDatabase(gw.gateway.db);
    for (const needle of [CARD, CARD.replace(/ /g, ""), API_KEY, "QZC-SOURCE"]) expect(everything).not.toContain(needle);
  });

  it("C19-FORBID: a card number in the final text is refused and the proposal stays pending", async () => {
    const id = await propose(gw, agent);
    const res = (await gw.gql(alice, APPROVE, { id, text: `I pay with ${CARD}` })).data!.approveProposal;
    expect(res).toMatchObject({ stopReason: "FORBIDDEN_CATEGORY", memory: null });
    expect(await proposals().findOne({ proposal_id: id })).toMatchObject({ decision: "pending" });
    expect(await dumpDatabase(gw.gateway.db)).not.toContain(CARD);
  });

  it("SPEC-D5 SPEC-D3 issue-11: for a foreign user or tenant, and for a non-owner holding the subject, approve, decline and forget answer identically for a real and a made-up id, and nothing changes", async () => {
    const real = await propose(gw, agent, { proposedText: "oracle probe proposal" });
    const realItem = await approved(gw, agent, alice, "I want to swim more");
    const madeUp = `prop_${randomUUID()}`;
    const madeUpItem = `mem_${randomUUID()}`;
    const strangers = [
      await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["user"], sub: "bob" }),
      await gw.token({ tenant: "globex", subjects: ["alice"], roles: ["user"], sub: "alice" }),
    ];
    const answer = (res: { data?: Record<string, any> }) => {
      const { stopReason, explanations } = Object.values(res.data!)[0] as { stopReason: string; explanations: string[] };
      return { stopReason, explanations };
    };
    for (const token of strangers) {
      const pairs = [
        [await gw.gql(token, APPROVE, { id: real, text: "hijack" }), await gw.gql(token, APPROVE, { id: madeUp, text: "hijack" })],
        [await gw.gql(token, DECLINE, { id: real }), await gw.gql(token, DECLINE, { id: madeUp })],
        [await gw.gql(token, FORGET, { id: realItem }), await gw.gql(token, FORGET, { id: madeUpItem })],
      ];
      for (const [forReal, forMadeUp] of pairs) {
        expect(answer(forReal)).toEqual(answer(forMadeUp));
        expect(answer(forReal)).toEqual({ stopReason: "NOT_FOUND", explanations: ["C19-STOP: no_such_memory"] });
      }
    }
    // Tokens that hold the subject but do not own the ledger (an agent, an admin) learn nothing either.
    for (const token of [agent, await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["admin"] })]) {
      const pairs = [
        [await gw.gql(token, APPROVE, { id: real, text: "hijack" }), await gw.gql(token, APPROVE, { id: madeUp, text: "hijack" })],
        [await gw.gql(token, DECLINE, { id: real }), await gw.gql(token, DECLINE, { id: madeUp })],
        [await gw.gql(token, FORGET, { id: realItem }), await gw.gql(token, FORGET, { id: madeUpItem })],
      ];
      for (const [forReal, forMadeUp] of pairs) {
        expect(answer(forReal)).toEqual(answer(forMadeUp));
        expect(answer(forReal).stopReason).toBe("NOT_FOUND");
      }
    }
    expect(await proposals().findOne({ proposal_id: real })).toMatchObject({ decision: "pending", proposed_text: "oracle probe proposal" });
    expect(await items().findOne({ memory_id: realItem })).toMatchObject({ status: "active" });
  });

  it("issue-11 SG-ISOLATION: /metrics counts the ledger's decisions by operation and stop reason, and a foreign subject's read as an isolation attempt", async () => {
    const id = await propose(gw, agent);
    await gw.gql(alice, APPROVE, { id, text: "I prefer tea" });
    await gw.gql(alice, SELECT, { ids: [] });
    const bob = await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["user"], sub: "bob" });
    await gw.gql(bob, PENDING, { subject: "alice" });
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    const count = (labels: string) => Number(new RegExp(`^memgate_decisions_total\\{${labels}\\} (\\d+)$`, "m").exec(metrics)?.[1] ?? 0);
    expect(count('contract="ledger",operation="PROPOSE",stop_reason="MISSING_EXPLICIT_CONSENT"')).toBeGreaterThanOrEqual(1);
    expect(count('contract="ledger",operation="APPROVE",stop_reason="SUCCESS_STORED"')).toBeGreaterThanOrEqual(1);
    expect(count('contract="ledger",operation="SELECT",stop_reason="SUCCESS_READ"')).toBeGreaterThanOrEqual(1);
    expect(count('contract="ledger",operation="PENDING",stop_reason="NOT_FOUND"')).toBeGreaterThanOrEqual(1);
    expect(metrics).toMatch(/^memgate_cross_tenant_attempts_total\{operation="ledger\.PENDING",kind="foreign_subject"\} [1-9]/m);
    expect(metrics).toMatch(/^memgate_operation_seconds_count\{contract="ledger",operation="APPROVE"\} [1-9]/m);
  });

  it("MP-OBJECT: every stored proposal and item carries provenance and an integrity hash over what is stored; a tampered item answers INTERNAL_INCONSISTENCY with a conformance_break event", async () => {
    const tamperAgent = await gw.token({ tenant: "tamper", subjects: ["tess"], roles: ["agent"] });
    const tess = await gw.token({ tenant: "tamper", subjects: ["tess"], roles: ["user"], sub: "tess" });
    const memoryId = await approved(gw, tamperAgent, tess, "I prefer walking meetings", { subjectId: "tess" });
    const item = await items().findOne({ memory_id: memoryId });
    const source = await proposals().findOne({ proposal_id: item!.proposal_id });
    for (const record of [item, source]) {
      expect(record).toMatchObject({ integrity_hash: expect.stringMatching(/^[0-9a-f]{64}$/), provenance: { temporal_scope: "unknown", version: 1 } });
    }
    expect(item!.provenance).toMatchObject({
      statement_type: "UserProvidedStatement",
      verdict_type: "Factual",
      applicability_scope: { level: "subject", tenant_id: "tamper", subject_id: "tess", category: "SELF_OBSERVATION" },
    });
    expect(source!.provenance).toMatchObject({ statement_type: "DerivedStatement", verdict_type: "Inference", source_refs: ["phase3_reflection:refl-17"] });
    expect((await gw.gql(tess, LEDGER, {})).data!.ledger.stopReason).toBe("SUCCESS_LISTED"); // what was hashed reads back

    await items().updateOne({ memory_id: memoryId }, { $set: { text: "I prefer tampered meetings" } });
    const res = (await gw.gql(tess, LEDGER, {})).data!.ledger;
    expect(res).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["MP-OBJECT: integrity_hash_mismatch"], items: [] });
    expect(await events().findOne({ tenant_id: "tamper", event_type: "conformance_break", memory_id: memoryId })).toMatchObject({
      contract: "ledger",
      operation: "LEDGER",
    });
  });

  it("SPEC-D1 MP-FORGET: a person erases an approved ledger item: its text, source and its proposal's texts are gone, tombstones stay, and the ledger still reads", async () => {
    const marker = "NARWHAL-ERASE-7731";
    const memoryId = await approved(gw, agent, alice, `I prefer ${marker} on weekends`, {
      proposedText: `I like ${marker}`,
      source: { sourceType: "phase3_reflection", sourceId: `refl-${marker}`, note: `After ${marker}` },
    });
    expect(await dumpDatabase(gw.gateway.db)).toContain(marker);
    const res = (await gw.gql(alice, ERASE_MEMORY, { id: memoryId, reason: "I asked to be forgotten" })).data!.eraseMemory;
    expect(res).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [memoryId] });
    expect(await dumpDatabase(gw.gateway.db)).not.toContain(marker);
    await gw.gateway.idle(); // the erase event's settle marks are written off the request path
    const tombstone = await items().findOne({ memory_id: memoryId });
    expect(tombstone).toMatchObject({
      status: "erased",
      text: "",
      content_salt: "",
      source: { source_type: "phase3_reflection", source_id: null, note: null },
      erasure: { reason: "other" }, // free text is not a reason code: its words go to an erasable note (issue 22 §4)
    });
    const proposalTombstone = await proposals().findOne({ proposal_id: tombstone!.proposal_id });
    expect(proposalTombstone).toMatchObject({ decision: "erased", final_text: null, source: { source_type: "phase3_reflection", source_id: null } });
    expect(proposalTombstone).not.toHaveProperty("proposed_text");
    // the erase event is settled on the item and on the proposal erased with it
    expect(tombstone!.erasure.logged_seq).toEqual(expect.any(Number));
    expect(proposalTombstone!.erasure.logged_seq).toBe(tombstone!.erasure.logged_seq);
    expect(await events().findOne({ event_type: "erase", memory_id: memoryId })).toMatchObject({ metadata: { object_contract: "ledger" } });
    // tombstones verify and are never listed or selected
    const ledger = (await gw.gql(alice, LEDGER, {})).data!.ledger;
    expect(ledger.stopReason).toBe("SUCCESS_LISTED");
    expect(ledger.items.map((i: { memoryId: string }) => i.memoryId)).not.toContain(memoryId);
    expect((await gw.gql(alice, SELECT, { ids: [memoryId] })).data!.selectedMemoryContext).toMatchObject({ stopReason: "NOT_FOUND", resolvedTexts: [] });
    expect((await gw.gql(alice, FORGET, { id: memoryId })).data!.forgetMemory.stopReason).toBe("NOT_FOUND");
  });

  it("SPEC-D1: eraseSubject reaches every proposal and item of the subject (pending, declined, approved, forgotten): a marker in every ledger text field is in no collection afterwards", async () => {
    const marker = "OKAPI-SUBJECT-4402";
    const erin = await gw.token({ tenant: "erase", subjects: ["erin"], roles: ["user"], sub: "erin" });
    const erinAgent = await gw.token({ tenant: "erase", subjects: ["erin"], roles: ["agent"] });
    const over = (n: number) => ({
      subjectId: "erin",
      proposedText: `I like ${marker} ${n}`,
      source: { sourceType: "phase3_reflection", sourceId: `${marker}-${n}`, note: `After ${marker} ${n}` },
    });
    const pendingId = await propose(gw, erinAgent, over(1));
    const declinedId = await propose(gw, erinAgent, over(2));
    await gw.gql(erin, DECLINE, { id: declinedId });
    const kept = await approved(gw, erinAgent, erin, `I prefer ${marker} 3`, over(3));
    const forgotten = await approved(gw, erinAgent, erin, `I prefer ${marker} 4`, over(4));
    await gw.gql(erin, FORGET, { id: forgotten });
    expect(await dumpDatabase(gw.gateway.db)).toContain(marker);

    const res = (await gw.gql(erin, ERASE_SUBJECT, { reason: "delete everything about me" })).data!.eraseSubject;
    expect(res.stopReason).toBe("SUCCESS_DELETED");
    expect(res.erasedMemoryIds).toEqual(expect.arrayContaining([pendingId, declinedId, kept, forgotten]));
    expect(await dumpDatabase(gw.gateway.db)).not.toContain(marker);
    expect(await store().objectIds("erase", "erin")).toEqual([]);
    expect((await gw.gql(erin, PENDING, {})).data!.pendingProposals).toMatchObject({ stopReason: "SUCCESS_LISTED", proposals: [] });
    expect((await gw.gql(erin, LEDGER, {})).data!.ledger).toMatchObject({ stopReason: "SUCCESS_LISTED", items: [] });
  });

  it("MP-LOG INV-8: a write's due event is gone once settled; a write whose event never came is listed by unsettled() with the event to append, and settle() completes it", async () => {
    const id = await propose(gw, agent, { proposedText: "settle probe" });
    // settle marks are written off the request path: wait until this one is (no clock involved)
    for (let i = 0; i < 200 && (await store().unsettled(1000)).some((o) => o.objectId === id); i++) await new Promise((r) => setImmediate(r));
    expect((await store().unsettled(1000)).map((o) => o.objectId)).not.toContain(id);

    // A process that stopped between the write and its event: the write and its due mark, no event.
    const crashed = `prop_${randomUUID()}`;
    const record = (await proposals().findOne({ proposal_id: id }))!;
    const due = {
      event_type: "create" as const,
      operation: "PROPOSE",
      stop_reason: "MISSING_EXPLICIT_CONSENT",
      decision_id: randomUUID(),
      at: clock.now(),
      content_digest: null,
      metadata: { proposal_id: crashed },
    };
    await store().insertProposal({ ...(record as any), _id: `acme:alice:${crashed}`, proposal_id: crashed }, due);
    const waiting = (await store().unsettled(1000)).find((o) => o.objectId === crashed);
    expect(waiting).toMatchObject({
      tenantId: "acme",
      subjectId: "alice",
      kind: "write",
      missing: { event_type: "create", operation: "PROPOSE", stop_reason: "MISSING_EXPLICIT_CONSENT" },
    });
    await store().settle(waiting!, 1);
    expect((await store().unsettled(1000)).map((o) => o.objectId)).not.toContain(crashed);
  });
});

describe("P54-D INV-8: a decline whose event cannot be appended", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway();
  });
  afterAll(() => gw.stop());

  it("P54-D INV-8 C19-FAIL: answers INTERNAL_INCONSISTENCY and leaves the proposal pending with its text and note; once the log works, the decline goes through", async () => {
    const agent = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    const alice = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const events = gw.gateway.db.collection("memory_events");
    // A real fault in the log, not a mock: a unique index that admits one event per proposal, so
    // the proposal's create event goes in and its decline's event is refused by the database.
    await events.createIndex({ tenant_id: 1, "metadata.proposal_id": 1 }, { unique: true, name: "test_one_event_per_proposal" });
    try {
      const id = await propose(gw, agent, {
        proposedText: "I prefer KEPT-TEXT-9182",
        source: { sourceType: "phase3_reflection", sourceId: "refl-1", note: "After KEPT-NOTE-9182" },
      });
      const res = (await gw.gql(alice, DECLINE, { id })).data!.declineProposal;
      expect(res).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: internal_error"], proposalId: null });
      expect(await gw.gateway.db.collection("ledger_proposals").findOne({ proposal_id: id })).toMatchObject({
        decision: "pending",
        proposed_text: "I prefer KEPT-TEXT-9182",
        source: { note: "After KEPT-NOTE-9182" },
        decided_at: null,
      });
      expect(await gw.gateway.db.collection("ledger_due_events").countDocuments({ object_id: id, event_type: "delete" })).toBe(0);
      const pending = (await gw.gql(alice, PENDING, {})).data!.pendingProposals;
      expect(pending.proposals.find((p: { proposalId: string }) => p.proposalId === id)).toMatchObject({ proposedText: "I prefer KEPT-TEXT-9182" });

      await events.dropIndex("test_one_event_per_proposal");
      expect((await gw.gql(alice, DECLINE, { id })).data!.declineProposal.stopReason).toBe("SUCCESS_DELETED");
      expect(await dumpDatabase(gw.gateway.db)).not.toContain("KEPT-TEXT-9182");
    } finally {
      await events.dropIndex("test_one_event_per_proposal").catch(() => undefined);
    }
  });
});
