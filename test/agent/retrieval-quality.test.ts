import { evaluate, formatScores, loadCorpus, readCorpus, type ModeScore } from "../../scripts/agent-retrieval";
import { ManualClock } from "../../src/clock";
import { agentDoor } from "../../src/contracts/agent/door";
import { startTestGateway, type TestGateway } from "../support/gateway";

const NOW = new Date("2026-03-01T12:00:00.000Z");

describe("retrieval quality on the labelled corpus (IF1-READ)", () => {
  const clock = new ManualClock(NOW);
  let gw: TestGateway;
  const scores: ModeScore[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    const principal = { id: "eval-agent", tenant: "acme", subjects: [`repo:${readCorpus().repoId}`], roles: ["agent" as const], agentType: null, job: null };
    const door = agentDoor(gw.gateway.services.kernel, gw.gateway.services.contracts.agent.operations);
    const ids = await loadCorpus(door, principal, clock, NOW);
    for (const mode of ["ambient", "targeted", "labelled"] as const) scores.push(await evaluate(door, principal, ids, mode));
    process.stdout.write(`${formatScores(scores, readCorpus().memories.length)}\n`);
  }, 120_000);
  afterAll(() => gw.stop());

  it("IF1-READ: the corpus is realistic in size and mix (several hundred memories, every kind, 40+ queries)", () => {
    const { memories, queries } = readCorpus();
    expect(memories.length).toBeGreaterThanOrEqual(300);
    expect(new Set(memories.map((m) => m.kind))).toEqual(new Set(["problem", "solution", "failed_tactic", "fact", "preference", "change"]));
    expect(queries.length).toBeGreaterThanOrEqual(40);
  });

  it.each(["ambient", "targeted", "labelled"])("IF1-READ: recall@5 is at least 0.8 in %s mode (recall@5 and MRR are printed)", (mode) => {
    const score = scores.find((s) => s.mode === mode)!;
    console.log(`${mode}: recall@5 ${score.recallAt5.toFixed(3)}, MRR ${score.mrr.toFixed(3)}; misses ${JSON.stringify(score.misses)}`);
    expect(score.recallAt5).toBeGreaterThanOrEqual(0.8);
  });

  it("IF1-CHANGE IF1-READ: an invalidated fact never comes back in ambient mode", () => {
    const ambient = scores.find((s) => s.mode === "ambient")!;
    for (const miss of ambient.misses) expect(miss.got.some((g) => g.startsWith("old-"))).toBe(false);
  });
});
