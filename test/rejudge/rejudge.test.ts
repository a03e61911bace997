import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock";
import type { MemoryEvent } from "../../src/store/event-log";
import { postMemory, writeDoc } from "../agent/support";
import { LIST, READ, STORE, eventsOf, ERASE_MEMORY } from "../audit/support";
import { approved, LEDGER, PENDING, propose, SELECT } from "../ledger/helpers";
import { leaseId } from "../../src/store/log/reaudit";
import { POLICY_BUNDLE, startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";
import { PHRASE, reauditDone as reauditDoneOf, RELEASE, STATUS, tightenedBundle } from "./support";

const ADD_FACT = `mutation Add($input: AddFactInput!) { addFact(input: $input) { stopReason explanations fact { memoryId } } }`;
const ENVELOPE = `query Env($subject: ID) { memoryEnvelope(purpose: RESPONSE, subjectId: $subject, skipCache: false) {
  stopReason envelope { userFacts { memoryId text } } } }`;
const SUMMARY = `User mentioned they love ${PHRASE} and work on FL Studio`;
const REPO = "acme/web";

describe("MP-BREAK C19-FORBID: re-judging stored memory when the policy tightens (issue 13 item 5)", () => {
  const clock = new ManualClock("2026-09-01T09:00:00.000Z");
  let gw: TestGateway;
  let bundlePath: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    // The gateway loads its bundle from a file of the test's own, replaced below as a deploy would.
    bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), "memgate-rejudge-bundle-")), "bundle.tar.gz");
    copyFileSync(POLICY_BUNDLE, bundlePath);
    gw = await startTestGateway({ clock, env: { MEMGATE_POLICY_BUNDLE: bundlePath }, reauditBatchSize: 2 });
    tokens.governed = await gw.token({ tenant: "rj", subjects: ["alice"], roles: ["agent"] });
    tokens.repo = await gw.token({ tenant: "rj", subjects: [`repo:${REPO}`], roles: ["agent"] });
    tokens.adapter = await gw.token({ tenant: "rj", sub: "adapter", subjects: ["alice"], roles: ["adapter"] });
    tokens.ledgerAgent = await gw.token({ tenant: "rj", sub: "reflection-agent", subjects: ["alice"], roles: ["agent"] });
    tokens.alice = await gw.token({ tenant: "rj", sub: "alice", subjects: ["alice"], roles: ["user"] });
    tokens.admin = await gw.token({ tenant: "rj", sub: "owner", subjects: [], roles: ["admin"] });
  });
  afterAll(() => gw?.stop());

  const gql = async (token: string, query: string, variables?: Record<string, unknown>) => {
    const res = await gw.gql(token, query, variables);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data!;
  };
  const storeGoverned = async (key: string, value: string) => {
    const d = (await gql(tokens.governed, STORE, { input: preference({ key, value }) })).storeMemory;
    expect(d.stopReason).toBe("SUCCESS_STORED");
    return d.memory.memoryId as string;
  };
  const writeAgent = async (text: string) => {
    const res = await postMemory(gw, tokens.repo, writeDoc(REPO, { text }));
    expect(res.body.stop_reason).toBe("SUCCESS_STORED");
    return res.body.memory.id as string;
  };
  const addFact = async (text: string) => {
    const input = { subjectId: "alice", type: "USER_FACT", text, confidence: 0.9, source: "llm_extraction", summary: SUMMARY };
    const d = (await gql(tokens.adapter, ADD_FACT, { input })).addFact;
    expect(d.stopReason).toBe("SUCCESS_STORED");
    return d.fact.memoryId as string;
  };

  /** What every read of every contract returns now, by contract. */
  const visible = async () => {
    const governedList = (await gql(tokens.governed, LIST, { subject: "alice" })).memories.memories.map((m: { memoryId: string }) => m.memoryId);
    const agentRead = await postMemory(gw, tokens.repo, { op: "read", repo_id: REPO, mode: "targeted", query: "build pipeline lint cache" });
    const envelope = (await gql(tokens.adapter, ENVELOPE, { subject: "alice" })).memoryEnvelope;
    const ledger = (await gql(tokens.alice, LEDGER, { subject: "alice" })).ledger.items.map((i: { memoryId: string }) => i.memoryId);
    const pending = (await gql(tokens.alice, PENDING, { subject: "alice" })).pendingProposals.proposals.map((p: { proposalId: string }) => p.proposalId);
    return {
      governed: governedList.sort(),
      agent: (agentRead.body.items as { id: string }[]).map((i) => i.id).sort(),
      companion: (envelope.envelope.userFacts as { memoryId: string }[]).map((f) => f.memoryId).sort(),
      ledger: ledger.sort(),
      pending: pending.sort(),
    };
  };

  const reauditDone = (hash: string) => reauditDoneOf(gw, tokens.admin, hash);

  it("MP-BREAK C19-FORBID: after a phrase joins a lexicon and the bundle reloads, exactly the stored items containing it leave every read of every contract; an admin releases one, erasure still reaches another", async () => {
    const hit = {
      governed: [await storeGoverned("lunch", `prefers ${PHRASE} for lunch`), await storeGoverned("dinner", `${PHRASE.toUpperCase()} on Fridays`)],
      agent: [await writeAgent(`The build pipeline names its lint cache ${PHRASE}`)],
      companion: [await addFact(`User loves ${PHRASE}`)],
      ledger: [await approved(gw, tokens.ledgerAgent, tokens.alice, `I enjoy ${PHRASE} on Fridays`)],
      pending: [await propose(gw, tokens.ledgerAgent, { proposedText: `I've noticed I cook ${PHRASE} on Sundays` })],
    };
    const kept = {
      governed: [await storeGoverned("tone", "prefer concise responses"), await storeGoverned("editor", "uses vim keybindings")],
      agent: [await writeAgent("The build pipeline runs lint before the unit tests")],
      companion: [await addFact("User works on FL Studio")],
      ledger: [await approved(gw, tokens.ledgerAgent, tokens.alice, "I focus better in the morning")],
      pending: [await propose(gw, tokens.ledgerAgent, { proposedText: "I've noticed I read more on trains" })],
    };
    const all = (k: keyof typeof hit) => [...hit[k], ...kept[k]].sort();
    expect(await visible()).toEqual({
      governed: all("governed"),
      agent: all("agent"),
      companion: all("companion"),
      ledger: all("ledger"),
      pending: all("pending"),
    });

    // Tighten: the same file, a new bundle in it, reloaded as the file watcher would.
    const before = gw.gateway.services.policy.hash;
    copyFileSync(tightenedBundle(), bundlePath);
    expect(await gw.gateway.services.policy.reload()).toBe(true);
    const hash = gw.gateway.services.policy.hash!;
    expect(hash).not.toBe(before);

    const progress = await reauditDone(hash);
    const quarantinedIds = Object.values(hit).flat();
    expect(progress).toMatchObject({ state: "done", quarantined: quarantinedIds.length });
    const byKind = Object.fromEntries(progress.targets.map((t: { kind: string }) => [t.kind, t]));
    expect(byKind).toMatchObject({
      "governed-memories": { quarantined: 2, done: true },
      "agent-memories": { quarantined: 1, done: true },
      "companion-facts": { quarantined: 1, done: true },
      "ledger-items": { quarantined: 1, done: true },
      "ledger-proposals": { quarantined: 1, done: true },
    });
    // Bounded batches of 2: at least one scan per two objects, and the round trips are counted.
    expect(byKind["governed-memories"].scanned).toBe(4);
    expect(progress.roundTrips).toBeGreaterThanOrEqual(progress.scanned / 2 + quarantinedIds.length * 2);

    // Exactly the items containing the phrase are gone from every read, the others stay.
    expect(await visible()).toEqual({
      governed: [...kept.governed].sort(),
      agent: [...kept.agent].sort(),
      companion: [...kept.companion].sort(),
      ledger: [...kept.ledger].sort(),
      pending: [...kept.pending].sort(),
    });
    const read = (await gql(tokens.governed, READ, { id: hit.governed[0], subject: "alice" })).memory;
    expect(read).toMatchObject({ stopReason: "NOT_FOUND", memory: null });
    const selected = (await gql(tokens.alice, SELECT, { ids: [hit.ledger[0], kept.ledger[0]] })).selectedMemoryContext;
    expect(selected.selectedMemoryIds).toEqual([kept.ledger[0]]);
    expect(JSON.stringify(selected)).not.toContain(PHRASE);

    // Stored as quarantined, each with one quarantine event naming the rule and never the content.
    const db = gw.gateway.db;
    expect(await db.collection("memories").countDocuments({ tenant_id: "rj", status: "quarantined" })).toBe(2);
    expect(await db.collection("agent_memories").countDocuments({ tenant_id: "rj", status: "quarantined" })).toBe(1);
    expect(await db.collection("companion_facts").countDocuments({ tenant_id: "rj", status: "quarantined" })).toBe(1);
    expect(await db.collection("ledger_items").countDocuments({ tenant_id: "rj", status: "quarantined" })).toBe(1);
    expect(await db.collection("ledger_proposals").countDocuments({ tenant_id: "rj", decision: "quarantined" })).toBe(1);
    const events = await eventsOf(db, "rj");
    const quarantines = events.filter((e) => e.event_type === "quarantine");
    expect(quarantines.map((e) => e.memory_id).sort()).toEqual([...quarantinedIds].sort());
    for (const e of quarantines) {
      expect(e).toMatchObject({ operation: "REJUDGE", reason: "C19-FORBID", stop_reason: "FORBIDDEN_CATEGORY", policy_hash: hash, actor: { kind: "system" } });
      expect((e.metadata as { explanations: string[] }).explanations[0]).toMatch(/^C19-FORBID: credentials_in_/);
    }
    expect(JSON.stringify(events).toLowerCase()).not.toContain(PHRASE);

    // The same decision a write gets now.
    const refused = (await gql(tokens.governed, STORE, { input: preference({ key: "snack", value: `more ${PHRASE}` }) })).storeMemory;
    expect(refused.stopReason).toBe("FORBIDDEN_CATEGORY");

    // Only an admin sees the progress and releases; an unknown or live id is NOT_FOUND.
    expect((await gql(tokens.alice, STATUS)).reauditStatus.stopReason).toBe("POLICY_DISABLED");
    expect((await gql(tokens.alice, RELEASE, { id: hit.governed[0], reason: "mine", subject: "alice" })).releaseQuarantine.stopReason).toBe("POLICY_DISABLED");
    expect((await gql(tokens.admin, RELEASE, { id: kept.governed[0], reason: "not quarantined", subject: "alice" })).releaseQuarantine.stopReason).toBe(
      "NOT_FOUND",
    );

    // Release: the governed item and the agent memory come back to their reads, with a `release` event.
    const released = (await gql(tokens.admin, RELEASE, { id: hit.governed[0], reason: "reviewed: a pasta", subject: "alice" })).releaseQuarantine;
    expect(released).toMatchObject({ stopReason: "SUCCESS_UPDATED", releasedMemoryId: hit.governed[0], contract: "governed" });
    expect((await gql(tokens.governed, READ, { id: hit.governed[0], subject: "alice" })).memory.stopReason).toBe("SUCCESS_READ");
    expect((await gql(tokens.admin, RELEASE, { id: hit.agent[0], reason: "reviewed" })).releaseQuarantine.stopReason).toBe("SUCCESS_UPDATED");
    const now = await visible();
    expect(now.governed).toEqual([hit.governed[0], ...kept.governed].sort());
    expect(now.agent).toEqual(all("agent"));
    const release = (await eventsOf(db, "rj")).filter((e: MemoryEvent) => e.event_type === "release");
    expect(release.map((e) => [e.memory_id, e.subject_id, e.actor.id])).toEqual([
      [hit.governed[0], "alice", "owner"],
      [hit.agent[0], `repo:${REPO}`, "owner"],
    ]);

    // Erasure reaches a quarantined object: its content is gone, its tombstone stays.
    const erased = (await gql(tokens.admin, ERASE_MEMORY, { id: hit.ledger[0], reason: "subject request", subject: "alice" })).eraseMemory;
    expect(erased).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [hit.ledger[0]] });
    const tombstone = await db.collection("ledger_items").findOne({ tenant_id: "rj", memory_id: hit.ledger[0] });
    expect(tombstone).toMatchObject({ status: "erased" });
    expect(JSON.stringify(tombstone)).not.toContain(PHRASE);
  });

  it("MP-BREAK: a walk cut short resumes from its persisted cursor when the gateway starts again", async () => {
    const db = gw.gateway.db;
    const hash = gw.gateway.services.policy.hash!;
    const progress = db.collection<{ _id: string; state: string; targets: Record<string, { after: string | null; scanned: number; done: boolean }> }>(
      "reaudit_progress",
    );
    // As if the process stopped after the first batch of governed items: the cursor is the second item's `_id`.
    const firstTwo = await db.collection("memories").find({ tenant_id: "rj" }).sort({ _id: 1 }).limit(2).toArray();
    const remaining = (await db.collection("memories").countDocuments({ tenant_id: "rj" })) - 2;
    await progress.updateOne(
      { _id: leaseId("rj", hash) },
      {
        $set: {
          state: "running",
          finished_at: null,
          "targets.governed-memories": { after: String(firstTwo[1]._id), scanned: 2, quarantined: 0, done: false },
        },
      },
    );
    const dbName = gw.dbName;
    await gw.stop();
    gw = await startTestGateway({ clock, dbName, env: { MEMGATE_POLICY_BUNDLE: bundlePath }, reauditBatchSize: 2 });
    tokens.admin = await gw.token({ tenant: "rj", sub: "owner", subjects: [], roles: ["admin"] });
    expect(gw.gateway.services.policy.hash).toBe(hash);
    const done = await reauditDone(hash);
    const governed = done.targets.find((t: { kind: string }) => t.kind === "governed-memories");
    // Resumed, not restarted: the two items before the cursor were not scanned again.
    expect(governed).toMatchObject({ scanned: 2 + remaining, done: true });
  });
});
