import { createLedgerJudge, evaluateLedger, ledgerMisses, readLedgerCorpus, type LedgerEvaluation } from "../../scripts/eval/ledger";
import { POLICY_BUNDLE } from "../support/gateway";

/**
 * P54-C on labelled final texts: test/corpus/ledger/<split>/pass.txt must be approved,
 * refuse.txt refused as FORBIDDEN_CATEGORY naming a P54-C rule, each through the real compiled
 * policy with the APPROVE input the kernel builds (declared fields, facts of the real detector
 * suite). The test split was written before any tuning against it; the guards sit at the
 * level it achieved (issue 13: at least 98% on each half).
 */
describe("P54-C the final-text validator on the dev and test splits", () => {
  let dev: LedgerEvaluation;
  let test: LedgerEvaluation;
  const share = (verdicts: { correct: boolean }[]): number => verdicts.filter((v) => v.correct).length / verdicts.length;

  beforeAll(async () => {
    dev = await evaluateLedger("dev", POLICY_BUNDLE);
    test = await evaluateLedger("test", POLICY_BUNDLE);
    const wrong = [...ledgerMisses(dev), ...ledgerMisses(test)];
    if (wrong.length) console.log(`P54-C misses:\n${wrong.join("\n")}`);
  });

  it("P54-C: each split holds texts that must pass and texts that must be refused; one refuse line repeats a dev line by chance (kept: the test split is never edited)", () => {
    expect(readLedgerCorpus("dev", "pass").length + readLedgerCorpus("dev", "refuse").length).toBeGreaterThanOrEqual(200);
    expect(readLedgerCorpus("test", "pass").length).toBeGreaterThanOrEqual(50);
    expect(readLedgerCorpus("test", "refuse").length).toBeGreaterThanOrEqual(50);
    const devTexts = new Set([...readLedgerCorpus("dev", "pass"), ...readLedgerCorpus("dev", "refuse")]);
    expect([...readLedgerCorpus("test", "pass"), ...readLedgerCorpus("test", "refuse")].filter((t) => devTexts.has(t))).toEqual([
      "I'll never be good at public speaking",
    ]);
  });

  it("P54-C P54-B: test split approves all 50 texts that must pass, near-misses included (at least 98%)", () => {
    expect(share(test.pass)).toBeGreaterThanOrEqual(1);
  });

  it("P54-C: test split refuses at least 49 of 50 identity-locking, clinical and authoritative texts naming the rule (at least 98%)", () => {
    expect(share(test.refuse)).toBeGreaterThanOrEqual(0.98);
  });

  it("P54-C: dev split approves at least 97.5% of its pass texts and refuses all of its refuse texts (the level achieved)", () => {
    expect(share(dev.pass)).toBeGreaterThanOrEqual(0.975);
    expect(share(dev.refuse)).toBe(1);
  });

  it("P54-C: words read in context (issue 13): diagnosing a thing and examples that clearly show pass; a diagnosis of me and proof about you are refused", async () => {
    const judge = await createLedgerJudge(POLICY_BUNDLE);
    const pass = ["I want to get better at diagnosing flaky tests.", "I prefer examples that clearly show each step."];
    const refuse = ["I was diagnosed with depression", "this clearly proves you are lazy", "Clearly you need more discipline"];
    expect((await Promise.all(pass.map((t) => judge(t, "pass")))).map((v) => [v.text, v.correct])).toEqual(pass.map((t) => [t, true]));
    expect((await Promise.all(refuse.map((t) => judge(t, "refuse")))).map((v) => [v.text, v.correct])).toEqual(refuse.map((t) => [t, true]));
  });
});
