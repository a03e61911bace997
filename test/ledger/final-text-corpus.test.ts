import { readFileSync } from "node:fs";
import path from "node:path";
import type { Principal } from "../../src/auth/principal";
import { principalInput } from "../../src/auth/principal";
import { APPROVE_FIELDS } from "../../src/contracts/ledger/operations";
import { createDetectorSuite, defaultDetectors } from "../../src/detectors";
import { parseFields } from "../../src/kernel/fields";
import { createLogger } from "../../src/logger";
import { PolicyEngine } from "../../src/policy/policy-engine";
import { POLICY_BUNDLE } from "../support/gateway";

/**
 * P54-C on a labelled set: test/corpus/ledger/pass.txt must be approved, refuse.txt must be
 * refused as FORBIDDEN_CATEGORY, each through the real compiled policy with the APPROVE input
 * the kernel builds (declared fields, and the facts of the real detector suite, whose lexicon
 * detector matches the validator's patterns from policy data). Below 95% on either half fails.
 */
const corpus = (name: string): string[] =>
  readFileSync(path.join(__dirname, "..", "corpus", "ledger", name), "utf8")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line !== "" && !line.startsWith("#"));

const owner: Principal = { id: "alice", tenant: "acme", subjects: ["alice"], roles: ["user"], agentType: null, job: null };

describe("P54-C the final-text validator on a labelled corpus", () => {
  const policy = new PolicyEngine(POLICY_BUNDLE, createLogger("silent"));
  const detectors = createDetectorSuite(defaultDetectors(policy));
  beforeAll(async () => {
    expect(await policy.reload()).toBe(true);
  });

  async function decide(finalText: string) {
    const parsed = parseFields(APPROVE_FIELDS, { proposalId: "prop_corpus", finalText });
    return policy.decide({
      operation: "APPROVE",
      contract: "ledger",
      now_ms: Date.parse("2026-05-04T09:00:00Z"),
      principal: principalInput(owner),
      subject_id: "alice",
      integrity: { chain_broken: false, broken_seq: null },
      fields: parsed.facts,
      texts: parsed.texts,
      facts: await detectors.run(parsed.texts),
      target: { found: true, status: "active" },
    });
  }

  const pass = corpus("pass.txt");
  const refuse = corpus("refuse.txt");

  it("P54-C: the corpus holds at least 200 final texts, at least half of them ones that must pass", () => {
    expect(pass.length + refuse.length).toBeGreaterThanOrEqual(200);
    expect(pass.length).toBeGreaterThanOrEqual(100);
    expect(new Set([...pass, ...refuse]).size).toBe(pass.length + refuse.length);
  });

  it("P54-C P54-B: at least 95% of the texts that must pass are approved (SUCCESS_STORED), near-misses included", async () => {
    const wrong: string[] = [];
    for (const text of pass) {
      const decision = await decide(text);
      if (decision.stop_reason !== "SUCCESS_STORED") wrong.push(`${text}  ->  ${decision.stop_reason} ${decision.explanations.join(", ")}`);
    }
    if (wrong.length) console.log(`P54-C wrongly refused (${wrong.length}/${pass.length}):\n${wrong.join("\n")}`);
    expect((pass.length - wrong.length) / pass.length).toBeGreaterThanOrEqual(0.95);
  });

  it("P54-C: at least 95% of identity-locking, clinical and authoritative texts are refused as FORBIDDEN_CATEGORY naming the rule", async () => {
    const wrong: string[] = [];
    for (const text of refuse) {
      const decision = await decide(text);
      const named = decision.explanations.some((e) => /^P54-C: (identity_locking|clinical_language|authoritative_framing):[a-z_]+$/.test(e));
      if (decision.stop_reason !== "FORBIDDEN_CATEGORY" || !named) wrong.push(`${text}  ->  ${decision.stop_reason}`);
    }
    if (wrong.length) console.log(`P54-C wrongly approved (${wrong.length}/${refuse.length}):\n${wrong.join("\n")}`);
    expect((refuse.length - wrong.length) / refuse.length).toBeGreaterThanOrEqual(0.95);
  });
});
