import type { Client } from "graphql-ws";
import { ManualClock } from "../../src/clock";
import { PollingEventSource } from "../../src/store/log/event-source";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { socketClient } from "../support/sockets";
import { preference } from "../support/governed";

const SUBSCRIBE = `subscription Events($after: Int) { memoryEvents(afterSeq: $after) { seq } }`;
const STORE = `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason } }`;

/** Subscribes; `first` resolves with the first event, or rejects with the subscription's error. */
function subscribe(c: Client): { first: Promise<number> } {
  const first = new Promise<number>((resolve, reject) => {
    c.subscribe<{ memoryEvents: { seq: number } }>(
      { query: SUBSCRIBE, variables: { after: 0 } },
      {
        next: (msg) => (msg.errors ? reject(new Error(JSON.stringify(msg.errors))) : resolve(msg.data!.memoryEvents.seq)),
        error: (err) => reject(err instanceof Error ? err : new Error(JSON.stringify(err))),
        complete: () => undefined,
      },
    );
  });
  return { first };
}

async function until(condition: () => boolean, limitMs = 30_000): Promise<boolean> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline;) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return condition();
}

describe("log subscriptions without scans, capped, ended with their client (issue 15 §2, SG-AUDIT, SG-LOAD)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({
      clock: new ManualClock("2026-06-01T10:00:00.000Z"),
      env: { MEMGATE_AUDIT_POLL_MS: "10", MEMGATE_AUDIT_EVENT_SOURCE: "poll", MEMGATE_SUBSCRIPTIONS_PER_TOKEN: "2", MEMGATE_SUBSCRIPTIONS_PER_TENANT: "3" },
    });
    const agent = await gw.token({ tenant: "caps", subjects: ["alice"], roles: ["agent"] });
    expect((await gw.gql(agent, STORE, { input: preference({ key: "k1" }) })).data?.storeMemory.stopReason).toBe("SUCCESS_STORED");
  });
  afterAll(() => gw.stop());

  it("SG-LOAD: subscriptions are capped per token and per tenant; a client that goes gives its slots back", async () => {
    const source = gw.gateway.auditSystem!.source;
    const first = socketClient(gw, await gw.token({ tenant: "caps", subjects: [], roles: ["auditor"], sub: "auditor-1" }));
    expect(await subscribe(first).first).toBe(1);
    expect(await subscribe(first).first).toBe(1);
    await expect(subscribe(first).first).rejects.toThrow(/per token/);

    const second = socketClient(gw, await gw.token({ tenant: "caps", subjects: [], roles: ["auditor"], sub: "auditor-2" }));
    expect(await subscribe(second).first).toBe(1);
    await expect(subscribe(second).first).rejects.toThrow(/per tenant/);
    expect(source.limits.live("caps")).toBe(3);

    await first.dispose();
    expect(await until(() => source.limits.live("caps") === 1)).toBe(true);
    expect(await subscribe(second).first).toBe(1);
    await second.dispose();
    expect(await until(() => source.limits.live("caps") === 0)).toBe(true);
  });

  it("MP-LOG: an idle poll costs one `_id` lookup of the next seq; the log is never read by range", async () => {
    const log = gw.gateway.services.events;
    const source = new PollingEventSource(log, 5);
    const get = jest.spyOn(log, "get");
    const range = jest.spyOn(log, "range");
    const controller = new AbortController();
    const seen: number[] = [];
    const reading = (async () => {
      for await (const event of source.stream("caps", 0, controller.signal)) seen.push(event.seq);
    })();
    expect(await until(() => get.mock.calls.filter(([, seq]) => seq === 2).length >= 5)).toBe(true);
    controller.abort();
    await reading;
    expect(seen).toEqual([1]);
    expect(range).not.toHaveBeenCalled();
    // The backlog (seq 1 and a read-ahead window) asks each seq once, in whatever order its
    // lookups land; every idle poll after it asks only seq 2, once per poll.
    const asked = new Map<number, number>();
    for (const [, seq] of get.mock.calls) asked.set(seq, (asked.get(seq) ?? 0) + 1);
    expect([...asked].filter(([seq, n]) => seq !== 2 && n > 1)).toEqual([]);
    expect(asked.get(2)).toBeGreaterThanOrEqual(5);
    expect(Math.max(...asked.keys())).toBeLessThanOrEqual(1 + 8);
    get.mockRestore();
    range.mockRestore();
  });
});
