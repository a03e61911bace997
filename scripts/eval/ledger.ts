/**
 * P54-C the ledger's final-text validator on test/corpus/ledger/<split>/{pass,refuse}.txt:
 * each final text is APPROVEd through the real compiled policy with the input the kernel
 * builds (declared fields, facts of the real detector suite). `pass` must be SUCCESS_STORED;
 * `refuse` must be FORBIDDEN_CATEGORY naming a P54-C rule. Also `tsx scripts/eval/ledger.ts`
 * prints every miss.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { principalInput, type Principal } from "../../src/auth/principal";
import { APPROVE_FIELDS } from "../../src/contracts/ledger/fields";
import { createDetectorSuite, defaultDetectors } from "../../src/detectors";
import type { DetectorSuite } from "../../src/detectors/detector";
import { parseFields } from "../../src/kernel/fields";
import { createLogger } from "../../src/logger";
import { PolicyEngine } from "../../src/policy/policy-engine";
import type { EvalRow, Split } from "./types";

const ROOT = path.resolve(__dirname, "..", "..");
const CORPUS_DIR = path.join(ROOT, "test", "corpus", "ledger");
const DEFAULT_BUNDLE = path.join(ROOT, "build", "policy", "bundle.tar.gz");

export interface LedgerVerdict {
  text: string;
  expected: "pass" | "refuse";
  stopReason: string;
  explanations: string[];
  correct: boolean;
}

export interface LedgerEvaluation {
  split: Split;
  pass: LedgerVerdict[];
  refuse: LedgerVerdict[];
}

export function readLedgerCorpus(split: Split, half: "pass" | "refuse"): string[] {
  return readFileSync(path.join(CORPUS_DIR, split, `${half}.txt`), "utf8")
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => line !== "" && !line.startsWith("#"));
}

const owner: Principal = { id: "alice", tenant: "acme", subjects: ["alice"], roles: ["user"], agentType: null, job: null };
const NAMED = /^P54-C: (identity_locking|clinical_language|authoritative_framing):[a-z_]+$/;

/** The kernel's input for the owner APPROVEing `finalText`: declared-field facts, texts, the detectors' findings. */
export async function approveInput(finalText: string, detectors: DetectorSuite): Promise<Record<string, unknown>> {
  const parsed = parseFields(APPROVE_FIELDS, { proposalId: "prop_corpus", finalText });
  return {
    operation: "APPROVE",
    contract: "ledger",
    now_ms: Date.parse("2026-05-04T09:00:00Z"),
    principal: principalInput(owner, "alice"),
    subject_id: "alice",
    integrity: { chain_broken: false, broken_seq: null },
    fields: parsed.facts,
    texts: parsed.texts,
    facts: await detectors.run(parsed.texts),
    target: { found: true, status: "active" },
  };
}

/** A judge over the compiled bundle at `bundlePath`: one APPROVE decision per final text. */
export async function createLedgerJudge(bundlePath = DEFAULT_BUNDLE): Promise<(text: string, expected: "pass" | "refuse") => Promise<LedgerVerdict>> {
  const policy = new PolicyEngine(bundlePath, createLogger("silent"));
  if (!(await policy.reload())) throw new Error(`no policy bundle at ${bundlePath}`);
  const detectors = createDetectorSuite(defaultDetectors(policy));
  return async (finalText, expected) => {
    const decision = policy.decide(await approveInput(finalText, detectors));
    const correct =
      expected === "pass"
        ? decision.stop_reason === "SUCCESS_STORED"
        : decision.stop_reason === "FORBIDDEN_CATEGORY" && decision.explanations.some((e) => NAMED.test(e));
    return { text: finalText, expected, stopReason: decision.stop_reason, explanations: decision.explanations, correct };
  };
}

export async function evaluateLedger(split: Split, bundlePath = DEFAULT_BUNDLE): Promise<LedgerEvaluation> {
  const judge = await createLedgerJudge(bundlePath);
  const pass: LedgerVerdict[] = [];
  for (const text of readLedgerCorpus(split, "pass")) pass.push(await judge(text, "pass"));
  const refuse: LedgerVerdict[] = [];
  for (const text of readLedgerCorpus(split, "refuse")) refuse.push(await judge(text, "refuse"));
  return { split, pass, refuse };
}

const share = (verdicts: LedgerVerdict[]): number => verdicts.filter((v) => v.correct).length / verdicts.length;

export function ledgerRows(evaluation: LedgerEvaluation): EvalRow[] {
  const refusedRight = evaluation.refuse.filter((v) => v.correct).length;
  const refusedWrong = evaluation.pass.filter((v) => !v.correct).length;
  return [
    {
      judge: "ledger-validator",
      split: evaluation.split,
      cls: "all",
      count: evaluation.pass.length + evaluation.refuse.length,
      precision: refusedRight / Math.max(1, refusedRight + refusedWrong),
      recall: share(evaluation.refuse),
      falsePositiveRate: refusedWrong / evaluation.pass.length,
      other: {
        pass_ok: evaluation.pass.length - refusedWrong,
        pass_n: evaluation.pass.length,
        refuse_ok: refusedRight,
        refuse_n: evaluation.refuse.length,
        pass_accuracy: share(evaluation.pass),
        refuse_accuracy: share(evaluation.refuse),
      },
    },
  ];
}

export function ledgerMisses(evaluation: LedgerEvaluation): string[] {
  return [...evaluation.pass, ...evaluation.refuse]
    .filter((v) => !v.correct)
    .map(
      (v) =>
        `${evaluation.split} ${v.expected === "pass" ? "wrongly refused" : "wrongly approved"}: ${v.text}  ->  ${v.stopReason} ${v.explanations.join(", ")}`,
    );
}

/** The splits present: dev, test, and blind once it is merged. */
export const ledgerSplits = (): Split[] => (["dev", "test", "blind"] as const).filter((split) => existsSync(path.join(CORPUS_DIR, split, "pass.txt")));

/** Scores the ledger validator on every split of test/corpus/ledger/ (counts only: no blind text is printed). */
export async function evaluate(): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  for (const split of ledgerSplits()) rows.push(...ledgerRows(await evaluateLedger(split)));
  return rows;
}

if (require.main === module) {
  (async () => {
    for (const split of ledgerSplits()) {
      const evaluation = await evaluateLedger(split);
      console.log(JSON.stringify(ledgerRows(evaluation)[0]));
      // The blind split is scored, never read: its misses stay unprinted.
      if (split !== "blind") for (const line of ledgerMisses(evaluation)) console.log(line);
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
