import { paceBehindRequests } from "../../src/jobs/audit-system";
import { Admission, DEFAULT_ADMISSION, type AdmissionResult, type Admitted } from "../../src/http/admission";
import { PACE_EVERY } from "../../src/store/log/verify";
import { manualTime } from "../support/manual-time";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { storeMany } from "./support";

const SETTINGS = `mutation S($input: MemorySettingsInput!) { setMemorySettings(input: $input) { stopReason explanations } }`;

/**
 * Issue 26 (SG-LOAD beside a large log) with issue 22 §3: the start-up verification of every event
 * from seq 1 runs at full speed while the doors are idle and at the background sweep's rate while
 * they serve, so a restart over a 1 M-event log does not take the CPU from the requests.
 */
describe("the start-up full verification gives way to requests (SG-LOAD, MP-BREAK)", () => {
  it("SG-LOAD: the doors are idle until a request is admitted, busy while one is served, and idle again as time passes after it", () => {
    const time = manualTime();
    const admission = new Admission(() => DEFAULT_ADMISSION, time.now, true, time.timer);
    expect(admission.idleForMs()).toBe(Infinity);
    const held = admission.acquire({ tenant: "t", id: "p" }, "write") as AdmissionResult;
    expect(held.admitted).toBe(true);
    time.advance(5_000);
    expect(admission.idleForMs()).toBe(0);
    (held as Admitted).release();
    time.advance(300);
    expect(admission.idleForMs()).toBe(300);
    // Counted with the limits off too (benchmarks of the store run without them).
    const off = new Admission(() => DEFAULT_ADMISSION, time.now, false, time.timer);
    const unlimited = off.acquire({ tenant: "t", id: "p" }, "read") as Admitted;
    expect(off.idleForMs()).toBe(0);
    unlimited.release();
    expect(off.idleForMs()).toBe(0);
    time.advance(2_000);
    expect(off.idleForMs()).toBe(2_000);
  });

  it("SG-LOAD: busy doors make the pass wait one sweep step per PACE_EVERY events; idle doors, none", async () => {
    const waits: number[] = [];
    let idleFor = 0;
    const pace = paceBehindRequests({ idleForMs: () => idleFor }, 500, async (ms) => void waits.push(ms))!;
    await pace();
    expect(waits).toEqual([(PACE_EVERY * 1000) / 500]);
    idleFor = 5_000;
    await pace();
    expect(waits).toHaveLength(1);
    expect(paceBehindRequests(undefined, 500, async () => undefined)).toBeUndefined();
  });

  describe("through the real log", () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway({ env: { MEMGATE_CHECKPOINT_EVERY: "100" } });
    });
    afterAll(() => gw.stop());

    it("MP-BREAK: a full verification with a pace calls it every PACE_EVERY events and finds what it finds without one", async () => {
      const token = await gw.token({ tenant: "paced", subjects: ["alice"], roles: ["agent"], sub: "bot" });
      const admin = await gw.token({ tenant: "paced", subjects: [], roles: ["admin"], sub: "root" });
      const raised = await gw.gql(admin, SETTINGS, { input: { maxWritesPerWindow: 1_000 } });
      expect(raised.data!.setMemorySettings.stopReason).toBe("SUCCESS_UPDATED");
      await storeMany(gw, token, PACE_EVERY + 20);
      await gw.gateway.idle();
      const auditor = gw.gateway.auditSystem!.auditor;
      let calls = 0;
      const paced = await auditor.verify("paced", { full: true }, undefined, async () => void calls++);
      const unpaced = await auditor.verify("paced", { full: true });
      expect(paced).toEqual(unpaced);
      expect(paced.ok).toBe(true);
      expect(calls).toBe(Math.floor(paced.eventsChecked / PACE_EVERY));
      expect(calls).toBeGreaterThanOrEqual(1);
    });
  });
});
