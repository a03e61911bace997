import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../../src/clock";
import { logSettled, postMemory, writeDoc } from "../agent/support";
import { ERASE_SUBJECT, eventsOf, LIST, READ, STORE } from "../audit/support";
import { dumpDatabase } from "../support/database";
import { POLICY_BUNDLE, startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";
import { PHRASE, reauditDone, RELEASE, tightenedBundle } from "./support";

const UPDATE = `mutation U($input: UpdateMemoryInput!) { updateMemory(input: $input) { stopReason explanations memory { memoryId version value } } }`;
const ADD_FACT = `mutation Add($input: AddFactInput!) { addFact(input: $input) { stopReason explanations proposalId fact { memoryId } } }`;
const CONFIRM = `mutation C($id: ID!, $subject: ID) { confirmProposal(proposalId: $id, subjectId: $subject) { stopReason explanations fact { memoryId text } } }`;
const ENVELOPE = `query Env($subject: ID) { memoryEnvelope(purpose: RESPONSE, subjectId: $subject, skipCache: true) {
  stopReason envelope { userFacts { memoryId text } } } }`;
const SUMMARY = `User mentioned they love ${PHRASE}, enjoy ${PHRASE} carbonara, and work on FL Studio and Ableton`;
const REPO = "acme/web";
const QUERY = "build pipeline lint cache";

/**
 * Issue 13 item 5, the stored texts the first re-audit left out: superseded governed versions,
 * agent update records (their rationale and evidence refs) and companion proposals held by the
 * gate. Each is stored twice with the phrase and once without; the phrase joins a lexicon.
 */
describe("MP-BREAK C19-FORBID C19-ITEM: re-judging superseded versions, agent updates and held proposals (issue 13 item 5)", () => {
  const clock = new ManualClock("2026-09-02T09:00:00.000Z");
  let gw: TestGateway;
  let other: TestGateway | undefined;
  let bundlePath: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    bundlePath = path.join(mkdtempSync(path.join(os.tmpdir(), "memgate-rejudge-cover-")), "bundle.tar.gz");
    copyFileSync(POLICY_BUNDLE, bundlePath);
    gw = await startTestGateway({ clock, env: { MEMGATE_POLICY_BUNDLE: bundlePath }, reauditBatchSize: 2 });
    tokens.governed = await gw.token({ tenant: "rc", subjects: ["alice"], roles: ["agent"] });
    tokens.repo = await gw.token({ tenant: "rc", sub: "coder", subjects: [`repo:${REPO}`], roles: ["agent"] });
    tokens.adapter = await gw.token({ tenant: "rc", sub: "adapter", subjects: ["alice"], roles: ["adapter"] });
    tokens.alice = await gw.token({ tenant: "rc", sub: "alice", subjects: ["alice"], roles: ["user"] });
    tokens.admin = await gw.token({ tenant: "rc", sub: "owner", subjects: [], roles: ["admin"] });
  });
  afterAll(async () => {
    await other?.stop();
    await gw?.stop();
  });

  const gql = async (token: string, query: string, variables?: Record<string, unknown>) => {
    const res = await gw.gql(token, query, variables);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    return res.data!;
  };

  /** A governed item whose version 1 holds `first` and whose live version 2 holds `then`. */
  const supersededItem = async (key: string, first: string, then: string) => {
    const stored = (await gql(tokens.governed, STORE, { input: preference({ key, value: first }) })).storeMemory;
    expect(stored.stopReason).toBe("SUCCESS_STORED");
    const id = stored.memory.memoryId as string;
    const updated = (await gql(tokens.governed, UPDATE, { input: { ...preference({ key, value: then }), memoryId: id, expectedVersion: 1 } })).updateMemory;
    expect(updated).toMatchObject({ stopReason: "SUCCESS_UPDATED", memory: { version: 2, value: then } });
    return id;
  };
  /** An agent memory with one committed update of its truth; returns the memory id and the update id. */
  const updatedMemory = async (text: string, rationale: string, evidence: string) => {
    const written = await postMemory(gw, tokens.repo, writeDoc(REPO, { text }));
    expect(written.body.stop_reason).toBe("SUCCESS_STORED");
    const memoryId = written.body.memory.id as string;
    const res = await postMemory(gw, tokens.repo, {
      op: "update",
      repo_id: REPO,
      memory_id: memoryId,
      mode: "commit",
      updates: { truth: { target: 0.3, confidence: 0.8, rationale, evidence_refs: [evidence] } },
    });
    expect(res.body.stop_reason).toBe("SUCCESS_UPDATED");
    const update = await gw.gateway.db.collection("agent_memory_updates").findOne({ tenant_id: "rc", memory_id: memoryId });
    return { memoryId, updateId: update!.update_id as string };
  };
  const heldProposal = async (text: string) => {
    const input = { subjectId: "alice", type: "USER_FACT", text, confidence: 0.77, source: "llm_extraction", summary: SUMMARY };
    const d = (await gql(tokens.adapter, ADD_FACT, { input })).addFact;
    expect(d.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    return d.proposalId as string;
  };
  const agentItems = async (via: TestGateway = gw) => {
    const read = await postMemory(via, tokens.repo, { op: "read", repo_id: REPO, mode: "targeted", query: QUERY });
    expect(read.body.stop_reason).toBe("SUCCESS_READ");
    return Object.fromEntries((read.body.items as { id: string; truth: unknown }[]).map((i) => [i.id, i.truth]));
  };
  const versionStatuses = async () =>
    Object.fromEntries(
      (await gw.gateway.db.collection("memory_versions").find({ tenant_id: "rc" }).toArray()).map((v) => [`${v.memory_id}@${v.version}`, v.status]),
    );
  const liveItems = async () => {
    const list = (await gql(tokens.governed, LIST, { subject: "alice" })).memories.memories as { memoryId: string }[];
    const values: Record<string, string> = {};
    for (const { memoryId } of list) values[memoryId] = (await gql(tokens.governed, READ, { id: memoryId, subject: "alice" })).memory.memory.value;
    return values;
  };
  const itemCount = async () => {
    const store = gw.gateway.services.contracts.governed.store;
    await store.idle();
    return (await store.counters.read("rc", "alice", 0)).counts.items;
  };

  it("MP-BREAK C19-FORBID: exactly the refused superseded versions, update texts and held proposals leave every read; quarantine events name the rule only; a release restores them; eraseSubject erases them", async () => {
    const versions = {
      hit: [
        await supersededItem("lunch", `prefers ${PHRASE} for lunch`, "prefers risotto for lunch"),
        await supersededItem("dinner", `${PHRASE} on Fridays`, "soup on Fridays"),
      ],
      kept: [await supersededItem("tone", "prefer concise responses", "prefer detailed responses")],
    };
    // A live item the policy now refuses too: quarantined, and still counted against the subject's cap.
    const snack = (await gql(tokens.governed, STORE, { input: preference({ key: "snack", value: `${PHRASE} chips` }) })).storeMemory.memory.memoryId as string;
    // READ returns an item's source ref: it is judged as its write declared it.
    const sourced = (await gql(tokens.governed, STORE, { input: preference({ key: "drink", value: "sparkling water", sourceRef: `chat:${PHRASE}-12` }) }))
      .storeMemory;
    expect(sourced.stopReason).toBe("SUCCESS_STORED");
    const drink = sourced.memory.memoryId as string;
    const updates = {
      hit: [
        await updatedMemory("The build pipeline caches lint results per package", `the ${PHRASE} cache proved it`, "pr:812"),
        await updatedMemory("The build pipeline stores its lint cache in .cache", "confirmed on staging", `ticket:${PHRASE}-7`),
      ],
      kept: [await updatedMemory("The build pipeline runs lint before the unit tests", "confirmed on staging", "pr:900")],
    };
    const proposals = {
      hit: [await heldProposal(`User loves ${PHRASE}`), await heldProposal(`User enjoys ${PHRASE} carbonara`)],
      kept: [await heldProposal("User works on FL Studio")],
    };

    // Before: every version is superseded, every update's words are in the reads.
    const liveBefore = await liveItems();
    expect(Object.keys(liveBefore).sort()).toEqual([...versions.hit, ...versions.kept, snack, drink].sort());
    expect(Object.values(await versionStatuses())).toEqual(["superseded", "superseded", "superseded"]);
    const agentBefore = await agentItems();
    expect(Object.keys(agentBefore).sort()).toEqual([...updates.hit, ...updates.kept].map((u) => u.memoryId).sort());
    for (const u of [...updates.hit, ...updates.kept]) expect(agentBefore[u.memoryId]).toMatchObject({ target: 0.3, confidence: 0.8 });
    expect(JSON.stringify(agentBefore)).toContain(PHRASE);
    // A second process on the same database, its agent index built before the quarantine: it follows the events.
    // It keeps a bundle file of its own (never reloaded), so only the first process walks.
    const otherBundle = path.join(mkdtempSync(path.join(os.tmpdir(), "memgate-rejudge-cover-")), "bundle.tar.gz");
    copyFileSync(POLICY_BUNDLE, otherBundle);
    other = await startTestGateway({ clock, dbName: gw.dbName, env: { MEMGATE_POLICY_BUNDLE: otherBundle } });
    expect(await agentItems(other)).toEqual(agentBefore);
    const countBefore = await itemCount();
    expect(countBefore).toBe(5);

    const before = gw.gateway.services.policy.hash;
    copyFileSync(tightenedBundle(), bundlePath);
    expect(await gw.gateway.services.policy.reload()).toBe(true);
    const hash = gw.gateway.services.policy.hash!;
    expect(hash).not.toBe(before);
    const progress = await reauditDone(gw, tokens.admin, hash);
    const byKind = Object.fromEntries(progress.targets.map((t: { kind: string }) => [t.kind, t]));
    expect(byKind).toMatchObject({
      "governed-memories": { scanned: 5, quarantined: 2, done: true },
      "governed-versions": { scanned: 3, quarantined: 2, done: true },
      "agent-memories": { scanned: 3, quarantined: 0, done: true },
      "agent-updates": { scanned: 3, quarantined: 2, done: true },
      "companion-proposals": { scanned: 3, quarantined: 2, done: true },
    });
    expect(progress.quarantined).toBe(8);

    // Governed: the refused versions are quarantined, the live versions and the clean version untouched.
    expect(await versionStatuses()).toEqual({
      [`${versions.hit[0]}@1`]: "quarantined",
      [`${versions.hit[1]}@1`]: "quarantined",
      [`${versions.kept[0]}@1`]: "superseded",
    });
    const { [snack]: _gone, [drink]: _alsoGone, ...liveStill } = liveBefore;
    expect(await liveItems()).toEqual(liveStill);
    // C19-CAP: a quarantined item still counts against the cap (a release gives it back, never a second slot).
    expect(await itemCount()).toBe(countBefore);

    // Agent: the memories stay; the refused updates' words are gone from every read, their numbers stay.
    const agentAfter = await agentItems();
    expect(Object.keys(agentAfter).sort()).toEqual(Object.keys(agentBefore).sort());
    for (const u of updates.hit) expect(agentAfter[u.memoryId]).toMatchObject({ target: 0.3, confidence: 0.8, rationale: "", evidence_refs: [] });
    expect(agentAfter[updates.kept[0].memoryId]).toEqual(agentBefore[updates.kept[0].memoryId]);
    expect(JSON.stringify(agentAfter)).not.toContain(PHRASE);
    await logSettled(gw, "rc");
    expect(await agentItems(other)).toEqual(agentAfter);
    const dryRun = await postMemory(gw, tokens.repo, {
      op: "update",
      repo_id: REPO,
      memory_id: updates.hit[0].memoryId,
      mode: "dry_run",
      updates: { utility: { target: 0.5, confidence: 0.5, rationale: "useful" } },
    });
    expect(dryRun.body.before.truth).toMatchObject({ rationale: "", evidence_refs: [] });

    // Companion: a quarantined proposal cannot be confirmed; the clean one still can.
    for (const id of proposals.hit) expect((await gql(tokens.alice, CONFIRM, { id })).confirmProposal.stopReason).toBe("NOT_FOUND");
    const confirmed = (await gql(tokens.alice, CONFIRM, { id: proposals.kept[0] })).confirmProposal;
    expect(confirmed).toMatchObject({ stopReason: "SUCCESS_STORED", fact: { text: "User works on FL Studio" } });
    const envelope = (await gql(tokens.adapter, ENVELOPE, { subject: "alice" })).memoryEnvelope.envelope.userFacts as { text: string }[];
    expect(envelope.map((f) => f.text)).toEqual(["User works on FL Studio"]);

    // One quarantine event per object, naming the rule and the field, never the content.
    const db = gw.gateway.db;
    const quarantines = (await eventsOf(db, "rc")).filter((e) => e.event_type === "quarantine");
    const named = Object.fromEntries(quarantines.map((e) => [e.memory_id, (e.metadata as { explanations: string[] }).explanations]));
    // The field the phrase is in is named as its write declared it (a detector may also name the texts joined, "entry").
    const field = (rule: string) => expect.arrayContaining([`C19-FORBID: credentials_in_${rule}`]);
    expect(named).toEqual({
      [snack]: field("value"),
      [drink]: field("source_ref"),
      [versions.hit[0]]: field("value"),
      [versions.hit[1]]: field("value"),
      [updates.hit[0].updateId]: field("updates.truth.rationale"),
      [updates.hit[1].updateId]: field("updates.truth.evidence_refs[0]"),
      [proposals.hit[0]]: field("text"),
      [proposals.hit[1]]: field("text"),
    });
    for (const rules of Object.values(named) as string[][]) for (const rule of rules) expect(rule).toMatch(/^C19-FORBID: credentials_in_/);
    for (const e of quarantines) expect(e).toMatchObject({ operation: "REJUDGE", reason: "C19-FORBID", policy_hash: hash, actor: { kind: "system" } });
    expect(quarantines.find((e) => e.memory_id === versions.hit[0])!.metadata).toMatchObject({ kind: "governed-versions", version: 1 });
    expect(quarantines.find((e) => e.memory_id === updates.hit[0].updateId)!.metadata).toMatchObject({
      kind: "agent-updates",
      space: `repo:${REPO}`,
      of_memory: updates.hit[0].memoryId,
    });
    expect(JSON.stringify(await eventsOf(db, "rc")).toLowerCase()).not.toContain(PHRASE);

    // Release one of each: the version is superseded again, the update's words come back, the proposal can be confirmed.
    const release = async (id: string) => (await gql(tokens.admin, RELEASE, { id, reason: "reviewed: a pasta" })).releaseQuarantine;
    expect(await release(versions.hit[0])).toMatchObject({ stopReason: "SUCCESS_UPDATED", releasedMemoryId: versions.hit[0], contract: "governed" });
    expect((await versionStatuses())[`${versions.hit[0]}@1`]).toBe("superseded");
    expect(await release(snack)).toMatchObject({ stopReason: "SUCCESS_UPDATED", contract: "governed" });
    expect(await itemCount()).toBe(countBefore);
    expect(await release(updates.hit[0].updateId)).toMatchObject({ stopReason: "SUCCESS_UPDATED", contract: "agent" });
    expect((await agentItems())[updates.hit[0].memoryId]).toEqual(agentBefore[updates.hit[0].memoryId]);
    await logSettled(gw, "rc"); // the other process reads the log up to the stored chain head
    expect((await agentItems(other))[updates.hit[0].memoryId]).toEqual(agentBefore[updates.hit[0].memoryId]);
    expect(await release(proposals.hit[0])).toMatchObject({ stopReason: "SUCCESS_UPDATED", contract: "companion" });
    expect((await gql(tokens.alice, CONFIRM, { id: proposals.hit[0] })).confirmProposal.stopReason).toBe("SUCCESS_STORED");
    // Released once: a second release of the same id finds nothing quarantined.
    expect((await release(versions.hit[0])).stopReason).toBe("NOT_FOUND");
    const releases = (await eventsOf(db, "rc")).filter((e) => e.event_type === "release");
    expect(releases.map((e) => [e.memory_id, (e.metadata as { kind: string }).kind])).toEqual([
      [versions.hit[0], "governed-versions"],
      [snack, "governed-memories"],
      [updates.hit[0].updateId, "agent-updates"],
      [proposals.hit[0], "companion-proposals"],
    ]);
    expect(releases[0].metadata).toMatchObject({ versions: [1] });

    // Erasure reaches what is still quarantined (and what was released): no stored copy of the phrase is left.
    for (const subject of ["alice", `repo:${REPO}`]) {
      const erased = (await gql(tokens.admin, ERASE_SUBJECT, { reason: "subject request", subject })).eraseSubject;
      expect(erased.stopReason).toBe("SUCCESS_DELETED");
    }
    expect(await db.collection("memory_versions").countDocuments({ tenant_id: "rc", status: { $ne: "erased" } })).toBe(0);
    expect(await db.collection("agent_memory_updates").countDocuments({ tenant_id: "rc", status: { $ne: "erased" } })).toBe(0);
    expect(await db.collection("companion_proposals").countDocuments({ tenant_id: "rc", status: { $nin: ["erased"] } })).toBe(0);
    expect((await dumpDatabase(db)).toLowerCase()).not.toContain(PHRASE);
  });
});
