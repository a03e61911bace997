import { ManualClock } from "../../src/clock";
import type { MemoryEvent } from "../../src/store/event-log";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason decisionId explanations memory { memoryId createdAt } } }`;

interface StoreAnswer {
  stopReason: string;
  decisionId: string;
  explanations: string[];
  memory: { memoryId: string; createdAt: string } | null;
}

/** The repair's minimum age, which is also the write timeout after which a reservation's attempt is presumed dead. */
const STALE_MS = 60_000;
const ENV = { MEMGATE_IDEMPOTENCY_WINDOW_S: "3600", MEMGATE_REPAIR_MIN_AGE_MS: String(STALE_MS) };
/**
 * Racing retries wait for the winner's write by wall time: on a loaded CI machine one governed
 * STORE took longer than the default 2 s, and the losers answered "in progress". Fair admission is
 * off on them: a waiting retry holds its in-flight slot, and the queue behind it gives up after 5 s.
 */
const PATIENT = { ...ENV, MEMGATE_IDEMPOTENCY_WAIT_MS: "30000", MEMGATE_RATE_LIMIT_PER_S: "0" };

async function keyedStore(gw: TestGateway, token: string, key: string, input: Record<string, unknown>, signal?: AbortSignal): Promise<StoreAnswer> {
  const response = await fetch(`${gw.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
    body: JSON.stringify({ query: STORE, variables: { input } }),
    signal,
  });
  return ((await response.json()) as { data: { storeMemory: StoreAnswer } }).data.storeMemory;
}

/**
 * The process "dies" at a chosen step of a keyed STORE: the step's promise never settles (the
 * process answers nothing more and writes nothing more), the client gives up. Deterministic: the
 * test goes on once the step was reached, never after a delay.
 */
async function dieAt(gw: TestGateway, token: string, key: string, input: Record<string, unknown>, step: "after the item" | "before the item"): Promise<void> {
  const store = gw.gateway.services.contracts.governed.store;
  const insert = store.insert.bind(store);
  let reached!: () => void;
  const atStep = new Promise<void>((resolve) => (reached = resolve));
  const spy = jest.spyOn(store, "insert").mockImplementation(async (...args: Parameters<typeof store.insert>) => {
    if (step === "after the item") await insert(...args);
    reached();
    return new Promise<never>(() => undefined);
  });
  const cutOff = new AbortController();
  const attempt = keyedStore(gw, token, key, input, cutOff.signal).catch((error: unknown) => error);
  await atStep;
  cutOff.abort();
  await attempt;
  spy.mockRestore();
}

describe("retries without duplicates across a crash (issue 15 §4, INV-8, MP-LOG, SPEC D2)", () => {
  const clock = new ManualClock("2026-06-01T10:00:00.000Z");
  let dying: TestGateway;
  let fresh: TestGateway;
  let other: TestGateway;
  /** With `other`, the racing retries' second gateway; both wait long enough for the winner. */
  let rival: TestGateway;
  let token: string;

  beforeAll(async () => {
    dying = await startTestGateway({ clock, env: ENV });
    fresh = await startTestGateway({ clock, dbName: dying.dbName, env: ENV });
    other = await startTestGateway({ clock, dbName: dying.dbName, env: PATIENT });
    rival = await startTestGateway({ clock, dbName: dying.dbName, env: PATIENT });
    token = await dying.token({ tenant: "crash", subjects: ["alice"], roles: ["agent"] });
  });
  afterAll(async () => {
    await rival.stop();
    await other.stop();
    await fresh.stop();
    await dying.stop();
  });

  const items = (key: string) => dying.gateway.db.collection<{ memory_id: string }>("memories").find({ tenant_id: "crash", key }).toArray();
  /** Every create event of the tenant (events carry no content, so not the key): each test expects exactly one more. */
  const allCreates = () => dying.gateway.db.collection<MemoryEvent>("memory_events").countDocuments({ tenant_id: "crash", event_type: "create" });
  const createsOf = (memoryId: string) =>
    dying.gateway.db.collection<MemoryEvent>("memory_events").countDocuments({ tenant_id: "crash", event_type: "create", memory_id: memoryId });
  const records = () => dying.gateway.db.collection<{ state: string; objects?: { objectId: string }[] }>("idempotency_keys");

  it("INV-8 MP-LOG: the process dies after the item is written, before its event; a retry on a fresh gateway answers 'in progress' while the attempt is young, then the first outcome; one item, one event", async () => {
    const input = preference({ key: "died-after-item" });
    const createsBefore = await allCreates();
    await dieAt(dying, token, "key-after-item", input, "after the item");
    const [orphan] = await items("died-after-item");
    expect(orphan).toBeDefined();
    expect(await createsOf(orphan.memory_id)).toBe(0);
    // The reservation named the item before it was written.
    expect(await records().findOne({ "objects.objectId": orphan.memory_id })).toMatchObject({ state: "pending" });

    // Young (by the injected clock): the first attempt may still be running; nothing is written, no refuse event.
    const eventsBefore = await dying.gateway.db.collection("memory_events").countDocuments({ tenant_id: "crash" });
    const young = await keyedStore(fresh, token, "key-after-item", input);
    expect(young).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: idempotency_in_progress"], memory: null });
    expect(await dying.gateway.db.collection("memory_events").countDocuments({ tenant_id: "crash" })).toBe(eventsBefore);

    // Past the write timeout: the dead attempt's item exists, so its outcome is the answer.
    clock.advance(STALE_MS + 1_000);
    const retried = await keyedStore(fresh, token, "key-after-item", input);
    expect(retried.stopReason).toBe("SUCCESS_STORED");
    expect(retried.memory!.memoryId).toBe(orphan.memory_id);
    expect(await items("died-after-item")).toHaveLength(1);

    // The repair (running while serving, or at the next start) completes the item's event: once.
    const repairer = await startTestGateway({ clock, dbName: dying.dbName, env: { ...ENV, MEMGATE_REPAIR_MIN_AGE_MS: "0" } });
    await repairer.stop();
    expect(await createsOf(orphan.memory_id)).toBe(1);
    expect(await keyedStore(other, token, "key-after-item", input)).toEqual(retried);
    expect(await keyedStore(fresh, token, "key-after-item", input)).toEqual(retried);
    expect(await items("died-after-item")).toHaveLength(1);
    expect(await allCreates()).toBe(createsBefore + 1);
    await fresh.gateway.idle();
    expect(await records().findOne({ "objects.objectId": orphan.memory_id })).toMatchObject({ state: "done" });
  });

  it.each([1, 2, 3])(
    "INV-8 MP-LOG: the process dies after reserving the key and declaring its item, before writing it; once stale, eight retries racing on two gateways take the key over: one item, one event, one outcome (round %i)",
    async (round) => {
      const key = `died-before-item-${round}`;
      const input = preference({ key });
      const createsBefore = await allCreates();
      await dieAt(dying, token, `key-${key}`, input, "before the item");
      expect(await items(key)).toHaveLength(0);
      const reserved = await records().findOne({ state: "pending", "objects.0": { $exists: true } }, { sort: { created_at: -1 } });
      const declared = reserved!.objects![0].objectId;

      clock.advance(STALE_MS + 1_000);
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => keyedStore(i % 2 ? other : rival, token, `key-${key}`, input)));
      expect(answers.map((a) => JSON.stringify(a))).toEqual(answers.map(() => JSON.stringify(answers[0])));
      expect(answers[0].stopReason).toBe("SUCCESS_STORED");
      // A new attempt's item, not the dead one's (which was never written).
      expect(answers[0].memory!.memoryId).not.toBe(declared);
      const stored = await items(key);
      expect(stored.map((i) => i.memory_id)).toEqual([answers[0].memory!.memoryId]);
      expect(await createsOf(answers[0].memory!.memoryId)).toBe(1);
      expect(await allCreates()).toBe(createsBefore + 1);
      expect(await keyedStore(dying, token, `key-${key}`, input)).toEqual(answers[0]);
    },
  );

  it("INV-8 MP-LOG SPEC D2: POST /v1/memory: the process dies after the agent memory is written; past the write timeout a retry on a fresh gateway answers its outcome; one memory, one create event", async () => {
    const repo = "crash/web";
    const agentToken = await dying.token({ tenant: "crash", subjects: [`repo:${repo}`], roles: ["agent"] });
    const document = {
      op: "write",
      repo_id: repo,
      memory: { scope: "repo", kind: "fact", confidence: 0.9, text: "The build cache lives in /var/cache/build" },
    };
    const post = async (gw: TestGateway, signal?: AbortSignal) => {
      const response = await fetch(`${gw.url}/v1/memory`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${agentToken}`, "idempotency-key": "key-agent" },
        body: JSON.stringify(document),
        signal,
      });
      return (await response.json()) as { stop_reason: string; explanations: string[]; memory?: { id: string } };
    };
    const store = dying.gateway.services.contracts.agent.stores[0] as unknown as { insertMemory: (...args: unknown[]) => Promise<void> };
    const insert = store.insertMemory.bind(store);
    let reached!: () => void;
    const written = new Promise<void>((resolve) => (reached = resolve));
    const spy = jest.spyOn(store, "insertMemory").mockImplementation(async (...args: unknown[]) => {
      await insert(...args);
      reached();
      return new Promise<never>(() => undefined);
    });
    const cutOff = new AbortController();
    const attempt = post(dying, cutOff.signal).catch((error: unknown) => error);
    await written;
    cutOff.abort();
    await attempt;
    spy.mockRestore();
    const memories = dying.gateway.db.collection<{ memory_id: string }>("agent_memories");
    const [orphan] = await memories.find({ tenant_id: "crash" }).toArray();
    expect(await memories.countDocuments({ tenant_id: "crash" })).toBe(1);

    expect(await post(fresh)).toMatchObject({ stop_reason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: idempotency_in_progress"] });
    clock.advance(STALE_MS + 1_000);
    const retried = await post(fresh);
    expect(retried).toMatchObject({ stop_reason: "SUCCESS_STORED", memory: { id: orphan.memory_id } });
    const repairer = await startTestGateway({ clock, dbName: dying.dbName, env: { ...ENV, MEMGATE_REPAIR_MIN_AGE_MS: "0" } });
    await repairer.stop();
    expect(await createsOf(orphan.memory_id)).toBe(1);
    expect(await post(other)).toEqual(retried);
    expect(await memories.countDocuments({ tenant_id: "crash" })).toBe(1);
  });

  it("INV-8 SPEC D2: POST /v1/memory update (commit): the process dies after the update record is written; past the write timeout a keyed retry answers its outcome; one update record", async () => {
    const repo = "crash/api";
    // Its own tenant: on the dying gateway, tenant "crash" has an agent write that never returned (its later agent requests stall).
    const agentToken = await dying.token({ tenant: "crash-update", subjects: [`repo:${repo}`], roles: ["agent"] });
    const post = async (gw: TestGateway, body: unknown, key?: string, signal?: AbortSignal) => {
      const response = await fetch(`${gw.url}/v1/memory`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${agentToken}`, ...(key ? { "idempotency-key": key } : {}) },
        body: JSON.stringify(body),
        signal,
      });
      return (await response.json()) as Record<string, any>;
    };
    const written = await post(fresh, {
      op: "write",
      repo_id: repo,
      memory: { scope: "repo", kind: "solution", confidence: 0.9, text: "Pin the node version in CI" },
    });
    const memoryId = written.memory.id as string;
    const update = {
      op: "update",
      repo_id: repo,
      memory_id: memoryId,
      mode: "commit",
      updates: { truth: { target: 0.95, confidence: 0.8, rationale: "Fixed it on staging", evidence_refs: ["commit:ab12cd"] } },
    };
    const store = dying.gateway.services.contracts.agent.stores[0] as unknown as { applyUpdate: (...args: unknown[]) => Promise<void> };
    const apply = store.applyUpdate.bind(store);
    let reached!: () => void;
    const applied = new Promise<void>((resolve) => (reached = resolve));
    const spy = jest.spyOn(store, "applyUpdate").mockImplementation(async (...args: unknown[]) => {
      await apply(...args);
      reached();
      return new Promise<never>(() => undefined);
    });
    const cutOff = new AbortController();
    const attempt = post(dying, update, "key-agent-update", cutOff.signal).catch((error: unknown) => error);
    await applied;
    cutOff.abort();
    await attempt;
    spy.mockRestore();
    const updates = dying.gateway.db.collection("agent_memory_updates");
    expect(await updates.countDocuments({ tenant_id: "crash-update", memory_id: memoryId })).toBe(1);

    clock.advance(STALE_MS + 1_000);
    const retried = await post(fresh, update, "key-agent-update");
    expect(retried).toMatchObject({ stop_reason: "SUCCESS_UPDATED", committed: true, after: { truth: { target: 0.95 } } });
    expect(await post(other, update, "key-agent-update")).toEqual(retried);
    expect(await updates.countDocuments({ tenant_id: "crash-update", memory_id: memoryId })).toBe(1);
    // MP-LOG: the repair appends the update's own event (the memory's earlier create is not it: another decision).
    const repairer = await startTestGateway({ clock, dbName: dying.dbName, env: { ...ENV, MEMGATE_REPAIR_MIN_AGE_MS: "0" } });
    await repairer.stop();
    const logged = await dying.gateway.db.collection<MemoryEvent>("memory_events").find({ tenant_id: "crash-update", memory_id: memoryId }).toArray();
    expect(logged.map((e) => e.event_type).sort()).toEqual(["create", "update"]);
    expect(await dying.gateway.db.collection("agent_due_events").countDocuments({ tenant_id: "crash-update" })).toBe(0);
  });

  const creators = [
    {
      contract: "companion",
      operation: "addFact (a fact)",
      method: "insertFact",
      collection: "companion_facts",
      token: () => dying.token({ tenant: "crash", subjects: ["carol"], roles: ["adapter"] }),
      query: `mutation Add($input: AddFactInput!) { addFact(input: $input) { stopReason explanations decisionId proposalId fact { memoryId text } } }`,
      input: {
        subjectId: "carol",
        type: "USER_FACT",
        text: "User loves fettuccini",
        confidence: 0.9,
        source: "llm_extraction",
        summary: "User mentioned they love fettuccini",
      },
      idOf: (answer: Record<string, any>) => answer.addFact.fact?.memoryId as string | undefined,
      stopReasonOf: (answer: Record<string, any>) => answer.addFact.stopReason as string,
      expected: "SUCCESS_STORED",
    },
    {
      contract: "ledger",
      operation: "proposeMemory (a proposal)",
      method: "insertProposal",
      collection: "ledger_proposals",
      token: () => dying.token({ tenant: "crash", subjects: ["dana"], roles: ["agent"] }),
      query: `mutation Propose($input: ProposeMemoryInput!) { proposeMemory(input: $input) { stopReason explanations decisionId proposalId } }`,
      input: { subjectId: "dana", proposedText: "I focus better in the morning", kind: "SELF_OBSERVATION", source: { sourceType: "phase3_reflection" } },
      idOf: (answer: Record<string, any>) => answer.proposeMemory.proposalId as string | undefined,
      stopReasonOf: (answer: Record<string, any>) => answer.proposeMemory.stopReason as string,
      expected: "MISSING_EXPLICIT_CONSENT",
    },
  ];

  it.each(creators)(
    "INV-8 MP-LOG: $contract $operation: the process dies after the object is written; past the write timeout a keyed retry on a fresh gateway answers its outcome; one object, one create event",
    async ({ contract, method, collection, token: tokenOf, query, input, idOf, stopReasonOf, expected }) => {
      const token = await tokenOf();
      const key = `key-${contract}`;
      const call = async (gw: TestGateway, signal?: AbortSignal) => {
        const response = await fetch(`${gw.url}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
          body: JSON.stringify({ query, variables: { input } }),
          signal,
        });
        return ((await response.json()) as { data: Record<string, any> }).data;
      };
      const module = dying.gateway.services.contracts[contract as "companion" | "ledger"];
      const store = module.stores[0] as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
      const original = store[method].bind(store);
      let reached!: () => void;
      const written = new Promise<void>((resolve) => (reached = resolve));
      const spy = jest.spyOn(store, method).mockImplementation(async (...args: unknown[]) => {
        await original(...args);
        reached();
        return new Promise<never>(() => undefined);
      });
      const cutOff = new AbortController();
      const attempt = call(dying, cutOff.signal).catch((error: unknown) => error);
      await written;
      cutOff.abort();
      await attempt;
      spy.mockRestore();
      const objects = dying.gateway.db.collection(collection);
      const [orphan] = await objects.find({ tenant_id: "crash" }).toArray();
      const orphanId = (orphan.memory_id ?? orphan.proposal_id) as string;
      expect(await objects.countDocuments({ tenant_id: "crash" })).toBe(1);

      clock.advance(STALE_MS + 1_000);
      const retried = await call(fresh);
      expect(stopReasonOf(retried)).toBe(expected);
      expect(idOf(retried)).toBe(orphanId);
      const repairer = await startTestGateway({ clock, dbName: dying.dbName, env: { ...ENV, MEMGATE_REPAIR_MIN_AGE_MS: "0" } });
      await repairer.stop();
      expect(await createsOf(orphanId)).toBe(1);
      expect(await call(other)).toEqual(retried);
      expect(await objects.countDocuments({ tenant_id: "crash" })).toBe(1);
    },
  );

  it("INV-8: a takeover that did not take (the old attempt's late write put its record back over the new reservation) does not wedge the key: its claim goes stale and the next one is taken", async () => {
    const input = preference({ key: "wedged" });
    const first = await keyedStore(fresh, token, "key-wedged", input);
    await fresh.gateway.idle();
    const record = (await records().findOne({ outcome: { $regex: first.memory!.memoryId } }))! as unknown as { _id: string; attempt: string };
    clock.advance(3_601_000); // past the window: the key is free again, once a claim on the old attempt takes
    // What a claimant leaves when its replacement was overwritten: claim 0 on the old attempt, the record still the old one.
    await records().insertOne({ _id: `${record._id}/${record.attempt}/0`, claim: true, created_at: clock.now() } as never);
    expect(await keyedStore(fresh, token, "key-wedged", input)).toMatchObject({ explanations: ["C19-FAIL: idempotency_in_progress"] });
    clock.advance(STALE_MS + 1_000);
    const again = await keyedStore(other, token, "key-wedged", input);
    expect(again.stopReason).toBe("SUCCESS_STORED");
    expect(again.memory!.memoryId).not.toBe(first.memory!.memoryId);
    expect(await items("wedged")).toHaveLength(2);
  });

  it("INV-8: a keyed write undone (its event could not be appended) frees its reservation; the retry writes it once", async () => {
    const input = preference({ key: "undone" });
    const before = await records().countDocuments({});
    const append = jest.spyOn(fresh.gateway.services.events, "append").mockRejectedValueOnce(new Error("the log is unreachable"));
    const failed = await keyedStore(fresh, token, "key-undone", input);
    append.mockRestore();
    expect(failed).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: internal_error"] });
    expect(await items("undone")).toHaveLength(0);
    expect(await records().countDocuments({})).toBe(before);

    const retried = await keyedStore(fresh, token, "key-undone", input);
    expect(retried.stopReason).toBe("SUCCESS_STORED");
    expect(await items("undone")).toHaveLength(1);
    expect(await createsOf(retried.memory!.memoryId)).toBe(1);
  });
});
