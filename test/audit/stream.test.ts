import type { Client } from "graphql-ws";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { socketClient } from "../support/sockets";
import { preference, STORE, storeMany } from "./support";

const SUBSCRIBE = `subscription Events($after: Int) { memoryEvents(afterSeq: $after) { seq eventType tenantId memoryId hash prevHash actor { id kind } } }`;

interface Received {
  seq: number;
  eventType: string;
  tenantId: string;
  hash: string;
  prevHash: string;
}

/** Subscribes and resolves when `count` events arrived (or rejects on error). */
function collect(c: Client, afterSeq: number | null, count: number): { done: Promise<Received[]>; events: Received[]; stop: () => void } {
  const events: Received[] = [];
  let stop = () => undefined as void;
  const done = new Promise<Received[]>((resolve, reject) => {
    stop = c.subscribe<{ memoryEvents: Received }>(
      { query: SUBSCRIBE, variables: { after: afterSeq } },
      {
        next: (msg) => {
          if (msg.errors) return reject(new Error(JSON.stringify(msg.errors)));
          events.push(msg.data!.memoryEvents);
          if (events.length === count) resolve(events);
        },
        error: (err) => {
          const close = err as { code?: number; reason?: string };
          reject(err instanceof Error ? err : new Error(close.code ? `close ${close.code} ${close.reason}` : JSON.stringify(err)));
        },
        complete: () => resolve(events),
      },
    );
  });
  return { done, events, stop: () => stop() };
}

describe("memoryEvents subscription over graphql-ws", () => {
  const clock = new ManualClock("2026-06-01T10:00:00.000Z");
  let gw: TestGateway;
  let second: TestGateway;
  let agent: string;
  let auditor: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock, env: { MEMGATE_AUDIT_POLL_MS: "20" } });
    // A second gateway on the same database: its appends reach the first one's subscribers through the log.
    second = await startTestGateway({ clock, env: { MEMGATE_DB_NAME: gw.dbName, MEMGATE_AUDIT_POLL_MS: "20" } });
    agent = await gw.token({ tenant: "live", subjects: ["alice"], roles: ["agent"] });
    auditor = await gw.token({ tenant: "live", subjects: [], roles: ["auditor"] });
  });
  afterAll(async () => {
    await second.stop();
    await gw.stop();
  });

  it("SG-AUDIT MP-LOG: an auditor gets the backlog, then live events, in order; a reconnect with the last seq gets every missed event exactly once", async () => {
    await storeMany(gw, agent, 3, "first");
    const c1 = socketClient(gw, auditor);
    const first = collect(c1, 0, 5);
    await storeMany(gw, agent, 2, "live"); // live, after the backlog
    const got = await first.done;
    first.stop();
    await c1.dispose();
    expect(got.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
    for (let i = 1; i < got.length; i++) expect(got[i].prevHash).toBe(got[i - 1].hash);

    // Missed while disconnected, written by the OTHER gateway process.
    const agentOnSecond = await second.token({ tenant: "live", subjects: ["alice"], roles: ["agent"] });
    await storeMany(second, agentOnSecond, 3, "missed");
    const c2 = socketClient(gw, auditor);
    const resumed = collect(c2, 5, 5);
    await storeMany(second, agentOnSecond, 2, "after");
    const again = await resumed.done;
    resumed.stop();
    await c2.dispose();
    expect(again.map((e) => e.seq)).toEqual([6, 7, 8, 9, 10]);
    expect(again[0].prevHash).toBe(got[4].hash);
    expect(new Set(again.map((e) => e.tenantId))).toEqual(new Set(["live"]));
  });

  it("SG-ISOLATION: the stream is scoped to the token's tenant", async () => {
    const otherAgent = await gw.token({ tenant: "other", subjects: ["zed"], roles: ["agent"] });
    await gw.gql(otherAgent, STORE, { input: preference() });
    const otherAuditor = await gw.token({ tenant: "other", subjects: [], roles: ["auditor"] });
    const c = socketClient(gw, otherAuditor);
    const s = collect(c, 0, 1);
    const [only] = await s.done;
    s.stop();
    await c.dispose();
    expect(only).toMatchObject({ seq: 1, tenantId: "other", eventType: "create" });
  });

  it("SG-AUDIT C19-STOP: an agent is refused with its stop reason, and a bad token is refused in the handshake", async () => {
    const c = socketClient(gw, agent);
    await expect(collect(c, 0, 1).done).rejects.toThrow(/POLICY_DISABLED/);
    await c.dispose();
    const bad = socketClient(gw, "not-a-token");
    await expect(collect(bad, 0, 1).done).rejects.toThrow(/4403|Forbidden/);
    await bad.dispose();
  });
});
