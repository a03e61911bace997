import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import {
  AGENT,
  COMPANION,
  GOVERNED,
  LEDGER,
  agentRead,
  agentWrite,
  expectAnswer,
  fact,
  gqlDecision,
  postMemory,
  preference,
  proposal,
  scrape,
  total,
  type Answer,
} from "./support";

/**
 * Issue 11, Deliver 8: one composition root that can build two independent gateways in one
 * process. Two gateways on two databases share nothing: no write through one is visible in
 * the other (no module-level store, cache or index), and each /metrics counts only its own
 * decisions (one registry per gateway).
 */
const TENANT = "twins";
const REPO = "twins/web";

describe("issue 11 acceptance: two independent gateways in one process", () => {
  const clock = new ManualClock("2026-06-06T09:00:00.000Z");
  let a: TestGateway;
  let b: TestGateway;
  let bStopped = false;
  const t = {} as Record<"agent" | "adapter" | "alice" | "repoAgent", string>;

  beforeAll(async () => {
    a = await startTestGateway({ clock });
    b = await startTestGateway({ clock });
    // One issuer for both: the same tokens are valid at either gateway.
    t.agent = await a.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"] });
    t.adapter = await a.token({ tenant: TENANT, subjects: ["alice"], roles: ["adapter"] });
    t.alice = await a.token({ tenant: TENANT, subjects: ["alice"], roles: ["user"], sub: "alice" });
    t.repoAgent = await a.token({ tenant: TENANT, subjects: [`repo:${REPO}`], roles: ["agent"] });
  });
  afterAll(async () => {
    await a?.stop();
    if (!bStopped) await b?.stop();
  });

  it("the two gateways are distinct: their own databases and URLs", () => {
    expect(a.dbName).not.toBe(b.dbName);
    expect(a.url).not.toBe(b.url);
    expect(a.gateway.db.databaseName).toBe(a.dbName);
    expect(b.gateway.db.databaseName).toBe(b.dbName);
  });

  it("a governed write through one is not readable or listed through the other", async () => {
    const stored = expectAnswer(await gqlDecision(a, t.agent, GOVERNED.STORE, { input: preference({ key: "twin-a" }) }), "SUCCESS_STORED", "store at A");
    const id = (stored.memory as { memoryId: string }).memoryId;
    expect((await gqlDecision(a, t.agent, GOVERNED.READ, { id })).stopReason).toBe("SUCCESS_READ");
    expect((await gqlDecision(b, t.agent, GOVERNED.READ, { id })).stopReason).toBe("NOT_FOUND");
    expect((await gqlDecision(b, t.agent, GOVERNED.LIST, {})).memories).toEqual([]);
    // B's own log has its refused READ at most; nothing of A's write.
    expect(await b.gateway.db.collection("memories").countDocuments({})).toBe(0);
    expect(await b.gateway.db.collection("memory_events").countDocuments({ tenant_id: TENANT, event_type: "create" })).toBe(0);
  });

  it("an agent memory written through one is not found by the other's read (no shared index)", async () => {
    // Warm B's index for the repository first, so a shared in-process index would show A's write.
    expect((await postMemory(b, t.repoAgent, agentRead(REPO, "postgres container"))).stopReason).toBe("SUCCESS_READ");
    const written = expectAnswer(await postMemory(a, t.repoAgent, agentWrite(REPO)), "SUCCESS_STORED", "agent write at A");
    const id = (written.memory as { id: string }).id;
    expect(((await postMemory(a, t.repoAgent, agentRead(REPO, "postgres container"))).items as { id: string }[]).map((i) => i.id)).toContain(id);
    const fromB = await gqlDecision(b, t.repoAgent, AGENT.READ, { input: agentRead(REPO, "postgres container") });
    expect(fromB).toMatchObject({ stopReason: "SUCCESS_READ", items: [] });
  });

  it("a companion fact written through one is in neither the other's envelope nor its cache", async () => {
    // Cache B's (empty) envelope first, then write at A: B must not serve A's fact, cached or fresh.
    expect(((await gqlDecision(b, t.adapter, COMPANION.ENVELOPE, { subject: "alice" })).envelope as { userFacts: unknown[] }).userFacts).toEqual([]);
    expectAnswer(await gqlDecision(a, t.adapter, COMPANION.ADD, { input: fact() }), "SUCCESS_STORED", "add fact at A");
    expect(
      ((await gqlDecision(a, t.adapter, COMPANION.ENVELOPE, { subject: "alice", skip: true })).envelope as { userFacts: unknown[] }).userFacts,
    ).toHaveLength(1);
    for (const skip of [false, true]) {
      expect(((await gqlDecision(b, t.adapter, COMPANION.ENVELOPE, { subject: "alice", skip })).envelope as { userFacts: unknown[] }).userFacts).toEqual([]);
    }
  });

  it("a ledger proposal made through one is not pending at the other", async () => {
    const held = expectAnswer(await gqlDecision(a, t.agent, LEDGER.PROPOSE, { input: proposal() }), "MISSING_EXPLICIT_CONSENT", "propose at A");
    expect(((await gqlDecision(a, t.alice, LEDGER.PENDING, {})).proposals as { proposalId: string }[]).map((p) => p.proposalId)).toEqual([held.proposalId]);
    expect((await gqlDecision(b, t.alice, LEDGER.PENDING, {})).proposals).toEqual([]);
    expect((await gqlDecision(b, t.alice, LEDGER.APPROVE, { id: held.proposalId, text: "I've noticed I focus better in the morning" })).stopReason).toBe(
      "NOT_FOUND",
    );
  });

  it("SG-LOAD: each /metrics counts only its own gateway's decisions", async () => {
    const calls = (gw: TestGateway): (() => Promise<Answer>)[] => [
      () => gqlDecision(gw, t.agent, GOVERNED.STORE, { input: preference({ key: "counted" }) }),
      () => postMemory(gw, t.repoAgent, agentWrite(REPO, { text: "Counted agent memory" })),
      () => gqlDecision(gw, t.adapter, COMPANION.ENVELOPE, { subject: "alice", skip: true }),
      () => gqlDecision(gw, t.agent, LEDGER.PROPOSE, { input: proposal() }),
    ];
    const decisions = async (gw: TestGateway) => total(await scrape(gw), "memgate_decisions_total");
    const [a0, b0] = [await decisions(a), await decisions(b)];
    for (const call of calls(a)) await call();
    expect([await decisions(a), await decisions(b)]).toEqual([a0 + 4, b0]);
    for (const call of [...calls(b), ...calls(b)]) await call();
    expect([await decisions(a), await decisions(b)]).toEqual([a0 + 4, b0 + 8]);
  });

  it("stopping one leaves the other serving", async () => {
    bStopped = true;
    await b.stop();
    expect((await gqlDecision(a, t.agent, GOVERNED.STORE, { input: preference({ key: "after-stop" }) })).stopReason).toBe("SUCCESS_STORED");
    expect((await fetch(`${a.url}/metrics`)).status).toBe(200);
  });
});
