import { ManualClock } from "../../src/clock";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { logSettled, postMemory, readDoc, writeDoc } from "./support";

const REPO = "acme/web";

describe("agent memory interface (seed 001)", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let agent: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`, "repo:acme/api"], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  const write = async (memory: Record<string, unknown>, repo = REPO, token = agent) => {
    const res = await postMemory(gw, token, writeDoc(repo, memory));
    expect(res.body.stop_reason).toBe("SUCCESS_STORED");
    return res.body.memory.id as string;
  };
  const count = (collection: string) => gw.gateway.db.collection(collection).countDocuments({});

  describe("POST /v1/memory", () => {
    it("IF1-WRITE IF1-READ: a write document sent unchanged is stored immutably and read back ranked and advisory", async () => {
      const document = {
        op: "write",
        repo_id: REPO,
        memory: {
          text: "The Postgres connection pool exhausts under load tests; max pool size is 10",
          scope: "repo",
          kind: "problem",
          confidence: 0.8,
          rationale: "seen in CI run 4411",
          links: { related_memory_ids: [] },
          evidence_refs: ["ci:run/4411"],
        },
      };
      const written = await postMemory(gw, agent, document);
      expect(written.status).toBe(200);
      expect(written.body).toMatchObject({
        op: "write",
        stop_reason: "SUCCESS_STORED",
        contract_version: "19.1.0",
        errors: [],
        advisory: true,
        memory: {
          repo_id: REPO,
          scope: "repo",
          kind: "problem",
          text: document.memory.text,
          confidence: 0.8,
          evidence_refs: ["ci:run/4411"],
          invalidated: false,
          invalidated_by: null,
        },
      });
      expect(written.body.decision_id).toMatch(/[0-9a-f-]{36}/);
      const stored = await gw.gateway.db.collection("agent_memories").findOne({ memory_id: written.body.memory.id });
      expect(stored).toMatchObject({ tenant_id: "acme", space: `repo:${REPO}`, text: document.memory.text });

      const read = await postMemory(gw, agent, { op: "read", repo_id: REPO, mode: "ambient", query: "connection pool exhausted" });
      expect(read.body).toMatchObject({ op: "read", stop_reason: "SUCCESS_READ", advisory: true });
      expect(read.body.items[0]).toMatchObject({ id: written.body.memory.id, reached: { via: "direct" }, advisory: true });
      expect(read.body.items[0].score).toBeGreaterThan(0);
    });

    it("IF1-VALID: a missing or bad token is 401, a body that is not JSON is 400, and neither changes anything", async () => {
      await logSettled(gw);
      const before = await dumpDatabase(gw.gateway.db);
      expect((await postMemory(gw, null, readDoc(REPO, "x"))).status).toBe(401);
      expect((await postMemory(gw, "not-a-jwt", readDoc(REPO, "x"))).status).toBe(401);
      const malformed = await postMemory(gw, agent, "{not json", true);
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors[0].extensions.code).toBe("BAD_REQUEST");
      expect(await dumpDatabase(gw.gateway.db)).toBe(before);
    });

    it("IF1-VALID: a document that is not an object, or names no op, is SCHEMA_INVALID at its pointer", async () => {
      expect((await postMemory(gw, agent, [1, 2])).body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "" }] });
      expect((await postMemory(gw, agent, "read")).body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "" }] });
      const noOp = await postMemory(gw, agent, { repo_id: REPO, mode: "ambient", query: "x" });
      expect(noOp.body).toMatchObject({ op: null, stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/op" }] });
      expect(noOp.body.errors[0].message).toMatch(/"read", "write", "update"/);
    });
  });

  describe("IF1-VALID: each schema rule broken once", () => {
    const goodRead = { op: "read", repo_id: REPO, mode: "ambient", query: "pool" };
    const goodWrite = writeDoc(REPO, { text: "a fact" });
    const goodUpdate = { op: "update", repo_id: REPO, memory_id: "am_x", mode: "dry_run", updates: { utility: { target: 1, confidence: 1, rationale: "r" } } };
    const cases: [string, unknown, string][] = [
      ["read: op is not read", { ...goodRead, op: "reed" }, "/op"],
      ["read: repo_id missing", { ...goodRead, repo_id: undefined }, "/repo_id"],
      ["read: repo_id not a string", { ...goodRead, repo_id: 5 }, "/repo_id"],
      ["read: mode missing", { ...goodRead, mode: undefined }, "/mode"],
      ["read: mode not in enum", { ...goodRead, mode: "fuzzy" }, "/mode"],
      ["read: query missing", { ...goodRead, query: undefined }, "/query"],
      ["read: query empty", { ...goodRead, query: "" }, "/query"],
      ["read: include_global not boolean", { ...goodRead, include_global: "yes" }, "/include_global"],
      ["read: kinds not an array", { ...goodRead, kinds: "fact" }, "/kinds"],
      ["read: kinds item not in enum", { ...goodRead, kinds: ["fact", "rumour"] }, "/kinds/1"],
      ["read: kinds repeated", { ...goodRead, kinds: ["fact", "fact"] }, "/kinds"],
      ["read: limit below 1", { ...goodRead, limit: 0 }, "/limit"],
      ["read: limit above 100", { ...goodRead, limit: 101 }, "/limit"],
      ["read: limit not an integer", { ...goodRead, limit: 2.5 }, "/limit"],
      ["read: expand not an object", { ...goodRead, expand: 2 }, "/expand"],
      ["read: semantic_hops above 3", { ...goodRead, expand: { semantic_hops: 4 } }, "/expand/semantic_hops"],
      ["read: semantic_hops below 0", { ...goodRead, expand: { semantic_hops: -1 } }, "/expand/semantic_hops"],
      ["read: include_problem_links not boolean", { ...goodRead, expand: { include_problem_links: 1 } }, "/expand/include_problem_links"],
      ["read: include_update_links not boolean", { ...goodRead, expand: { include_update_links: "no" } }, "/expand/include_update_links"],
      ["write: op is not write", { ...goodWrite, op: "store" }, "/op"],
      ["write: memory missing", { ...goodWrite, memory: undefined }, "/memory"],
      ["write: memory not an object", { ...goodWrite, memory: "text" }, "/memory"],
      ["write: text missing", writeDoc(REPO, { text: undefined }), "/memory/text"],
      ["write: text empty", writeDoc(REPO, { text: "" }), "/memory/text"],
      ["write: scope missing", writeDoc(REPO, { text: "t", scope: undefined }), "/memory/scope"],
      ["write: scope not in enum", writeDoc(REPO, { text: "t", scope: "team" }), "/memory/scope"],
      ["write: kind missing", writeDoc(REPO, { text: "t", kind: undefined }), "/memory/kind"],
      ["write: kind not in enum", writeDoc(REPO, { text: "t", kind: "hunch" }), "/memory/kind"],
      ["write: confidence missing", writeDoc(REPO, { text: "t", confidence: undefined }), "/memory/confidence"],
      ["write: confidence above 1", writeDoc(REPO, { text: "t", confidence: 1.01 }), "/memory/confidence"],
      ["write: confidence below 0", writeDoc(REPO, { text: "t", confidence: -0.1 }), "/memory/confidence"],
      ["write: confidence not a number", writeDoc(REPO, { text: "t", confidence: "high" }), "/memory/confidence"],
      ["write: rationale not a string", writeDoc(REPO, { text: "t", rationale: 3 }), "/memory/rationale"],
      ["write: links not an object", writeDoc(REPO, { text: "t", links: [] }), "/memory/links"],
      ["write: problem_id not a string", writeDoc(REPO, { text: "t", links: { problem_id: 1 } }), "/memory/links/problem_id"],
      ["write: related ids not strings", writeDoc(REPO, { text: "t", links: { related_memory_ids: [1] } }), "/memory/links/related_memory_ids/0"],
      ["write: change_targets not an array", writeDoc(REPO, { text: "t", links: { change_targets: "am_x" } }), "/memory/links/change_targets"],
      ["write: evidence_refs not strings", writeDoc(REPO, { text: "t", evidence_refs: [{}] }), "/memory/evidence_refs/0"],
      ["update: op is not update", { ...goodUpdate, op: "patch" }, "/op"],
      ["update: memory_id missing", { ...goodUpdate, memory_id: undefined }, "/memory_id"],
      ["update: mode not in enum", { ...goodUpdate, mode: "apply" }, "/mode"],
      ["update: updates missing", { ...goodUpdate, updates: undefined }, "/updates"],
      ["update: neither truth nor utility", { ...goodUpdate, updates: {} }, "/updates"],
      [
        "update: truth without evidence_refs",
        { ...goodUpdate, updates: { truth: { target: 1, confidence: 1, rationale: "r" } } },
        "/updates/truth/evidence_refs",
      ],
      [
        "update: truth with empty evidence_refs",
        { ...goodUpdate, updates: { truth: { target: 1, confidence: 1, rationale: "r", evidence_refs: [] } } },
        "/updates/truth/evidence_refs",
      ],
      [
        "update: truth target above 1",
        { ...goodUpdate, updates: { truth: { target: 2, confidence: 1, rationale: "r", evidence_refs: ["e"] } } },
        "/updates/truth/target",
      ],
      [
        "update: truth rationale missing",
        { ...goodUpdate, updates: { truth: { target: 1, confidence: 1, evidence_refs: ["e"] } } },
        "/updates/truth/rationale",
      ],
      ["update: utility confidence missing", { ...goodUpdate, updates: { utility: { target: 1, rationale: "r" } } }, "/updates/utility/confidence"],
      [
        "update: utility confidence below 0",
        { ...goodUpdate, updates: { utility: { target: 1, confidence: -1, rationale: "r" } } },
        "/updates/utility/confidence",
      ],
      [
        "update: context_problem_id not a string",
        { ...goodUpdate, updates: { utility: { target: 1, confidence: 1, rationale: "r", context_problem_id: 4 } } },
        "/updates/utility/context_problem_id",
      ],
    ];

    it.each(cases)("IF1-VALID: %s answers SCHEMA_INVALID naming the pointer, and nothing is stored", async (_name, document, pointer) => {
      const memories = await count("agent_memories");
      const res = await postMemory(gw, agent, JSON.parse(JSON.stringify(document)));
      expect(res.status).toBe(200);
      expect(res.body.stop_reason).toBe("SCHEMA_INVALID");
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toContain(pointer);
      for (const error of res.body.errors) expect(error.message.length).toBeGreaterThan(5);
      expect(res.body.explanations.every((e: string) => e.startsWith("IF1-VALID: #"))).toBe(true);
      expect(await count("agent_memories")).toBe(memories);
      expect(await count("agent_memory_updates")).toBe(0);
    });
  });

  describe("IF1-VALID: semantic validation", () => {
    it("IF1-VALID: a problem_id, related id or change target naming no memory the caller can see is SCHEMA_INVALID at its pointer", async () => {
      const fact = await write({ text: "Deploys go through the release train on Tuesdays" });
      const other = await write({ text: "The api service uses Fastify" }, "acme/api");
      const globex = await gw.token({ tenant: "globex", subjects: [`repo:${REPO}`], roles: ["agent"] });
      const foreign = await write({ text: "Globex builds with Bazel" }, REPO, globex);
      const before = await count("agent_memories");
      const res = await postMemory(
        gw,
        agent,
        writeDoc(REPO, { text: "Retry the deploy", kind: "solution", links: { problem_id: "am_nope", related_memory_ids: [fact, other, foreign] } }),
      );
      expect(res.body.stop_reason).toBe("SCHEMA_INVALID");
      expect(res.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([
        "/memory/links/problem_id",
        "/memory/links/related_memory_ids/1",
        "/memory/links/related_memory_ids/2",
      ]);
      expect(res.body.errors[0].message).toMatch(/names no memory/);
      expect(await count("agent_memories")).toBe(before);
    });

    it("IF1-VALID IF1-CHANGE: problem_id must name a problem; change_targets belong on a change; blank text is refused", async () => {
      const fact = await write({ text: "Node 20 is the runtime" });
      const notProblem = await postMemory(gw, agent, writeDoc(REPO, { text: "Use nvm", kind: "solution", links: { problem_id: fact } }));
      expect(notProblem.body.errors).toEqual([
        { pointer: "/memory/links/problem_id", message: 'must name a memory of kind problem, but names one of kind "fact"' },
      ]);
      const targetsOnFact = await postMemory(gw, agent, writeDoc(REPO, { text: "Node 22 now", links: { change_targets: [fact] } }));
      expect(targetsOnFact.body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/memory/links/change_targets" }] });
      const blank = await postMemory(gw, agent, writeDoc(REPO, { text: "   \n" }));
      expect(blank.body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/memory/text", message: "must contain non-whitespace text" }] });
      const blankQuery = await postMemory(gw, agent, readDoc(REPO, "  "));
      expect(blankQuery.body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/query" }] });
    });

    it("IF1-VALID: sizes beyond the policy's bounds are BOUNDS_EXCEEDED at their pointer", async () => {
      const res = await postMemory(gw, agent, writeDoc(REPO, { text: "x".repeat(4001) }));
      expect(res.body).toMatchObject({ stop_reason: "BOUNDS_EXCEEDED", errors: [{ pointer: "/memory/text", message: "is 4001 long; at most 4000 allowed" }] });
    });

    it("IF1-VALID D4: a refusal's event keeps metadata only, never the refused text", async () => {
      await postMemory(gw, agent, writeDoc(REPO, { text: "ZETA-9931 refused text", kind: "hunch" }));
      const events = await gw.gateway.db.collection("memory_events").find({ event_type: "refuse" }).toArray();
      expect(events.length).toBeGreaterThan(0);
      expect(await dumpDatabase(gw.gateway.db)).not.toContain("ZETA-9931");
    });
  });

  describe("IF1-WRITE: spaces and permissions", () => {
    it("IF1-WRITE: a token must allow the repository: writes elsewhere are POLICY_DISABLED, reads NOT_FOUND", async () => {
      const before = await count("agent_memories");
      const res = await postMemory(gw, agent, writeDoc("acme/secret", { text: "something" }));
      expect(res.body).toMatchObject({ stop_reason: "POLICY_DISABLED", explanations: ["AUTHZ-SUBJECT: subject_not_in_token"] });
      expect(await count("agent_memories")).toBe(before);
      expect((await postMemory(gw, agent, readDoc("acme/secret", "something"))).body.stop_reason).toBe("NOT_FOUND");
      const auditor = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["auditor"] });
      expect((await postMemory(gw, auditor, writeDoc(REPO, { text: "x" }))).body.stop_reason).toBe("POLICY_DISABLED");
    });

    it("IF1-WRITE IF1-READ: scope global lands in the tenant's global space: other repos read it unless include_global is false", async () => {
      const id = await write({ text: "Prefer pnpm over npm for every workspace", kind: "preference", scope: "global" });
      const stored = await gw.gateway.db.collection("agent_memories").findOne({ memory_id: id });
      expect(stored).toMatchObject({ space: "global", repo_id: REPO, scope: "global" });
      const fromApi = await postMemory(gw, agent, readDoc("acme/api", "pnpm workspace"));
      expect(fromApi.body.items.map((i: { id: string }) => i.id)).toContain(id);
      const repoOnly = await postMemory(gw, agent, readDoc("acme/api", "pnpm workspace", { include_global: false }));
      expect(repoOnly.body.items.map((i: { id: string }) => i.id)).not.toContain(id);
      const globex = await gw.token({ tenant: "globex", subjects: ["repo:acme/api"], roles: ["agent"] });
      expect((await postMemory(gw, globex, readDoc("acme/api", "pnpm workspace"))).body.items).toEqual([]);
    });

    it("IF1-READ: kinds filters and limit cuts", async () => {
      for (let i = 0; i < 5; i++) await write({ text: `Flaky snapshot test number ${i} in the widget suite`, kind: i % 2 ? "failed_tactic" : "problem" });
      const limited = await postMemory(gw, agent, readDoc(REPO, "flaky snapshot widget", { limit: 2 }));
      expect(limited.body.items).toHaveLength(2);
      const tactics = await postMemory(gw, agent, readDoc(REPO, "flaky snapshot widget", { kinds: ["failed_tactic"] }));
      expect(tactics.body.items.length).toBe(2);
      expect(tactics.body.items.every((i: { kind: string }) => i.kind === "failed_tactic")).toBe(true);
    });
  });

  describe("IF1-CHANGE", () => {
    it("IF1-CHANGE: a change invalidates its targets: ambient reads leave them out, targeted reads flag them with the change's id and text", async () => {
      const old = await write({ text: "The build uses webpack 4 with babel-loader" });
      const change = await postMemory(
        gw,
        agent,
        writeDoc(REPO, { text: "Migrated the build from webpack to Vite", kind: "change", links: { change_targets: [old] } }),
      );
      expect(change.body).toMatchObject({ stop_reason: "SUCCESS_STORED", invalidated: [old] });
      const changeId = change.body.memory.id;

      const ambient = await postMemory(gw, agent, { ...readDoc(REPO, "webpack build babel"), mode: "ambient" });
      expect(ambient.body.items.map((i: { id: string }) => i.id)).not.toContain(old);
      const targeted = await postMemory(gw, agent, readDoc(REPO, "webpack build babel"));
      const flagged = targeted.body.items.find((i: { id: string }) => i.id === old);
      expect(flagged).toMatchObject({ invalidated: true, invalidated_by: { id: changeId, text: "Migrated the build from webpack to Vite" } });
      expect(targeted.body.items.find((i: { id: string }) => i.id === changeId)).toBeDefined();

      const stored = await gw.gateway.db.collection("agent_memories").findOne({ memory_id: old });
      expect(stored).toMatchObject({ text: "The build uses webpack 4 with babel-loader", invalidated_by: changeId });
      const event = await gw.gateway.db.collection("memory_events").findOne({ event_type: "invalidate", memory_id: old });
      expect(event).toMatchObject({ reason: "IF1-CHANGE", metadata: { invalidated_by: changeId } });
    });
  });

  describe("IF1-UPDATE", () => {
    it("IF1-UPDATE: dry_run answers before and after and persists nothing", async () => {
      const id = await write({ text: "Integration tests need Docker running" });
      await logSettled(gw);
      const before = await dumpDatabase(gw.gateway.db);
      const res = await postMemory(gw, agent, {
        op: "update",
        repo_id: REPO,
        memory_id: id,
        mode: "dry_run",
        updates: { truth: { target: 0.2, confidence: 0.9, rationale: "Testcontainers now start it", evidence_refs: ["pr:812"] } },
      });
      expect(res.body).toMatchObject({
        stop_reason: "SUCCESS_READ",
        mode: "dry_run",
        committed: false,
        before: { truth: null, utility: null, effective_truth: 0.9 },
        after: { truth: { target: 0.2, confidence: 0.9, rationale: "Testcontainers now start it", evidence_refs: ["pr:812"] }, utility: null },
      });
      expect(res.body.after.effective_truth).toBeCloseTo(0.9 * 0.2 + 0.1 * 0.9, 6);
      expect(await dumpDatabase(gw.gateway.db)).toBe(before);
    });

    it("IF1-UPDATE D2: commit changes truth and utility in place, never the text, and logs an event with rationale and evidence", async () => {
      const problem = await write({ text: "Login page renders blank in Safari", kind: "problem" });
      const id = await write({ text: "Polyfill structuredClone for Safari 15", kind: "solution", links: { problem_id: problem } });
      const res = await postMemory(gw, agent, {
        op: "update",
        repo_id: REPO,
        memory_id: id,
        mode: "commit",
        updates: {
          truth: { target: 0.95, confidence: 0.8, rationale: "Fixed it on staging", evidence_refs: ["commit:ab12cd"] },
          utility: { target: 0.9, confidence: 0.7, rationale: "Saved an hour", context_problem_id: problem },
        },
      });
      expect(res.body).toMatchObject({
        stop_reason: "SUCCESS_UPDATED",
        committed: true,
        before: { truth: null },
        after: { truth: { target: 0.95 }, utility: { target: 0.9, context_problem_id: problem } },
      });
      const stored = await gw.gateway.db.collection("agent_memories").findOne({ memory_id: id });
      expect(stored).toMatchObject({
        text: "Polyfill structuredClone for Safari 15",
        truth: { target: 0.95, evidence_refs: ["commit:ab12cd"] },
        utility: { target: 0.9 },
      });
      const event = await gw.gateway.db.collection("memory_events").findOne({ event_type: "update", memory_id: id });
      expect(event).toMatchObject({
        reason: "IF1-UPDATE",
        stop_reason: "SUCCESS_UPDATED",
        metadata: { evidence_ref_count: 1, changed: { truth: { before: null, after: { target: 0.95, confidence: 0.8 } } } },
      });
      expect(event!.content_digest).toMatch(/[0-9a-f]{64}/);
      const update = await gw.gateway.db.collection("agent_memory_updates").findOne({ update_id: event!.metadata.update_id });
      expect(update).toMatchObject({
        after: { truth: { rationale: "Fixed it on staging", evidence_refs: ["commit:ab12cd"] }, utility: { rationale: "Saved an hour" } },
      });

      const read = await postMemory(gw, agent, readDoc(REPO, "structuredClone Safari polyfill"));
      expect(read.body.items[0]).toMatchObject({ id, truth: { target: 0.95 }, utility: { target: 0.9 } });
    });

    it("IF1-UPDATE: an unknown memory, or one of another repository, is NOT_FOUND; a context problem must be a problem", async () => {
      const elsewhere = await write({ text: "api uses zod" }, "acme/api");
      const update = (memoryId: string, utility: Record<string, unknown> = {}) =>
        postMemory(gw, agent, {
          op: "update",
          repo_id: REPO,
          memory_id: memoryId,
          mode: "commit",
          updates: { utility: { target: 1, confidence: 1, rationale: "r", ...utility } },
        });
      expect((await update("am_missing")).body.stop_reason).toBe("NOT_FOUND");
      expect((await update(elsewhere)).body.stop_reason).toBe("NOT_FOUND");
      const fact = await write({ text: "a plain fact" });
      const res = await update(fact, { context_problem_id: fact });
      expect(res.body).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/updates/utility/context_problem_id" }] });
    });
  });

  describe("IF1-EXPAND", () => {
    const EXPAND_REPO = "acme/expand";
    let expander: string;
    let chain: string[];

    beforeAll(async () => {
      expander = await gw.token({ tenant: "acme", subjects: [`repo:${EXPAND_REPO}`], roles: ["agent"] });
      // A <-related- B <-related- C <-related- D; only A matches the query.
      chain = [];
      chain.push(await write({ text: "Quokka hydration mismatch on the settings page", kind: "problem" }, EXPAND_REPO, expander));
      chain.push(await write({ text: "Second hop memory", kind: "fact", links: { related_memory_ids: [chain[0]] } }, EXPAND_REPO, expander));
      chain.push(await write({ text: "Third hop memory", kind: "fact", links: { related_memory_ids: [chain[1]] } }, EXPAND_REPO, expander));
      chain.push(await write({ text: "Fourth hop memory", kind: "fact", links: { related_memory_ids: [chain[2]] } }, EXPAND_REPO, expander));
    });

    const expandRead = (expand: Record<string, unknown> | undefined, mode = "targeted") =>
      postMemory(gw, expander, { op: "read", repo_id: EXPAND_REPO, mode, query: "quokka hydration", ...(expand ? { expand } : {}) });

    it.each([0, 1, 2, 3])("IF1-EXPAND: semantic_hops %i goes exactly that deep and no further", async (hops) => {
      const res = await expandRead({ semantic_hops: hops });
      expect(res.body.items.map((i: { id: string }) => i.id)).toEqual(chain.slice(0, hops + 1));
      expect(res.body.items[0].reached).toEqual({ via: "direct" });
      res.body.items.slice(1).forEach((item: { reached: unknown }, i: number) => {
        expect(item.reached).toEqual({ via: "link", hops: i + 1, link: "related", from: chain[i] });
      });
    });

    it("IF1-EXPAND: no expand object, no expansion; the default is 2 hops", async () => {
      expect((await expandRead(undefined)).body.items).toHaveLength(1);
      expect((await expandRead({})).body.items).toHaveLength(3);
    });

    it("IF1-EXPAND: problem and update links are followed both ways, each memory once, and their toggles switch them off", async () => {
      const problem = await write({ text: "Gizmo cache stampede at midnight", kind: "problem" }, EXPAND_REPO, expander);
      const solution = await write({ text: "Jitter the expiry of cached entries", kind: "solution", links: { problem_id: problem } }, EXPAND_REPO, expander);
      const failed = await write(
        { text: "Raising the TTL did not help", kind: "failed_tactic", links: { problem_id: problem, related_memory_ids: [solution] } },
        EXPAND_REPO,
        expander,
      );
      const change = await write({ text: "Gizmo cache removed entirely", kind: "change", links: { change_targets: [solution] } }, EXPAND_REPO, expander);
      const read = (expand: Record<string, unknown>) =>
        postMemory(gw, expander, { op: "read", repo_id: EXPAND_REPO, mode: "targeted", query: "stampede midnight", expand });

      const all = await read({ semantic_hops: 2 });
      const ids = all.body.items.map((i: { id: string }) => i.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids[0]).toBe(problem);
      expect(all.body.items.find((i: { id: string }) => i.id === solution).reached).toMatchObject({ via: "link", hops: 1, link: "problem", from: problem });
      expect(all.body.items.find((i: { id: string }) => i.id === failed).reached).toMatchObject({ hops: 1, link: "problem" });
      expect(all.body.items.find((i: { id: string }) => i.id === change).reached).toMatchObject({ hops: 2, link: "update", from: solution });
      expect(all.body.items.find((i: { id: string }) => i.id === solution)).toMatchObject({ invalidated: true, invalidated_by: { id: change } });

      const noUpdates = await read({ semantic_hops: 2, include_update_links: false });
      expect(noUpdates.body.items.map((i: { id: string }) => i.id)).not.toContain(change);
      const noProblems = await read({ semantic_hops: 3, include_problem_links: false });
      expect(noProblems.body.items.map((i: { id: string }) => i.id)).toEqual([problem]);

      const ambient = await postMemory(gw, expander, {
        op: "read",
        repo_id: EXPAND_REPO,
        mode: "ambient",
        query: "stampede midnight",
        expand: { semantic_hops: 2 },
      });
      expect(ambient.body.items.map((i: { id: string }) => i.id)).not.toContain(solution);
    });

    it("IF1-EXPAND SG-ISOLATION: expansion never leaves the tenant or the caller's spaces", async () => {
      const globex = await gw.token({ tenant: "globex", subjects: [`repo:${EXPAND_REPO}`], roles: ["agent"] });
      const own = await write({ text: "Quokka hydration in globex too", kind: "problem" }, EXPAND_REPO, globex);
      const cross = await postMemory(gw, globex, writeDoc(EXPAND_REPO, { text: "link to acme", links: { related_memory_ids: [chain[0]] } }));
      expect(cross.body.stop_reason).toBe("SCHEMA_INVALID");
      const res = await postMemory(gw, globex, { op: "read", repo_id: EXPAND_REPO, mode: "targeted", query: "quokka hydration", expand: { semantic_hops: 3 } });
      expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([own]);
      // A global memory linked to one repo does not lead a reader of another repo into it.
      const bridge = await write(
        { text: "Ocelot bridge note", kind: "fact", scope: "global", links: { related_memory_ids: [chain[3]] } },
        EXPAND_REPO,
        expander,
      );
      const fromApi = await postMemory(gw, agent, { op: "read", repo_id: "acme/api", mode: "targeted", query: "ocelot bridge", expand: { semantic_hops: 3 } });
      expect(fromApi.body.items.map((i: { id: string }) => i.id)).toEqual([bridge]);
    });
  });
});
