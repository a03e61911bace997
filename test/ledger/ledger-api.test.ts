import { ManualClock } from "../../src/clock";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { APPROVE, DECLINE, FORGET, LEDGER, PENDING, PROPOSE, SELECT, approved, proposal, propose } from "./helpers";

describe("the person's ledger over GraphQL (seed 003)", () => {
  const clock = new ManualClock("2026-05-04T09:00:00.000Z");
  let gw: TestGateway;
  let agent: string;
  let alice: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "acme", subjects: ["alice", "bob"], roles: ["agent"], sub: "reflection-agent" });
    alice = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
  });
  afterAll(() => gw.stop());

  const items = () => gw.gateway.db.collection("ledger_items");
  const proposals = () => gw.gateway.db.collection("ledger_proposals");
  const events = () => gw.gateway.db.collection("memory_events");

  describe("proposals (P54-A, P54-KIND, P54-SOURCE)", () => {
    it("P54-A SPEC-D3: a proposal answers MISSING_EXPLICIT_CONSENT with its id, is pending for the owner, and stores nothing in the ledger", async () => {
      const before = await items().countDocuments();
      const res = await gw.gql(agent, PROPOSE, { input: proposal({ proposedText: "I prefer written summaries after calls" }) });
      const decision = res.data!.proposeMemory;
      expect(decision).toMatchObject({ stopReason: "MISSING_EXPLICIT_CONSENT", explanations: [] });
      expect(decision.proposalId).toMatch(/^prop_/);
      expect(decision.proposal).toMatchObject({
        proposedText: "I prefer written summaries after calls",
        kind: "SELF_OBSERVATION",
        decision: "pending",
        source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: "After Phase 3 summary" },
      });
      expect(await items().countDocuments()).toBe(before);
      const ledger = await gw.gql(alice, LEDGER, {});
      expect(ledger.data!.ledger.items.map((i: { text: string }) => i.text)).not.toContain("I prefer written summaries after calls");
      const pending = await gw.gql(alice, PENDING, {});
      expect(pending.data!.pendingProposals.stopReason).toBe("SUCCESS_LISTED");
      expect(pending.data!.pendingProposals.proposals.map((p: { proposalId: string }) => p.proposalId)).toContain(decision.proposalId);
      const event = await events().findOne({ operation: "PROPOSE", "metadata.proposal_id": decision.proposalId });
      expect(event).toMatchObject({ event_type: "create", stop_reason: "MISSING_EXPLICIT_CONSENT", reason: "proposal_held_for_owner" });
      expect(JSON.stringify(event)).not.toContain("written summaries");
    });

    it("P54-A: agents, adapters and jobs may propose; a user token (the person) or an auditor may not", async () => {
      for (const roles of [["adapter"], ["job"]]) {
        const token = await gw.token({ tenant: "acme", subjects: ["alice"], roles, job: { id: "j1", kind: "reflection" } });
        expect((await gw.gql(token, PROPOSE, { input: proposal() })).data!.proposeMemory.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
      }
      for (const roles of [["user"], ["auditor"]]) {
        const token = await gw.token({ tenant: "acme", subjects: ["alice"], roles });
        const res = await gw.gql(token, PROPOSE, { input: proposal() });
        expect(res.data!.proposeMemory).toMatchObject({ stopReason: "POLICY_DISABLED", proposalId: null, explanations: ["AUTHZ-ROLE: role_not_permitted"] });
      }
    });

    it("P54-A SPEC-D5: an agent cannot propose for a subject its token does not name", async () => {
      const res = await gw.gql(agent, PROPOSE, { input: proposal({ subjectId: "carol" }) });
      expect(res.data!.proposeMemory).toMatchObject({ stopReason: "POLICY_DISABLED", proposalId: null });
    });

    it.each([["TRAIT"], ["preference"], [""], ["IDENTITY"]])("P54-KIND: kind %p answers SCHEMA_INVALID and nothing is stored", async (kind) => {
      const text = `kind probe ${kind} QZX-KIND`;
      const res = await gw.gql(agent, PROPOSE, { input: proposal({ kind, proposedText: text }) });
      expect(res.data!.proposeMemory).toMatchObject({ stopReason: "SCHEMA_INVALID", proposalId: null, explanations: ["P54-KIND: kind_not_allowed"] });
      expect(await dumpDatabase(gw.gateway.db)).not.toContain("QZX-KIND");
    });

    it("P54-KIND: each of the four kinds is accepted", async () => {
      for (const kind of ["PREFERENCE", "CONSTRAINT", "GOAL", "SELF_OBSERVATION"]) {
        expect((await gw.gql(agent, PROPOSE, { input: proposal({ kind }) })).data!.proposeMemory.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
      }
    });

    it("P54-SOURCE: a source type that policy data does not list answers SCHEMA_INVALID", async () => {
      for (const sourceType of ["chat_log", "phase6_plan", ""]) {
        const res = await gw.gql(agent, PROPOSE, { input: proposal({ source: { sourceType } }) });
        expect(res.data!.proposeMemory).toMatchObject({ stopReason: "SCHEMA_INVALID", explanations: ["P54-SOURCE: source_type_not_allowed"] });
      }
      const ok = await gw.gql(agent, PROPOSE, { input: proposal({ source: { sourceType: "phase5_3_interpretation", sourceId: null, note: null } }) });
      expect(ok.data!.proposeMemory.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    });

    it.each([
      ["signal name", "low_energy_morning signal fired"],
      ["score", "engagement score 0.82"],
      ["percentage", "confidence 91%"],
      ["classification", "classified as an avoidant responder"],
      ["label", "labelled: procrastination cluster"],
      ["model output", "hidden model output said so"],
    ])("P54-SOURCE: a note carrying a %s answers SCHEMA_INVALID, and the note is stored nowhere", async (_what, note) => {
      const res = await gw.gql(agent, PROPOSE, { input: proposal({ proposedText: "note probe QZW-NOTE", source: { sourceType: "phase3_reflection", note } }) });
      expect(res.data!.proposeMemory.stopReason).toBe("SCHEMA_INVALID");
      expect(res.data!.proposeMemory.explanations[0]).toMatch(/^P54-SOURCE: note_carries_/);
      const everything = await dumpDatabase(gw.gateway.db);
      expect(everything).not.toContain(note);
      expect(everything).not.toContain("QZW-NOTE");
    });

    it("P54-A: an empty or oversized proposed text is refused and nothing is stored", async () => {
      expect((await gw.gql(agent, PROPOSE, { input: proposal({ proposedText: "   " }) })).data!.proposeMemory.stopReason).toBe("SCHEMA_INVALID");
      const res = await gw.gql(agent, PROPOSE, { input: proposal({ proposedText: "z".repeat(1025) }) });
      expect(res.data!.proposeMemory).toMatchObject({ stopReason: "BOUNDS_EXCEEDED", explanations: ["C19-ITEM: proposedText_too_long"] });
      expect(await proposals().countDocuments({ proposed_text: "z".repeat(1025) })).toBe(0);
    });

    it("bad input: a missing field is a GraphQL validation error, no token is UNAUTHENTICATED, and nothing changes", async () => {
      const before = await proposals().countDocuments();
      const missing = await gw.gql(agent, PROPOSE, { input: { subjectId: "alice", kind: "GOAL" } });
      expect(missing.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
      const anonymous = await gw.gql(null, PROPOSE, { input: proposal() });
      expect(anonymous.errors?.[0].extensions?.code).toBe("UNAUTHENTICATED");
      expect(await proposals().countDocuments()).toBe(before);
    });
  });

  describe("approve and decline, by the owner only (P54-B, P54-C, P54-D)", () => {
    it("P54-A P54-B: approval with an edit creates exactly one item, verbatim, and records result_memory_id", async () => {
      const id = await propose(gw, agent, { proposedText: "I focus better in the morning", kind: "SELF_OBSERVATION" });
      const finalText = "  I've noticed I focus better in the morning — before 10, mostly ☀️\n(not always)  ";
      clock.advance(60_000);
      const res = await gw.gql(alice, APPROVE, { id, text: finalText });
      const decision = res.data!.approveProposal;
      expect(decision.stopReason).toBe("SUCCESS_STORED");
      expect(decision.memory).toMatchObject({
        text: finalText,
        kind: "SELF_OBSERVATION",
        proposalId: id,
        status: "active",
        source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: "After Phase 3 summary" },
      });
      expect(decision.memory.proposedAt).toBe("2026-05-04T09:00:00.000Z");
      expect(decision.memory.createdAt).toBe("2026-05-04T09:01:00.000Z");
      expect(await items().countDocuments({ proposal_id: id })).toBe(1);
      const stored = await proposals().findOne({ proposal_id: id });
      expect(stored).toMatchObject({ decision: "approved", final_text: finalText, result_memory_id: decision.memory.memoryId });
      expect(stored!.decided_at.toISOString()).toBe("2026-05-04T09:01:00.000Z");
      const ledger = await gw.gql(alice, LEDGER, { subject: "alice" });
      expect(ledger.data!.ledger.items.find((i: { memoryId: string }) => i.memoryId === decision.memory.memoryId).text).toBe(finalText);
      const event = await events().findOne({ operation: "APPROVE", memory_id: decision.memory.memoryId });
      expect(event).toMatchObject({ event_type: "create", stop_reason: "SUCCESS_STORED", metadata: { proposal_id: id, edited: true } });
      expect(event!.content_digest).toMatch(/^[0-9a-f]{64}$/);
      expect(JSON.stringify(event)).not.toContain("focus better");
    });

    it("P54-A: a proposal is approved once; a second approval answers NOT_FOUND and still only one item exists", async () => {
      const id = await propose(gw, agent);
      const [a, b] = await Promise.all([
        gw.gql(alice, APPROVE, { id, text: "I want to read more fiction" }),
        gw.gql(alice, APPROVE, { id, text: "I want to read more fiction!" }),
      ]);
      expect([a.data!.approveProposal.stopReason, b.data!.approveProposal.stopReason].sort()).toEqual(["NOT_FOUND", "SUCCESS_STORED"]);
      expect(await items().countDocuments({ proposal_id: id })).toBe(1);
      const item = await items().findOne({ proposal_id: id });
      expect(await proposals().findOne({ proposal_id: id })).toMatchObject({ decision: "approved", final_text: item!.text, result_memory_id: item!.memory_id });
      expect((await gw.gql(alice, APPROVE, { id, text: "again" })).data!.approveProposal.stopReason).toBe("NOT_FOUND");
    });

    it("P54-A SPEC-D5: anyone but the owning user gets NOT_FOUND for approve and decline, and nothing changes", async () => {
      const id = await propose(gw, agent, { proposedText: "owner probe text" });
      const strangers = [
        agent,
        await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["user"], sub: "bob" }),
        await gw.token({ tenant: "globex", subjects: ["alice"], roles: ["user"], sub: "alice" }),
        await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["admin"] }),
        await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["adapter"] }),
      ];
      for (const token of strangers) {
        const approve = await gw.gql(token, APPROVE, { id, text: "hijacked text" });
        expect(approve.data!.approveProposal).toMatchObject({ stopReason: "NOT_FOUND", memory: null });
        expect((await gw.gql(token, DECLINE, { id })).data!.declineProposal).toMatchObject({ stopReason: "NOT_FOUND", proposalId: null });
      }
      expect(await proposals().findOne({ proposal_id: id })).toMatchObject({ decision: "pending", proposed_text: "owner probe text" });
      expect(await items().countDocuments({ proposal_id: id })).toBe(0);
      expect(await dumpDatabase(gw.gateway.db)).not.toContain("hijacked text");
      // an unknown id looks exactly like a foreign one
      const unknown = await gw.gql(alice, APPROVE, { id: "prop_does-not-exist", text: "x" });
      expect(unknown.data!.approveProposal.explanations).toEqual(["C19-STOP: no_such_memory"]);
    });

    it("P54-C: an identity-locking final text answers FORBIDDEN_CATEGORY naming the rule; the proposal stays pending and a better edit is approved", async () => {
      const id = await propose(gw, agent, { proposedText: "You focus best in the morning" });
      for (const [text, group] of [
        ["You are a morning person QZV-REFUSED", "identity_locking"],
        ["My ADHD means mornings are best QZV-REFUSED", "clinical_language"],
        ["This proves I work best at 7am QZV-REFUSED", "authoritative_framing"],
      ]) {
        const res = await gw.gql(alice, APPROVE, { id, text });
        expect(res.data!.approveProposal).toMatchObject({ stopReason: "FORBIDDEN_CATEGORY", memory: null });
        expect(res.data!.approveProposal.explanations).toContainEqual(expect.stringMatching(new RegExp(`^P54-C: ${group}:[a-z_]+$`)));
        expect(await proposals().findOne({ proposal_id: id })).toMatchObject({ decision: "pending" });
      }
      expect(await dumpDatabase(gw.gateway.db)).not.toContain("QZV-REFUSED");
      const ok = await gw.gql(alice, APPROVE, { id, text: "I've noticed I focus better in the morning" });
      expect(ok.data!.approveProposal.stopReason).toBe("SUCCESS_STORED");
    });

    it("P54-B: an empty or oversized final text is refused and the proposal stays pending", async () => {
      const id = await propose(gw, agent);
      expect((await gw.gql(alice, APPROVE, { id, text: " \n " })).data!.approveProposal).toMatchObject({
        stopReason: "SCHEMA_INVALID",
        explanations: ["P54-B: final_text_required"],
      });
      expect((await gw.gql(alice, APPROVE, { id, text: "w".repeat(1025) })).data!.approveProposal).toMatchObject({
        stopReason: "BOUNDS_EXCEEDED",
        explanations: ["C19-ITEM: finalText_too_long"],
      });
      expect(await proposals().findOne({ proposal_id: id })).toMatchObject({ decision: "pending" });
    });

    it("P54-D SPEC-D4: declining stores no item and the proposed text is in no collection afterwards; only metadata stays", async () => {
      const marker = "QUOKKA-DECLINE-6152";
      const id = await propose(gw, agent, {
        proposedText: `I prefer ${marker} on Fridays`,
        source: { sourceType: "phase3_reflection", sourceId: "refl-9", note: `note ${marker}` },
      });
      expect(await dumpDatabase(gw.gateway.db)).toContain(marker); // the probe is really there before
      const res = await gw.gql(alice, DECLINE, { id });
      expect(res.data!.declineProposal).toMatchObject({ stopReason: "SUCCESS_DELETED", proposalId: id });
      expect(await dumpDatabase(gw.gateway.db)).not.toContain(marker);
      expect(await items().countDocuments({ proposal_id: id })).toBe(0);
      const record = await proposals().findOne({ proposal_id: id });
      expect(record).toMatchObject({ decision: "declined", final_text: null, result_memory_id: null });
      expect(record).not.toHaveProperty("proposed_text");
      expect(record!.source).not.toHaveProperty("note");
      const event = await events().findOne({ operation: "DECLINE", "metadata.proposal_id": id });
      expect(event).toMatchObject({
        event_type: "delete",
        reason: "proposal_declined",
        content_digest: null,
        metadata: { lengths: { proposed_text: marker.length + 20 } },
      });
      const pending = await gw.gql(alice, PENDING, {});
      expect(pending.data!.pendingProposals.proposals.map((p: { proposalId: string }) => p.proposalId)).not.toContain(id);
      expect((await gw.gql(alice, DECLINE, { id })).data!.declineProposal.stopReason).toBe("NOT_FOUND");
      expect((await gw.gql(alice, APPROVE, { id, text: "late approval" })).data!.approveProposal.stopReason).toBe("NOT_FOUND");
    });
  });

  describe("ledger, forgetting and selection (P54-B, P54-E, P54-F, MP-FORGET)", () => {
    it("P54-B SPEC-D5: the ledger and pending proposals are the owner's alone: verbatim, newest first; other people, tenants and agents see none of them", async () => {
      const first = await approved(gw, agent, alice, "I can't take calls after 6pm", { kind: "CONSTRAINT" });
      clock.advance(1000);
      const second = await approved(gw, agent, alice, "I want to learn to sail", { kind: "GOAL" });
      const ledger = (await gw.gql(alice, LEDGER, {})).data!.ledger;
      expect(ledger.stopReason).toBe("SUCCESS_LISTED");
      const ids = ledger.items.map((i: { memoryId: string }) => i.memoryId);
      expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
      const bob = await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["user"], sub: "bob" });
      expect((await gw.gql(bob, LEDGER, { subject: "alice" })).data!.ledger).toMatchObject({ stopReason: "NOT_FOUND", items: [] });
      expect((await gw.gql(bob, LEDGER, {})).data!.ledger.items).toEqual([]);
      expect((await gw.gql(bob, PENDING, { subject: "alice" })).data!.pendingProposals).toMatchObject({ stopReason: "NOT_FOUND", proposals: [] });
      expect((await gw.gql(agent, PENDING, { subject: "alice" })).data!.pendingProposals).toMatchObject({ stopReason: "POLICY_DISABLED", proposals: [] });
      const globex = await gw.token({ tenant: "globex", subjects: ["alice"], roles: ["user"] });
      expect((await gw.gql(globex, LEDGER, {})).data!.ledger.items).toEqual([]);
      expect((await gw.gql(agent, LEDGER, { subject: "alice" })).data!.ledger).toMatchObject({ stopReason: "POLICY_DISABLED", items: [] });
    });

    it("P54-E MP-FORGET SPEC-D1: forgetting sets status deleted with deleted_at and an invalidate event with its reason; the item is never listed or resolved again", async () => {
      const id = await approved(gw, agent, alice, "I prefer tea to coffee");
      clock.advance(5000);
      const res = await gw.gql(alice, FORGET, { id });
      expect(res.data!.forgetMemory).toMatchObject({ stopReason: "SUCCESS_DELETED", memoryId: id });
      const record = await items().findOne({ memory_id: id });
      expect(record).toMatchObject({ status: "deleted" });
      expect(record!.deleted_at.toISOString()).toBe(clock.now().toISOString());
      expect(await events().findOne({ operation: "FORGET", memory_id: id })).toMatchObject({
        event_type: "invalidate",
        reason: "forgotten_by_owner",
        stop_reason: "SUCCESS_DELETED",
      });
      const ledger = (await gw.gql(alice, LEDGER, {})).data!.ledger;
      expect(ledger.items.map((i: { memoryId: string }) => i.memoryId)).not.toContain(id);
      expect(JSON.stringify(ledger)).not.toContain("tea to coffee");
      const selected = (await gw.gql(alice, SELECT, { ids: [id] })).data!.selectedMemoryContext;
      expect(selected).toMatchObject({
        stopReason: "NOT_FOUND",
        selectedMemoryIds: [],
        resolvedTexts: [],
        attributionLine: null,
        selections: [{ memoryId: id, stopReason: "NOT_FOUND" }],
      });
      expect((await gw.gql(alice, FORGET, { id })).data!.forgetMemory.stopReason).toBe("NOT_FOUND");
    });

    it("P54-E SPEC-D5: only the owner can forget; anyone else gets NOT_FOUND and the item stays", async () => {
      const id = await approved(gw, agent, alice, "I want to run a 10k");
      for (const token of [
        agent,
        await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["user"] }),
        await gw.token({ tenant: "globex", subjects: ["alice"], roles: ["user"] }),
      ]) {
        expect((await gw.gql(token, FORGET, { id })).data!.forgetMemory.stopReason).toBe("NOT_FOUND");
      }
      expect(await items().findOne({ memory_id: id })).toMatchObject({ status: "active", deleted_at: null });
    });

    it("P54-F: no selected ids give an empty context", async () => {
      const res = (await gw.gql(alice, SELECT, { ids: [] })).data!.selectedMemoryContext;
      expect(res).toEqual({ stopReason: "SUCCESS_READ", explanations: [], selectedMemoryIds: [], resolvedTexts: [], attributionLine: null, selections: [] });
    });

    it("P54-F: selected items resolve verbatim, in the order selected, with the attribution line exactly", async () => {
      const a = await approved(gw, agent, alice, "I prefer bullet points\tover prose");
      const b = await approved(gw, agent, alice, "I can't travel in July", { kind: "CONSTRAINT" });
      const res = (await gw.gql(alice, SELECT, { ids: [b, a] })).data!.selectedMemoryContext;
      expect(res).toEqual({
        stopReason: "SUCCESS_READ",
        explanations: [],
        selectedMemoryIds: [b, a],
        resolvedTexts: ["I can't travel in July", "I prefer bullet points\tover prose"],
        attributionLine: "Using the items you selected…",
        selections: [
          { memoryId: b, stopReason: "SUCCESS_READ" },
          { memoryId: a, stopReason: "SUCCESS_READ" },
        ],
      });
    });

    it("P54-E P54-F SPEC-D5: a foreign, unknown or forgotten id answers NOT_FOUND for that id and contributes nothing", async () => {
      const mine = await approved(gw, agent, alice, "I want to cook more at home");
      const bobUser = await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["user"], sub: "bob" });
      const bobs = await approved(gw, agent, bobUser, "BOB-PRIVATE-8812 I prefer mornings", { subjectId: "bob" });
      const gone = await approved(gw, agent, alice, "FORGOTTEN-4471 I prefer trains");
      await gw.gql(alice, FORGET, { id: gone });
      const res = (await gw.gql(alice, SELECT, { ids: [mine, bobs, "mem_nope", gone] })).data!.selectedMemoryContext;
      expect(res.stopReason).toBe("NOT_FOUND");
      expect(res.explanations).toEqual(["P54-E: selected_item_not_found"]);
      expect(res.selectedMemoryIds).toEqual([mine]);
      expect(res.resolvedTexts).toEqual(["I want to cook more at home"]);
      expect(res.attributionLine).toBe("Using the items you selected…");
      expect(res.selections).toEqual([
        { memoryId: mine, stopReason: "SUCCESS_READ" },
        { memoryId: bobs, stopReason: "NOT_FOUND" },
        { memoryId: "mem_nope", stopReason: "NOT_FOUND" },
        { memoryId: gone, stopReason: "NOT_FOUND" },
      ]);
      expect(JSON.stringify(res)).not.toMatch(/BOB-PRIVATE|FORGOTTEN-4471/);
      // an agent cannot build a context from the person's ledger at all
      expect((await gw.gql(agent, SELECT, { ids: [mine] })).data!.selectedMemoryContext).toMatchObject({ stopReason: "POLICY_DISABLED", resolvedTexts: [] });
    });

    it("P54-F: selecting more than the bound answers BOUNDS_EXCEEDED with an empty context", async () => {
      const ids = Array.from({ length: 51 }, (_, i) => `mem_${i}`);
      expect((await gw.gql(alice, SELECT, { ids })).data!.selectedMemoryContext).toMatchObject({
        stopReason: "BOUNDS_EXCEEDED",
        resolvedTexts: [],
        selections: [],
      });
    });
  });
});
