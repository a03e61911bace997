import type { Server } from "node:http";
import type { CommandStartedEvent } from "mongodb";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason memory { memoryId } } }`;

const httpServerOf = (gw: TestGateway): Server => (gw.gateway as unknown as { http: { httpServer: Server } }).http.httpServer;
const describeCommand = (e: CommandStartedEvent): string => `${e.commandName} ${String(e.command[e.commandName])}`;
const background = (e: CommandStartedEvent): boolean => String(e.command[e.commandName]) === "memory_settings_epoch";

describe("issue 15 §4: what an Idempotency-Key costs on the request path (C19-OPS, INV-8)", () => {
  let gw: TestGateway;
  const started: CommandStartedEvent[] = [];
  const windows: CommandStartedEvent[][] = [];

  beforeAll(async () => {
    const uri = new URL(process.env.MEMGATE_TEST_MONGODB_URI!);
    uri.searchParams.set("monitorCommands", "true");
    gw = await startTestGateway({
      mongodbUri: uri.toString(),
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

  const keyedStore = async (token: string, key: string, input: Record<string, unknown>) => {
    await gw.gateway.idle();
    const before = windows.length;
    const response = await fetch(`${gw.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "idempotency-key": key },
      body: JSON.stringify({ query: STORE, variables: { input } }),
    });
    const body = (await response.json()) as { data: { storeMemory: { stopReason: string; memory: { memoryId: string } | null } } };
    expect(windows.length).toBe(before + 1);
    return { answer: body.data.storeMemory, path: windows[before].filter((e) => !background(e)).map(describeCommand) };
  };

  it("INV-8 C19-OPS: a keyed STORE costs 8 database commands on its request path, as before the reservation (reserve the key, declare the item before writing it; the done mark is off the path); a retry costs one", async () => {
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
