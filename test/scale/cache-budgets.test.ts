import type { CommandStartedEvent, Db, MongoClient } from "mongodb";
import { ManualClock } from "../../src/clock";
import { AgentIndexCache } from "../../src/contracts/agent/index-cache";
import { agentMemoryDocId, sealMemory } from "../../src/contracts/agent/records";
import { AgentStore, dueEvent } from "../../src/contracts/agent/store";
import { EnvelopeCache } from "../../src/contracts/companion/envelope-cache";
import { EventLog } from "../../src/store/event-log";
import { freshDatabase } from "../support/database";

const clock = new ManualClock("2026-07-01T08:00:00.000Z");

function memory(tenant: string, n: number) {
  const memoryId = `mem_${tenant}_${n}`;
  return sealMemory({
    _id: agentMemoryDocId(tenant, "repo:app", memoryId),
    tenant_id: tenant,
    space: "repo:app",
    repo_id: "app",
    memory_id: memoryId,
    subject_id: "repo:app",
    author_id: "agent-1",
    scope: "repo",
    kind: "fact",
    text: `tenant ${tenant} fact ${n}: the build uses tool ${n} and ${"words ".repeat(40)}`,
    confidence: 0.9,
    rationale: null,
    links: { problem_id: null, related_memory_ids: [], change_targets: [] },
    evidence_refs: [],
    truth: null,
    utility: null,
    invalidated_by: null,
    status: "active",
    created_at: clock.now(),
    updated_at: clock.now(),
    created_by: { id: "agent-1", roles: ["agent"] },
    content_salt: "salt",
  });
}

/** Issue 26 item 2: the in-process caches hold at most their byte budget, least recently used out first. */
describe("cache budgets (bounded memory, issue 26 item 2)", () => {
  let client: MongoClient;
  let db: Db;
  const finds: CommandStartedEvent[] = [];
  beforeAll(async () => {
    ({ client, db } = await freshDatabase({ monitorCommands: true }));
    client.on("commandStarted", (e) => e.commandName === "find" && finds.push(e));
    const store = new AgentStore(db, clock);
    for (const tenant of ["t1", "t2", "t3"]) {
      for (let n = 0; n < 40; n++) {
        const record = memory(tenant, n);
        const due = dueEvent(tenant, record.subject_id, record.memory_id, `d${n}`, "write", clock.now(), {
          event_type: "create",
          operation: "WRITE",
          stop_reason: "SUCCESS_STORED",
          content_digest: null,
          metadata: {},
        });
        await store.insertMemory(record, due);
        await store.settled(due);
      }
    }
  });
  afterAll(() => client.close());

  it("the agent index cache drops the least recently used tenants past its budget, and a dropped tenant is rebuilt from its own documents only", async () => {
    const store = new AgentStore(db, clock);
    const probe = new AgentIndexCache(store, new EventLog(db, clock));
    const one = (await probe.fresh("t1")).bytes;
    expect(one).toBeGreaterThan(40 * 1000);
    // Room for two tenants' indexes, not three.
    const cache = new AgentIndexCache(store, new EventLog(db, clock), Math.floor(one * 2.5));
    await cache.fresh("t1");
    await cache.fresh("t2");
    expect(cache.usage().tenants).toBe(2);
    await cache.fresh("t1"); // t1 used again: t2 is now the least recently used
    await cache.fresh("t3");
    expect(cache.usage().tenants).toBe(2);
    expect(cache.usage().bytes).toBeLessThanOrEqual(Math.floor(one * 2.5));
    finds.splice(0);
    // t1 is still there (no read of memories); t2 was evicted and is rebuilt from its own documents.
    expect((await cache.fresh("t1")).memories.size).toBe(40);
    expect(finds.filter((f) => f.command.find === "agent_memories")).toHaveLength(0);
    expect((await cache.fresh("t2")).memories.size).toBe(40);
    const memoryReads = finds.filter((f) => f.command.find === "agent_memories" || f.command.find === "id_lists");
    expect(memoryReads.length).toBeGreaterThan(0);
    for (const f of memoryReads) {
      const id = (f.command.filter as { _id: string | { $in: string[] } })._id;
      const ids = typeof id === "string" ? [id] : id.$in;
      expect(ids.every((i) => i.includes("t2"))).toBe(true);
    }
  });

  it("keeps the tenant in use even when it alone is over the budget", async () => {
    const cache = new AgentIndexCache(new AgentStore(db, clock), new EventLog(db, clock), 1);
    expect((await cache.fresh("t1")).memories.size).toBe(40);
    await cache.fresh("t2");
    expect(cache.usage().tenants).toBe(1);
  });

  it("the envelope cache drops the least recently used envelopes past its byte budget", () => {
    const envelopes = new EnvelopeCache<{ text: string }>(clock, 60_000, 3_000);
    const big = { text: "x".repeat(500) }; // about 1 KB each
    envelopes.set("a", big);
    envelopes.set("b", big);
    expect(envelopes.get("a")).toEqual(big); // a used: b is the least recently used
    envelopes.set("c", big);
    expect(envelopes.get("b")).toBeUndefined();
    expect(envelopes.get("a")).toEqual(big);
    expect(envelopes.get("c")).toEqual(big);
    expect(envelopes.usage().bytes).toBeLessThanOrEqual(3_000);
    expect(envelopes.usage().entries).toBe(2);
  });
});
