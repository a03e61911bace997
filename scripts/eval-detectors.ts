/**
 * Detector quality (issue 4, C19-FORBID): runs the labelled corpus in test/corpus/ through
 * the real detectors and the real compiled policy, as STOREs with explicit consent, and
 * prints a confusion table per class. `npm run eval:detectors` (builds the bundle first).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { createDetectorSuite, defaultDetectors } from "../src/detectors";
import { loadBundle } from "../src/policy/bundle";

// Run from scripts/ by tsx, or from dist/scripts/ after a build.
const ROOT = path.basename(path.resolve(__dirname, "..")) === "dist" ? path.resolve(__dirname, "..", "..") : path.resolve(__dirname, "..");
export const CORPUS_DIR = path.join(ROOT, "test", "corpus");
export const DEFAULT_BUNDLE = path.join(ROOT, "build", "policy", "bundle.tar.gz");

export interface CorpusLine {
  label: string;
  text: string;
  line: number;
}

export interface Verdict extends CorpusLine {
  stopReason: string;
  explanations: string[];
  refused: boolean;
}

export interface Evaluation {
  forbidden: Verdict[];
  benign: Verdict[];
  recall: number;
  falsePositiveRate: number;
}

/** `label<TAB>text` lines; `#` starts a comment line. */
export function readCorpus(file: string): CorpusLine[] {
  return readFileSync(path.join(CORPUS_DIR, file), "utf8")
    .split("\n")
    .map((raw, i) => ({ raw, line: i + 1 }))
    .filter(({ raw }) => raw.trim() !== "" && !raw.startsWith("#"))
    .map(({ raw, line }) => {
      const tab = raw.indexOf("\t");
      return { label: raw.slice(0, tab), text: raw.slice(tab + 1), line };
    });
}

const REFUSALS = new Set(["FORBIDDEN_CATEGORY", "INJECTION_DETECTED"]);

export async function evaluateCorpus(bundlePath = DEFAULT_BUNDLE): Promise<Evaluation> {
  const bundle = await loadBundle(bundlePath);
  const detectors = createDetectorSuite(defaultDetectors({ hash: bundle.hash, data: <T>(name: string) => bundle.data.memgate[name] as T }));
  const judge = async (entry: CorpusLine, category: string): Promise<Verdict> => {
    const texts = { key: "note", value: entry.text };
    const facts = await detectors.run(texts);
    const input = {
      operation: "STORE",
      contract: "governed",
      now_ms: Date.parse("2026-06-01T00:00:00Z"),
      principal: { id: "eval", tenant: "eval", subjects: ["s"], roles: ["agent"], agent_type: null, job: null },
      subject_id: "s",
      item: {
        category,
        key: "note",
        value: entry.text,
        source_kind: "USER_EXPLICIT",
        ttl_class: "MEDIUM",
        source_ref: null,
        origin: "USER",
        consent: { explicit: true, evidence_ref: null },
      },
      texts,
      facts,
      settings: { tenant: null, subject: null },
      counts: { items: 0, writes_in_window: 0 },
    };
    const result = bundle.policy.evaluate(input, "memgate/main/decision") as { result: { stop_reason: string; explanations: string[] } }[];
    const decision = result[0].result;
    return { ...entry, stopReason: decision.stop_reason, explanations: decision.explanations, refused: REFUSALS.has(decision.stop_reason) };
  };
  const forbidden: Verdict[] = [];
  for (const entry of readCorpus("phase19-forbidden.tsv")) forbidden.push(await judge(entry, "PREFERENCE"));
  const benign: Verdict[] = [];
  for (const entry of readCorpus("phase19-benign.tsv")) benign.push(await judge(entry, entry.label));
  return {
    forbidden,
    benign,
    recall: forbidden.filter((v) => v.refused).length / forbidden.length,
    falsePositiveRate: benign.filter((v) => v.stopReason !== "SUCCESS_STORED").length / benign.length,
  };
}

export function confusionTable(evaluation: Evaluation): string {
  const rows: string[] = ["class             lines  refused  missed  recall"];
  const classes = [...new Set(evaluation.forbidden.map((v) => v.label))].sort();
  for (const label of classes) {
    const of = evaluation.forbidden.filter((v) => v.label === label);
    const hit = of.filter((v) => v.refused).length;
    rows.push(
      `${label.padEnd(17)} ${String(of.length).padStart(5)}  ${String(hit).padStart(7)}  ${String(of.length - hit).padStart(6)}  ${(hit / of.length).toFixed(3)}`,
    );
  }
  rows.push("");
  rows.push("benign category   lines  stored   refused  fp-rate");
  for (const label of [...new Set(evaluation.benign.map((v) => v.label))].sort()) {
    const of = evaluation.benign.filter((v) => v.label === label);
    const bad = of.filter((v) => v.stopReason !== "SUCCESS_STORED").length;
    rows.push(
      `${label.padEnd(17)} ${String(of.length).padStart(5)}  ${String(of.length - bad).padStart(6)}  ${String(bad).padStart(8)}  ${(bad / of.length).toFixed(3)}`,
    );
  }
  rows.push("");
  rows.push(
    `forbidden recall ${evaluation.recall.toFixed(3)} (gate >= 0.970); benign false positives ${(evaluation.falsePositiveRate * 100).toFixed(1)}% (gate <= 3.0%)`,
  );
  return rows.join("\n");
}

async function main(): Promise<void> {
  const evaluation = await evaluateCorpus(process.env.MEMGATE_POLICY_BUNDLE ?? DEFAULT_BUNDLE);
  console.log(confusionTable(evaluation));
  const verbose = process.argv.includes("--verbose");
  const missed = evaluation.forbidden.filter((v) => !v.refused);
  const wrong = evaluation.benign.filter((v) => v.stopReason !== "SUCCESS_STORED");
  if (verbose || missed.length + wrong.length <= 40) {
    for (const v of missed) console.log(`MISSED  ${v.label}:${v.line}  ${v.stopReason}  ${v.text}`);
    for (const v of wrong) console.log(`FALSE+  ${v.label}:${v.line}  ${v.stopReason} ${v.explanations.join("; ")}  ${v.text}`);
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
