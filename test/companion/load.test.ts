import { formatLoad, runLoad, type LoadUser } from "../../scripts/companion-load-core";
import { startTestGateway, type TestGateway } from "../support/gateway";

describe("companion load, short (SG-LOAD)", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startTestGateway({ env: { MEMGATE_ENVELOPE_CACHE_SECONDS: "1" } });
  });
  afterAll(() => gw.stop());

  it("SG-LOAD SG-ISOLATION: 120 users of 4 tenants for 3 s: no response carries another subject's or tenant's memory, and /metrics counts what was sent", async () => {
    const users: LoadUser[] = [];
    for (let i = 0; i < 120; i++)
      users.push({
        tenant: `t${i % 4}`,
        subject: `u${i % 30}`,
        token: await gw.token({ tenant: `t${i % 4}`, subjects: [`u${i % 30}`], roles: ["adapter"], sub: `a${i}` }),
      });
    const report = await runLoad({ url: gw.url, users, durationMs: 3000, readsPerSec: 200, writesPerSec: 30, maxInFlight: 48 });
    console.log(formatLoad(report, 120, 4));
    // rates depend on the machine (benchmarks print them: npm run load); this run proves isolation and counting
    expect(report.writes.stored).toBeGreaterThan(0);
    expect(report.reads.ok).toBeGreaterThan(20);
    expect(report.verifiedUsers).toBe(120);
    expect(report.factsSeen).toBeGreaterThanOrEqual(report.writes.stored);
    expect(report.leaks).toBe(0);
    expect(report.errors).toBe(0);
    expect(report.countersMatch).toBe(true);
  });
});
