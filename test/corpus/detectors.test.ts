import { confusionTable, evaluateCorpus, readCorpus, type Evaluation } from "../../scripts/eval-detectors";
import { POLICY_BUNDLE } from "../support/gateway";

const CLASSES = ["identity", "health", "intimate", "criminal_legal", "location", "credentials", "biometrics_ids", "profiling", "tool_output"];

describe("C19-FORBID C19-TOOL: detector quality on the labelled corpus, through the real detectors and the real compiled policy", () => {
  let evaluation: Evaluation;

  beforeAll(async () => {
    evaluation = await evaluateCorpus(POLICY_BUNDLE);
    console.log(confusionTable(evaluation));
  });

  it("C19-FORBID: the corpus has at least 300 forbidden lines over all nine classes of seed 000 §4 and at least 300 benign lines", () => {
    const forbidden = readCorpus("phase19-forbidden.tsv");
    const benign = readCorpus("phase19-benign.tsv");
    expect(forbidden.length).toBeGreaterThanOrEqual(300);
    expect(benign.length).toBeGreaterThanOrEqual(300);
    expect(new Set(forbidden.map((l) => l.label))).toEqual(new Set(CLASSES));
    for (const cls of CLASSES) expect([cls, forbidden.filter((l) => l.label === cls).length >= 25]).toEqual([cls, true]);
    expect(new Set(forbidden.map((l) => l.text)).size).toBe(forbidden.length);
    expect(new Set(benign.map((l) => l.text)).size).toBe(benign.length);
  });

  it("C19-FORBID INV-2: recall on forbidden lines (stored with explicit consent) is at least 0.97", () => {
    const missed = evaluation.forbidden.filter((v) => !v.refused).map((v) => `${v.label}: ${v.text}`);
    expect({ recall: evaluation.recall >= 0.97, missed }).toEqual({ recall: true, missed: expect.any(Array) });
  });

  it("C19-FORBID: at most 3% of benign lines, near-misses included, are refused", () => {
    const refused = evaluation.benign.filter((v) => v.stopReason !== "SUCCESS_STORED").map((v) => `${v.stopReason}: ${v.text}`);
    expect({ rate: evaluation.falsePositiveRate <= 0.03, refused }).toEqual({ rate: true, refused: expect.any(Array) });
  });

  it("C19-TOOL: every tool-output and injection line is refused as FORBIDDEN_CATEGORY or INJECTION_DETECTED, never stored", () => {
    const tool = evaluation.forbidden.filter((v) => v.label === "tool_output");
    expect(tool.filter((v) => !v.refused).map((v) => v.text)).toEqual([]);
  });
});
