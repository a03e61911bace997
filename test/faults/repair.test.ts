import { ManualClock } from "../../src/clock";
import type { MemoryEvent } from "../../src/store/event-log";
import { startTestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason } }`;
const READ = `query Read($id: ID!) { memory(memoryId: $id) { stopReason } }`;

async function until(condition: () => Promise<boolean>, limitMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline;) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("condition not reached");
}

describe("the repair pass runs while serving (issue 15 §4, INV-8)", () => {
  it("INV-8 MP-LOG: an item left without its event is completed by the repair running while serving (through Kernel.job), judging age by the injected clock", async () => {
    const clock = new ManualClock("2026-06-01T10:00:00.000Z");
    const gw = await startTestGateway({ clock, env: { MEMGATE_REPAIR_INTERVAL_MS: "100", MEMGATE_REPAIR_MIN_AGE_MS: "60000" } });
    try {
      const token = await gw.token({ tenant: "orphans", subjects: ["alice"], roles: ["agent"] });
      const events = gw.gateway.services.events;
      const append = jest.spyOn(events, "append").mockImplementation(() => new Promise(() => undefined));
      const cutOff = new AbortController();
      const attempt = fetch(`${gw.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: STORE, variables: { input: preference({ key: "orphan" }) } }),
        signal: cutOff.signal,
      }).catch((error: unknown) => error);
      const memories = gw.gateway.db.collection<{ memory_id: string; key: string }>("memories");
      await until(async () => (await memories.countDocuments({ tenant_id: "orphans" })) === 1 && append.mock.calls.length > 0);
      cutOff.abort();
      await attempt;
      append.mockRestore();
      const orphan = (await memories.findOne({ tenant_id: "orphans" }))!;

      const created = () =>
        gw.gateway.db.collection<MemoryEvent>("memory_events").countDocuments({ tenant_id: "orphans", memory_id: orphan.memory_id, event_type: "create" });
      expect(await created()).toBe(0);

      clock.advance(61_000);
      await until(async () => (await created()) === 1);
      await until(async () => (await gw.gql(token, READ, { id: orphan.memory_id })).data!.memory.stopReason === "SUCCESS_READ");
      expect(await created()).toBe(1);
      // The repair's event went through the kernel's write set for jobs (issue 23 §3): counted per job.
      const written = (await gw.gateway.services.metrics.jobs.get()).values.find((v) => v.labels.job === "repair" && v.labels.result === "written");
      expect(written?.value).toBeGreaterThanOrEqual(1);
    } finally {
      await gw.stop();
    }
  });
});
