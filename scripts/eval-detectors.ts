/**
 * Detector quality (C19-FORBID, C19-TOOL): runs the labelled corpora of test/corpus/detectors/
 * through the real detectors and the real compiled policy, as STOREs with explicit consent,
 * and prints a confusion table per class and per benign set. `npm run eval:detectors [dev|test]`
 * (builds the bundle first; default: both splits). `npm run eval` prints the summary rows.
 *
 * Splits: `dev` is what the lexicons and senses are tuned on; `test` was written before any
 * tuning against it and is never edited to pass (test/corpus/detectors/README.md).
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { createDetectorSuite, defaultDetectors } from "../src/detectors";
import { loadBundle } from "../src/policy/bundle";

// Run from scripts/ by tsx, or from dist/scripts/ after a build.
const ROOT = path.basename(path.resolve(__dirname, "..")) === "dist" ? path.resolve(__dirname, "..", "..") : path.resolve(__dirname, "..");
export const CORPUS_DIR = path.join(ROOT, "test", "corpus", "detectors");
export const DEFAULT_BUNDLE = path.join(ROOT, "build", "policy", "bundle.tar.gz");

export type Split = "dev" | "test";
export const SPLITS: readonly Split[] = ["dev", "test"];
/**
 * The benign sets: the project's own near-misses, everyday memories, README sentences, and
 * (dev only) more README sentences to look for false positives on.
 */
export const BENIGN_SETS = ["benign", "benign-personal", "benign-docs", "benign-docs-extra"] as const;

/** The benign sets a split holds. */
export const benignSets = (split: Split): string[] => BENIGN_SETS.filter((set) => existsSync(path.join(CORPUS_DIR, split, `${set}.tsv`)));
export const CLASSES = ["identity", "health", "intimate", "criminal_legal", "location", "credentials", "biometrics_ids", "profiling", "tool_output"];

export interface CorpusLine {
  /** The forbidden class, or the benign line's category. */
  label: string;
  text: string;
  /** Where it came from (`benign-docs`: package@version and licence). */
  source?: string;
  file: string;
  line: number;
}

export interface Verdict extends CorpusLine {
  stopReason: string;
  explanations: string[];
  refused: boolean;
}

export interface Evaluation {
  split: Split;
  forbidden: Verdict[];
  benign: Verdict[];
  recall: number;
  falsePositiveRate: number;
}

/** `label<TAB>text[<TAB>source...]` lines; `#` starts a comment line. */
export function readCorpus(split: Split, name: string): CorpusLine[] {
  const file = path.join(split, `${name}.tsv`);
  return readFileSync(path.join(CORPUS_DIR, file), "utf8")
    .split("\n")
    .map((raw, i) => ({ raw, line: i + 1 }))
    .filter(({ raw }) => raw.trim() !== "" && !raw.startsWith("#"))
    .map(({ raw, line }) => {
      const [label, text, ...source] = raw.split("\t");
      return { label, text, source: source.length ? source.join(" ") : undefined, file, line };
    });
}

const REFUSALS = new Set(["FORBIDDEN_CATEGORY", "INJECTION_DETECTED"]);

/** A judge over the real detectors and the compiled bundle: one STORE decision per text. */
export async function createJudge(bundlePath = DEFAULT_BUNDLE): Promise<(entry: CorpusLine, category: string) => Promise<Verdict>> {
  const bundle = await loadBundle(bundlePath);
  const detectors = createDetectorSuite(defaultDetectors({ hash: bundle.hash, data: <T>(name: string) => bundle.data.memgate[name] as T }));
  return async (entry, category) => {
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
}

type Judge = Awaited<ReturnType<typeof createJudge>>;
const judges = new Map<string, Promise<Judge>>();
/**
 * One judge per bundle file as built (path and modification time), shared by every split judged in
 * a process: a judge's detectors learn as they go (the injection rules of each set of languages
 * are compiled on first use), and a fresh judge per split compiled them all again.
 */
export function sharedJudge(bundlePath = DEFAULT_BUNDLE): Promise<Judge> {
  const key = `${bundlePath}\u0000${statSync(bundlePath).mtimeMs}`;
  let judge = judges.get(key);
  if (!judge) judges.set(key, (judge = createJudge(bundlePath)));
  return judge;
}

export async function evaluateSplit(split: Split, bundlePath = DEFAULT_BUNDLE): Promise<Evaluation> {
  const judge = await sharedJudge(bundlePath);
  const forbidden: Verdict[] = [];
  for (const entry of readCorpus(split, "forbidden")) forbidden.push(await judge(entry, "PREFERENCE"));
  const benign: Verdict[] = [];
  for (const set of benignSets(split)) for (const entry of readCorpus(split, set)) benign.push(await judge(entry, entry.label));
  return {
    split,
    forbidden,
    benign,
    recall: forbidden.filter((v) => v.refused).length / forbidden.length,
    falsePositiveRate: benign.filter((v) => v.stopReason !== "SUCCESS_STORED").length / benign.length,
  };
}

/** Kept for callers of the earlier single-corpus evaluation: the dev split. */
export const evaluateCorpus = (bundlePath = DEFAULT_BUNDLE): Promise<Evaluation> => evaluateSplit("dev", bundlePath);

const setOf = (v: Verdict): string => path.basename(v.file, ".tsv");

export function confusionTable(evaluation: Evaluation): string {
  const rows: string[] = [`split ${evaluation.split}`, "class             lines  refused  missed  recall"];
  for (const label of CLASSES) {
    const of = evaluation.forbidden.filter((v) => v.label === label);
    const hit = of.filter((v) => v.refused).length;
    rows.push(
      `${label.padEnd(17)} ${String(of.length).padStart(5)}  ${String(hit).padStart(7)}  ${String(of.length - hit).padStart(6)}  ${(hit / of.length).toFixed(3)}`,
    );
  }
  rows.push("");
  rows.push("benign set        lines  stored   refused  fp-rate");
  for (const set of benignSets(evaluation.split)) {
    const of = evaluation.benign.filter((v) => setOf(v) === set);
    const bad = of.filter((v) => v.stopReason !== "SUCCESS_STORED").length;
    rows.push(
      `${set.padEnd(17)} ${String(of.length).padStart(5)}  ${String(of.length - bad).padStart(6)}  ${String(bad).padStart(8)}  ${(bad / of.length).toFixed(4)}`,
    );
  }
  rows.push("");
  rows.push(`forbidden recall ${evaluation.recall.toFixed(3)}; benign false positives ${(evaluation.falsePositiveRate * 100).toFixed(2)}%`);
  return rows.join("\n");
}

export function misses(evaluation: Evaluation): string[] {
  return [
    ...evaluation.forbidden.filter((v) => !v.refused).map((v) => `MISSED  ${evaluation.split}/${v.label}:${v.line}  ${v.stopReason}  ${v.text}`),
    ...evaluation.benign
      .filter((v) => v.stopReason !== "SUCCESS_STORED")
      .map((v) => `FALSE+  ${v.file}:${v.line}  ${v.stopReason} ${v.explanations.join("; ")}  ${v.text}${v.source ? `  [${v.source}]` : ""}`),
  ];
}

async function main(): Promise<void> {
  const wanted = SPLITS.filter((s) => process.argv.includes(s));
  for (const split of wanted.length ? wanted : SPLITS) {
    const evaluation = await evaluateSplit(split, process.env.MEMGATE_POLICY_BUNDLE ?? DEFAULT_BUNDLE);
    console.log(confusionTable(evaluation));
    for (const line of misses(evaluation)) console.log(line);
    console.log("");
  }
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
