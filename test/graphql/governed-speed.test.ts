import type { Server } from "node:http";
import type { CommandStartedEvent } from "mongodb";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason memory { memoryId } } }`;
const READ = `query($id: ID!) { memory(memoryId: $id) { stopReason memory { memoryId } } }`;

/** The gateway's HTTP server (private to Gateway: the test watches requests arrive and answers leave). */
const httpServerOf = (gw: TestGateway): Server => (gw.gateway as unknown as { http: { httpServer: Server } }).http.httpServer;

/** A command as the test reports it: name and collection. */
const describeCommand = (e: CommandStartedEvent): string => `${e.commandName} ${String(e.command[e.commandName])}`;

/**
 * Timers of the process, not steps of a request: the settings epoch poll. The kernel's
 * settle marks are group-committed off the request path and are counted like everything else.
 */
function background(e: CommandStartedEvent): boolean {
  return String(e.command[e.commandName]) === "memory_settings_epoch";
}

describe("issue 11 §7: the governed write path at the database's speed", () => {
  let gw: TestGateway;
  const started: CommandStartedEvent[] = [];
  /** The commands started between a request's arrival and its answer, per request. */
  const windows: CommandStartedEvent[][] = [];

  beforeAll(async () => {
    const uri = new URL(process.env.MEMGATE_TEST_MONGODB_URI!);
    uri.searchParams.set("monitorCommands", "true");
    gw = await startTestGateway({
      mongodbUri: uri.toString(),
      // Quiet timers: no checkpoint rounds, no integrity refresh while a request is measured.
      env: { MEMGATE_CHECKPOINT_INTERVAL_S: "0", MEMGATE_CHECKPOINT_EVERY: "0", MEMGATE_INTEGRITY_REFRESH_MS: "600000" },
    });
    gw.gateway.db.client.on("commandStarted", (e: CommandStartedEvent) => started.push(e));
    httpServerOf(gw).prependListener("request", (_req, res) => {
      const from = started.length;
      const end = res.end.bind(res) as (...args: unknown[]) => typeof res;
      res.end = ((...args: unknown[]) => {
        windows.push(started.slice(from));
        return end(...args);
      }) as typeof res.end;
    });
  });
  afterAll(() => gw.stop());

  /** One request alone: what it left to do off the request path is done before, and measured apart. */
  const measured = async <T>(send: () => Promise<T>): Promise<{ answer: T; path: string[] }> => {
    await gw.gateway.idle();
    // A fresh settings lease (a poll that started now has answered): on a loaded machine the last
    // poll may be older than the lease, and the request would then read settings, correctly but
    // off what is measured here.
    await gw.gateway.services.contracts.governed.store.settings.ready();
    const before = windows.length;
    const answer = await send();
    expect(windows.length).toBe(before + 1);
    return { answer, path: windows[before].filter((e) => !background(e)).map(describeCommand) };
  };

  it("issue-11 §7 C19-OPS: a STORE costs 7 database commands on its request path (counts, its two quota slots together, the due mark, then the item, its list entry, the next-seq check, event), none for settings, the settle or the chain head", async () => {
    const token = await gw.token({ tenant: "speed", subjects: ["alice"], roles: ["agent"] });
    // The first operation of a process and subject reads the chain head and fills the settings cache.
    await gw.gateway.services.contracts.governed.store.settings.ready();
    // Warm until a STORE is served from the cache: the first one's settings read fills it only
    // while the lease holds when the read ends, which a busy database can outlast.
    let warmed = 0;
    while (warmed < 5) {
      const { path } = await measured(() => gw.gql(token, STORE, { input: preference({ key: `warm${warmed}` }) }));
      warmed += 1;
      if (!path.includes("find memory_settings")) break;
    }
    for (let i = 0; i < 3; i++) {
      const { answer, path } = await measured(() => gw.gql(token, STORE, { input: preference({ key: `k${i}` }) }));
      expect(answer.data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
      expect(path).toEqual([
        "find memory_counters",
        // the numbered cap and write-window slots that make quotas exact under concurrency (issue 15), in one insert
        "insert memory_slots",
        "insert memory_due_events",
        "insert memories",
        // the subject's id list entry, after the item (docs/SCALE.md): what keeps LIST `_id`-addressed
        "insert id_lists",
        // the fair-append check of the next seq before a batch (issue 15): one _id lookup
        "find memory_events",
        "insert memory_events",
      ]);
    }
    // Off the request path, but done: the versions' due marks are gone, the subject's counts moved.
    await gw.gateway.services.contracts.governed.store.idle();
    expect(await gw.gateway.db.collection("memories").countDocuments({ tenant_id: "speed" })).toBe(warmed + 3);
    expect(await gw.gateway.db.collection("memory_due_events").countDocuments({ tenant_id: "speed" })).toBe(0);
    expect(await gw.gateway.db.collection("memory_counters").findOne({ tenant_id: "speed", subject_id: "alice" })).toMatchObject({ items: warmed + 3 });
  });

  it("issue-11 §7 C19-OPS: a READ costs one database command (the item by _id); settings come from the process's cache", async () => {
    const token = await gw.token({ tenant: "speed", subjects: ["bob"], roles: ["agent"] });
    const id = (await gw.gql(token, STORE, { input: preference({ key: "read-me" }) })).data!.storeMemory.memory.memoryId;
    // As for STORE above: a read fills the cache only while the lease holds when it ends, which a
    // busy machine can outlast (seen in CI); the claim is what a READ served from the cache costs.
    await gw.gateway.services.contracts.governed.store.settings.ready();
    let measuredRead = await measured(() => gw.gql(token, READ, { id }));
    for (let tries = 1; tries < 5 && measuredRead.path.includes("find memory_settings"); tries++)
      measuredRead = await measured(() => gw.gql(token, READ, { id }));
    const { answer, path } = measuredRead;
    expect(answer.data!.memory.stopReason).toBe("SUCCESS_READ");
    expect(path).toEqual(["find memories"]);
  });

  it("issue-11 §7 INV-8 C19-OPS: a READ of an old settled item at another gateway process costs one command (the item by _id): its repair's watermark is past the write, so no due mark is looked up", async () => {
    const token = await gw.token({ tenant: "speed", subjects: ["carol"], roles: ["agent"] });
    const id = (await gw.gql(token, STORE, { input: preference({ key: "old" }) })).data!.storeMemory.memory.memoryId;
    await gw.gateway.services.contracts.governed.store.idle();
    // A second process on the same database, started two minutes later (the repair's minimum age is one).
    const uri = new URL(process.env.MEMGATE_TEST_MONGODB_URI!);
    uri.searchParams.set("monitorCommands", "true");
    const later = await startTestGateway({
      mongodbUri: uri.toString(),
      dbName: gw.dbName,
      clock: new ManualClock(new Date(Date.now() + 120_000).toISOString()),
      env: {
        MEMGATE_CHECKPOINT_INTERVAL_S: "0",
        MEMGATE_CHECKPOINT_EVERY: "0",
        MEMGATE_INTEGRITY_REFRESH_MS: "600000",
        MEMGATE_AUDIT_VERIFY_ON_START: "false",
      },
    });
    try {
      const seen: CommandStartedEvent[] = [];
      later.gateway.db.client.on("commandStarted", (e: CommandStartedEvent) => seen.push(e));
      const answer = await later.gql(token, READ, { id });
      expect(answer.data!.memory.stopReason).toBe("SUCCESS_READ");
      // Its start's background re-audit reads too: the read's own commands are those on items and their marks.
      expect(seen.map(describeCommand).filter((c) => / (memories|memory_due_events)$/.test(c))).toEqual(["find memories"]);
    } finally {
      await later.stop();
    }
  });

  /** A STORE sent with an Idempotency-Key (issue 15 §4). */
  const keyedStore = (token: string, key: string, input: Record<string, unknown>) =>
    measured(async () => {
      const response = await fetch(`${gw.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
        body: JSON.stringify({ query: STORE, variables: { input } }),
      });
      const body = (await response.json()) as { data: { storeMemory: { stopReason: string; memory: { memoryId: string } | null } } };
      return body.data.storeMemory;
    });

  it("INV-8 C19-OPS: a keyed STORE costs 9 database commands on its request path (8 before the id lists) (reserve the key, declare the item before writing it; the done mark is off the path); a retry costs one", async () => {
    const token = await gw.token({ tenant: "keyed-speed", subjects: ["alice"], roles: ["agent"] });
    await gw.gateway.services.contracts.governed.store.settings.ready();
    await keyedStore(token, "warm", preference({ key: "warm" }));
    for (let i = 0; i < 2; i++) {
      const { answer, path } = await keyedStore(token, `measured-${i}`, preference({ key: `measured-${i}` }));
      expect(answer.stopReason).toBe("SUCCESS_STORED");
      // Before: "find idempotency_keys" first and "insert idempotency_keys" after the item: also 8.
      expect(path).toEqual([
        // the key is reserved, or its holder read, in one round trip
        "findAndModify idempotency_keys",
        "find memory_counters",
        "insert memory_slots",
        // the item's id and the answer, kept with the reservation before the item is written
        "update idempotency_keys",
        "insert memory_due_events",
        "insert memories",
        // the subject's id list entry, after the item (docs/SCALE.md): what keeps LIST `_id`-addressed
        "insert id_lists",
        "find memory_events",
        "insert memory_events",
      ]);
      const retry = await keyedStore(token, `measured-${i}`, preference({ key: `measured-${i}` }));
      expect(retry.answer).toEqual(answer);
      expect(retry.path).toEqual(["findAndModify idempotency_keys"]);
    }
    // Off the request path, but done: every record is marked.
    await gw.gateway.idle();
    const records = await gw.gateway.db.collection("idempotency_keys").find({}).toArray();
    expect(records.map((r) => r.state)).toEqual(["done", "done", "done"]);
  });
});
