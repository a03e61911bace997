import { ManualClock } from "../../src/clock";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";

const ADD = `mutation Add($input: AddFactInput!) {
  addFact(input: $input) { stopReason explanations proposalId fact { memoryId type text confidence status supersedes advisory statementType } }
}`;
const ENVELOPE = `query Env($purpose: EnvelopePurpose!, $subject: ID, $skip: Boolean, $narr: Boolean) {
  memoryEnvelope(purpose: $purpose, subjectId: $subject, skipCache: $skip, includeNarrative: $narr) {
    stopReason explanations envelope { subjectId cached advisory userFacts { memoryId text confidence ageDays addedAt advisory } userPatterns { text } sharedNarrative { text } }
  }
}`;
const CONFIRM = `mutation C($id: ID!, $subject: ID) { confirmProposal(proposalId: $id, subjectId: $subject) { stopReason explanations fact { memoryId confidence status } } }`;
const PRIVACY = `mutation P($input: PrivacyInput!) { setPrivacy(input: $input) { stopReason explanations settings { memoryEnabled learnPatterns shareWith anonymizeDates deleteAfterDays } } }`;
const DECAY = `mutation { runDecay { stopReason deactivated } }`;
const FORGET = `mutation F($id: ID!) { forgetFact(memoryId: $id) { stopReason } }`;
const CONSOLIDATE = `mutation K($input: ConsolidateInput!) { consolidateMemories(input: $input) { stopReason explanations fact { memoryId statementType sourceRefs consolidatedFrom validTo temporalScope text } } }`;

const SUMMARY = "User mentioned they love fettuccini and work on FL Studio";
const fact = (over: Record<string, unknown> = {}) => ({
  subjectId: "alice",
  type: "USER_FACT",
  text: "User loves fettuccini",
  confidence: 0.9,
  source: "llm_extraction",
  summary: SUMMARY,
  ...over,
});

describe("companion memory (seed 002)", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let adapter: string;
  let user: string;
  let admin: string;
  let add: (input: Record<string, unknown>, token?: string) => Promise<any>;
  let env: (vars: Record<string, unknown>, token?: string) => Promise<any>;
  const events = async (filter: Record<string, unknown> = {}) => gw.gateway.db.collection("memory_events").find(filter).sort({ seq: 1 }).toArray();

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    adapter = await gw.token({ sub: "discord-adapter", tenant: "acme", subjects: ["alice", "bob", "carol", "dave", "erin"], roles: ["adapter"] });
    user = await gw.token({ sub: "alice", tenant: "acme", subjects: ["alice"], roles: ["user"] });
    admin = await gw.token({ sub: "owner", tenant: "acme", subjects: [], roles: ["admin"] });
    add = async (input, token = adapter) => (await gw.gql(token, ADD, { input })).data!.addFact;
    env = async (vars, token = adapter) => (await gw.gql(token, ENVELOPE, { purpose: "RESPONSE", subject: "alice", ...vars })).data!.memoryEnvelope;
  });
  afterAll(() => gw.stop());

  it("SG-GROUND: the seed's three examples come out as the seed says, and a rejected text persists nowhere (D4)", async () => {
    expect(await add(fact({ text: "User is an expert musician" }))).toMatchObject({
      stopReason: "NO_SOURCE_DERIVED_FACT",
      explanations: ["SG-GROUND: ungrounded"],
      fact: null,
    });
    expect((await add(fact({ text: "User loves fettuccini" }))).stopReason).toBe("SUCCESS_STORED");
    expect((await add(fact({ text: "User enjoys Italian food" }))).stopReason).toBe("SUCCESS_STORED");
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("expert musician");
    const refused = (await events({ event_type: "refuse", "metadata.gate_reason": "ungrounded" }))[0];
    expect(refused.metadata).toMatchObject({ validation_status: "failed", type: "USER_FACT", gate: "ungrounded", explanations: ["SG-GROUND: ungrounded"] });
  });

  it("SG-GATE: every boundary of the gate answers as seed 002 says", async () => {
    const cases: [number, string, string][] = [
      [1.0, "USER_FACT", "SUCCESS_STORED"],
      [0.8, "USER_FACT", "SUCCESS_STORED"],
      [0.79, "USER_FACT", "MISSING_EXPLICIT_CONSENT"],
      [0.75, "USER_PATTERN", "MISSING_EXPLICIT_CONSENT"],
      [0.74, "USER_FACT", "NO_SOURCE_DERIVED_FACT"],
      [0.74, "SHARED_NARRATIVE", "SUCCESS_STORED"],
      [0.6, "SHARED_NARRATIVE", "SUCCESS_STORED"],
      [0.59, "SHARED_NARRATIVE", "NO_SOURCE_DERIVED_FACT"],
      [1.01, "USER_FACT", "SCHEMA_INVALID"],
    ];
    const subjects = cases.map((_, i) => `bob${i}`);
    const tok = await gw.token({ tenant: "acme", subjects, roles: ["adapter"] });
    for (const [i, [confidence, type, want]] of cases.entries()) {
      const res = await add(fact({ subjectId: subjects[i], type, confidence, text: "User works on FL Studio" }), tok);
      expect([confidence, type, res.stopReason]).toEqual([confidence, type, want]);
      if (want === "MISSING_EXPLICIT_CONSENT") expect(res.proposalId).toMatch(/^prop_/);
    }
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/memgate_gate_outcomes_total\{outcome="proposal"\} [1-9]/);
    expect(metrics).toMatch(/memgate_gate_low_confidence_auto_apply_total 0/);
  });

  it("SG-GATE: a held proposal is not applied, is applied when the person confirms, or when a later matching fact reinforces it", async () => {
    const held = await add(fact({ subjectId: "carol", confidence: 0.77 }));
    expect(held.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    expect((await env({ subject: "carol", skip: true })).envelope.userFacts).toEqual([]);
    const carol = await gw.token({ sub: "carol", tenant: "acme", subjects: ["carol"], roles: ["user"] });
    expect((await gw.gql(adapter, CONFIRM, { id: held.proposalId, subject: "carol" })).data!.confirmProposal.stopReason).toBe("POLICY_DISABLED");
    const confirmed = (await gw.gql(carol, CONFIRM, { id: held.proposalId })).data!.confirmProposal;
    expect(confirmed).toMatchObject({ stopReason: "SUCCESS_STORED", fact: { confidence: 0.77, status: "active" } });
    expect((await gw.gql(carol, CONFIRM, { id: held.proposalId })).data!.confirmProposal.stopReason).toBe("NOT_FOUND");

    const first = await add(fact({ subjectId: "carol", text: "User works on FL Studio", confidence: 0.76 }));
    expect(first.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    const second = await add(fact({ subjectId: "carol", text: "User works on FL Studio", confidence: 0.77 }));
    expect(second).toMatchObject({ stopReason: "SUCCESS_STORED", fact: { text: "User works on FL Studio" } });
  });

  it("SG-AUTHORITY SG-AUDIT: only adapters, admins and jobs with a job context write; every write's event names the invoker", async () => {
    const agent = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    const jobless = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["job"] });
    const job = await gw.token({ sub: "extract-job", tenant: "acme", subjects: ["alice"], roles: ["job"], job: { id: "job-17", kind: "extraction" } });
    for (const [token, origin] of [
      [user, "adapter"],
      [agent, "adapter"],
      [jobless, "job"],
      [adapter, "webhook"],
      [adapter, "llm_output"],
      [adapter, "bot_response"],
    ]) {
      expect(await add(fact({ text: "User likes pasta", origin }), token)).toMatchObject({
        stopReason: "POLICY_DISABLED",
        explanations: ["SG-AUTHORITY: no_write_authority"],
        fact: null,
      });
    }
    expect((await add(fact({ text: "User likes pasta", source: "job", origin: "job" }), job)).stopReason).toBe("SUCCESS_STORED");
    expect((await add(fact({ text: "User works on FL Studio", source: "manual", origin: "manual" }), admin)).stopReason).toBe("SUCCESS_STORED");
    const creates = await events({ event_type: "create", subject_id: "alice" });
    const byJob = creates.find((e) => e.actor.id === "extract-job")!;
    expect(byJob.metadata).toMatchObject({
      source: "job",
      confidence: 0.9,
      validation_status: "passed",
      invoker: { id: "extract-job", job: { id: "job-17", kind: "extraction" } },
    });
    expect(creates.some((e) => e.actor.id === "owner")).toBe(true);
  });

  it("SG-APPEND SG-TYPED: a new confidence supersedes (old inactive); changing type or text is SCHEMA_INVALID and changes nothing", async () => {
    const first = await add(fact({ subjectId: "dave", confidence: 0.85 }));
    const id = first.fact.memoryId;
    const before = await dumpDatabase(gw.gateway.db);
    for (const change of [{ type: "USER_PATTERN" }, { text: "User enjoys Italian food" }]) {
      expect((await add(fact({ subjectId: "dave", supersedes: id, confidence: 0.95, ...change }))).stopReason).toBe("SCHEMA_INVALID");
    }
    const facts = await gw.gateway.db.collection("companion_facts").find({ subject_id: "dave" }).toArray();
    expect(facts).toHaveLength(1);
    expect((await add(fact({ subjectId: "dave", type: "FEELING" }))).stopReason).toBe("SCHEMA_INVALID");
    expect(before.length).toBeGreaterThan(0);
    const next = await add(fact({ subjectId: "dave", supersedes: id, confidence: 0.95 }));
    expect(next).toMatchObject({ stopReason: "SUCCESS_STORED", fact: { supersedes: id, confidence: 0.95 } });
    const old = await gw.gateway.db.collection("companion_facts").findOne({ memory_id: id });
    expect(old).toMatchObject({ status: "inactive", status_reason: "superseded", confidence: 0.85, text: "User loves fettuccini" });
    expect((await env({ subject: "dave", skip: true })).envelope.userFacts).toMatchObject([{ memoryId: next.fact.memoryId, confidence: 0.95 }]);
  });

  it("SG-ENVELOPE SG-ADVISORY SG-WARMTH: grouped, advisory, cached until skipCache; power purposes never see SHARED_NARRATIVE", async () => {
    await add(fact({ subjectId: "erin", type: "SHARED_NARRATIVE", text: "User loves fettuccini", confidence: 0.7 }));
    const first = await env({ subject: "erin" });
    expect(first.envelope).toMatchObject({ cached: false, advisory: true, sharedNarrative: [{ text: "User loves fettuccini" }] });
    await add(fact({ subjectId: "erin", text: "User works on FL Studio" }));
    const cached = await env({ subject: "erin" });
    expect(cached.envelope.cached).toBe(true);
    expect(cached.envelope.userFacts).toEqual([]);
    const fresh = await env({ subject: "erin", skip: true });
    expect(fresh.envelope.userFacts).toMatchObject([{ text: "User works on FL Studio", confidence: 0.9, ageDays: 0, advisory: true }]);
    for (const purpose of ["PERMISSION", "PRICING", "MODERATION", "ESCALATION"]) {
      const power = await env({ subject: "erin", purpose, skip: true });
      expect([purpose, power.stopReason, power.envelope.sharedNarrative]).toEqual([purpose, "SUCCESS_READ", null]);
      const asked = await env({ subject: "erin", purpose, narr: true });
      expect(asked).toMatchObject({ stopReason: "POLICY_DISABLED", explanations: ["SG-WARMTH: warmth_in_power"], envelope: null });
    }
    expect(await events({ event_type: "refuse", "metadata.explanations": "SG-WARMTH: warmth_in_power" })).toHaveLength(4);
  });

  it("SG-DECAY: past its window a fact leaves the envelope at once (even a cached one); a decay pass deactivates and deletes nothing", async () => {
    const s = "frank";
    const tok = await gw.token({ sub: "adapter-2", tenant: "acme", subjects: [s], roles: ["adapter"] });
    await add(fact({ subjectId: s, type: "SHARED_NARRATIVE", confidence: 0.9 }), tok);
    await add(fact({ subjectId: s, type: "USER_FACT", text: "User works on FL Studio" }), tok);
    expect((await env({ subject: s }, tok)).envelope.sharedNarrative).toHaveLength(1);
    clock.advance(7 * 86_400_000 - 100_000);
    expect((await env({ subject: s, skip: true }, tok)).envelope.sharedNarrative).toHaveLength(1);
    clock.advance(200_000); // past the 7-day window, within the envelope cache time
    const later = await env({ subject: s }, tok);
    expect(later.envelope.cached).toBe(true);
    expect(later.envelope.sharedNarrative).toEqual([]);
    expect(later.envelope.userFacts).toHaveLength(1);
    clock.advance(24 * 86_400_000);
    expect((await env({ subject: s, skip: true }, tok)).envelope.userFacts).toEqual([]);
    const count = await gw.gateway.db.collection("companion_facts").countDocuments({});
    const pass = (await gw.gql(admin, DECAY)).data!.runDecay;
    expect(pass.stopReason).toBe("SUCCESS_UPDATED");
    expect(pass.deactivated).toBeGreaterThanOrEqual(2);
    expect(await gw.gateway.db.collection("companion_facts").countDocuments({})).toBe(count);
    expect(await gw.gateway.db.collection("companion_facts").countDocuments({ subject_id: s, status: "inactive", status_reason: "decayed" })).toBe(2);
    expect((await gw.gql(user, DECAY)).data!.runDecay.stopReason).toBe("POLICY_DISABLED");
  });

  it("SG-PRIVACY: opt-out removes memory from envelopes at once and stops learning; patterns, sharing, dates, retention; every change an event", async () => {
    const s = "gina";
    const gina = await gw.token({ sub: "gina", tenant: "acme", subjects: [s], roles: ["user"] });
    const ad = await gw.token({ tenant: "acme", subjects: [s], roles: ["adapter"] });
    await add(fact({ subjectId: s }), ad);
    expect((await env({ subject: s }, ad)).envelope.userFacts).toHaveLength(1);
    expect((await gw.gql(ad, PRIVACY, { input: { subjectId: s, memoryEnabled: false } })).data!.setPrivacy.stopReason).toBe("POLICY_DISABLED");
    expect((await gw.gql(gina, PRIVACY, { input: { memoryEnabled: false } })).data!.setPrivacy).toMatchObject({
      stopReason: "SUCCESS_UPDATED",
      settings: { memoryEnabled: false },
    });
    expect((await env({ subject: s }, ad)).envelope.userFacts).toEqual([]);
    expect(await add(fact({ subjectId: s, text: "User enjoys Italian food" }), ad)).toMatchObject({
      stopReason: "POLICY_DISABLED",
      explanations: ["SG-PRIVACY: memory_disabled"],
    });

    await gw.gql(gina, PRIVACY, { input: { memoryEnabled: true, learnPatterns: false, anonymizeDates: true, shareWith: ["concierge"] } });
    expect(await add(fact({ subjectId: s, type: "USER_PATTERN" }), ad)).toMatchObject({
      stopReason: "POLICY_DISABLED",
      explanations: ["SG-PRIVACY: patterns_disabled"],
    });
    const concierge = await gw.token({ tenant: "acme", subjects: [s], roles: ["agent"], agent_type: "concierge" });
    const other = await gw.token({ tenant: "acme", subjects: [s], roles: ["agent"], agent_type: "sales" });
    expect((await env({ subject: s }, other)).stopReason).toBe("POLICY_DISABLED");
    const shared = await env({ subject: s }, concierge);
    expect(shared.envelope.userFacts[0].addedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);

    clock.advance(3 * 86_400_000);
    const retention = (await gw.gql(gina, PRIVACY, { input: { deleteAfterDays: 2 } })).data!.setPrivacy;
    expect(retention.stopReason).toBe("SUCCESS_UPDATED");
    expect(await gw.gateway.db.collection("companion_facts").countDocuments({ subject_id: s, status: "archived" })).toBe(1);
    const lifecycle = (await events({ subject_id: s })).map((e) => e.event_type);
    expect(lifecycle.filter((t) => t === "settings_change")).toHaveLength(3);
    expect(lifecycle).toEqual(expect.arrayContaining(["invalidate", "archive"]));
    expect((await gw.gql(gina, PRIVACY, { input: { deleteAfterDays: -3 } })).data!.setPrivacy.stopReason).toBe("SCHEMA_INVALID");
  });

  it("SG-ISOLATION SG-SCOPE: other subjects and tenants are refused, counted in /metrics; another tenant sees nothing", async () => {
    const mallory = await gw.token({ tenant: "acme", subjects: ["mallory"], roles: ["adapter"] });
    expect((await env({ subject: "alice" }, mallory)).stopReason).toBe("NOT_FOUND");
    expect((await add(fact({ subjectId: "alice" }), mallory)).stopReason).toBe("POLICY_DISABLED");
    const globex = await gw.token({ tenant: "globex", subjects: ["alice"], roles: ["adapter"] });
    const foreign = await env({ subject: "alice", skip: true }, globex);
    expect(foreign.envelope.userFacts).toEqual([]);
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    expect(metrics).toMatch(/memgate_cross_tenant_attempts_total\{operation="companion.ENVELOPE",kind="foreign_subject"\} [1-9]/);
    expect(metrics).toMatch(/memgate_decisions_total\{contract="companion",operation="ADD_FACT",stop_reason="SUCCESS_STORED"\} \d+/);
    expect(metrics).toMatch(/memgate_operation_seconds_bucket/);
  });

  it("MP-CONSOLIDATE MP-TEMPORAL: merges with the union of source_refs and the most restrictive scope; refused without sources; originals stay for audit", async () => {
    const s = "hank";
    const tok = await gw.token({ tenant: "acme", subjects: [s], roles: ["adapter"] });
    const a = (await add(fact({ subjectId: s, text: "User loves fettuccini", sourceRefs: ["conv:1"], validTo: "2026-12-31T00:00:00.000Z" }), tok)).fact
      .memoryId;
    const b = (await add(fact({ subjectId: s, text: "User works on FL Studio", sourceRefs: ["conv:2"], validTo: "2026-06-30T00:00:00.000Z" }), tok)).fact
      .memoryId;
    const c = (await add(fact({ subjectId: s, text: "User enjoys Italian food" }), tok)).fact.memoryId;
    const input = { subjectId: s, type: "USER_FACT", text: "User loves fettuccini and works on FL Studio", justification: "same conversation" };
    expect((await gw.gql(tok, CONSOLIDATE, { input: { ...input, memoryIds: [a, c] } })).data!.consolidateMemories).toMatchObject({
      stopReason: "NO_SOURCE_DERIVED_FACT",
      explanations: expect.arrayContaining(["MP-CONSOLIDATE: missing_source_refs"]),
    });
    expect((await gw.gql(user, CONSOLIDATE, { input: { ...input, subjectId: "alice", memoryIds: [a, b] } })).data!.consolidateMemories.stopReason).toBe(
      "POLICY_DISABLED",
    );
    const warm = (await add(fact({ subjectId: s, type: "SHARED_NARRATIVE", text: "User works on FL Studio", sourceRefs: ["conv:3"] }), tok)).fact.memoryId;
    expect((await gw.gql(tok, CONSOLIDATE, { input: { ...input, memoryIds: [a, warm] } })).data!.consolidateMemories).toMatchObject({
      stopReason: "SCHEMA_INVALID",
      explanations: ["MP-CONSOLIDATE: mixed_types"],
    });
    expect((await gw.gql(tok, CONSOLIDATE, { input: { ...input, memoryIds: [a, a] } })).data!.consolidateMemories).toMatchObject({
      stopReason: "SCHEMA_INVALID",
      explanations: ["MP-CONSOLIDATE: needs_two_facts"],
    });
    const merged = (await gw.gql(tok, CONSOLIDATE, { input: { ...input, memoryIds: [a, b] } })).data!.consolidateMemories;
    expect(merged).toMatchObject({
      stopReason: "SUCCESS_STORED",
      fact: {
        statementType: "ConsolidatedStatement",
        sourceRefs: ["conv:1", "conv:2"],
        consolidatedFrom: [a, b],
        validTo: "2026-06-30T00:00:00.000Z",
        temporalScope: "bounded",
      },
    });
    const originals = await gw.gateway.db
      .collection("companion_facts")
      .find({ memory_id: { $in: [a, b] } })
      .toArray();
    expect(originals.map((o) => [o.status, o.statement_type])).toEqual([
      ["inactive", "SourceStatement"],
      ["inactive", "SourceStatement"],
    ]);
    const envelope = await env({ subject: s }, tok);
    expect(envelope.envelope.sharedNarrative).toHaveLength(1);
    expect(envelope.envelope.userFacts.map((f: { text: string }) => f.text).sort()).toEqual([
      "User enjoys Italian food",
      "User loves fettuccini and works on FL Studio",
    ]);
    const consolidate = (await events({ event_type: "consolidate" }))[0];
    // SPEC D1: the justification is content; the chain commits to its salted digest, the record keeps the text (erasable).
    expect(consolidate.metadata).toMatchObject({
      justification: { length: "same conversation".length },
      diff: { removed: [a, b], added: [merged.fact.memoryId] },
    });
    expect(consolidate.metadata.justification.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(consolidate)).not.toContain("same conversation");
  });

  it("SG-PRIVACY D1: erasure on the subject's request removes the text from every record at once; the chain keeps metadata", async () => {
    const s = "ivy";
    const ivy = await gw.token({ sub: "ivy", tenant: "acme", subjects: [s], roles: ["user"] });
    const ad = await gw.token({ tenant: "acme", subjects: [s], roles: ["adapter"] });
    const summary = "User said they keep a pet iguana named Zorblax and love fettuccini.";
    await add(fact({ subjectId: s, summary, text: "User keeps a pet iguana named Zorblax" }), ad);
    const held = await add(fact({ subjectId: s, summary, text: "User keeps an iguana named Zorblax", confidence: 0.77 }), ad);
    expect(held.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    expect((await env({ subject: s }, ad)).envelope.userFacts).toHaveLength(1);
    expect((await gw.gql(ad, `mutation { eraseCompanionMemory(subjectId: "ivy") { stopReason } }`)).data!.eraseCompanionMemory.stopReason).toBe(
      "POLICY_DISABLED",
    );
    const erased = (await gw.gql(ivy, `mutation { eraseCompanionMemory { stopReason erased } }`)).data!.eraseCompanionMemory;
    expect(erased).toEqual({ stopReason: "SUCCESS_DELETED", erased: 1 });
    expect((await env({ subject: s }, ad)).envelope.userFacts).toEqual([]);
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("Zorblax");
    // one erase event per object that lost its content: the fact and the held proposal
    expect((await events({ subject_id: s, event_type: "erase" })).map((e) => e.metadata.object).sort()).toEqual(["fact", "proposal"]);
  });

  it("SG-TYPED: bad input of any shape gets a typed answer and stores nothing", async () => {
    const n = await gw.gateway.db.collection("companion_facts").countDocuments({});
    for (const bad of [
      { text: "" },
      { summary: "" },
      { source: "gossip" },
      { confidence: -1 },
      { text: "x\u0001y" },
      { text: "y".repeat(2000) },
      { origin: "carrier-pigeon" },
    ]) {
      const res = await add(fact(bad));
      expect(["SCHEMA_INVALID", "BOUNDS_EXCEEDED"]).toContain(res.stopReason);
    }
    expect(await gw.gateway.db.collection("companion_facts").countDocuments({})).toBe(n);
    const forgot = (await gw.gql(adapter, FORGET, { id: "fact_nope" })).data!.forgetFact;
    expect(forgot.stopReason).toBe("NOT_FOUND");
  });
});
