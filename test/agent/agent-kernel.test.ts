import { Repair } from "../../src/jobs/repair";
import { ManualClock } from "../../src/clock";
import { AGENT_COLLECTIONS, agentMemoryDocId, repoSpace, sealMemory } from "../../src/contracts/agent/records";
import { AgentStore, dueEvent } from "../../src/contracts/agent/store";
import type { MemoryEvent } from "../../src/store/event-log";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { logSettled, postMemory, readDoc, writeDoc } from "./support";

const CARD = "4111 1111 1111 1111";
const API_KEY = "sk-proj-abcdefghijklmnopqrstuvwxyz1234567890";
const ERASE_MEMORY = `mutation Erase($id: ID!, $reason: String!, $subject: ID) { eraseMemory(memoryId: $id, reason: $reason, subjectId: $subject) { stopReason explanations erasedMemoryIds } }`;
const ERASE_SUBJECT = `mutation EraseAll($reason: String!, $subject: ID) { eraseSubject(reason: $reason, subjectId: $subject) { stopReason explanations erasedMemoryIds } }`;
const VERIFY = `query Verify { verifyAuditChain { ok } }`;
const WRITE = `mutation Write($input: AgentWriteInput!) { agentWrite(input: $input) { stopReason explanations errors { pointer message } memory { id } } }`;

const update = (repo: string, memoryId: string, mode: "commit" | "dry_run", updates: Record<string, unknown>) => ({
  op: "update",
  repo_id: repo,
  memory_id: memoryId,
  mode,
  updates,
});
const truth = (extra: Record<string, unknown> = {}) => ({
  truth: { target: 0.9, confidence: 0.8, rationale: "checked it", evidence_refs: ["ci:run/1"], ...extra },
});
const utility = (extra: Record<string, unknown> = {}) => ({ utility: { target: 0.7, confidence: 0.6, rationale: "saved time", ...extra } });

/** The agent contract on the operation kernel (issue 11): text hygiene, content checks on every text field, no existence oracle, metrics, erasure, provenance. */
describe("the agent contract on the operation kernel", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  const REPO = "acme/kernel";
  let gw: TestGateway;
  let agent: string;

  beforeAll(async () => {
    // The log is broken below by a document holding the next seq under another `_id`: the unique
    // (tenant_id, seq) index, a secondary index, is what makes it refuse the append.
    gw = await startTestGateway({ clock, env: { MEMGATE_SECONDARY_INDEXES: "true" } });
    agent = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["agent"], sub: "agent-7" });
  });
  afterAll(() => gw.stop());

  const write = async (memory: Record<string, unknown>, repo = REPO, token = agent): Promise<string> => {
    const res = await postMemory(gw, token, writeDoc(repo, memory));
    expect(res.body.stop_reason).toBe("SUCCESS_STORED");
    return res.body.memory.id as string;
  };
  const events = (tenant = "acme") => gw.gateway.db.collection<MemoryEvent>("memory_events").find({ tenant_id: tenant }).sort({ seq: 1 }).toArray();
  const count = (collection: string) => gw.gateway.db.collection(collection).countDocuments({});

  describe("text hygiene (issue 11 §4)", () => {
    const ILL_FORMED = ["x \udc00\ud800", "lone \ud800 high", "lone \udfff low"];

    it("C19-ITEM SPEC-D3a IF1-VALID: lone or reversed surrogates in any text field answer SCHEMA_INVALID at their pointer, store nothing, and the repository still reads back", async () => {
      const target = await write({ text: "Unicode hygiene target memory", kind: "problem" });
      const memories = await count(AGENT_COLLECTIONS.memories);
      const updates = await count(AGENT_COLLECTIONS.updates);
      for (const bad of ILL_FORMED) {
        const cases: [string, unknown, string][] = [
          ["memory.text", writeDoc(REPO, { text: bad }), "/memory/text"],
          ["memory.rationale", writeDoc(REPO, { text: "fine", rationale: bad }), "/memory/rationale"],
          ["memory.evidence_refs[]", writeDoc(REPO, { text: "fine", evidence_refs: ["ok", bad] }), "/memory/evidence_refs/1"],
          ["memory.links.related_memory_ids[]", writeDoc(REPO, { text: "fine", links: { related_memory_ids: [bad] } }), "/memory/links/related_memory_ids/0"],
          ["query", readDoc(REPO, bad), "/query"],
          ["updates.truth.rationale", update(REPO, target, "commit", truth({ rationale: bad })), "/updates/truth/rationale"],
          ["updates.truth.evidence_refs[]", update(REPO, target, "commit", truth({ evidence_refs: [bad] })), "/updates/truth/evidence_refs/0"],
          ["updates.utility.rationale", update(REPO, target, "dry_run", utility({ rationale: bad })), "/updates/utility/rationale"],
          ["updates.utility.evidence_refs[]", update(REPO, target, "commit", utility({ evidence_refs: [bad] })), "/updates/utility/evidence_refs/0"],
          ["memory_id", update(REPO, `am_${bad}`, "commit", truth()), "/memory_id"],
          ["repo_id", writeDoc(`acme/${bad}`, { text: "fine" }), "/repo_id"],
        ];
        for (const [field, document, pointer] of cases) {
          const res = await postMemory(gw, agent, document);
          expect([field, bad, res.status, res.body.stop_reason]).toEqual([field, bad, 200, "SCHEMA_INVALID"]);
          expect(res.body.errors).toContainEqual({ pointer, message: "must be well-formed UTF-16 (no lone or reversed surrogates)" });
          expect(res.body.explanations).toContain(`C19-ITEM: ${field}_ill_formed_unicode`);
        }
        // The typed GraphQL door answers the same.
        const typed = await gw.gql(agent, WRITE, { input: { repo_id: REPO, memory: { text: bad, scope: "repo", kind: "fact", confidence: 0.5 } } });
        expect(typed.data!.agentWrite).toMatchObject({ stopReason: "SCHEMA_INVALID", errors: [{ pointer: "/memory/text" }] });
      }
      expect(await count(AGENT_COLLECTIONS.memories)).toBe(memories);
      expect(await count(AGENT_COLLECTIONS.updates)).toBe(updates);
      // Nothing was poisoned: the repository reads back, and the log still verifies.
      const read = await postMemory(gw, agent, readDoc(REPO, "unicode hygiene target"));
      expect(read.body).toMatchObject({ stop_reason: "SUCCESS_READ", items: [{ id: target }] });
      const auditor = await gw.token({ tenant: "acme", subjects: [], roles: ["auditor"] });
      expect((await gw.gql(auditor, VERIFY)).data!.verifyAuditChain.ok).toBe(true);
    });

    it("C19-ITEM SPEC-D3a: a control character other than tab and newline is SCHEMA_INVALID at its pointer", async () => {
      const res = await postMemory(gw, agent, writeDoc(REPO, { text: "bell \u0007 here", rationale: "tab\tand\nnewline are fine" }));
      expect(res.body).toMatchObject({
        stop_reason: "SCHEMA_INVALID",
        errors: [{ pointer: "/memory/text", message: "must not contain control characters other than tab and newline" }],
      });
    });

    it("C19-ITEM IF1-VALID: every list and string has a bound in policy data: too many evidence refs or link ids are BOUNDS_EXCEEDED at the list's pointer", async () => {
      const refs = await postMemory(gw, agent, writeDoc(REPO, { text: "many refs", evidence_refs: Array.from({ length: 51 }, (_, i) => `ref:${i}`) }));
      expect(refs.body).toMatchObject({
        stop_reason: "BOUNDS_EXCEEDED",
        errors: [{ pointer: "/memory/evidence_refs", message: "lists 51 items; at most 50 allowed" }],
      });
      const long = await postMemory(gw, agent, readDoc(REPO, "q".repeat(2001)));
      expect(long.body).toMatchObject({ stop_reason: "BOUNDS_EXCEEDED", errors: [{ pointer: "/query", message: "is 2001 long; at most 2000 allowed" }] });
    });
  });

  describe("content checks on every text field (C19-FORBID)", () => {
    it("C19-FORBID SPEC-D4: a card number or an API key in text, rationale, an evidence ref, a query, or an update's rationale or evidence is FORBIDDEN_CATEGORY and stored nowhere", async () => {
      const target = await write({ text: "Forbidden probe target memory", kind: "problem" });
      await logSettled(gw);
      const memories = await count(AGENT_COLLECTIONS.memories);
      const before = (await events()).length;
      const cases: [string, unknown][] = [];
      for (const secret of [`refund to card ${CARD}`, `the key is ${API_KEY}`]) {
        cases.push(
          ["memory.text", writeDoc(REPO, { text: secret })],
          ["memory.rationale", writeDoc(REPO, { text: "fine", rationale: secret })],
          ["memory.evidence_refs[]", writeDoc(REPO, { text: "fine", evidence_refs: ["ci:run/2", secret] })],
          ["query", readDoc(REPO, secret)],
          ["updates.truth.rationale", update(REPO, target, "commit", truth({ rationale: secret }))],
          ["updates.truth.evidence_refs[]", update(REPO, target, "commit", truth({ evidence_refs: [secret] }))],
          ["updates.utility.rationale", update(REPO, target, "dry_run", utility({ rationale: secret }))],
          ["updates.utility.evidence_refs[]", update(REPO, target, "commit", utility({ evidence_refs: [secret] }))],
        );
      }
      for (const [field, document] of cases) {
        const res = await postMemory(gw, agent, document);
        expect([field, res.body.stop_reason]).toEqual([field, "FORBIDDEN_CATEGORY"]);
        expect(res.body.explanations.join(" ")).toContain("C19-FORBID");
      }
      // The raw door and the typed one alike.
      const raw = await gw.gql(agent, `mutation Raw($d: JSON!) { memoryRequest(document: $d) }`, { d: writeDoc(REPO, { text: `card ${CARD}` }) });
      expect(raw.data!.memoryRequest.stop_reason).toBe("FORBIDDEN_CATEGORY");
      expect(await count(AGENT_COLLECTIONS.memories)).toBe(memories);
      const refusals = (await events()).slice(before);
      expect(refusals.every((e) => e.event_type === "refuse" && e.reason === null)).toBe(true);
      const dump = await dumpDatabase(gw.gateway.db);
      for (const secret of ["4111 1111", "sk-proj", "refund to card"]) expect(dump).not.toContain(secret);
    });
  });

  describe("no existence oracle (issue 11 §5)", () => {
    it("SPEC-D3 SPEC-D5 SG-ISOLATION: for a repository the token does not hold, update, dry run, linked write and read answer identically for a real and a made-up id", async () => {
      const owner = await gw.token({ tenant: "acme", subjects: ["repo:acme/private"], roles: ["agent"] });
      const real = await write({ text: "Private repository memory", kind: "problem" }, "acme/private", owner);
      const madeUp = `am_${"0".repeat(real.length - 3)}`;
      expect(madeUp).toHaveLength(real.length);
      const probes = (id: string): unknown[] => [
        update("acme/private", id, "commit", truth()),
        update("acme/private", id, "dry_run", utility({ context_problem_id: id })),
        writeDoc("acme/private", { text: "probe", kind: "solution", links: { problem_id: id, related_memory_ids: [id] } }),
        writeDoc("acme/private", { text: "probe", kind: "change", links: { change_targets: [id] } }),
      ];
      await logSettled(gw);
      const before = (await events()).length;
      const shape = (body: Record<string, unknown>) => ({ stop_reason: body.stop_reason, explanations: body.explanations, errors: body.errors, op: body.op });
      for (const [i, probe] of probes(real).entries()) {
        const a = await postMemory(gw, agent, probe);
        const b = await postMemory(gw, agent, probes(madeUp)[i]);
        expect(shape(a.body)).toEqual(shape(b.body));
        expect(a.body.stop_reason).toBe("POLICY_DISABLED");
      }
      const read = await postMemory(gw, agent, readDoc("acme/private", "private repository memory"));
      expect(read.body.stop_reason).toBe("NOT_FOUND");
      expect(read.body.items).toBeUndefined();
      // The refusals' events tell them apart no better than the answers.
      const refusals = (await events()).slice(before, before + probes(real).length * 2);
      const eventShape = (e: MemoryEvent) => ({ type: e.event_type, stop: e.stop_reason, subject: e.subject_id, memory: e.memory_id, metadata: e.metadata });
      for (let i = 0; i < refusals.length; i += 2) expect(eventShape(refusals[i])).toEqual(eventShape(refusals[i + 1]));
      // Within a repository the token holds, a memory of another repository is as absent as a made-up one.
      const inOwn = (id: string) => postMemory(gw, agent, update(REPO, id, "commit", truth()));
      expect(shape((await inOwn(real)).body)).toEqual(shape((await inOwn(madeUp)).body));
    });

    it("SPEC-D1 SPEC-D3 SG-ISOLATION: eraseMemory of an agent memory for a subject the token does not hold answers as for a made-up id, and erases nothing", async () => {
      const owner = await gw.token({ tenant: "acme", subjects: ["repo:acme/vault"], roles: ["agent"] });
      const real = await write({ text: "Vault memory VAULTMARK" }, "acme/vault", owner);
      const madeUp = `am_${"1".repeat(real.length - 3)}`;
      const user = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["user"] });
      const answers = [];
      for (const id of [real, madeUp])
        answers.push((await gw.gql(user, ERASE_MEMORY, { id, subject: "repo:acme/vault", reason: "not mine" })).data!.eraseMemory);
      expect(answers[0]).toEqual(answers[1]);
      expect(answers[0].stopReason).toBe("NOT_FOUND");
      expect(await gw.gateway.db.collection(AGENT_COLLECTIONS.memories).findOne({ memory_id: real })).toMatchObject({
        status: "active",
        text: "Vault memory VAULTMARK",
      });
    });
  });

  describe("erasure reaches agent memories (SPEC D1)", () => {
    const ERASE_REPO = "acme/erasable";
    let writer: string;
    let admin: string;

    beforeAll(async () => {
      writer = await gw.token({ tenant: "acme", subjects: [`repo:${ERASE_REPO}`, `repo:${REPO}`], roles: ["agent"], sub: "agent-erase" });
      admin = await gw.token({ tenant: "acme", subjects: [], roles: ["admin"], sub: "root" });
    });

    it("SPEC-D1 MP-FORGET IF1-EXPAND: eraseSubject of a repository tombstones its memories and their update records: text, rationale and evidence gone from every collection, reads and link expansion", async () => {
      const problem = await write(
        { text: "Otter ERASEMARK-TEXT cache stampede", kind: "problem", rationale: "ERASEMARK-RATIONALE", evidence_refs: ["ERASEMARK-EVIDENCE"] },
        ERASE_REPO,
        writer,
      );
      const solution = await write({ text: "Otter jitter fix ERASEMARK-SOLUTION", kind: "solution", links: { problem_id: problem } }, ERASE_REPO, writer);
      const global = await write({ text: "Otter global preference ERASEMARK-GLOBAL", kind: "preference", scope: "global" }, ERASE_REPO, writer);
      const committed = await postMemory(
        gw,
        writer,
        update(ERASE_REPO, solution, "commit", truth({ rationale: "ERASEMARK-UPDATE", evidence_refs: ["ERASEMARK-UPDATE-REF"] })),
      );
      expect(committed.body.stop_reason).toBe("SUCCESS_UPDATED");
      // One memory elsewhere that links into the repository: it stays, its link leads nowhere.
      const elsewhere = await write({ text: "Otter note in another repo", links: { related_memory_ids: [] } }, REPO, writer);
      const before = await postMemory(gw, writer, { ...readDoc(ERASE_REPO, "otter stampede jitter"), expand: { semantic_hops: 2 } });
      expect(before.body.items.map((i: { id: string }) => i.id)).toEqual(expect.arrayContaining([problem, solution]));

      const res = (await gw.gql(admin, ERASE_SUBJECT, { subject: `repo:${ERASE_REPO}`, reason: "repository deleted" })).data!.eraseSubject;
      expect(res).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [problem, solution, global].sort() });

      const dump = await dumpDatabase(gw.gateway.db);
      expect(dump).not.toContain("ERASEMARK");
      const tombstones = await gw.gateway.db
        .collection(AGENT_COLLECTIONS.memories)
        .find({ memory_id: { $in: [problem, solution, global] } })
        .toArray();
      expect(tombstones).toHaveLength(3);
      for (const t of tombstones) {
        expect(t).toMatchObject({
          status: "erased",
          text: "",
          rationale: null,
          evidence_refs: [],
          truth: null,
          utility: null,
          content_salt: "",
          // A reason that is not a code is recorded as `other`; its words go to an erasable note (issue 22 §4).
          erasure: { reason: "other", subject_id: `repo:${ERASE_REPO}` },
        });
        expect(t.provenance.source_refs).toEqual([]);
      }
      const updateTombstone = await gw.gateway.db.collection(AGENT_COLLECTIONS.updates).findOne({ memory_id: solution });
      expect(updateTombstone).toMatchObject({ status: "erased", after: { truth: null, utility: null } });

      // Reads, global reads from another repository and link expansion no longer show them.
      const after = await postMemory(gw, writer, { ...readDoc(ERASE_REPO, "otter stampede jitter"), expand: { semantic_hops: 3 } });
      expect(after.body).toMatchObject({ stop_reason: "SUCCESS_READ", items: [] });
      const fromElsewhere = await postMemory(gw, writer, { ...readDoc(REPO, "otter global preference note"), expand: { semantic_hops: 3 } });
      expect(fromElsewhere.body.items.map((i: { id: string }) => i.id)).toEqual([elsewhere]);
      // A link to an erased memory names no memory; an update of one is NOT_FOUND.
      const link = await postMemory(gw, writer, writeDoc(ERASE_REPO, { text: "new", kind: "solution", links: { problem_id: problem } }));
      expect(link.body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/memory/links/problem_id" }] });
      expect((await postMemory(gw, writer, update(ERASE_REPO, solution, "commit", truth()))).body.stop_reason).toBe("NOT_FOUND");

      // Each object's erase event, and the log still verifies.
      const erases = (await events()).filter((e) => e.event_type === "erase" && e.metadata.object_contract === "agent");
      expect(erases.map((e) => e.memory_id).sort()).toEqual([problem, solution, global].sort());
      const auditor = await gw.token({ tenant: "acme", subjects: [], roles: ["auditor"] });
      expect((await gw.gql(auditor, VERIFY)).data!.verifyAuditChain.ok).toBe(true);
    });

    it("SPEC-D1: eraseMemory finds an agent memory by its repository's subject or by its author, and another process's index drops it once it sees the erase event", async () => {
      const bySubject = await write({ text: "Beaver SUBJECTMARK memory" }, ERASE_REPO, writer);
      const byAuthor = await write({ text: "Beaver AUTHORMARK memory" }, ERASE_REPO, writer);
      // A second process's index, built before the erasure.
      // A second gateway on the same database, built by the same composition root (its own index).
      const { db } = gw.gateway;
      const gw2 = await startTestGateway({ clock, dbName: gw.dbName });
      const token2 = await gw2.token({ tenant: "acme", subjects: [`repo:${ERASE_REPO}`], roles: ["agent"], sub: "agent-erase" });
      const second = async (doc: unknown) => (await postMemory(gw2, token2, doc)).body;
      const seen = await second(readDoc(ERASE_REPO, "beaver memory"));
      expect(seen.items.map((i: { id: string }) => i.id).sort()).toEqual([bySubject, byAuthor].sort());

      const user = await gw.token({ tenant: "acme", subjects: [`repo:${ERASE_REPO}`], roles: ["user"] });
      const one = (await gw.gql(user, ERASE_MEMORY, { id: bySubject, subject: `repo:${ERASE_REPO}`, reason: "please forget" })).data!.eraseMemory;
      expect(one).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [bySubject] });
      const two = (await gw.gql(admin, ERASE_MEMORY, { id: byAuthor, subject: "agent-erase", reason: "author asked" })).data!.eraseMemory;
      expect(two).toMatchObject({ stopReason: "SUCCESS_DELETED", erasedMemoryIds: [byAuthor] });
      // Erased already: nothing left to erase.
      expect((await gw.gql(user, ERASE_MEMORY, { id: bySubject, subject: `repo:${ERASE_REPO}`, reason: "again" })).data!.eraseMemory.stopReason).toBe(
        "NOT_FOUND",
      );

      expect((await postMemory(gw, writer, readDoc(ERASE_REPO, "beaver memory"))).body.items).toEqual([]);
      await logSettled(gw);
      expect((await second(readDoc(ERASE_REPO, "beaver memory"))).items).toEqual([]);
      await gw2.stop();
      const dump = await dumpDatabase(db);
      for (const mark of ["SUBJECTMARK", "AUTHORMARK"]) expect(dump).not.toContain(mark);
    });

    it("SPEC-D1: erasing an update's author removes its rationale and evidence from the update record and from the memory's current value; the memory itself stays", async () => {
      const memory = await write({ text: "Heron shared memory kept" }, REPO);
      const helper = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`, "helper-9"], roles: ["agent"], sub: "helper-9" });
      const res = await postMemory(
        gw,
        helper,
        update(REPO, memory, "commit", utility({ rationale: "HELPERMARK rationale", evidence_refs: ["HELPERMARK-ref"] })),
      );
      expect(res.body.stop_reason).toBe("SUCCESS_UPDATED");
      const erased = (await gw.gql(admin, ERASE_SUBJECT, { subject: "helper-9", reason: "helper left" })).data!.eraseSubject;
      expect(erased.stopReason).toBe("SUCCESS_DELETED");
      expect(erased.erasedMemoryIds).toHaveLength(1);
      expect(erased.erasedMemoryIds[0]).toMatch(/^au_/);
      expect(await dumpDatabase(gw.gateway.db)).not.toContain("HELPERMARK");
      const read = await postMemory(gw, agent, readDoc(REPO, "heron shared memory"));
      expect(read.body.items[0]).toMatchObject({ id: memory, text: "Heron shared memory kept", utility: { target: 0.7, rationale: "", evidence_refs: [] } });
    });
  });

  describe("provenance, integrity and settling (MP-OBJECT, MP-LOG)", () => {
    it("MP-OBJECT: every stored memory and update record carries provenance and an integrity hash; a tampered record answers INTERNAL_INCONSISTENCY with a conformance break, never its text", async () => {
      const id = await write({ text: "Lynx provenance memory", rationale: "why", evidence_refs: ["pr:1"] });
      await postMemory(gw, agent, update(REPO, id, "commit", truth()));
      const stored = await gw.gateway.db.collection(AGENT_COLLECTIONS.memories).findOne({ memory_id: id });
      expect(stored).toMatchObject({
        subject_id: `repo:${REPO}`,
        author_id: "agent-7",
        provenance: {
          statement_type: "SystemGeneratedStatement",
          verdict_type: "Inference",
          source_refs: ["pr:1"],
          temporal_scope: "unknown",
          applicability_scope: { level: "repo", subject_id: `repo:${REPO}` },
          version: 1,
        },
        integrity_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
        truth: { integrity_hash: expect.stringMatching(/^[0-9a-f]{64}$/) },
      });
      const updateRecord = await gw.gateway.db.collection(AGENT_COLLECTIONS.updates).findOne({ memory_id: id });
      expect(updateRecord).toMatchObject({
        provenance: { statement_type: "DerivedStatement", source_refs: ["ci:run/1"] },
        integrity_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      });

      // Tampered in the database: a fresh process reads it back checked and fails closed.
      await gw.gateway.db.collection(AGENT_COLLECTIONS.memories).updateOne({ memory_id: id }, { $set: { text: "Lynx TAMPERED memory" } });
      const gw2 = await startTestGateway({ clock, dbName: gw.dbName });
      const token2 = await gw2.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["agent"], sub: "agent-7" });
      const fresh = async (doc: unknown) => (await postMemory(gw2, token2, doc)).body;
      const res = await fresh(readDoc(REPO, "lynx memory"));
      expect(res).toMatchObject({ stop_reason: "INTERNAL_INCONSISTENCY", explanations: ["MP-OBJECT: integrity_hash_mismatch"] });
      expect(JSON.stringify(res)).not.toContain("TAMPERED");
      const broken = (await events()).filter((e) => e.event_type === "conformance_break" && e.memory_id === id);
      expect(broken).toHaveLength(1);
      // Put back, the record reads again.
      await gw.gateway.db.collection(AGENT_COLLECTIONS.memories).updateOne({ memory_id: id }, { $set: { text: "Lynx provenance memory" } });
      expect((await fresh(readDoc(REPO, "lynx memory"))).stop_reason).toBe("SUCCESS_READ");
      await gw2.stop();
    });

    it("INV-8 C19-FAIL IF1-CHANGE IF1-UPDATE: when the event log refuses the append, a write, a change and a committed update are undone everywhere (records, due events, the index)", async () => {
      const db = gw.gateway.db;
      const tenant = "undo";
      const token = await gw.token({ tenant, subjects: [`repo:${REPO}`], roles: ["agent"] });
      const old = (await postMemory(gw, token, writeDoc(REPO, { text: "Ibex build uses webpack" }))).body.memory.id as string;
      const state = async () => ({
        memories: (await db.collection(AGENT_COLLECTIONS.memories).find({ tenant_id: tenant }).sort({ memory_id: 1 }).toArray()).map((m) => [
          m.memory_id,
          m.invalidated_by,
          m.truth,
          m.integrity_hash,
        ]),
        updates: await db.collection(AGENT_COLLECTIONS.updates).countDocuments({ tenant_id: tenant }),
        due: await db.collection(AGENT_COLLECTIONS.due).countDocuments({ tenant_id: tenant }),
        read: (await postMemory(gw, token, readDoc(REPO, "ibex build webpack vite"))).body.items.map((i: { id: string; invalidated: boolean }) => [
          i.id,
          i.invalidated,
        ]),
      });
      for (let i = 0; i < 200 && (await db.collection(AGENT_COLLECTIONS.due).countDocuments({ tenant_id: tenant })) > 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      const before = await state();
      expect(before.read).toEqual([[old, false]]);
      const attempts: unknown[] = [
        writeDoc(REPO, { text: "Ibex build moved to vite", kind: "change", links: { change_targets: [old] } }),
        writeDoc(REPO, { text: "Ibex build runs on CI" }),
        update(REPO, old, "commit", truth()),
      ];
      for (const attempt of attempts) {
        // A broken log, for real: a document holding the tenant's next seq under another `_id`.
        const head = await gw.gateway.services.events.head(tenant);
        const blocker = { _id: `blocker:${tenant}`, tenant_id: tenant, seq: head.seq + 1 };
        await db.collection("memory_events").insertOne(blocker as never);
        try {
          expect((await postMemory(gw, token, attempt)).body).toMatchObject({
            stop_reason: "INTERNAL_INCONSISTENCY",
            explanations: ["C19-FAIL: internal_error"],
          });
        } finally {
          await db.collection("memory_events").deleteOne({ _id: blocker._id } as never);
        }
        expect(await state()).toEqual(before);
      }
      // With the log working again, the change goes through.
      const change = await postMemory(gw, token, attempts[0]);
      expect(change.body).toMatchObject({ stop_reason: "SUCCESS_STORED", invalidated: [old] });
    });

    it("MP-LOG INV-8 SPEC-D1: each write's due event is settled off the request path; the generic repair completes an agent write whose event never came and an erasure left halfway, and owes nothing for a write that never landed", async () => {
      const db = gw.gateway.db;
      const due = db.collection(AGENT_COLLECTIONS.due);
      await write({ text: "Marten settled memory" });
      const halfway = await write({ text: "Marten HALFWAYMARK memory" });
      for (let i = 0; i < 200 && (await due.countDocuments({})) > 0; i++) await new Promise((r) => setTimeout(r, 10)); // real I/O progress, not a clock wait
      expect(await due.countDocuments({})).toBe(0);

      // A crash between object and event: the memory and its due record are there, the event never written.
      const store = new AgentStore(db, clock);
      const memoryId = "am_repair_orphan";
      const space = repoSpace(REPO);
      const record = sealMemory({
        _id: agentMemoryDocId("acme", space, memoryId),
        tenant_id: "acme",
        space,
        repo_id: REPO,
        memory_id: memoryId,
        subject_id: space,
        author_id: "agent-7",
        scope: "repo",
        kind: "fact",
        text: "Marten orphan memory",
        confidence: 0.5,
        rationale: null,
        links: { problem_id: null, related_memory_ids: [], change_targets: [] },
        evidence_refs: [],
        truth: null,
        utility: null,
        invalidated_by: null,
        status: "active",
        created_at: clock.now(),
        updated_at: clock.now(),
        created_by: { id: "agent-7", roles: ["agent"] },
        content_salt: "salt",
      });
      await store.insertMemory(
        record,
        dueEvent("acme", space, memoryId, "decision-orphan", "write", clock.now(), {
          event_type: "create",
          operation: "WRITE",
          stop_reason: "SUCCESS_STORED",
          content_digest: null,
          metadata: { contract: "agent", space },
        }),
      );
      // A crash between a due record and its object: the write never landed, so no event is owed.
      await due.insertOne(
        dueEvent("acme", space, "am_never_landed", "decision-lost", "write", clock.now(), {
          event_type: "create",
          operation: "WRITE",
          stop_reason: "SUCCESS_STORED",
          content_digest: null,
          metadata: { space },
        }) as never,
      );
      // A crash inside an erasure: its due record is there, the memory still holds its text.
      const mark = { at: clock.now().toISOString(), by: "root", reason: "erase me please", operation: "ERASE_MEMORY", decision_id: "decision-halfway" };
      await due.insertOne({
        ...dueEvent("acme", space, halfway, "decision-halfway", "erasure", clock.now(), {
          event_type: "erase",
          operation: "ERASE_MEMORY",
          stop_reason: "SUCCESS_DELETED",
          content_digest: null,
          metadata: {},
          reason: mark.reason,
        }),
        mark,
      } as never);

      const repair = () => new Repair(db, gw.gateway.services.events, gw.gateway.services.kernel, [store], clock, gw.gateway.logger, 60_000).run();
      expect(await repair()).toEqual({ settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 2 });
      clock.advance(61_000);
      expect(await repair()).toEqual({ settled: 0, completed: 1, erasuresCompleted: 1, skippedYoung: 0 });
      expect(await dumpDatabase(db)).not.toContain("HALFWAYMARK");
      expect((await events()).find((e) => e.memory_id === halfway && e.event_type === "erase")).toMatchObject({
        contract: "audit",
        reason: "repair: erase me please",
        metadata: { object_contract: "agent" },
      });
      expect((await events()).some((e) => e.memory_id === "am_never_landed")).toBe(false);
      // Left for a live writer for a while, then dropped.
      expect(await due.countDocuments({ object_id: "am_never_landed" })).toBe(1);
      clock.advance(3_600_001);
      expect(await repair()).toEqual({ settled: 0, completed: 0, erasuresCompleted: 0, skippedYoung: 0 });
      expect(await due.countDocuments({})).toBe(0);
      const orphan = (await events()).find((e) => e.memory_id === memoryId)!;
      expect(orphan).toMatchObject({
        event_type: "create",
        contract: "agent",
        subject_id: space,
        actor: { kind: "system" },
        reason: expect.stringMatching(/^repair: /),
        decision_id: "decision-orphan",
        metadata: { repaired: true, space },
      });
      expect(await store.unsettled(10)).toEqual([]);
      // Every process's index learns of it from the log.
      const read = await postMemory(gw, agent, readDoc(REPO, "marten orphan"));
      expect(read.body.items.map((i: { id: string }) => i.id)).toContain(memoryId);
    });
  });

  it("SG-LOAD SG-ISOLATION: /metrics counts agent decisions of every operation from the kernel, and foreign-repository attempts", async () => {
    const id = await write({ text: "Metrics memory" });
    await postMemory(gw, agent, readDoc(REPO, "metrics memory"));
    await postMemory(gw, agent, update(REPO, id, "dry_run", truth()));
    await postMemory(gw, agent, update(REPO, id, "commit", truth()));
    await postMemory(gw, agent, [1, 2]);
    await postMemory(gw, agent, writeDoc("acme/not-mine", { text: "x" }));
    const text = await (await fetch(`${gw.url}/metrics`)).text();
    const count = (operation: string, stopReason: string) => {
      const line = text
        .split("\n")
        .find(
          (l) =>
            l.startsWith("memgate_decisions_total{") &&
            l.includes('contract="agent"') &&
            l.includes(`operation="${operation}"`) &&
            l.includes(`stop_reason="${stopReason}"`),
        );
      return line ? Number(line.split(" ").pop()) : 0;
    };
    expect(count("WRITE", "SUCCESS_STORED")).toBeGreaterThanOrEqual(1);
    expect(count("READ", "SUCCESS_READ")).toBeGreaterThanOrEqual(1);
    expect(count("UPDATE_DRY_RUN", "SUCCESS_READ")).toBeGreaterThanOrEqual(1);
    expect(count("UPDATE", "SUCCESS_UPDATED")).toBeGreaterThanOrEqual(1);
    expect(count("DISPATCH", "SCHEMA_INVALID")).toBeGreaterThanOrEqual(1);
    expect(count("WRITE", "POLICY_DISABLED")).toBeGreaterThanOrEqual(1);
    expect(text).toMatch(/memgate_operation_seconds_count\{[^}]*contract="agent"[^}]*operation="READ"/);
    const isolation = text
      .split("\n")
      .find((l) => l.startsWith("memgate_cross_tenant_attempts_total{") && l.includes('operation="agent.WRITE"') && l.includes('kind="foreign_subject"'));
    expect(Number(isolation?.split(" ").pop())).toBeGreaterThanOrEqual(1);
  });
});
