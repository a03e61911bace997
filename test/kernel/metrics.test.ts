import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import {
  AUDIT,
  COMPANION,
  GOVERNED,
  LEDGER,
  agentWrite,
  fact,
  gqlDecision,
  postMemory,
  preference,
  proposal,
  scrape,
  total,
  type Answer,
  type Sample,
} from "./support";

/**
 * Issue 11, "How it will be checked": /metrics after one operation of each contract.
 * Decisions, latency and cross-tenant attempts of every contract are counted by the kernel,
 * and the default Node process metrics are there (SG-ISOLATION, SG-LOAD).
 */
const TENANT = "metrics-co";
const REPO = "metrics/web";

describe("issue 11 acceptance: /metrics counts every contract (SG-ISOLATION, SG-LOAD)", () => {
  const clock = new ManualClock("2026-06-05T09:00:00.000Z");
  let gw: TestGateway;
  const t = {} as Record<"agent" | "adapter" | "repoAgent" | "auditor" | "stranger" | "strangerRepo", string>;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    t.agent = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"] });
    t.adapter = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["adapter"] });
    t.repoAgent = await gw.token({ tenant: TENANT, subjects: [`repo:${REPO}`], roles: ["agent"] });
    t.auditor = await gw.token({ tenant: TENANT, subjects: [], roles: ["auditor"] });
    t.stranger = await gw.token({ tenant: TENANT, subjects: ["mallory"], roles: ["user"] });
    t.strangerRepo = await gw.token({ tenant: TENANT, subjects: ["repo:metrics/other"], roles: ["agent"] });
  });
  afterAll(() => gw.stop());

  /** One operation of each contract, with the answer it gave. */
  const ONE_EACH: [string, () => Promise<Answer>][] = [
    ["governed", () => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference() })],
    ["agent", () => postMemory(gw, t.repoAgent, agentWrite(REPO))],
    ["companion", () => gqlDecision(gw, t.adapter, COMPANION.ADD, { input: fact() })],
    ["ledger", () => gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal() })],
    ["audit", () => gqlDecision(gw, t.auditor, AUDIT.VERIFY, {})],
  ];

  it.each(ONE_EACH)(
    "SG-LOAD: one %s operation is exactly one memgate_decisions_total count, under its contract and the stop reason it answered, and one latency observation",
    async (contract, call) => {
      const before = await scrape(gw);
      const answer = await call();
      const after = await scrape(gw);
      const delta = (name: string, where: Record<string, string> = {}) => total(after, name, where) - total(before, name, where);
      expect({ contract, decisions: delta("memgate_decisions_total", { contract, stop_reason: answer.stopReason }) }).toEqual({ contract, decisions: 1 });
      expect({ contract, allDecisions: delta("memgate_decisions_total") }).toEqual({ contract, allDecisions: 1 });
      expect({ contract, observations: delta("memgate_operation_seconds_count", { contract }) }).toEqual({ contract, observations: 1 });
    },
  );

  it("SG-LOAD: after one operation of each contract, /metrics has decision and latency series for all five", async () => {
    const samples = await scrape(gw);
    const contracts = (name: string) => new Set(samples.filter((s: Sample) => s.name === name && s.value > 0).map((s) => s.labels.contract));
    for (const contract of ["governed", "agent", "companion", "ledger", "audit"]) {
      expect([contract, contracts("memgate_decisions_total").has(contract)]).toEqual([contract, true]);
      expect([contract, contracts("memgate_operation_seconds_count").has(contract)]).toEqual([contract, true]);
      expect([contract, contracts("memgate_operation_seconds_bucket").has(contract)]).toEqual([contract, true]);
    }
    for (const s of samples.filter((x) => x.name === "memgate_decisions_total"))
      expect(Object.keys(s.labels).sort()).toEqual(["contract", "operation", "stop_reason"]);
  });

  /** One attempt per contract on a subject the token does not hold. */
  const FOREIGN: [string, () => Promise<Answer>][] = [
    ["governed", () => gqlDecision(gw, t.stranger, GOVERNED.READ, { id: "mem_00000000-0000-4000-8000-000000000000", subject: "alice" })],
    ["agent", () => postMemory(gw, t.strangerRepo, { op: "read", repo_id: REPO, mode: "ambient", query: "postgres" })],
    ["companion", () => gqlDecision(gw, t.stranger, COMPANION.ENVELOPE, { subject: "alice", skip: true })],
    ["ledger", () => gqlDecision(gw, t.stranger, LEDGER.LEDGER, { subject: "alice" })],
    ["audit", () => gqlDecision(gw, t.stranger, AUDIT.ERASE_SUBJECT, { subject: "alice", reason: "not mine to erase" })],
  ];

  it.each(FOREIGN)(
    "SG-ISOLATION: contract %s: an operation on a subject the token does not hold is refused and counted once in memgate_cross_tenant_attempts_total",
    async (_contract, attempt) => {
      const before = total(await scrape(gw), "memgate_cross_tenant_attempts_total");
      const answer = await attempt();
      expect(answer.stopReason).not.toMatch(/^SUCCESS_/);
      expect(total(await scrape(gw), "memgate_cross_tenant_attempts_total") - before).toBe(1);
    },
  );

  it("default Node process metrics are exported beside memgate's", async () => {
    const names = new Set((await scrape(gw)).map((s) => s.name));
    expect(names.has("process_cpu_user_seconds_total")).toBe(true);
    expect(names.has("nodejs_heap_size_total_bytes")).toBe(true);
    expect(names.has("process_resident_memory_bytes") || names.has("nodejs_eventloop_lag_seconds")).toBe(true);
  });
});
