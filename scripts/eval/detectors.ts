/**
 * The content judges on every split of test/corpus/detectors/ (issue 21 item 7), through the
 * real detectors and the real compiled policy, one STORE with explicit consent per text:
 *
 * - `detectors` (C19-FORBID, C19-TOOL): recall on the sensitive lines (`forbidden.tsv`, English,
 *   and `sensitive.tsv`, any language), false-positive rate on the benign sets, per language and
 *   per class; `fairness`: the share of frames of `fairness-pairs.tsv` whose lines (the same
 *   sentence, the group swapped) all got the same answer.
 * - `injection` (C19-INJ): recall on `injection.tsv`, false-positive rate on
 *   `benign-injection-talk.tsv`, per language and per kind.
 *
 * A sensitive or injection line counts as caught when it is FORBIDDEN_CATEGORY or
 * INJECTION_DETECTED; a benign line as a false positive when it is not SUCCESS_STORED.
 * `other.category_bans` says how many benign refusals were seed 000 §3 category bans (C19-CAT)
 * rather than a detector. Rows carry counts only, never a text (the blind split stays unread).
 */
import { CLASSES, evaluateSplit, sharedJudge, type CorpusLine, type Evaluation, type Verdict } from "../eval-detectors";
import {
  EVAL_SPLITS,
  hasSplit,
  readBenignInjectionTalk,
  readBenignTricky,
  readFairnessPairs,
  readInjection,
  readSensitive,
  type EvalSplit,
  isBlind,
  type LabelledLine,
} from "./corpus";
import type { EvalRow } from "./types";

/** One judged line: its labels and the decision, never shown for the blind split. */
export interface Judged {
  lang: string;
  cls: string;
  set: string;
  frame?: string;
  group?: string;
  text: string;
  stopReason: string;
  explanations: string[];
  caught: boolean;
}

export interface SplitEvaluation {
  split: EvalSplit;
  sensitive: Judged[];
  benign: Judged[];
  injection: Judged[];
  injectionTalk: Judged[];
  fairness: Judged[];
}

const CAUGHT = new Set(["FORBIDDEN_CATEGORY", "INJECTION_DETECTED"]);
const categoryBanOnly = (v: Judged): boolean => v.explanations.length > 0 && v.explanations.every((e) => e.startsWith("C19-CAT"));
const setOf = (file: string): string => file.replace(/^.*[/\\]/, "").replace(/\.tsv$/, "");

type Judge = (entry: CorpusLine, category: string) => Promise<Verdict>;

async function judgeLines(judge: Judge, lines: LabelledLine[]): Promise<Judged[]> {
  const out: Judged[] = [];
  for (const l of lines) {
    const v = await judge({ label: l.cls, text: l.text, file: l.file, line: l.line }, l.category);
    out.push({
      lang: l.lang,
      cls: l.cls,
      set: setOf(l.file),
      frame: l.frame,
      group: l.detail,
      text: l.text,
      stopReason: v.stopReason,
      explanations: v.explanations,
      caught: CAUGHT.has(v.stopReason),
    });
  }
  return out;
}

const fromVerdict = (v: Verdict, lang: string): Judged => ({
  lang,
  cls: v.label,
  set: setOf(v.file),
  text: v.text,
  stopReason: v.stopReason,
  explanations: v.explanations,
  caught: CAUGHT.has(v.stopReason),
});

/** Every detector corpus of one split through the real detectors and policy. */
export async function evaluateDetectorSplit(
  split: EvalSplit,
  bundlePath?: string,
  options: { perLanguageOnly?: boolean; english?: Evaluation } = {},
): Promise<SplitEvaluation> {
  const judge = await sharedJudge(bundlePath);
  const sensitive: Judged[] = [];
  const benign: Judged[] = [];
  if (!isBlind(split) && !options.perLanguageOnly) {
    // The English corpora of issue 13 (class, text / category, text).
    // A caller that has judged the English corpora already passes them in (the guards judge the test split once).
    const english = options.english ?? (await evaluateSplit(split, bundlePath));
    sensitive.push(...english.forbidden.map((v) => fromVerdict(v, "en")));
    benign.push(...english.benign.map((v) => fromVerdict(v, "en")));
  }
  sensitive.push(...(await judgeLines(judge, readSensitive(split))));
  benign.push(...(await judgeLines(judge, readBenignTricky(split))));
  return {
    split,
    sensitive,
    benign,
    injection: await judgeLines(judge, readInjection(split)),
    injectionTalk: await judgeLines(judge, readBenignInjectionTalk(split)),
    fairness: await judgeLines(judge, readFairnessPairs(split)),
  };
}

/** Recall over `positives`, false-positive rate over `negatives`, precision over both. */
function scored(judge: EvalRow["judge"], split: EvalSplit, lang: string, cls: string, positives: Judged[], negatives: Judged[]): EvalRow | undefined {
  if (positives.length === 0 && negatives.length === 0) return undefined;
  const hit = positives.filter((v) => v.caught).length;
  const wrong = negatives.filter((v) => v.stopReason !== "SUCCESS_STORED");
  return {
    judge,
    split,
    lang,
    cls,
    count: positives.length + negatives.length,
    recall: positives.length ? hit / positives.length : undefined,
    precision: positives.length && hit + wrong.length > 0 ? hit / (hit + wrong.length) : undefined,
    falsePositiveRate: negatives.length ? wrong.length / negatives.length : undefined,
    other: {
      ...(positives.length ? { positives: positives.length, missed: positives.length - hit } : {}),
      ...(negatives.length ? { negatives: negatives.length, refused: wrong.length, category_bans: wrong.filter(categoryBanOnly).length } : {}),
    },
  };
}

const langsOf = (...sets: Judged[][]): string[] => [...new Set(sets.flat().map((v) => v.lang))].sort();
const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** Frames whose lines all got the same stop reason, out of frames with two lines or more. */
export function fairness(lines: Judged[]): { frames: number; identical: number; differing: string[] } {
  const byFrame = new Map<string, Judged[]>();
  for (const l of lines) byFrame.set(l.frame ?? "", [...(byFrame.get(l.frame ?? "") ?? []), l]);
  const frames = [...byFrame.entries()].filter(([, ls]) => ls.length > 1);
  const differing = frames.filter(([, ls]) => new Set(ls.map((l) => l.stopReason)).size > 1).map(([frame]) => frame);
  return { frames: frames.length, identical: frames.length - differing.length, differing };
}

export function splitRows(e: SplitEvaluation): EvalRow[] {
  const rows: (EvalRow | undefined)[] = [];
  const { split } = e;
  // detectors: overall, per language, per class, per language and class, per benign set.
  rows.push(scored("detectors", split, "all", "all", e.sensitive, e.benign));
  for (const lang of langsOf(e.sensitive, e.benign)) {
    const s = e.sensitive.filter((v) => v.lang === lang);
    rows.push(
      scored(
        "detectors",
        split,
        lang,
        "all",
        s,
        e.benign.filter((v) => v.lang === lang),
      ),
    );
  }
  const classes = sorted([...CLASSES.filter((c) => e.sensitive.some((v) => v.cls === c)), ...e.sensitive.map((v) => v.cls)]);
  for (const cls of classes) {
    const s = e.sensitive.filter((v) => v.cls === cls);
    rows.push(scored("detectors", split, "all", cls, s, []));
    const langs = langsOf(s);
    if (langs.length > 1)
      for (const lang of langs)
        rows.push(
          scored(
            "detectors",
            split,
            lang,
            cls,
            s.filter((v) => v.lang === lang),
            [],
          ),
        );
  }
  for (const set of sorted(e.benign.map((v) => v.set))) {
    rows.push(
      scored(
        "detectors",
        split,
        "all",
        `benign:${set}`,
        [],
        e.benign.filter((v) => v.set === set),
      ),
    );
  }
  if (e.fairness.length) {
    const f = fairness(e.fairness);
    rows.push({
      judge: "detectors",
      split,
      lang: "all",
      cls: "fairness-pairs",
      count: e.fairness.length,
      other: {
        frames: f.frames,
        identical: f.identical,
        identical_share: f.frames ? f.identical / f.frames : 1,
        lines_stored: e.fairness.filter((v) => v.stopReason === "SUCCESS_STORED").length,
      },
    });
    for (const kind of sorted(e.fairness.map((v) => v.cls))) {
      const of = fairness(e.fairness.filter((v) => v.cls === kind));
      rows.push({
        judge: "detectors",
        split,
        lang: "all",
        cls: `fairness:${kind}`,
        count: e.fairness.filter((v) => v.cls === kind).length,
        other: { frames: of.frames, identical: of.identical, identical_share: of.frames ? of.identical / of.frames : 1 },
      });
    }
  }
  // injection: overall, per language, per kind.
  rows.push(scored("injection", split, "all", "all", e.injection, e.injectionTalk));
  for (const lang of langsOf(e.injection, e.injectionTalk)) {
    rows.push(
      scored(
        "injection",
        split,
        lang,
        "all",
        e.injection.filter((v) => v.lang === lang),
        e.injectionTalk.filter((v) => v.lang === lang),
      ),
    );
  }
  for (const kind of sorted(e.injection.map((v) => v.cls)))
    rows.push(
      scored(
        "injection",
        split,
        "all",
        kind,
        e.injection.filter((v) => v.cls === kind),
        [],
      ),
    );
  return rows.filter((r): r is EvalRow => r !== undefined);
}

/**
 * Lines judged wrongly, for tuning: dev and test only. A blind split prints counts, never text; of
 * a frame that treats groups differently it names the frame, each group and its answer (labels and
 * rule names only), because which group a judge treats differently is the finding.
 */
export function splitMisses(e: SplitEvaluation): string[] {
  const f = new Set(fairness(e.fairness).differing);
  if (isBlind(e.split))
    return e.fairness
      .filter((v) => f.has(v.frame ?? "") && v.stopReason !== "SUCCESS_STORED")
      .map((v) => `UNFAIR  ${e.split} ${v.frame} ${v.group}  ${v.stopReason} ${v.explanations.join("; ")}`);
  return [
    ...[...e.sensitive, ...e.injection].filter((v) => !v.caught).map((v) => `MISSED  ${e.split} ${v.lang} ${v.cls}  ${v.stopReason}  ${v.text}`),
    ...[...e.benign, ...e.injectionTalk]
      .filter((v) => v.stopReason !== "SUCCESS_STORED")
      .map((v) => `FALSE+  ${e.split} ${v.lang} ${v.set}  ${v.stopReason} ${v.explanations.join("; ")}  ${v.text}`),
    ...e.fairness.filter((v) => f.has(v.frame ?? "")).map((v) => `UNFAIR  ${e.split} ${v.frame} ${v.group}  ${v.stopReason}  ${v.text}`),
  ];
}

/** Scores the content judges on every split present. */
export async function evaluate(): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  for (const split of EVAL_SPLITS) if (hasSplit(split)) rows.push(...splitRows(await evaluateDetectorSplit(split)));
  return rows;
}

if (require.main === module) {
  (async () => {
    const wanted = EVAL_SPLITS.filter((s) => process.argv.includes(s));
    for (const split of wanted.length ? wanted : EVAL_SPLITS.filter((s) => !isBlind(s))) {
      if (!hasSplit(split)) continue;
      const e = await evaluateDetectorSplit(split);
      for (const row of splitRows(e)) console.log(JSON.stringify(row));
      for (const line of splitMisses(e)) console.log(line);
    }
  })().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
