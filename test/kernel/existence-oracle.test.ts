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
  expectAnswer,
  fact,
  gqlDecision,
  lookalike,
  postMemory,
  preference,
  proposal,
  type Answer,
} from "./support";

/**
 * Issue 11, "How it will be checked": each read or targeted operation run for a foreign
 * subject with a real and with a made-up id, answers compared. A refusal for a subject or a
 * tenant the token does not hold never depends on whether the target exists: same stop
 * reason, same explanations, same everything else (SPEC D3, D5, SG-ISOLATION).
 *
 * The made-up id has exactly the shape of the real one (same prefix, a fresh UUID), so no
 * format or bound check can tell them apart either. Subject-wide operations compare a
 * subject that has data with one that never had any.
 */
const TENANT = "oracle-co";
const OWNER_REPO = "oracle/alice-repo";
const EMPTY_REPO = "oracle/nobody-repo";
const STRANGER_REPO = "oracle/mallory-repo";

type Role = "agent" | "adapter" | "user" | "repoAgent";
type Tokens = Record<Role, string>;

interface Case {
  name: string;
  /** The real values (ids, or a subject) the owner has; the comparison runs with look-alikes of them. */
  real: () => string[];
  /** How the look-alike of each real value is made (default: same prefix, fresh UUID). */
  fake?: (real: string) => string;
  run: (tokens: Tokens, values: string[]) => Promise<Answer>;
  /**
   * What a stranger may be answered here (default: NOT_FOUND or POLICY_DISABLED). A caller of
   * another tenant holds alice's names in its own tenant, so a subject-wide operation may
   * succeed there, on its own empty subject.
   */
  answers?: { same: string[]; other: string[] };
}

const REFUSED = ["NOT_FOUND", "POLICY_DISABLED"];
/** Refused for a stranger of the tenant; for another tenant, refused or its own (empty) success. */
const orOwn = (success: string) => ({ same: [...REFUSED, success], other: [...REFUSED, success] });
const refused = (...more: string[]) => ({ same: [...REFUSED, ...more], other: [...REFUSED, ...more] });

describe("issue 11 acceptance: no existence oracle across subjects and tenants (SPEC D3 D5, SG-ISOLATION)", () => {
  const clock = new ManualClock("2026-06-04T09:00:00.000Z");
  let gw: TestGateway;
  const owner = {} as Tokens & { alice: string };
  const strangers = {} as Record<"same tenant" | "another tenant", Tokens>;
  const seed = {} as Record<"memory" | "agentMemory" | "problem" | "factA" | "factB" | "heldFact" | "proposal" | "item", string>;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    owner.agent = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"], sub: "assistant-1" });
    owner.adapter = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["adapter"], sub: "chat-adapter" });
    owner.alice = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["user"], sub: "alice" });
    owner.repoAgent = await gw.token({ tenant: TENANT, subjects: [`repo:${OWNER_REPO}`], roles: ["agent"], sub: "coding-agent" });
    // A stranger of the same tenant holds its own subject only; a caller of another tenant holds alice's very
    // names (and the empty subject compared with hers), so only the tenant differs.
    strangers["same tenant"] = {
      agent: await gw.token({ tenant: TENANT, subjects: ["mallory"], roles: ["agent"], sub: "mallory-agent" }),
      adapter: await gw.token({ tenant: TENANT, subjects: ["mallory"], roles: ["adapter"], sub: "mallory-adapter" }),
      user: await gw.token({ tenant: TENANT, subjects: ["mallory"], roles: ["user"], sub: "mallory" }),
      repoAgent: await gw.token({ tenant: TENANT, subjects: [`repo:${STRANGER_REPO}`], roles: ["agent"], sub: "mallory-coder" }),
    };
    strangers["another tenant"] = {
      agent: await gw.token({ tenant: "globex", subjects: ["alice", "ghost"], roles: ["agent"], sub: "globex-agent" }),
      adapter: await gw.token({ tenant: "globex", subjects: ["alice", "ghost"], roles: ["adapter"], sub: "globex-adapter" }),
      user: await gw.token({ tenant: "globex", subjects: ["alice", "ghost"], roles: ["user"], sub: "alice" }),
      repoAgent: await gw.token({
        tenant: "globex",
        subjects: [`repo:${OWNER_REPO}`, `repo:${EMPTY_REPO}`, `repo:${STRANGER_REPO}`],
        roles: ["agent"],
        sub: "globex-coder",
      }),
    };

    seed.memory = (
      expectAnswer(await gqlDecision(gw, owner.agent, GOVERNED.STORE, { input: preference() }), "SUCCESS_STORED", "seed governed").memory as {
        memoryId: string;
      }
    ).memoryId;
    seed.problem = (
      expectAnswer(await postMemory(gw, owner.repoAgent, agentWrite(OWNER_REPO)), "SUCCESS_STORED", "seed agent problem").memory as { id: string }
    ).id;
    seed.agentMemory = (
      expectAnswer(
        await postMemory(
          gw,
          owner.repoAgent,
          agentWrite(OWNER_REPO, { text: "Raise the pool size to 20", kind: "solution", links: { problem_id: seed.problem } }),
        ),
        "SUCCESS_STORED",
        "seed agent",
      ).memory as {
        id: string;
      }
    ).id;
    seed.factA = (
      expectAnswer(
        await gqlDecision(gw, owner.adapter, COMPANION.ADD, { input: fact({ text: "User works on FL Studio", sourceRefs: ["conv:1"] }) }),
        "SUCCESS_STORED",
        "seed fact",
      ).fact as { memoryId: string }
    ).memoryId;
    seed.factB = (
      expectAnswer(
        await gqlDecision(gw, owner.adapter, COMPANION.ADD, { input: fact({ text: "User enjoys Italian food", sourceRefs: ["conv:2"] }) }),
        "SUCCESS_STORED",
        "seed fact",
      ).fact as { memoryId: string }
    ).memoryId;
    seed.heldFact = expectAnswer(
      await gqlDecision(gw, owner.adapter, COMPANION.ADD, { input: fact({ confidence: 0.77 }) }),
      "MISSING_EXPLICIT_CONSENT",
      "seed held fact",
    ).proposalId as string;
    const held = expectAnswer(
      await gqlDecision(gw, owner.agent, LEDGER.PROPOSE, { input: proposal({ proposedText: "I want to learn to sail" }) }),
      "MISSING_EXPLICIT_CONSENT",
      "seed proposal",
    );
    seed.item = (
      expectAnswer(await gqlDecision(gw, owner.alice, LEDGER.APPROVE, { id: held.proposalId, text: "I want to learn to sail" }), "SUCCESS_STORED", "seed item")
        .memory as { memoryId: string }
    ).memoryId;
    seed.proposal = expectAnswer(await gqlDecision(gw, owner.agent, LEDGER.PROPOSE, { input: proposal() }), "MISSING_EXPLICIT_CONSENT", "seed proposal")
      .proposalId as string;
  });
  afterAll(() => gw.stop());

  const ids =
    (...names: (keyof typeof seed)[]) =>
    () =>
      names.map((n) => seed[n]);
  const subject = (name: string) => () => [name];
  const ghost = () => "ghost";
  const reason = "GDPR art. 17 request";

  // Non-destructive operations first, then targeted writes, then subject-wide erasures.
  const CASES: Case[] = [
    // governed (seed 000)
    {
      name: "governed memory(memoryId, subjectId: alice)",
      real: ids("memory"),
      run: (t, [id]) => gqlDecision(gw, t.agent, GOVERNED.READ, { id, subject: "alice" }),
    },
    { name: "governed memory(memoryId) under the token's own subject", real: ids("memory"), run: (t, [id]) => gqlDecision(gw, t.agent, GOVERNED.READ, { id }) },
    {
      name: "governed memories(subjectId): a subject with items vs one without",
      real: subject("alice"),
      fake: ghost,
      run: (t, [s]) => gqlDecision(gw, t.agent, GOVERNED.LIST, { subject: s }),
      answers: orOwn("SUCCESS_LISTED"),
    },
    // agent (seed 001)
    {
      name: "agent read of a repository the token does not name: with memories vs without",
      real: () => [OWNER_REPO],
      fake: () => EMPTY_REPO,
      run: (t, [repo]) => postMemory(gw, t.repoAgent, agentRead(repo, "jest postgres pool")),
      answers: orOwn("SUCCESS_READ"),
    },
    // companion (seed 002)
    {
      name: "companion memoryEnvelope(subjectId): a subject with facts vs one without",
      real: subject("alice"),
      fake: ghost,
      run: (t, [s]) => gqlDecision(gw, t.adapter, COMPANION.ENVELOPE, { subject: s, skip: true }),
      answers: orOwn("SUCCESS_READ"),
    },
    // ledger (seed 003)
    {
      name: "ledger ledger(subjectId): a subject with items vs one without",
      real: subject("alice"),
      fake: ghost,
      run: (t, [s]) => gqlDecision(gw, t.user, LEDGER.LEDGER, { subject: s }),
      answers: orOwn("SUCCESS_LISTED"),
    },
    {
      name: "ledger pendingProposals(subjectId): a subject with proposals vs one without",
      real: subject("alice"),
      fake: ghost,
      run: (t, [s]) => gqlDecision(gw, t.user, LEDGER.PENDING, { subject: s }),
      answers: orOwn("SUCCESS_LISTED"),
    },
    { name: "ledger selectedMemoryContext(memoryIds)", real: ids("item"), run: (t, [id]) => gqlDecision(gw, t.user, LEDGER.SELECT, { ids: [id] }) },
    // targeted writes: governed
    {
      name: "governed updateMemory(memoryId, subjectId: alice)",
      real: ids("memory"),
      run: (t, [id]) =>
        gqlDecision(gw, t.agent, GOVERNED.UPDATE, { input: { ...preference({ value: "prefer long answers" }), memoryId: id, subjectId: "alice" } }),
    },
    {
      name: "governed updateMemory(memoryId) under the token's own subject",
      real: ids("memory"),
      run: (t, [id]) => gqlDecision(gw, t.agent, GOVERNED.UPDATE, { input: { ...preference({ value: "prefer long answers" }), memoryId: id } }),
    },
    {
      name: "governed deleteMemory(memoryId, subjectId: alice)",
      real: ids("memory"),
      run: (t, [id]) => gqlDecision(gw, t.agent, GOVERNED.DELETE, { id, subject: "alice", reason: "cleanup" }),
    },
    {
      name: "governed deleteMemory(memoryId) under the token's own subject",
      real: ids("memory"),
      run: (t, [id]) => gqlDecision(gw, t.agent, GOVERNED.DELETE, { id, reason: "cleanup" }),
    },
    // targeted writes: agent, through both doors
    {
      name: "agent update (POST /v1/memory) in the owner's repository",
      real: ids("agentMemory"),
      run: (t, [id]) => postMemory(gw, t.repoAgent, agentUpdate(OWNER_REPO, id)),
    },
    {
      name: "agent update (agentUpdate) in the owner's repository",
      real: ids("agentMemory"),
      run: (t, [id]) => gqlDecision(gw, t.repoAgent, AGENT.UPDATE, { input: agentUpdate(OWNER_REPO, id) }),
    },
    {
      name: "agent update (dry_run) in the owner's repository",
      real: ids("agentMemory"),
      run: (t, [id]) => postMemory(gw, t.repoAgent, agentUpdate(OWNER_REPO, id, { mode: "dry_run" })),
    },
    {
      name: "agent update of the owner's memory id under the token's own repository",
      real: ids("agentMemory"),
      run: (t, [id]) => postMemory(gw, t.repoAgent, agentUpdate(STRANGER_REPO, id)),
    },
    {
      name: "agent update utility.context_problem_id naming the owner's problem",
      real: ids("problem"),
      run: (t, [id]) => postMemory(gw, t.repoAgent, agentUpdate(OWNER_REPO, seed.agentMemory, { utility: { context_problem_id: id } })),
      answers: refused("SCHEMA_INVALID"),
    },
    {
      name: "agent write in the token's own repository linking the owner's memories (problem_id, related, change_targets)",
      real: ids("problem", "agentMemory"),
      run: (t, [problem, related]) =>
        postMemory(
          gw,
          t.repoAgent,
          agentWrite(STRANGER_REPO, {
            text: "Use pgbouncer in front of Postgres",
            kind: "solution",
            links: { problem_id: problem, related_memory_ids: [related] },
          }),
        ),
      answers: refused("SCHEMA_INVALID"),
    },
    {
      name: "agent write (agentWrite) of a change targeting the owner's memory",
      real: ids("agentMemory"),
      run: (t, [target]) =>
        gqlDecision(gw, t.repoAgent, AGENT.WRITE, {
          input: agentWrite(STRANGER_REPO, { text: "Pool moved to pgbouncer", kind: "change", links: { change_targets: [target] } }),
        }),
      answers: refused("SCHEMA_INVALID"),
    },
    // targeted writes: companion
    {
      name: "companion confirmProposal(proposalId, subjectId: alice)",
      real: ids("heldFact"),
      run: (t, [id]) => gqlDecision(gw, t.user, COMPANION.CONFIRM, { id, subject: "alice" }),
    },
    {
      name: "companion confirmProposal(proposalId) under the token's own subject",
      real: ids("heldFact"),
      run: (t, [id]) => gqlDecision(gw, t.user, COMPANION.CONFIRM, { id }),
    },
    {
      name: "companion forgetFact(memoryId, subjectId: alice)",
      real: ids("factA"),
      run: (t, [id]) => gqlDecision(gw, t.adapter, COMPANION.FORGET, { id, subject: "alice" }),
    },
    {
      name: "companion forgetFact(memoryId) under the token's own subject",
      real: ids("factA"),
      run: (t, [id]) => gqlDecision(gw, t.adapter, COMPANION.FORGET, { id }),
    },
    {
      name: "companion consolidateMemories(subjectId: alice, memoryIds)",
      real: ids("factA", "factB"),
      run: (t, memoryIds) =>
        gqlDecision(gw, t.adapter, COMPANION.CONSOLIDATE, {
          input: {
            subjectId: "alice",
            memoryIds,
            type: "USER_FACT",
            text: "User works on FL Studio and enjoys Italian food",
            justification: "same conversation",
          },
        }),
      answers: refused("SCHEMA_INVALID", "NO_SOURCE_DERIVED_FACT"),
    },
    {
      name: "companion consolidateMemories(memoryIds) under the token's own subject",
      real: ids("factA", "factB"),
      run: (t, memoryIds) =>
        gqlDecision(gw, t.adapter, COMPANION.CONSOLIDATE, {
          input: { memoryIds, type: "USER_FACT", text: "User works on FL Studio and enjoys Italian food", justification: "same conversation" },
        }),
      answers: refused("SCHEMA_INVALID", "NO_SOURCE_DERIVED_FACT"),
    },
    {
      name: "companion addFact(supersedes: the owner's fact) under the token's own subject",
      real: ids("factA"),
      run: (t, [id]) =>
        gqlDecision(gw, t.adapter, COMPANION.ADD, {
          input: { ...fact({ text: "User works on FL Studio", confidence: 0.95, supersedes: id }), subjectId: undefined },
        }),
      answers: refused("SCHEMA_INVALID"),
    },
    // targeted writes: ledger
    {
      name: "ledger approveProposal(proposalId)",
      real: ids("proposal"),
      run: (t, [id]) => gqlDecision(gw, t.user, LEDGER.APPROVE, { id, text: "I've noticed I focus better in the morning" }),
    },
    { name: "ledger declineProposal(proposalId)", real: ids("proposal"), run: (t, [id]) => gqlDecision(gw, t.user, LEDGER.DECLINE, { id }) },
    { name: "ledger forgetMemory(memoryId)", real: ids("item"), run: (t, [id]) => gqlDecision(gw, t.user, LEDGER.FORGET, { id }) },
    // erasure (SPEC D1): one memory of each contract, then the whole subject
    {
      name: "audit eraseMemory(governed memoryId, subjectId: alice)",
      real: ids("memory"),
      run: (t, [id]) => gqlDecision(gw, t.user, AUDIT.ERASE_MEMORY, { id, reason, subject: "alice" }),
    },
    {
      name: "audit eraseMemory(governed memoryId) under the token's own subject",
      real: ids("memory"),
      run: (t, [id]) => gqlDecision(gw, t.user, AUDIT.ERASE_MEMORY, { id, reason }),
    },
    {
      name: "audit eraseMemory(ledger memoryId, subjectId: alice)",
      real: ids("item"),
      run: (t, [id]) => gqlDecision(gw, t.user, AUDIT.ERASE_MEMORY, { id, reason, subject: "alice" }),
    },
    {
      name: "audit eraseMemory(ledger memoryId) under the token's own subject",
      real: ids("item"),
      run: (t, [id]) => gqlDecision(gw, t.user, AUDIT.ERASE_MEMORY, { id, reason }),
    },
    {
      name: "audit eraseMemory(companion fact id, subjectId: alice)",
      real: ids("factB"),
      run: (t, [id]) => gqlDecision(gw, t.user, AUDIT.ERASE_MEMORY, { id, reason, subject: "alice" }),
    },
    {
      name: "audit eraseMemory(agent memory id, subjectId: the owner's repository)",
      real: ids("agentMemory"),
      run: (t, [id]) => gqlDecision(gw, t.user, AUDIT.ERASE_MEMORY, { id, reason, subject: `repo:${OWNER_REPO}` }),
    },
    {
      name: "companion eraseCompanionMemory(subjectId): a subject with facts vs one without",
      real: subject("alice"),
      fake: ghost,
      run: (t, [s]) => gqlDecision(gw, t.user, COMPANION.ERASE, { subject: s }),
      answers: orOwn("SUCCESS_DELETED"),
    },
    {
      name: "audit eraseSubject(subjectId): a subject with memories vs one without",
      real: subject("alice"),
      fake: ghost,
      run: (t, [s]) => gqlDecision(gw, t.user, AUDIT.ERASE_SUBJECT, { subject: s, reason }),
      answers: orOwn("SUCCESS_DELETED"),
    },
  ];

  /** The answer with the compared values replaced by their position, so that only what the caller could learn remains. */
  function normalized(answer: Answer, values: string[]): unknown {
    let text = JSON.stringify(answer);
    values.forEach((v, i) => (text = text.split(v).join(`<value ${i}>`)));
    const { decision_id: _d, decisionId: _i, ...rest } = JSON.parse(text) as Record<string, unknown>;
    return rest;
  }

  for (const who of ["same tenant", "another tenant"] as const) {
    describe(`a caller of ${who === "same tenant" ? "the same tenant who does not hold the subject" : "another tenant"}`, () => {
      it.each(CASES.map((c) => [c.name, c] as const))("SPEC D5 SG-ISOLATION: %s answers the same for a real and a made-up target", async (_name, c) => {
        const tokens = strangers[who];
        const real = c.real();
        const fake = real.map(c.fake ?? lookalike);
        const withFake = await c.run(tokens, fake);
        const withReal = await c.run(tokens, real);
        expect(normalized(withReal, real)).toEqual(normalized(withFake, fake));
        const answers = c.answers ?? { same: REFUSED, other: REFUSED };
        expect(who === "same tenant" ? answers.same : answers.other).toContain(withReal.stopReason);
      });
    });
  }

  describe("afterwards", () => {
    it("SPEC D5: the owner's objects were not touched by any of it", async () => {
      expect((await gqlDecision(gw, owner.agent, GOVERNED.READ, { id: seed.memory })).memory).toMatchObject({ value: "prefer concise responses" });
      const envelope = await gqlDecision(gw, owner.adapter, COMPANION.ENVELOPE, { subject: "alice", skip: true });
      expect((envelope.envelope as { userFacts: { memoryId: string }[] }).userFacts.map((f) => f.memoryId).sort()).toEqual([seed.factA, seed.factB].sort());
      expect(((await gqlDecision(gw, owner.alice, LEDGER.LEDGER, {})).items as { memoryId: string }[]).map((i) => i.memoryId)).toEqual([seed.item]);
      expect(((await gqlDecision(gw, owner.alice, LEDGER.PENDING, {})).proposals as { proposalId: string }[]).map((p) => p.proposalId)).toEqual([
        seed.proposal,
      ]);
    });
  });
});
