import type { CommandStartedEvent } from "mongodb";
import { ManualClock } from "../../src/clock";
import type { AgentStore } from "../../src/contracts/agent/store";
import type { CompanionStore } from "../../src/contracts/companion/store";
import type { LedgerStore } from "../../src/contracts/ledger/store";
import type { MemoryEvent } from "../../src/store/event-log";
import { startTestGateway, type GraphQLResponse, type TestGateway } from "../support/gateway";
import { COMPANION, GOVERNED, LEDGER, fact, gqlDecision, preference, proposal } from "../kernel/support";
import { postMemory, readDoc, writeDoc } from "../agent/support";

/**
 * INV-8, MP-LOG, MP-OBJECT (issue 15 §4): an item without its event is never served as live.
 * A process that stops between an object's insert and its event's append leaves the object
 * with its due mark and no event; a read of it either settles it (finds or appends its event,
 * once the write is old enough by the injected clock) or answers NOT_FOUND, while the writer
 * and every other gateway read what was acknowledged.
 *
 * The crash is a fault hook: the event's append fails and the undo that would remove the
 * object does not run (the process is gone before it could).
 */
const TENANT = "unsettled";
/** No timer fires during a test: the repair runs at start, and on reads. */
const QUIET = {
  MEMGATE_REPAIR_INTERVAL_MS: "3600000",
  MEMGATE_REPAIR_MIN_AGE_MS: "60000",
  MEMGATE_CHECKPOINT_INTERVAL_S: "0",
  MEMGATE_CHECKPOINT_EVERY: "0",
  MEMGATE_INTEGRITY_REFRESH_MS: "600000",
};

/** A command as the tests report it: name, collection, and "by _id" for a lookup of one `_id` (the one read FerretDB answers without a scan). */
function describeCommand(e: CommandStartedEvent): string {
  const filter = e.command.filter as Record<string, unknown> | undefined;
  const byId = e.commandName === "find" && filter !== undefined && Object.keys(filter).join() === "_id" && typeof filter._id === "string";
  return `${e.commandName} ${String(e.command[e.commandName])}${byId ? " by _id" : ""}`;
}

/** A gateway whose database commands are recorded (timers' epoch polls left out). */
async function watched(options: Parameters<typeof startTestGateway>[0]): Promise<{ gw: TestGateway; commands: () => string[]; reset: () => void }> {
  const uri = new URL(process.env.MEMGATE_TEST_MONGODB_URI!);
  uri.searchParams.set("monitorCommands", "true");
  const gw = await startTestGateway({ ...options, mongodbUri: uri.toString() });
  let seen: CommandStartedEvent[] = [];
  gw.gateway.db.client.on("commandStarted", (e: CommandStartedEvent) => seen.push(e));
  return {
    gw,
    commands: () =>
      seen
        .map(describeCommand) // the settings cache's epoch poll and fill: the process's, not the read's
        .filter((c) => !/ memory_settings(_epoch)?( by _id)?$/.test(c) && !c.startsWith("ping ")),
    reset: () => (seen = []),
  };
}

/** What a read answers, without the ids (the same for an unsettled item and for none: no existence oracle). */
const shape = (answer: GraphQLResponse, field: string) => JSON.stringify({ data: answer.data?.[field], errors: answer.errors });

describe("INV-8 MP-LOG MP-OBJECT: an item without its event is never served as live (issue 15 §4)", () => {
  const clock = new ManualClock("2026-07-01T08:00:00.000Z");
  let a: TestGateway;
  let b: TestGateway;
  let bCommands: () => string[];
  let bReset: () => void;
  let agent: string;
  let adapter: string;

  beforeAll(async () => {
    a = await startTestGateway({ clock, env: QUIET });
    ({ gw: b, commands: bCommands, reset: bReset } = await watched({ clock, env: QUIET, dbName: a.dbName }));
    agent = await a.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"] });
    adapter = await a.token({ tenant: TENANT, subjects: ["alice"], roles: ["adapter"] });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  const events = (filter: Record<string, unknown>) =>
    a.gateway.db
      .collection<MemoryEvent>("memory_events")
      .find({ tenant_id: TENANT, ...filter })
      .toArray();
  const governed = () => a.gateway.services.contracts.governed.store;
  const companion = () => a.gateway.services.contracts.companion.stores[0] as CompanionStore;

  /** STORE whose process stops after the item and before its event: the item and its due mark stay, no event. */
  async function orphanItem(key: string): Promise<string> {
    const append = jest.spyOn(a.gateway.services.events, "append").mockRejectedValueOnce(new Error("the process stopped before its event"));
    const rollback = jest.spyOn(governed(), "rollback").mockResolvedValueOnce(undefined);
    try {
      const answer = await a.gql(agent, GOVERNED.STORE, { input: preference({ key }) });
      expect(answer.data?.storeMemory?.stopReason).not.toBe("SUCCESS_STORED"); // never acknowledged
    } finally {
      append.mockRestore();
      rollback.mockRestore();
    }
    const item = await a.gateway.db.collection<{ memory_id: string }>("memories").findOne({ tenant_id: TENANT, key });
    expect(item).not.toBeNull();
    expect(await events({ memory_id: item!.memory_id })).toEqual([]);
    expect(await a.gateway.db.collection("memory_due_events").countDocuments({ object_id: item!.memory_id })).toBe(1);
    return item!.memory_id;
  }

  const listed = async (gw: TestGateway) => ((await gw.gql(agent, GOVERNED.LIST, {})).data!.memories.memories as { memoryId: string }[]).map((m) => m.memoryId);

  it("INV-8 MP-LOG MP-OBJECT: a young item without its event answers NOT_FOUND by id (as an id that never existed) and is left out of the list, at the writer and at another gateway", async () => {
    const orphan = await orphanItem("young-orphan");
    const none = await a.gql(agent, GOVERNED.READ, { id: "mem_never_was" });
    expect(none.data!.memory.stopReason).toBe("NOT_FOUND");
    for (const gw of [a, b]) {
      const read = await gw.gql(agent, GOVERNED.READ, { id: orphan });
      expect(read.data!.memory.stopReason).toBe("NOT_FOUND");
      expect(shape(read, "memory")).toBe(shape(none, "memory"));
      expect(await listed(gw)).not.toContain(orphan);
    }
    // Looked for once here (a scan of the tenant's events found nothing): the next read at B looks only at newer events, by `_id`.
    bReset();
    expect((await b.gql(agent, GOVERNED.READ, { id: orphan })).data!.memory.stopReason).toBe("NOT_FOUND");
    // (a NOT_FOUND is a refusal: its refuse event is appended too, and the chain-head hint moved after)
    const lookups = bCommands().filter((c) => c.startsWith("find memory_events"));
    expect(lookups.length).toBeGreaterThan(0);
    expect(new Set(lookups)).toEqual(new Set(["find memory_events by _id"]));
    // An update of it is refused as of an item that is not there, and writes nothing on top of it.
    const update = await a.gql(agent, GOVERNED.UPDATE, { input: { ...preference({ key: "young-orphan", value: "v2" }), memoryId: orphan } });
    expect(update.data!.updateMemory.stopReason).toBe("NOT_FOUND");
    expect(await events({ memory_id: orphan })).toEqual([]);
  });

  it("INV-8 MP-LOG: once older than the repair's minimum age (injected clock), a read by id settles the item: its event appended once, then served", async () => {
    const orphan = await orphanItem("old-orphan-read");
    clock.advance(61_000);
    const read = await b.gql(agent, GOVERNED.READ, { id: orphan });
    expect(read.data!.memory).toMatchObject({ stopReason: "SUCCESS_READ", memory: { memoryId: orphan } });
    const created = await events({ memory_id: orphan });
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({ event_type: "create", actor: { kind: "system" }, metadata: { repaired: true, version: 1 } });
    expect(await a.gateway.db.collection("memory_due_events").countDocuments({ object_id: orphan })).toBe(0);
    // Read again, at either gateway, listed: served, and still one event.
    expect((await a.gql(agent, GOVERNED.READ, { id: orphan })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect(await listed(a)).toContain(orphan);
    expect(await events({ memory_id: orphan })).toHaveLength(1);
  });

  it("INV-8 MP-LOG: a list settles an old item left without its event, and then serves it (one event)", async () => {
    const orphan = await orphanItem("old-orphan-list");
    expect(await listed(a)).not.toContain(orphan);
    clock.advance(61_000);
    expect(await listed(a)).toContain(orphan);
    expect(await events({ memory_id: orphan })).toHaveLength(1);
    expect(await listed(b)).toContain(orphan);
    expect(await events({ memory_id: orphan })).toHaveLength(1);
  });

  it("INV-8: a list page left short by an item in flight reads further, so its cursor still says there is more", async () => {
    const subject = await a.token({ tenant: TENANT, subjects: ["carol"], roles: ["agent"] });
    const ids: string[] = [];
    for (const key of ["p1", "p2"]) {
      clock.advance(1); // newest first by write time
      const stored = await a.gql(subject, GOVERNED.STORE, { input: preference({ key }) });
      ids.push(stored.data!.storeMemory.memory.memoryId);
    }
    // a third, newest, left without its event
    clock.advance(1);
    const append = jest.spyOn(a.gateway.services.events, "append").mockRejectedValueOnce(new Error("stopped"));
    const rollback = jest.spyOn(governed(), "rollback").mockResolvedValueOnce(undefined);
    await a.gql(subject, GOVERNED.STORE, { input: preference({ key: "p3" }) });
    append.mockRestore();
    rollback.mockRestore();
    const page = await a.gql(subject, `query { memories(subjectId: "carol", limit: 1) { stopReason nextCursor memories { memoryId } } }`);
    expect(page.data!.memories.memories).toEqual([{ memoryId: ids[1] }]);
    expect(page.data!.memories.nextCursor).not.toBeNull();
  });

  it("INV-8 read-your-writes: the writer serves what it acknowledged while its mark's removal is still pending; another gateway finds the event and serves it too", async () => {
    // Hold the writer's grouped mark removals: the mark stays after the acknowledgement.
    const due = (governed() as unknown as { due: { removeNow: (ids: readonly string[]) => Promise<void> } }).due;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const removeNow = due.removeNow.bind(due);
    const hold = jest.spyOn(due, "removeNow").mockImplementation(async (ids) => {
      await held;
      return removeNow(ids);
    });
    try {
      const stored = await a.gql(agent, GOVERNED.STORE, { input: preference({ key: "acknowledged" }) });
      expect(stored.data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
      const id = stored.data!.storeMemory.memory.memoryId as string;
      expect(await a.gateway.db.collection("memory_due_events").countDocuments({ object_id: id })).toBe(1);

      expect((await a.gql(agent, GOVERNED.READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
      expect(await listed(a)).toContain(id);

      // Another gateway: the mark is young and not its own; the event is in the log, so it serves.
      bReset();
      const atB = await b.gql(agent, GOVERNED.READ, { id });
      expect(atB.data!.memory.stopReason).toBe("SUCCESS_READ");
      // Its event is among the tenant's newest: found by `_id` lookups back from the chain head, no scan of the tenant's events.
      const path = bCommands();
      expect(path.slice(0, 3)).toEqual(["find memories by _id", "find memory_due_events by _id", "find chain_heads by _id"]);
      expect(path.at(-1)).toBe("delete memory_due_events");
      const lookups = path.slice(3, -1);
      expect(lookups.length).toBeGreaterThan(0);
      expect(lookups.length).toBeLessThanOrEqual(16);
      expect(new Set(lookups)).toEqual(new Set(["find memory_events by _id"]));
      // Then known there: one `_id` lookup.
      bReset();
      expect((await b.gql(agent, GOVERNED.READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
      expect(bCommands()).toEqual(["find memories by _id"]);
      expect(await events({ memory_id: id, event_type: "create" })).toHaveLength(1);
    } finally {
      release();
      hold.mockRestore();
      await governed().idle();
    }
  });

  it("INV-8: another gateway reads an acknowledged, settled item with one extra `_id` lookup of its mark once, then with none", async () => {
    const stored = await a.gql(agent, GOVERNED.STORE, { input: preference({ key: "settled-elsewhere" }) });
    const id = stored.data!.storeMemory.memory.memoryId as string;
    await governed().idle();
    bReset();
    expect((await b.gql(agent, GOVERNED.READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect(bCommands()).toEqual(["find memories by _id", "find memory_due_events by _id"]);
    bReset();
    expect((await b.gql(agent, GOVERNED.READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect(bCommands()).toEqual(["find memories by _id"]);
  });

  it("INV-8: a gateway started after the writes (its repair's watermark past them) reads an old settled item with one command, the item by `_id`", async () => {
    const stored = await a.gql(agent, GOVERNED.STORE, { input: preference({ key: "old-and-settled" }) });
    const id = stored.data!.storeMemory.memory.memoryId as string;
    await governed().idle();
    clock.advance(61_000);
    const { gw: c, commands, reset } = await watched({ clock, env: { ...QUIET, MEMGATE_AUDIT_VERIFY_ON_START: "false" }, dbName: a.dbName });
    try {
      reset();
      expect((await c.gql(agent, GOVERNED.READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
      // The start's background duties (re-audit) read too: the read's own commands are those on items and marks (no mark, no event lookup).
      expect(commands().filter((command) => / (memories|memory_due_events)( by _id)?$/.test(command))).toEqual(["find memories by _id"]);
    } finally {
      await c.stop();
    }
  });

  describe("companion facts", () => {
    const envelopeFacts = async (gw: TestGateway, skip: boolean) =>
      ((await gw.gql(adapter, COMPANION.ENVELOPE, { subject: "alice", skip })).data!.memoryEnvelope.envelope.userFacts as { memoryId: string }[]).map(
        (f) => f.memoryId,
      );

    it("INV-8 MP-LOG: a fact left without its event is not in the envelope (cached or not) while young, and is settled (one event) and served once old", async () => {
      const append = jest.spyOn(a.gateway.services.events, "append").mockRejectedValueOnce(new Error("the process stopped before its event"));
      const removeFact = jest.spyOn(companion(), "removeFact").mockResolvedValueOnce(undefined);
      try {
        const answer = await a.gql(adapter, COMPANION.ADD, { input: fact() });
        expect(answer.data?.addFact?.stopReason).not.toBe("SUCCESS_STORED");
      } finally {
        append.mockRestore();
        removeFact.mockRestore();
      }
      const orphan = (await a.gateway.db.collection<{ memory_id: string }>("companion_facts").findOne({ tenant_id: TENANT }))?.memory_id;
      expect(orphan).toBeDefined();
      expect(await events({ memory_id: orphan })).toEqual([]);

      for (const gw of [a, b]) {
        expect(await envelopeFacts(gw, false)).not.toContain(orphan);
        expect(await envelopeFacts(gw, true)).not.toContain(orphan);
      }
      // Forgetting it answers as for a fact that is not there.
      const forget = await a.gql(adapter, COMPANION.FORGET, { id: orphan, subject: "alice" });
      const forgetNone = await a.gql(adapter, COMPANION.FORGET, { id: "fact_never_was", subject: "alice" });
      expect(shape(forget, "forgetFact")).toBe(shape(forgetNone, "forgetFact"));

      clock.advance(61_000);
      // The envelope left out while the fact was young was not cached: the next one (from the cache path) has it.
      expect(await envelopeFacts(b, false)).toContain(orphan);
      const created = await events({ memory_id: orphan });
      expect(created).toHaveLength(1);
      expect(created[0]).toMatchObject({ event_type: "create", contract: "companion", actor: { kind: "system" } });
      expect(await envelopeFacts(a, false)).toContain(orphan);
      expect(await events({ memory_id: orphan })).toHaveLength(1);
    });

    it("INV-8 read-your-writes: an acknowledged fact is in the writer's envelope and in another gateway's", async () => {
      const added = await a.gql(adapter, COMPANION.ADD, { input: fact({ text: "User works on FL Studio" }) });
      expect(added.data!.addFact.stopReason).toBe("SUCCESS_STORED");
      const id = added.data!.addFact.fact.memoryId as string;
      // skipCache: an envelope is advisory and cached for its TTL (SG-ENVELOPE); a new fact does not clear the cache.
      expect(await envelopeFacts(a, true)).toContain(id);
      expect(await envelopeFacts(b, true)).toContain(id);
    });
  });

  describe("ledger proposals and items", () => {
    const ledger = () => a.gateway.services.contracts.ledger.stores[0] as LedgerStore;
    let owner: string;
    beforeAll(async () => {
      owner = await a.token({ tenant: TENANT, subjects: ["dora"], roles: ["user"], sub: "dora" });
    });
    const pending = async (gw: TestGateway) =>
      ((await gqlDecision(gw, owner, LEDGER.PENDING, {})).proposals as { proposalId: string }[]).map((p) => p.proposalId);
    const items = async (gw: TestGateway) => ((await gqlDecision(gw, owner, LEDGER.LEDGER, {})).items as { memoryId: string }[]).map((i) => i.memoryId);
    const proposer = () => a.token({ tenant: TENANT, subjects: ["dora"], roles: ["agent"] });

    it("INV-8 MP-LOG: a proposal and an approved item left without their events are not pending / not in the ledger while young, and are settled (one event each) and served once old", async () => {
      const agentToken = await proposer();
      // A proposal whose event never landed.
      let append = jest.spyOn(a.gateway.services.events, "append").mockRejectedValueOnce(new Error("the process stopped before its event"));
      const deleteProposal = jest.spyOn(ledger(), "deleteProposal").mockResolvedValueOnce(undefined);
      await gqlDecision(a, agentToken, LEDGER.PROPOSE, { input: proposal({ subjectId: "dora", proposedText: "I've noticed I sleep better after a walk" }) });
      append.mockRestore();
      deleteProposal.mockRestore();
      const orphanProposal = (await a.gateway.db.collection<{ proposal_id: string }>("ledger_proposals").findOne({ tenant_id: TENANT, subject_id: "dora" }))!
        .proposal_id;
      expect(await events({ memory_id: orphanProposal })).toEqual([]);

      // An acknowledged proposal, approved by a process that stopped after the item and before its event.
      const held = (await gqlDecision(a, agentToken, LEDGER.PROPOSE, { input: proposal({ subjectId: "dora" }) })).proposalId as string;
      expect(await pending(a)).toEqual([held]);
      append = jest.spyOn(a.gateway.services.events, "append").mockRejectedValueOnce(new Error("the process stopped before its event"));
      const deleteItem = jest.spyOn(ledger(), "deleteItem").mockResolvedValueOnce(undefined);
      await gqlDecision(a, owner, LEDGER.APPROVE, { id: held, text: "I've noticed I focus better in the morning" });
      append.mockRestore();
      deleteItem.mockRestore();
      const orphanItem = (await a.gateway.db.collection<{ memory_id: string }>("ledger_items").findOne({ tenant_id: TENANT, subject_id: "dora" }))!.memory_id;
      expect(await events({ memory_id: orphanItem })).toEqual([]);

      for (const gw of [a, b]) {
        expect(await pending(gw)).not.toContain(orphanProposal);
        expect(await items(gw)).not.toContain(orphanItem);
      }
      clock.advance(61_000);
      expect(await pending(b)).toContain(orphanProposal);
      expect(await items(b)).toContain(orphanItem);
      expect(await events({ memory_id: orphanProposal })).toHaveLength(1);
      expect(await events({ memory_id: orphanItem })).toHaveLength(1);
      expect(await items(a)).toContain(orphanItem);
      expect(await events({ memory_id: orphanItem })).toHaveLength(1);
    });

    it("INV-8 read-your-writes: an acknowledged proposal is pending at the writer and at another gateway", async () => {
      const id = (
        await gqlDecision(a, await proposer(), LEDGER.PROPOSE, {
          input: proposal({ subjectId: "dora", proposedText: "I've noticed I write more in the evening" }),
        })
      ).proposalId as string;
      expect(await pending(a)).toContain(id);
      expect(await pending(b)).toContain(id);
    });
  });

  describe("agent memories (the in-process index)", () => {
    const AGENT_TENANT = "unsettled-agent";
    const REPO = "acme/orphans";
    const QUERY = "flaky lint cache";
    let repoToken: string;
    const agentEvents = (memoryId: string) =>
      a.gateway.db.collection<MemoryEvent>("memory_events").find({ tenant_id: AGENT_TENANT, memory_id: memoryId }).toArray();
    const agentStore = () => a.gateway.services.contracts.agent.stores[0] as AgentStore;
    const found = async (gw: TestGateway) => {
      const read = await postMemory(gw, repoToken, readDoc(REPO, QUERY));
      expect(read.body.stop_reason).toBe("SUCCESS_READ");
      return (read.body.items as { id: string }[]).map((i) => i.id);
    };

    it("INV-8 MP-LOG: a memory left without its create event stays out of another gateway's index, and comes in with the event the repair appends once it is old", async () => {
      repoToken = await a.token({ tenant: AGENT_TENANT, sub: "coder", subjects: [`repo:${REPO}`], roles: ["agent"] });
      const acknowledged = await postMemory(a, repoToken, writeDoc(REPO, { text: "The flaky lint cache is cleared by npm run clean" }));
      expect(acknowledged.body.stop_reason).toBe("SUCCESS_STORED");
      const append = jest.spyOn(a.gateway.services.events, "append").mockRejectedValueOnce(new Error("the process stopped before its event"));
      const remove = jest.spyOn(agentStore(), "removeMemory").mockResolvedValueOnce(undefined);
      try {
        const lost = await postMemory(a, repoToken, writeDoc(REPO, { text: "The flaky lint cache also lives in .eslintcache" }));
        expect(lost.body.stop_reason).not.toBe("SUCCESS_STORED");
      } finally {
        append.mockRestore();
        remove.mockRestore();
      }
      const orphan = (await a.gateway.db.collection<{ memory_id: string }>("agent_memories").findOne({ tenant_id: AGENT_TENANT, text: /eslintcache/ }))!
        .memory_id;
      expect(await a.gateway.db.collection("agent_due_events").countDocuments({ object_id: orphan })).toBe(1);
      expect(await agentEvents(orphan)).toEqual([]);

      // B builds its index of the tenant now: the acknowledged memory is in, the orphan is not.
      const atB = await found(b);
      expect(atB).toContain(acknowledged.body.memory.id);
      expect(atB).not.toContain(orphan);
      expect(await found(a)).not.toContain(orphan);

      // Old enough: a gateway started now repairs it (its event appended once); B's index follows the event.
      clock.advance(61_000);
      const c = await startTestGateway({ clock, env: QUIET, dbName: a.dbName });
      try {
        expect(await agentEvents(orphan)).toHaveLength(1);
        // The chain-head document is a hint written after the batch: B reads before it moves on.
        await c.gateway.services.events.settled();
        const [repaired] = await agentEvents(orphan);
        const before = await a.gateway.services.events.get(AGENT_TENANT, repaired.seq - 1);
        await a.gateway.db
          .collection<{ _id: string; seq: number; hash: string }>("chain_heads")
          .updateOne({ _id: AGENT_TENANT }, { $set: { seq: before!.seq, hash: before!.hash } });
        expect(await found(b)).toContain(orphan);
        expect(await found(c)).toContain(orphan);
      } finally {
        await c.stop();
      }
    });
  });
});
