import { benignSets, CLASSES, confusionTable, createJudge, evaluateSplit, misses, readCorpus, type Evaluation } from "../../scripts/eval-detectors";
import { POLICY_BUNDLE } from "../support/gateway";

/**
 * C19-FORBID C19-TOOL through the real detectors and the real compiled policy. The test split
 * (test/corpus/detectors/test/) was written before any tuning against it; the guards below sit
 * at the level it achieved, so a change that loses recall or refuses more benign text fails
 * here. `npm run eval` prints the same numbers for both splits.
 */
const LICENCES = new Set(["MIT", "ISC", "Apache-2.0", "BSD-2-Clause", "BSD-3-Clause", "0BSD"]);

describe("C19-FORBID C19-TOOL: detector quality on the dev and test splits", () => {
  let test: Evaluation;

  // The dev split is for tuning and is printed by `npm run eval`; this file guards the test split.
  beforeAll(async () => {
    test = await evaluateSplit("test", POLICY_BUNDLE);
    console.log(`${confusionTable(test)}\n${misses(test).join("\n")}`);
  });

  it("C19-FORBID: both splits cover all nine classes of seed 000 §4; at least 2,000 benign sentences, each README sentence naming its package and a permissive licence", () => {
    for (const split of ["dev", "test"] as const) {
      const forbidden = readCorpus(split, "forbidden");
      expect(new Set(forbidden.map((l) => l.label))).toEqual(new Set(CLASSES));
      expect(new Set(forbidden.map((l) => l.text)).size).toBe(forbidden.length);
    }
    expect(readCorpus("dev", "forbidden").length).toBeGreaterThanOrEqual(300);
    expect(readCorpus("test", "forbidden").length).toBeGreaterThanOrEqual(100);
    const benign = (["dev", "test"] as const).flatMap((split) => benignSets(split).flatMap((set) => readCorpus(split, set)));
    expect(benign.length).toBeGreaterThanOrEqual(2000);
    const docs = benign.filter((l) => /benign-docs(-extra)?\.tsv$/.test(l.file));
    expect(docs.length).toBeGreaterThanOrEqual(2000);
    expect(docs.filter((l) => !/^\S+@\S+ \S+$/.test(l.source ?? "") || !LICENCES.has((l.source ?? "").split(" ")[1]))).toEqual([]);
    // The two splits share no sentence.
    const devTexts = new Set([...readCorpus("dev", "forbidden"), ...benignSets("dev").flatMap((set) => readCorpus("dev", set))].map((l) => l.text));
    expect([...readCorpus("test", "forbidden"), ...benignSets("test").flatMap((set) => readCorpus("test", set))].filter((l) => devTexts.has(l.text))).toEqual([]);
  });

  it("C19-FORBID: test split recall is at least 0.95 and at most 3 of 116 forbidden lines are missed (the level achieved)", () => {
    const missed = test.forbidden.filter((v) => !v.refused);
    expect(test.recall).toBeGreaterThanOrEqual(0.95);
    expect(missed.length).toBeLessThanOrEqual(3);
  });

  it("C19-FORBID: test split refuses at most 9 of 2,026 benign lines (0.44%), at most 6 of them by a detector rather than a category ban (0.30%)", () => {
    const refused = test.benign.filter((v) => v.stopReason !== "SUCCESS_STORED");
    const byDetector = refused.filter((v) => !v.explanations.every((e) => e.startsWith("C19-CAT")));
    expect(refused.length).toBeLessThanOrEqual(9);
    expect(byDetector.length / test.benign.length).toBeLessThanOrEqual(0.003);
  });

  it("C19-TOOL: every tool-output and injection line of the test split is refused, never stored", () => {
    const stored = test.forbidden.filter((v) => v.label === "tool_output" && !v.refused).map((v) => v.text);
    expect(stored).toEqual([]);
  });

  it("C19-FORBID: words read in context (issue 13): a technical or everyday reading is stored, a personal one refused", async () => {
    const judge = await createJudge(POLICY_BUNDLE);
    const verdict = async (text: string) => (await judge({ label: "PROJECT_CONFIG", text, file: "inline", line: 0 }, "PROJECT_CONFIG")).stopReason;
    const stored = [
      "I want to get better at diagnosing flaky tests.",
      "Add the date field to the export",
      "Throws on unpaired surrogates.",
      "Match on the balance transaction's available_on date instead of created, since payouts settle later.",
      "Prescribes how the value originally produced by parsing is transformed, before being returned.",
      "It will replace any raw, unpaired surrogate pairs with the replacement character.",
    ];
    const refused = ["I was diagnosed with depression", "our first date was at the ramen place", "this clearly proves you are lazy", "My doctor prescribed me Xanax"];
    expect(await Promise.all(stored.map(verdict))).toEqual(stored.map(() => "SUCCESS_STORED"));
    expect(await Promise.all(refused.map(verdict))).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
  });
});
