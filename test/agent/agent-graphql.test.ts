import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { postMemory } from "./support";

const REPO = "acme/web";
const ITEM =
  "id kind text invalidated invalidatedBy { id text } reached { via hops link from } score advisory truth { target confidence rationale evidenceRefs } utility { target }";
const DECISION = "stopReason decisionId policyVersion contractVersion explanations errors { pointer message } advisory";
const READ = `query Read($input: AgentReadInput!) { agentRead(input: $input) { ${DECISION} items { ${ITEM} } } }`;
const WRITE = `mutation Write($input: AgentWriteInput!) { agentWrite(input: $input) { ${DECISION} invalidated memory { ${ITEM} } } }`;
const UPDATE = `mutation Update($input: AgentUpdateInput!) { agentUpdate(input: $input) { ${DECISION} mode committed before { effectiveTruth truth { target } } after { effectiveTruth truth { target rationale } } } }`;
const RAW = `mutation Raw($document: JSON!) { memoryRequest(document: $document) }`;

describe("agent memory interface over GraphQL (seed 001)", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let agent: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  it("IF1-WRITE IF1-READ: seed documents pass unchanged as the typed inputs, and both doors share one service", async () => {
    const document = {
      op: "write",
      repo_id: REPO,
      memory: {
        text: "ESLint flat config lives in eslint.config.mjs",
        scope: "repo",
        kind: "fact",
        confidence: 0.9,
        rationale: "read the repo",
        evidence_refs: ["file:eslint.config.mjs"],
      },
    };
    const written = await gw.gql(agent, WRITE, { input: document });
    expect(written.errors).toBeUndefined();
    const decision = written.data!.agentWrite;
    expect(decision).toMatchObject({
      stopReason: "SUCCESS_STORED",
      errors: [],
      advisory: true,
      memory: { kind: "fact", text: document.memory.text, invalidated: false },
    });

    // Written through GraphQL, read over HTTP and through memoryRequest: one service, one store.
    const http = await postMemory(gw, agent, { op: "read", repo_id: REPO, mode: "targeted", query: "eslint flat config" });
    expect(http.body.items[0].id).toBe(decision.memory.id);
    const raw = await gw.gql(agent, RAW, { document: { op: "read", repo_id: REPO, mode: "targeted", query: "eslint flat config" } });
    expect(raw.data!.memoryRequest).toMatchObject({
      op: "read",
      stop_reason: "SUCCESS_READ",
      advisory: true,
      items: [{ id: decision.memory.id, reached: { via: "direct" } }],
    });

    const read = await gw.gql(agent, READ, {
      input: { op: "read", repo_id: REPO, mode: "ambient", query: "eslint config", include_global: true, limit: 5, expand: { semantic_hops: 1 } },
    });
    expect(read.data!.agentRead).toMatchObject({
      stopReason: "SUCCESS_READ",
      items: [{ id: decision.memory.id, reached: { via: "direct", hops: 0, link: null }, advisory: true }],
    });
  });

  it("IF1-VALID: the typed operations answer SCHEMA_INVALID with pointers, like the raw document does", async () => {
    const typed = await gw.gql(agent, WRITE, { input: { repo_id: REPO, memory: { text: "", scope: "team", kind: "fact", confidence: 2 } } });
    expect(typed.errors).toBeUndefined();
    expect(typed.data!.agentWrite.stopReason).toBe("SCHEMA_INVALID");
    expect(typed.data!.agentWrite.errors.map((e: { pointer: string }) => e.pointer)).toEqual(["/memory/confidence", "/memory/scope", "/memory/text"]);
    const wrongOp = await gw.gql(agent, READ, { input: { op: "write", repo_id: REPO, mode: "ambient", query: "x" } });
    expect(wrongOp.data!.agentRead).toMatchObject({ stopReason: "SCHEMA_INVALID", errors: [{ pointer: "/op", message: 'must be "read"' }] });
    const raw = await gw.gql(agent, RAW, { document: { op: "update", repo_id: REPO, memory_id: "x", mode: "commit", updates: {} } });
    expect(raw.data!.memoryRequest).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "/updates" }] });
    const notObject = await gw.gql(agent, RAW, { document: 42 });
    expect(notObject.data!.memoryRequest).toMatchObject({ stop_reason: "SCHEMA_INVALID", errors: [{ pointer: "" }] });
  });

  it("IF1-CHANGE IF1-UPDATE: a change and an update through the typed operations", async () => {
    const old = (await gw.gql(agent, WRITE, { input: { repo_id: REPO, memory: { text: "CI runs on Travis", scope: "repo", kind: "fact", confidence: 0.7 } } }))
      .data!.agentWrite.memory.id;
    const change = (
      await gw.gql(agent, WRITE, {
        input: {
          repo_id: REPO,
          memory: { text: "CI moved from Travis to GitHub Actions", scope: "repo", kind: "change", confidence: 1, links: { change_targets: [old] } },
        },
      })
    ).data!.agentWrite;
    expect(change).toMatchObject({ stopReason: "SUCCESS_STORED", invalidated: [old] });
    const targeted = await gw.gql(agent, READ, { input: { repo_id: REPO, mode: "targeted", query: "CI Travis" } });
    expect(targeted.data!.agentRead.items.find((i: { id: string }) => i.id === old)).toMatchObject({
      invalidated: true,
      invalidatedBy: { id: change.memory.id, text: "CI moved from Travis to GitHub Actions" },
    });
    const ambient = await gw.gql(agent, READ, { input: { repo_id: REPO, mode: "ambient", query: "CI Travis" } });
    expect(ambient.data!.agentRead.items.map((i: { id: string }) => i.id)).not.toContain(old);

    const update = {
      repo_id: REPO,
      memory_id: change.memory.id,
      updates: { truth: { target: 1, confidence: 0.5, rationale: "workflow file exists", evidence_refs: [".github/workflows/ci.yml"] } },
    };
    const dry = await gw.gql(agent, UPDATE, { input: { ...update, mode: "dry_run" } });
    expect(dry.data!.agentUpdate).toMatchObject({
      stopReason: "SUCCESS_READ",
      mode: "dry_run",
      committed: false,
      before: { truth: null },
      after: { truth: { target: 1 } },
    });
    const commit = await gw.gql(agent, UPDATE, { input: { ...update, mode: "commit" } });
    expect(commit.data!.agentUpdate).toMatchObject({
      stopReason: "SUCCESS_UPDATED",
      committed: true,
      after: { truth: { target: 1, rationale: "workflow file exists" } },
    });
  });

  it("IF1-READ: a second process's service on the same database sees writes and invalidations at once (index kept fresh from the log)", async () => {
    // A second gateway on the same database, built by the same composition root: its own event log
    // client, kernel, store and index cache. Doors are HTTP, as for any client.
    const { db } = gw.gateway;
    const gw2 = await startTestGateway({ clock, dbName: gw.dbName });
    const token2 = await gw2.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["agent"], sub: "caller-2" });
    const second = { handle: async (_principal: unknown, doc: unknown, _ctx: unknown) => (await postMemory(gw2, token2, doc)).body };
    const principal = null;
    const ctx = null;
    await second.handle(principal, { op: "read", repo_id: REPO, mode: "ambient", query: "warm" }, ctx); // its index is built now
    const fact = await postMemory(gw, agent, {
      op: "write",
      repo_id: REPO,
      memory: { text: "Storybook runs on port 6006", scope: "repo", kind: "fact", confidence: 0.9 },
    });
    const change = await postMemory(gw, agent, {
      op: "write",
      repo_id: REPO,
      memory: { text: "Storybook moved to port 7007", scope: "repo", kind: "change", confidence: 0.9, links: { change_targets: [fact.body.memory.id] } },
    });
    // Another process sees an event once the writer's batch has advanced the chain head (it
    // answers its caller first): wait for that database state, not for time.
    const invalidation = await db.collection("memory_events").findOne({ event_type: "invalidate", memory_id: fact.body.memory.id });
    for (
      let i = 0;
      i < 200 && ((await db.collection<{ _id: string; seq: number }>("chain_heads").findOne({ _id: "acme" }))?.seq ?? 0) < invalidation!.seq;
      i++
    );
    const read = await second.handle(principal, { op: "read", repo_id: REPO, mode: "targeted", query: "storybook port" }, ctx);
    expect(read.items.find((i: { id: string }) => i.id === fact.body.memory.id)).toMatchObject({
      invalidated: true,
      invalidated_by: { id: change.body.memory.id },
    });
    const ambient = await second.handle(principal, { op: "read", repo_id: REPO, mode: "ambient", query: "storybook port" }, ctx);
    expect(ambient.items.map((i: { id: string }) => i.id)).toEqual([change.body.memory.id]);

    // And the other way round: an update committed by the second process reaches the first.
    await second.handle(
      principal,
      {
        op: "update",
        repo_id: REPO,
        memory_id: change.body.memory.id,
        mode: "commit",
        updates: { utility: { target: 0.1, confidence: 1, rationale: "rarely useful" } },
      },
      ctx,
    );
    const updated = await db.collection("memory_events").findOne({ event_type: "update", memory_id: change.body.memory.id });
    for (let i = 0; i < 200 && ((await db.collection<{ _id: string; seq: number }>("chain_heads").findOne({ _id: "acme" }))?.seq ?? 0) < updated!.seq; i++);
    const first = await postMemory(gw, agent, { op: "read", repo_id: REPO, mode: "targeted", query: "storybook port" });
    expect(first.body.items.find((i: { id: string }) => i.id === change.body.memory.id)).toMatchObject({ utility: { target: 0.1 } });
    await gw2.stop();
  });
});
