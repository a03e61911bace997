import { createHash } from "node:crypto";
import { ManualClock } from "../../src/clock";
import type { CompanionStore } from "../../src/contracts/companion/store";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";

const DECISION = "stopReason explanations";
const ADD = `mutation Add($input: AddFactInput!) { addFact(input: $input) { ${DECISION} proposalId fact { memoryId sourceRefs validTo temporalScope } } }`;
const CONFIRM = `mutation C($id: ID!, $subject: ID) { confirmProposal(proposalId: $id, subjectId: $subject) { ${DECISION} } }`;
const FORGET = `mutation F($id: ID!, $subject: ID) { forgetFact(memoryId: $id, subjectId: $subject) { ${DECISION} } }`;
const ENVELOPE = `query E($subject: ID) { memoryEnvelope(purpose: RESPONSE, subjectId: $subject, skipCache: true) { ${DECISION} envelope { userFacts { memoryId text } } } }`;
const PRIVACY = `mutation P($input: PrivacyInput!) { setPrivacy(input: $input) { ${DECISION} settings { memoryEnabled shareWith } } }`;
const ERASE = `mutation R($subject: ID) { eraseCompanionMemory(subjectId: $subject) { ${DECISION} erased } }`;
const DECAY = `mutation { runDecay { ${DECISION} deactivated } }`;
const CONSOLIDATE = `mutation K($input: ConsolidateInput!) { consolidateMemories(input: $input) { ${DECISION} fact { memoryId } } }`;

const SUMMARY = "User mentioned they love fettuccini and work on FL Studio";
const CARD = "4111 1111 1111 1111";
const fact = (subjectId: string, over: Record<string, unknown> = {}) => ({
  subjectId,
  type: "USER_FACT",
  text: "User loves fettuccini",
  confidence: 0.9,
  source: "llm_extraction",
  summary: SUMMARY,
  sourceRefs: ["conv:1"],
  ...over,
});
const first = (res: { data?: Record<string, any> }) => Object.values(res.data!)[0];

describe("the companion contract on the kernel (issue 11)", () => {
  const clock = new ManualClock("2026-04-01T09:00:00.000Z");
  let gw: TestGateway;
  let store: CompanionStore;
  const db = () => gw.gateway.db;
  const facts = () => db().collection("companion_facts");
  const events = (filter: Record<string, unknown>) => db().collection("memory_events").find(filter).sort({ seq: 1 }).toArray();

  /** An adapter of tenant `tenant` for `subjects`, and each subject as a user. */
  const tokens = async (tenant: string, subjects: string[]) => ({
    adapter: await gw.token({ sub: `adapter-${tenant}`, tenant, subjects, roles: ["adapter"] }),
    user: (s: string) => gw.token({ sub: s, tenant, subjects: [s], roles: ["user"] }),
    admin: await gw.token({ sub: `admin-${tenant}`, tenant, subjects: [], roles: ["admin"] }),
  });
  const add = async (token: string, input: Record<string, unknown>) => first(await gw.gql(token, ADD, { input }));

  /**
   * A broken event log, for real: a document that holds the tenant's next seq under another
   * `_id`, so the unique (tenant_id, seq) index refuses every append until it is removed.
   */
  async function withBrokenLog<T>(tenant: string, run: () => Promise<T>): Promise<T> {
    const head = await gw.gateway.services.events.head(tenant);
    const blocker = { _id: `blocker:${tenant}`, tenant_id: tenant, seq: head.seq + 1 } as Record<string, unknown>;
    await db()
      .collection("memory_events")
      .insertOne(blocker as never);
    try {
      return await run();
    } finally {
      await db()
        .collection("memory_events")
        .deleteOne({ _id: blocker._id } as never);
    }
  }

  beforeAll(async () => {
    // The log is broken below by a document holding the next seq under another `_id`: the unique
    // (tenant_id, seq) index, a secondary index, is what makes it refuse the append.
    gw = await startTestGateway({ clock, env: { MEMGATE_SECONDARY_INDEXES: "true" } });
    store = gw.gateway.services.contracts.companion.stores[0] as CompanionStore;
  });
  afterAll(() => gw.stop());

  it("C19-ITEM SG-TYPED: lone and reversed surrogates in any companion text field answer SCHEMA_INVALID; nothing is stored and the subject still reads", async () => {
    const t = await tokens("uni", ["ann"]);
    const kept = (await add(t.adapter, fact("ann"))).fact.memoryId;
    const before = await facts().countDocuments({ tenant_id: "uni" });
    for (const bad of ["x \udc00\ud800", "lone \ud800 high", "lone \udfff low"]) {
      for (const over of [{ text: bad }, { summary: `${SUMMARY} ${bad}` }, { sourceRefs: ["conv:1", bad] }]) {
        expect(await add(t.adapter, fact("ann", over))).toMatchObject({ stopReason: "SCHEMA_INVALID", fact: null });
      }
      const merge = { subjectId: "ann", memoryIds: [kept, kept], type: "USER_FACT", text: "User loves fettuccini", justification: "same" };
      expect(first(await gw.gql(t.adapter, CONSOLIDATE, { input: { ...merge, text: bad } })).stopReason).toBe("SCHEMA_INVALID");
      expect(first(await gw.gql(t.adapter, CONSOLIDATE, { input: { ...merge, justification: bad } })).stopReason).toBe("SCHEMA_INVALID");
      expect(first(await gw.gql(await t.user("ann"), PRIVACY, { input: { shareWith: [bad] } })).stopReason).toBe("SCHEMA_INVALID");
    }
    expect(await facts().countDocuments({ tenant_id: "uni" })).toBe(before);
    const read = first(await gw.gql(t.adapter, ENVELOPE, { subject: "ann" }));
    expect(read).toMatchObject({ stopReason: "SUCCESS_READ", envelope: { userFacts: [{ memoryId: kept }] } });
  });

  it("C19-FORBID D4: a card number in sourceRefs, in a consolidation's justification or in shareWith is FORBIDDEN_CATEGORY and persists nowhere", async () => {
    const t = await tokens("card", ["bea"]);
    const a = (await add(t.adapter, fact("bea"))).fact.memoryId;
    const b = (await add(t.adapter, fact("bea", { text: "User works on FL Studio", sourceRefs: ["conv:2"] }))).fact.memoryId;
    expect(await add(t.adapter, fact("bea", { text: "User enjoys Italian food", sourceRefs: ["conv:3", `card ${CARD}`] }))).toMatchObject({
      stopReason: "FORBIDDEN_CATEGORY",
      fact: null,
    });
    const merge = {
      subjectId: "bea",
      memoryIds: [a, b],
      type: "USER_FACT",
      text: "User loves fettuccini and works on FL Studio",
      justification: `paid with ${CARD}`,
    };
    expect(first(await gw.gql(t.adapter, CONSOLIDATE, { input: merge }))).toMatchObject({ stopReason: "FORBIDDEN_CATEGORY", fact: null });
    expect(first(await gw.gql(await t.user("bea"), PRIVACY, { input: { shareWith: ["concierge", CARD] } }))).toMatchObject({
      stopReason: "FORBIDDEN_CATEGORY",
      settings: null,
    });
    expect(await dumpDatabase(db())).not.toContain("1111 1111");
    expect(await facts().countDocuments({ tenant_id: "card", status: "active" })).toBe(2);
  });

  it("C19-ITEM SG-PRIVACY: sourceRefs and shareWith are bounded in count and length, and control characters (NUL included) are refused", async () => {
    const t = await tokens("bounds", ["cyd"]);
    const cyd = await t.user("cyd");
    const refs = (n: number, len = 8) => Array.from({ length: n }, (_, i) => `conv:${String(i).padStart(len - 5, "0")}`);
    expect(first(await gw.gql(t.adapter, ADD, { input: fact("cyd", { sourceRefs: refs(32, 256) }) })).stopReason).toBe("SUCCESS_STORED");
    expect(first(await gw.gql(t.adapter, ADD, { input: fact("cyd", { sourceRefs: refs(33) }) }))).toMatchObject({
      stopReason: "BOUNDS_EXCEEDED",
      explanations: ["C19-ITEM: sourceRefs_too_long"],
    });
    expect(first(await gw.gql(t.adapter, ADD, { input: fact("cyd", { sourceRefs: refs(1, 257) }) }))).toMatchObject({
      stopReason: "BOUNDS_EXCEEDED",
      explanations: ["C19-ITEM: sourceRefs[]_too_long"],
    });
    expect(first(await gw.gql(t.adapter, ADD, { input: fact("cyd", { sourceRefs: ["conv:\u0007"] }) }))).toMatchObject({
      stopReason: "SCHEMA_INVALID",
      explanations: expect.arrayContaining(["C19-ITEM: sourceRefs[]_control_character"]),
    });
    const settings = async (shareWith: string[]) => first(await gw.gql(cyd, PRIVACY, { input: { shareWith } }));
    expect(await settings(["concierge\u0000"])).toMatchObject({
      stopReason: "SCHEMA_INVALID",
      explanations: expect.arrayContaining(["C19-ITEM: shareWith[]_control_character"]),
    });
    expect(await settings(["x".repeat(10_000)])).toMatchObject({
      stopReason: "BOUNDS_EXCEEDED",
      explanations: expect.arrayContaining(["C19-ITEM: shareWith[]_too_long"]),
    });
    expect(await settings(Array.from({ length: 33 }, (_, i) => `agent${i}`))).toMatchObject({
      stopReason: "BOUNDS_EXCEEDED",
      explanations: ["C19-ITEM: shareWith_too_long"],
    });
    expect(await events({ tenant_id: "bounds", event_type: "settings_change" })).toHaveLength(0);
    expect(await settings(["concierge"])).toMatchObject({ stopReason: "SUCCESS_UPDATED", settings: { shareWith: ["concierge"] } });
    const change = (await events({ tenant_id: "bounds", event_type: "settings_change" }))[0];
    expect(change.metadata.settings.share_with).toBe(1); // counted, never copied into the log
  });

  it("MP-TEMPORAL SG-TYPED: a validTo that is not a date answers SCHEMA_INVALID (never silently dropped); a real one bounds the fact", async () => {
    const t = await tokens("dates", ["dan"]);
    for (const validTo of ["not a date", "2026-02-31", "2026-13-01T00:00:00Z", "2026-06-30T25:00:00Z", "2026-06-30T10:00:00"]) {
      expect([validTo, await add(t.adapter, fact("dan", { validTo }))]).toMatchObject([
        validTo,
        { stopReason: "SCHEMA_INVALID", explanations: ["MP-TEMPORAL: valid_to_not_a_date"], fact: null },
      ]);
    }
    expect(await facts().countDocuments({ tenant_id: "dates" })).toBe(0);
    expect(await add(t.adapter, fact("dan", { validTo: "2026-06-30T10:00:00+02:00" }))).toMatchObject({
      stopReason: "SUCCESS_STORED",
      fact: { validTo: "2026-06-30T08:00:00.000Z", temporalScope: "bounded" },
    });
  });

  it("INV-8 MP-FORGET MP-CONSOLIDATE SG-PRIVACY D1: when the event log refuses the append, forget, consolidate, privacy and erasure are undone", async () => {
    const tenant = "undo";
    const t = await tokens(tenant, ["eve"]);
    const eve = await t.user("eve");
    const a = (await add(t.adapter, fact("eve"))).fact.memoryId;
    const b = (await add(t.adapter, fact("eve", { text: "User works on FL Studio", sourceRefs: ["conv:2"] }))).fact.memoryId;
    const held = await add(t.adapter, fact("eve", { text: "User enjoys Italian food", confidence: 0.77 }));
    expect(held.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    const state = async () => ({
      facts: (await facts().find({ tenant_id: tenant }).sort({ memory_id: 1 }).toArray()).map((f) => [f.memory_id, f.status, f.text, f.integrity_hash]),
      proposals: (await db().collection("companion_proposals").find({ tenant_id: tenant }).toArray()).map((p) => [p.proposal_id, p.status, p.fact.text]),
      heads: (await db().collection("companion_fact_heads").find({ tenant_id: tenant }).sort({ _id: 1 }).toArray()).map((h) => [
        h._id,
        h.active_id,
        h.proposal_id,
      ]),
      settings: await store.privacy(tenant, "eve").then((p) => [p.settings, p.key]),
      envelope: first(await gw.gql(t.adapter, ENVELOPE, { subject: "eve" }))
        .envelope.userFacts.map((f: { memoryId: string }) => f.memoryId)
        .sort(),
      events: (await events({ tenant_id: tenant })).length,
    });
    const before = await state();
    expect(before.envelope).toEqual([a, b].sort());
    const failed = { stopReason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: internal_error"] };

    const merge = {
      subjectId: "eve",
      memoryIds: [a, b],
      type: "USER_FACT",
      text: "User loves fettuccini and works on FL Studio",
      justification: "same conversation",
    };
    const attempts: [string, () => Promise<unknown>][] = [
      ["forget", async () => first(await gw.gql(t.adapter, FORGET, { id: a, subject: "eve" }))],
      ["consolidate", async () => first(await gw.gql(t.adapter, CONSOLIDATE, { input: merge }))],
      ["privacy", async () => first(await gw.gql(eve, PRIVACY, { input: { memoryEnabled: false, deleteAfterDays: 1 } }))],
      ["erase", async () => first(await gw.gql(eve, ERASE, {}))],
    ];
    clock.advance(2 * 86_400_000); // so that deleteAfterDays: 1 would archive both facts
    for (const [name, attempt] of attempts) {
      expect([name, await withBrokenLog(tenant, attempt)]).toMatchObject([name, failed]);
      expect([name, await state()]).toEqual([name, before]);
    }
    // and with the log working again, each goes through
    expect(first(await gw.gql(t.adapter, FORGET, { id: a, subject: "eve" })).stopReason).toBe("SUCCESS_DELETED");
    expect(first(await gw.gql(eve, ERASE, {}))).toMatchObject({ stopReason: "SUCCESS_DELETED", erased: 2 });
    clock.advance(-2 * 86_400_000);
  });

  it("D3 D5 SG-ISOLATION: for a subject the token does not hold, forgetFact, confirmProposal and consolidation answer the same for a real and a made-up id", async () => {
    const t = await tokens("oracle", ["fay"]);
    const real = (await add(t.adapter, fact("fay"))).fact.memoryId;
    const other = (await add(t.adapter, fact("fay", { text: "User works on FL Studio" }))).fact.memoryId;
    const proposal = (await add(t.adapter, fact("fay", { text: "User enjoys Italian food", confidence: 0.77 }))).proposalId;
    const madeUp = "fact_00000000-0000-4000-8000-000000000000";
    const mallory = await gw.token({ sub: "mallory", tenant: "oracle", subjects: ["mallory"], roles: ["adapter", "user"] });
    const answer = async (query: string, variables: Record<string, unknown>) => {
      const { stopReason, explanations } = first(await gw.gql(mallory, query, variables));
      return { stopReason, explanations };
    };
    const forgetReal = await answer(FORGET, { id: real, subject: "fay" });
    expect(forgetReal.stopReason).toBe("NOT_FOUND");
    expect(await answer(FORGET, { id: madeUp, subject: "fay" })).toEqual(forgetReal);
    const confirmReal = await answer(CONFIRM, { id: proposal, subject: "fay" });
    expect(await answer(CONFIRM, { id: "prop_00000000-0000-4000-8000-000000000000", subject: "fay" })).toEqual(confirmReal);
    const merge = (ids: string[]) => ({
      input: { subjectId: "fay", memoryIds: ids, type: "USER_FACT", text: "User loves fettuccini and works on FL Studio", justification: "x" },
    });
    expect(await answer(CONSOLIDATE, merge([madeUp, "fact_00000000-0000-4000-8000-000000000001"]))).toEqual(await answer(CONSOLIDATE, merge([real, other])));
    expect(await facts().countDocuments({ tenant_id: "oracle", status: "active" })).toBe(2);
  });

  it("SG-GATE SG-ISOLATION: /metrics counts the decisions of every companion operation and the gate outcomes from the decision", async () => {
    const t = await tokens("metrics", ["gil"]);
    const gil = await t.user("gil");
    const a = (await add(t.adapter, fact("gil", { sourceRefs: ["conv:1"] }))).fact.memoryId;
    const b = (await add(t.adapter, fact("gil", { text: "User works on FL Studio", sourceRefs: ["conv:2"] }))).fact.memoryId;
    const held = (await add(t.adapter, fact("gil", { text: "User enjoys Italian food", confidence: 0.77 }))).proposalId;
    await gw.gql(gil, CONFIRM, { id: held });
    await gw.gql(t.adapter, ENVELOPE, { subject: "gil" });
    await gw.gql(t.adapter, CONSOLIDATE, {
      input: { subjectId: "gil", memoryIds: [a, b], type: "USER_FACT", text: "User loves fettuccini and works on FL Studio", justification: "same" },
    });
    await gw.gql(t.adapter, FORGET, { id: b, subject: "gil" });
    await gw.gql(gil, PRIVACY, { input: { anonymizeDates: true } });
    await gw.gql(t.admin, DECAY, {});
    await gw.gql(gil, ERASE, {});
    const metrics = await (await fetch(`${gw.url}/metrics`)).text();
    for (const operation of ["ADD_FACT", "CONFIRM_PROPOSAL", "ENVELOPE", "CONSOLIDATE", "FORGET_FACT", "SET_PRIVACY", "DECAY", "ERASE"]) {
      expect([
        operation,
        new RegExp(`memgate_decisions_total\\{contract="companion",operation="${operation}",stop_reason="[A-Z_]+"\\} [1-9]`).test(metrics),
      ]).toEqual([operation, true]);
    }
    for (const outcome of ["auto_apply", "proposal", "confirmed"])
      expect(metrics).toMatch(new RegExp(`memgate_gate_outcomes_total\\{outcome="${outcome}"\\} [1-9]`));
    expect(metrics).toMatch(/memgate_operation_seconds_count\{contract="companion",operation="ERASE"\} [1-9]/);
  });

  it("D1 MP-OBJECT: erasure leaves no text, source ref, salt or content fingerprint of the subject's facts and proposals anywhere in the database", async () => {
    const t = await tokens("erase", ["hal"]);
    const hal = await t.user("hal");
    const text = "User keeps a pet iguana named Zorblax";
    const summary = "User said they keep a pet iguana named Zorblax and love fettuccini.";
    const stored = await add(t.adapter, fact("hal", { text, summary, sourceRefs: ["conv:QQMARKER-1"] }));
    const held = await add(t.adapter, fact("hal", { text: "User keeps an iguana named Zorblax", summary, confidence: 0.77, sourceRefs: ["conv:QQMARKER-2"] }));
    expect([stored.stopReason, held.stopReason]).toEqual(["SUCCESS_STORED", "MISSING_EXPLICIT_CONSENT"]);
    // the head ids fingerprint nothing even before erasure: no unsalted hash of the content anywhere
    const unsalted = (type: string, t2: string) =>
      createHash("sha256")
        .update(`${type}\n${t2.trim().replace(/\s+/g, " ").toLowerCase()}`)
        .digest("hex")
        .slice(0, 32);
    expect(await dumpDatabase(db())).not.toContain(unsalted("USER_FACT", text));
    const salts = [
      ...(await facts().find({ tenant_id: "erase" }).toArray()).map((f) => f.content_salt),
      ...(await db().collection("companion_proposals").find({ tenant_id: "erase" }).toArray()).map((p) => p.fact.content_salt),
    ];
    expect(salts).toHaveLength(2);
    expect((await store.objectIds("erase", "hal")).sort()).toEqual([stored.fact.memoryId, held.proposalId].sort());

    expect(first(await gw.gql(hal, ERASE, {}))).toMatchObject({ stopReason: "SUCCESS_DELETED", erased: 1 });
    const dump = await dumpDatabase(db());
    for (const gone of ["Zorblax", "QQMARKER", unsalted("USER_FACT", text), ...salts]) expect([gone, dump.includes(gone)]).toEqual([gone, false]);
    expect(await db().collection("companion_fact_heads").countDocuments({ tenant_id: "erase" })).toBe(0);
    expect((await store.privacy("erase", "hal")).key).toBeNull();
    expect(await store.objectIds("erase", "hal")).toEqual([]);
    expect(await store.lookup("erase", "hal", stored.fact.memoryId)).toEqual({ found: true, erased: true });
    expect(await store.lookup("erase", "hal", held.proposalId)).toEqual({ found: true, erased: true });
    // the tombstones still verify, and nothing of the subject reads as broken
    const tomb = await store.fact("erase", "hal", stored.fact.memoryId);
    expect(tomb).toMatchObject({ status: "erased", text: "", source_refs: [], content_salt: null, erasure: { reason: "erasure_request", operation: "ERASE" } });
    expect(first(await gw.gql(t.adapter, ENVELOPE, { subject: "hal" }))).toMatchObject({ stopReason: "SUCCESS_READ", envelope: { userFacts: [] } });
    // the same text later is a new fact with a new head, under a new key
    expect((await add(t.adapter, fact("hal", { text, summary }))).stopReason).toBe("SUCCESS_STORED");
  });

  it("MP-OBJECT MP-BREAK: every stored companion object carries provenance and an integrity hash; a tampered fact or envelope entry fails closed with a conformance break", async () => {
    const t = await tokens("tamper", ["ida", "ivo"]);
    const id = (await add(t.adapter, fact("ida", { validTo: "2026-12-31T00:00:00Z" }))).fact.memoryId;
    await add(t.adapter, fact("ida", { text: "User works on FL Studio", confidence: 0.77 }));
    await gw.gql(await t.user("ida"), PRIVACY, { input: { anonymizeDates: true } });
    for (const name of ["companion_facts", "companion_proposals", "companion_privacy"]) {
      for (const doc of await db().collection(name).find({ tenant_id: "tamper" }).toArray()) {
        expect([name, doc.provenance?.statement_type !== undefined, /^[0-9a-f]{64}$/.test(doc.integrity_hash)]).toEqual([name, true, true]);
      }
    }
    expect((await facts().findOne({ memory_id: id }))!.provenance).toMatchObject({
      statement_type: "SourceStatement",
      source_refs: ["conv:1"],
      valid_to: "2026-12-31T00:00:00.000Z",
      temporal_scope: "bounded",
    });

    await facts().updateOne({ memory_id: id }, { $set: { text: "User loves lasagne" } });
    expect(first(await gw.gql(t.adapter, FORGET, { id, subject: "ida" }))).toMatchObject({
      stopReason: "INTERNAL_INCONSISTENCY",
      explanations: ["MP-OBJECT: integrity_hash_mismatch"],
    });
    expect(await events({ tenant_id: "tamper", event_type: "conformance_break", memory_id: id })).toHaveLength(1);

    await add(t.adapter, fact("ivo"));
    await db()
      .collection("companion_subject_index")
      .updateOne({ tenant_id: "tamper", subject_id: "ivo" }, { $set: { "facts.0.text": "User loves lasagne" } });
    expect(first(await gw.gql(t.adapter, ENVELOPE, { subject: "ivo" }))).toMatchObject({
      stopReason: "INTERNAL_INCONSISTENCY",
      explanations: ["MP-OBJECT: integrity_hash_mismatch"],
    });

    // a damaged record never keeps its content from being erased (D1)
    expect(first(await gw.gql(await t.user("ida"), ERASE, {}))).toMatchObject({ stopReason: "SUCCESS_DELETED", erased: 1 });
    expect(await facts().countDocuments({ tenant_id: "tamper", subject_id: "ida", text: { $ne: "" } })).toBe(0);
  });

  it("MP-LOG INV-8: the store lists an object whose due mark is left (its event never settled), with the event the repair pass would write, and settles it", async () => {
    const t = await tokens("settle", ["jo"]);
    const id = (await add(t.adapter, fact("jo"))).fact.memoryId;
    const create = (await events({ tenant_id: "settle", event_type: "create", memory_id: id }))[0];
    const due = gw.gateway.db.collection<{ _id: string; [key: string]: unknown }>("companion_due_events");
    // due marks are removed off the request path
    await store.idle();
    expect(await due.countDocuments({ tenant_id: "settle" })).toBe(0);
    expect((await store.unsettled(1000)).filter((o) => o.tenantId === "settle")).toEqual([]);

    const stored = (await facts().findOne({ memory_id: id }))!;
    await due.insertOne({
      _id: `${stored._id}|write`,
      tenant_id: "settle",
      subject_id: "jo",
      object_id: id,
      kind: "write",
      version: null,
      written_at: new Date(),
    });
    const [object] = (await store.unsettled(1000)).filter((o) => o.tenantId === "settle");
    expect(object).toMatchObject({
      subjectId: "jo",
      objectId: id,
      kind: "write",
      missing: { event_type: "create", stop_reason: "SUCCESS_STORED", content_digest: create.content_digest },
    });
    await store.settle(object, create.seq);
    expect(await due.countDocuments({ tenant_id: "settle" })).toBe(0);
  });
});
