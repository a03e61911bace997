import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import {
  AGENT,
  AUDIT,
  COMPANION,
  GOVERNED,
  LEDGER,
  agentRead,
  agentUpdate,
  agentWrite,
  cited,
  expectAnswer,
  fact,
  gqlDecision,
  postMemory,
  preference,
  proposal,
  type Answer,
} from "./support";

/**
 * Issue 11, "How it will be checked": reversed and lone surrogates in every text field of
 * every writing operation, then the subject's lists read back. Ill-formed UTF-16 answers
 * SCHEMA_INVALID wherever text enters (C19-ITEM, D3a); nothing of it is stored, so every
 * list of the subject still reads back with a SUCCESS code and no conformance break is
 * written (MP-OBJECT: what is hashed is what is stored).
 *
 * JSON.stringify escapes a lone surrogate as \udXXX, so the gateway receives exactly these
 * code units after JSON.parse.
 */
const TENANT = "unicode-co";
const REPO = "unicode/web";
const REPO_SUBJECT = `repo:${REPO}`;

const BAD: [string, string][] = [
  ["a reversed pair", "\udc00\ud800"],
  ["a lone high surrogate", "\ud800"],
  ["a lone low surrogate", "\udc00"],
];

describe("issue 11 acceptance: ill-formed UTF-16 is SCHEMA_INVALID at every door and poisons nothing (C19-ITEM, MP-OBJECT)", () => {
  const clock = new ManualClock("2026-06-03T09:00:00.000Z");
  let gw: TestGateway;
  const t = {} as Record<"agent" | "adapter" | "alice" | "repoAgent" | "admin" | "ursula", string>;
  const seed = {} as Record<"memory" | "agentMemory" | "factA" | "factB" | "proposal" | "item" | "ursulaMemory", string>;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    t.agent = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"], sub: "assistant-1" });
    t.adapter = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["adapter"], sub: "chat-adapter" });
    t.alice = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["user"], sub: "alice" });
    t.ursula = await gw.token({ tenant: TENANT, subjects: ["ursula"], roles: ["user"], sub: "ursula" });
    t.repoAgent = await gw.token({ tenant: TENANT, subjects: [REPO_SUBJECT], roles: ["agent"], sub: "coding-agent" });
    t.admin = await gw.token({ tenant: TENANT, subjects: [], roles: ["admin"], sub: "root" });

    // One valid object per list, so that reading the lists back is not vacuous.
    seed.memory = (
      expectAnswer(await gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference() }), "SUCCESS_STORED", "seed governed").memory as { memoryId: string }
    ).memoryId;
    seed.ursulaMemory = (
      expectAnswer(await gqlDecision(gw, t.ursula, GOVERNED.STORE, { input: preference() }), "SUCCESS_STORED", "seed governed (ursula)").memory as {
        memoryId: string;
      }
    ).memoryId;
    seed.agentMemory = (expectAnswer(await postMemory(gw, t.repoAgent, agentWrite(REPO)), "SUCCESS_STORED", "seed agent").memory as { id: string }).id;
    seed.factA = (
      expectAnswer(
        await gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ text: "User works on FL Studio", sourceRefs: ["conv:1"] }) }),
        "SUCCESS_STORED",
        "seed fact",
      ).fact as { memoryId: string }
    ).memoryId;
    seed.factB = (
      expectAnswer(
        await gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ text: "User enjoys Italian food", sourceRefs: ["conv:2"] }) }),
        "SUCCESS_STORED",
        "seed fact",
      ).fact as { memoryId: string }
    ).memoryId;
    const held = expectAnswer(
      await gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal({ proposedText: "I want to learn to sail" }) }),
      "MISSING_EXPLICIT_CONSENT",
      "seed proposal",
    );
    seed.item = (
      expectAnswer(await gqlDecision(gw, t.alice, LEDGER.APPROVE, { id: held.proposalId, text: "I want to learn to sail" }), "SUCCESS_STORED", "seed item")
        .memory as { memoryId: string }
    ).memoryId;
    seed.proposal = expectAnswer(await gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal() }), "MISSING_EXPLICIT_CONSENT", "seed proposal")
      .proposalId as string;
  });
  afterAll(() => gw.stop());

  /** Every text field of every writing operation (and the agent read's query, and ids): valid requests but for the bad code units. */
  const CASES: [string, (bad: string) => Promise<Answer>][] = [
    // governed (seed 000)
    ["governed storeMemory.key", (x) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ key: `tone ${x}` }) })],
    ["governed storeMemory.value", (x) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ value: `x ${x}` }) })],
    ["governed storeMemory.sourceRef", (x) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: cited({ sourceRef: `doc:1${x}` }) })],
    [
      "governed storeMemory.consent.evidenceRef",
      (x) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ consent: { explicit: true, evidenceRef: `msg:${x}` } }) }),
    ],
    ["governed updateMemory.value", (x) => gqlDecision(gw, t.agent, GOVERNED.UPDATE, { input: { ...preference({ value: `x ${x}` }), memoryId: seed.memory } })],
    ["governed updateMemory.key", (x) => gqlDecision(gw, t.agent, GOVERNED.UPDATE, { input: { ...preference({ key: `tone ${x}` }), memoryId: seed.memory } })],
    ["governed deleteMemory.reason", (x) => gqlDecision(gw, t.agent, GOVERNED.DELETE, { id: seed.memory, reason: `asked ${x}` })],
    // agent (seed 001), through both doors
    ["agent write memory.text (POST /v1/memory)", (x) => postMemory(gw, t.repoAgent, agentWrite(REPO, { text: `Builds are slow ${x}` }))],
    ["agent write memory.text (agentWrite)", (x) => gqlDecision(gw, t.repoAgent, AGENT.WRITE, { input: agentWrite(REPO, { text: `Builds are slow ${x}` }) })],
    [
      "agent write memory.text (memoryRequest)",
      (x) => gqlDecision(gw, t.repoAgent, AGENT.RAW, { document: agentWrite(REPO, { text: `Builds are slow ${x}` }) }),
    ],
    ["agent write memory.rationale", (x) => postMemory(gw, t.repoAgent, agentWrite(REPO, { rationale: `seen ${x}` }))],
    ["agent write memory.evidence_refs[]", (x) => postMemory(gw, t.repoAgent, agentWrite(REPO, { evidence_refs: [`ci:${x}`] }))],
    ["agent update truth.rationale", (x) => postMemory(gw, t.repoAgent, agentUpdate(REPO, seed.agentMemory, { truth: { rationale: `fixed ${x}` } }))],
    [
      "agent update truth.evidence_refs[]",
      (x) => gqlDecision(gw, t.repoAgent, AGENT.UPDATE, { input: agentUpdate(REPO, seed.agentMemory, { truth: { evidence_refs: [`pr:${x}`] } }) }),
    ],
    [
      "agent update utility.rationale",
      (x) => gqlDecision(gw, t.repoAgent, AGENT.UPDATE, { input: agentUpdate(REPO, seed.agentMemory, { utility: { rationale: `saved ${x}` } }) }),
    ],
    ["agent read query", (x) => postMemory(gw, t.repoAgent, agentRead(REPO, `postgres timeout ${x}`))],
    // companion (seed 002, seed 004)
    ["companion addFact.text", (x) => gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ text: `User loves fettuccini ${x}` }) })],
    ["companion addFact.summary", (x) => gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ summary: `User mentioned they love fettuccini ${x}` }) })],
    ["companion addFact.sourceRefs[]", (x) => gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ sourceRefs: [`conv:${x}`] }) })],
    ["companion setPrivacy.shareWith[]", (x) => gqlDecision(gw, t.alice, COMPANION.PRIVACY, { input: { shareWith: [`concierge${x}`] } })],
    [
      "companion consolidateMemories.text",
      (x) =>
        gqlDecision(gw, t.adapter, COMPANION.CONSOLIDATE, {
          input: {
            subjectId: "alice",
            memoryIds: [seed.factA, seed.factB],
            type: "USER_FACT",
            text: `User works on FL Studio and enjoys Italian food ${x}`,
            justification: "same conversation",
          },
        }),
    ],
    [
      "companion consolidateMemories.justification",
      (x) =>
        gqlDecision(gw, t.adapter, COMPANION.CONSOLIDATE, {
          input: {
            subjectId: "alice",
            memoryIds: [seed.factA, seed.factB],
            type: "USER_FACT",
            text: "User works on FL Studio and enjoys Italian food",
            justification: `same ${x}`,
          },
        }),
    ],
    // ledger (seed 003)
    ["ledger proposeMemory.proposedText", (x) => gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal({ proposedText: `I prefer tea ${x}` }) })],
    [
      "ledger proposeMemory.source.sourceId",
      (x) =>
        gqlDecision(gw, t.agent, LEDGER.PROPOSE, {
          input: proposal({ source: { sourceType: "phase3_reflection", sourceId: `refl-${x}`, note: "After Phase 3 summary" } }),
        }),
    ],
    [
      "ledger proposeMemory.source.note",
      (x) =>
        gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal({ source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: `After ${x}` } }) }),
    ],
    [
      "ledger approveProposal.finalText",
      (x) => gqlDecision(gw, t.alice, LEDGER.APPROVE, { id: seed.proposal, text: `I've noticed I focus better in the morning ${x}` }),
    ],
    // audit / erasure (on ursula, so that a request that was not refused would not empty alice's lists)
    ["audit eraseMemory.reason", (x) => gqlDecision(gw, t.ursula, AUDIT.ERASE_MEMORY, { id: seed.ursulaMemory, reason: `GDPR ${x}` })],
    ["audit eraseSubject.reason", (x) => gqlDecision(gw, t.ursula, AUDIT.ERASE_SUBJECT, { reason: `GDPR ${x}` })],
    ["audit acknowledgeConformanceBreak.reason", (x) => gqlDecision(gw, t.admin, AUDIT.ACK, { reason: `investigated ${x}` })],
    // ids are text that enters too: an ill-formed one is SCHEMA_INVALID, not NOT_FOUND
    ["governed memory(memoryId)", (x) => gqlDecision(gw, t.agent, GOVERNED.READ, { id: `mem_${x}` })],
    ["agent update memory_id", (x) => postMemory(gw, t.repoAgent, agentUpdate(REPO, `am_${x}`))],
    ["companion forgetFact(memoryId)", (x) => gqlDecision(gw, t.adapter, COMPANION.FORGET, { id: `fact_${x}` })],
    ["ledger forgetMemory(memoryId)", (x) => gqlDecision(gw, t.alice, LEDGER.FORGET, { id: `mem_${x}` })],
  ];

  const table = BAD.flatMap(([what, bad]) => CASES.map(([field, call]) => [field, what, bad, call] as const));

  it.each(table)("C19-ITEM D3a: %s with %s answers SCHEMA_INVALID", async (_field, _what, bad, call) => {
    const answer = await call(bad);
    expect(answer.stopReason).toBe("SCHEMA_INVALID");
    expect(answer.explanations.length).toBeGreaterThan(0);
  });

  describe("afterwards, the subject's lists read back", () => {
    it("MP-OBJECT: governed READ and LIST answer SUCCESS_READ / SUCCESS_LISTED with the valid item", async () => {
      expect(await gqlDecision(gw, t.agent, GOVERNED.READ, { id: seed.memory })).toMatchObject({
        stopReason: "SUCCESS_READ",
        memory: { value: "prefer concise responses" },
      });
      const list = await gqlDecision(gw, t.agent, GOVERNED.LIST, {});
      expect(list.stopReason).toBe("SUCCESS_LISTED");
      expect((list.memories as { memoryId: string }[]).map((m) => m.memoryId)).toEqual([seed.memory]);
      expect((await gqlDecision(gw, t.ursula, GOVERNED.LIST, {})).stopReason).toBe("SUCCESS_LISTED");
    });

    it("MP-OBJECT: the agent read answers SUCCESS_READ with the valid memory, as it was", async () => {
      const read = await postMemory(gw, t.repoAgent, agentRead(REPO, "jest postgres container"));
      expect(read.stopReason).toBe("SUCCESS_READ");
      expect((read.items as { id: string; text: string }[]).map((i) => [i.id, i.text])).toEqual([
        [seed.agentMemory, "Jest times out in CI when the Postgres container starts slowly"],
      ]);
    });

    it("MP-OBJECT: the envelope answers SUCCESS_READ with the valid facts", async () => {
      const envelope = await gqlDecision(gw, t.adapter, COMPANION.ENVELOPE, { subject: "alice", skip: true });
      expect(envelope.stopReason).toBe("SUCCESS_READ");
      expect((envelope.envelope as { userFacts: { memoryId: string }[] }).userFacts.map((f) => f.memoryId).sort()).toEqual([seed.factA, seed.factB].sort());
    });

    it("MP-OBJECT: the ledger and pending proposals answer SUCCESS_LISTED with the valid item and proposal", async () => {
      const ledger = await gqlDecision(gw, t.alice, LEDGER.LEDGER, {});
      expect(ledger.stopReason).toBe("SUCCESS_LISTED");
      expect((ledger.items as { memoryId: string }[]).map((i) => i.memoryId)).toEqual([seed.item]);
      const pending = await gqlDecision(gw, t.alice, LEDGER.PENDING, {});
      expect(pending.stopReason).toBe("SUCCESS_LISTED");
      expect((pending.proposals as { proposalId: string }[]).map((p) => p.proposalId)).toEqual([seed.proposal]);
    });

    it("MP-BREAK: no conformance_break event was written", async () => {
      const breaks = await gw.gateway.db.collection("memory_events").find({ event_type: "conformance_break" }).toArray();
      expect(breaks.map((e) => [e.operation, e.reason])).toEqual([]);
    });
  });
});
