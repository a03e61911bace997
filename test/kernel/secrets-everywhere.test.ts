import { randomBytes } from "node:crypto";
import { ManualClock } from "../../src/clock";
import { dumpDatabase } from "../support/database";
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
 * Issue 11, "How it will be checked": a card number and an API key sent in every free-text
 * field of every operation (reasons, refs, notes, share lists, texts, queries included).
 * Every text an operation accepts goes through every detector, so each answers
 * FORBIDDEN_CATEGORY (C19-FORBID: it outranks every code but INJECTION_DETECTED and
 * INTERNAL_INCONSISTENCY, C19-PRIO), and the secret is stored nowhere (SPEC D4).
 */
const TENANT = "secrets-co";
const REPO = "secrets/web";
const REPO_SUBJECT = `repo:${REPO}`;

/** A payment card number (Visa test number, Luhn-valid) and a GitHub personal access token, unique to this run. */
const CARD = "4111 1111 1111 1111";
const alnum = (n: number) => [...randomBytes(n)].map((b) => "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"[b % 62]).join("");
const API_KEY = `ghp_${alnum(36)}`;
const SECRETS: [string, string][] = [
  ["a card number", CARD],
  ["an API key", API_KEY],
];

describe("issue 11 acceptance: a secret in any free-text field is refused and stored nowhere (C19-FORBID, SPEC D4)", () => {
  const clock = new ManualClock("2026-06-02T09:00:00.000Z");
  let gw: TestGateway;
  const t = {} as Record<"agent" | "adapter" | "alice" | "repoAgent" | "admin" | "ursula", string>;
  const seed = {} as Record<"memory" | "agentMemory" | "factA" | "factB" | "proposal" | "ursulaMemory", string>;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    t.agent = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"], sub: "assistant-1" });
    t.adapter = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["adapter"], sub: "chat-adapter" });
    t.alice = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["user"], sub: "alice" });
    t.ursula = await gw.token({ tenant: TENANT, subjects: ["ursula"], roles: ["user"], sub: "ursula" });
    t.repoAgent = await gw.token({ tenant: TENANT, subjects: [REPO_SUBJECT], roles: ["agent"], sub: "coding-agent" });
    t.admin = await gw.token({ tenant: TENANT, subjects: [], roles: ["admin"], sub: "root" });

    // What the targeted operations act on: valid, so only the secret can be wrong with a request.
    const stored = expectAnswer(await gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference() }), "SUCCESS_STORED", "seed governed");
    seed.memory = (stored.memory as { memoryId: string }).memoryId;
    const ursula = expectAnswer(
      await gqlDecision(gw, t.ursula, GOVERNED.STORE, { input: preference({ key: "ursula-kept" }) }),
      "SUCCESS_STORED",
      "seed governed (ursula)",
    );
    seed.ursulaMemory = (ursula.memory as { memoryId: string }).memoryId;
    const written = expectAnswer(await postMemory(gw, t.repoAgent, agentWrite(REPO)), "SUCCESS_STORED", "seed agent");
    seed.agentMemory = (written.memory as { id: string }).id;
    const a = expectAnswer(
      await gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ text: "User works on FL Studio", sourceRefs: ["conv:1"] }) }),
      "SUCCESS_STORED",
      "seed fact",
    );
    const b = expectAnswer(
      await gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ text: "User enjoys Italian food", sourceRefs: ["conv:2"] }) }),
      "SUCCESS_STORED",
      "seed fact",
    );
    seed.factA = (a.fact as { memoryId: string }).memoryId;
    seed.factB = (b.fact as { memoryId: string }).memoryId;
    seed.proposal = expectAnswer(await gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal() }), "MISSING_EXPLICIT_CONSENT", "seed proposal")
      .proposalId as string;
  });
  afterAll(() => gw.stop());

  /** Every free-text field of every operation, as [contract, operation.field, call with the text]. */
  const CASES: [string, (s: string) => Promise<Answer>][] = [
    // governed (seed 000)
    ["governed storeMemory.key", (s) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ key: `tone ${s}` }) })],
    ["governed storeMemory.value", (s) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ value: `prefer replies ${s}` }) })],
    ["governed storeMemory.sourceRef", (s) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: cited({ sourceRef: `doc:${s}` }) })],
    [
      "governed storeMemory.consent.evidenceRef",
      (s) => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ consent: { explicit: true, evidenceRef: `msg:${s}` } }) }),
    ],
    ["governed updateMemory.key", (s) => gqlDecision(gw, t.agent, GOVERNED.UPDATE, { input: { ...preference({ key: `tone ${s}` }), memoryId: seed.memory } })],
    [
      "governed updateMemory.value",
      (s) => gqlDecision(gw, t.agent, GOVERNED.UPDATE, { input: { ...preference({ value: `prefer replies ${s}` }), memoryId: seed.memory } }),
    ],
    [
      "governed updateMemory.consent.evidenceRef",
      (s) =>
        gqlDecision(gw, t.agent, GOVERNED.UPDATE, {
          input: { ...preference({ consent: { explicit: true, evidenceRef: `msg:${s}` } }), memoryId: seed.memory },
        }),
    ],
    ["governed deleteMemory.reason", (s) => gqlDecision(gw, t.agent, GOVERNED.DELETE, { id: seed.memory, reason: `asked to forget ${s}` })],
    // agent (seed 001), through both doors
    ["agent write memory.text (POST /v1/memory)", (s) => postMemory(gw, t.repoAgent, agentWrite(REPO, { text: `Deploy uses ${s}` }))],
    ["agent write memory.text (agentWrite)", (s) => gqlDecision(gw, t.repoAgent, AGENT.WRITE, { input: agentWrite(REPO, { text: `Deploy uses ${s}` }) })],
    ["agent write memory.text (memoryRequest)", (s) => gqlDecision(gw, t.repoAgent, AGENT.RAW, { document: agentWrite(REPO, { text: `Deploy uses ${s}` }) })],
    ["agent write memory.rationale", (s) => postMemory(gw, t.repoAgent, agentWrite(REPO, { rationale: `seen with ${s}` }))],
    [
      "agent write memory.evidence_refs[]",
      (s) => gqlDecision(gw, t.repoAgent, AGENT.WRITE, { input: agentWrite(REPO, { evidence_refs: ["ci:run/1", `ci:${s}`] }) }),
    ],
    ["agent update truth.rationale", (s) => postMemory(gw, t.repoAgent, agentUpdate(REPO, seed.agentMemory, { truth: { rationale: `fixed with ${s}` } }))],
    [
      "agent update truth.evidence_refs[]",
      (s) => gqlDecision(gw, t.repoAgent, AGENT.UPDATE, { input: agentUpdate(REPO, seed.agentMemory, { truth: { evidence_refs: [`pr:${s}`] } }) }),
    ],
    [
      "agent update utility.rationale",
      (s) => gqlDecision(gw, t.repoAgent, AGENT.UPDATE, { input: agentUpdate(REPO, seed.agentMemory, { utility: { rationale: `saved time ${s}` } }) }),
    ],
    [
      "agent update (dry_run) truth.rationale",
      (s) => postMemory(gw, t.repoAgent, agentUpdate(REPO, seed.agentMemory, { mode: "dry_run", truth: { rationale: `fixed with ${s}` } })),
    ],
    ["agent read query (POST /v1/memory)", (s) => postMemory(gw, t.repoAgent, agentRead(REPO, `postgres timeout ${s}`))],
    ["agent read query (agentRead)", (s) => gqlDecision(gw, t.repoAgent, AGENT.READ, { input: agentRead(REPO, `postgres timeout ${s}`) })],
    // companion (seed 002, seed 004)
    [
      "companion addFact.text",
      (s) =>
        gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ text: `User loves fettuccini ${s}`, summary: `User mentioned they love fettuccini ${s}` }) }),
    ],
    [
      "companion addFact.summary",
      (s) => gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ summary: `User mentioned they love fettuccini and paid with ${s}` }) }),
    ],
    ["companion addFact.sourceRefs[]", (s) => gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact({ sourceRefs: ["conv:9", `conv:${s}`] }) })],
    ["companion setPrivacy.shareWith[]", (s) => gqlDecision(gw, t.alice, COMPANION.PRIVACY, { input: { shareWith: ["concierge", s] } })],
    [
      "companion consolidateMemories.text",
      (s) =>
        gqlDecision(gw, t.adapter, COMPANION.CONSOLIDATE, {
          input: {
            subjectId: "alice",
            memoryIds: [seed.factA, seed.factB],
            type: "USER_FACT",
            text: `User works on FL Studio and enjoys Italian food ${s}`,
            justification: "same conversation",
          },
        }),
    ],
    [
      "companion consolidateMemories.justification",
      (s) =>
        gqlDecision(gw, t.adapter, COMPANION.CONSOLIDATE, {
          input: {
            subjectId: "alice",
            memoryIds: [seed.factA, seed.factB],
            type: "USER_FACT",
            text: "User works on FL Studio and enjoys Italian food",
            justification: `same conversation ${s}`,
          },
        }),
    ],
    // ledger (seed 003)
    ["ledger proposeMemory.proposedText", (s) => gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal({ proposedText: `I prefer paying with ${s}` }) })],
    [
      "ledger proposeMemory.source.sourceId",
      (s) =>
        gqlDecision(gw, t.agent, LEDGER.PROPOSE, {
          input: proposal({ source: { sourceType: "phase3_reflection", sourceId: s, note: "After Phase 3 summary" } }),
        }),
    ],
    [
      "ledger proposeMemory.source.note",
      (s) =>
        gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal({ source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: `After ${s}` } }) }),
    ],
    ["ledger approveProposal.finalText", (s) => gqlDecision(gw, t.alice, LEDGER.APPROVE, { id: seed.proposal, text: `I've noticed I pay with ${s}` })],
    // audit / erasure (on ursula, so that a refusal that did not happen would not disturb the cases above)
    ["audit eraseMemory.reason", (s) => gqlDecision(gw, t.ursula, AUDIT.ERASE_MEMORY, { id: seed.ursulaMemory, reason: `GDPR request, card ${s}` })],
    ["audit eraseSubject.reason", (s) => gqlDecision(gw, t.ursula, AUDIT.ERASE_SUBJECT, { reason: `GDPR request, card ${s}` })],
    ["audit acknowledgeConformanceBreak.reason", (s) => gqlDecision(gw, t.admin, AUDIT.ACK, { reason: `investigated, key ${s}` })],
  ];

  const table = SECRETS.flatMap(([what, secret]) => CASES.map(([field, call]) => [field, what, secret, call] as const));

  it.each(table)("C19-FORBID C19-PRIO: %s with %s answers FORBIDDEN_CATEGORY", async (_field, _what, secret, call) => {
    const answer = await call(secret);
    expect(answer.stopReason).toBe("FORBIDDEN_CATEGORY");
    expect(answer.explanations.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer)).not.toContain(secret);
  });

  it("SPEC D4: afterwards neither secret is anywhere in the database (every collection, memory_events included)", async () => {
    const everything = await dumpDatabase(gw.gateway.db);
    expect(everything).toContain("memory_events"); // the scan reads the log too
    for (const needle of [CARD, CARD.replace(/ /g, ""), API_KEY, API_KEY.slice(4)]) expect([needle, everything.includes(needle)]).toEqual([needle, false]);
  });

  it("C19-FAIL: the refused requests changed nothing they targeted", async () => {
    expect((await gqlDecision(gw, t.agent, GOVERNED.READ, { id: seed.memory })).memory).toMatchObject({ value: "prefer concise responses" });
    expect((await gqlDecision(gw, t.ursula, GOVERNED.READ, { id: seed.ursulaMemory })).stopReason).toBe("SUCCESS_READ");
    const pending = await gqlDecision(gw, t.alice, LEDGER.PENDING, {});
    expect((pending.proposals as { proposalId: string }[]).map((p) => p.proposalId)).toContain(seed.proposal);
    const envelope = await gqlDecision(gw, t.adapter, COMPANION.ENVELOPE, { subject: "alice", skip: true });
    expect((envelope.envelope as { userFacts: { memoryId: string }[] }).userFacts.map((f) => f.memoryId).sort()).toEqual([seed.factA, seed.factB].sort());
  });
});
