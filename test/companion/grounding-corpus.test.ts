import { readFileSync } from "node:fs";
import path from "node:path";
import { evaluate, loadTriples } from "../../src/contracts/companion/grounding/corpus";
import { LexicalGroundingScorer } from "../../src/contracts/companion/grounding/lexical-scorer";

const root = path.resolve(__dirname, "..", "..");
const threshold = (JSON.parse(readFileSync(path.join(root, "policies/memgate/contracts/companion/data.json"), "utf8")) as { grounding_min: number })
  .grounding_min;
const triples = loadTriples(path.join(root, "test/corpus/grounding"));

describe("grounding corpus (SG-GROUND)", () => {
  const scorer = new LexicalGroundingScorer();

  it("SG-GROUND: the labelled set has >= 200 triples, half hallucinated in every kind", () => {
    expect(triples.length).toBeGreaterThanOrEqual(200);
    const hallucinated = triples.filter((t) => !t.grounded);
    expect(hallucinated.length).toBeGreaterThanOrEqual(triples.length * 0.45);
    expect(new Set(hallucinated.map((t) => t.kind))).toEqual(new Set(["extrapolation", "invented_detail", "negation", "wrong_person"]));
  });

  it("SG-GROUND: no hallucinated candidate is accepted and >= 85% of grounded paraphrases are", async () => {
    const report = await evaluate(scorer, triples, threshold);
    const accepted = report.rows.filter((r) => !r.grounded && r.accepted).map((r) => `${r.kind}: ${r.candidate} <= ${r.summary}`);
    expect(accepted).toEqual([]);
    expect(report.groundedRecall).toBeGreaterThanOrEqual(0.85);
  });

  it("SG-GROUND: the seed's examples: 'expert musician' rejected, 'loves fettuccini' and 'enjoys Italian food' accepted", async () => {
    const summary = "User mentioned they love fettuccini and work on FL Studio";
    expect((await scorer.score(summary, "User is an expert musician")).score).toBeLessThan(threshold);
    expect((await scorer.score(summary, "User loves fettuccini")).score).toBeGreaterThanOrEqual(threshold);
    expect((await scorer.score(summary, "User enjoys Italian food")).score).toBeGreaterThanOrEqual(threshold);
  });
});
