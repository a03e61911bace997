/**
 * The detectors (C19-FORBID, C19-TOOL) on both splits of test/corpus/detectors/: recall per
 * forbidden class, false-positive rate per benign set, and one summary row. A benign line
 * counts as a false positive when it is not SUCCESS_STORED; `other.category_bans` says how many
 * of those were refused by a category ban of seed 000 §3 (C19-CAT, e.g. personal-schedule
 * REMINDERs) rather than by a detector, and `detector_fpr` leaves them out.
 */
import { CLASSES, benignSets, evaluateSplit, type Evaluation, type Verdict } from "../eval-detectors";
import type { EvalRow, Split } from "./types";

const setOf = (v: Verdict): string => v.file.replace(/^.*[/\\]/, "").replace(/\.tsv$/, "");
const categoryBanOnly = (v: Verdict): boolean => v.explanations.length > 0 && v.explanations.every((e) => e.startsWith("C19-CAT"));

export function detectorRows(evaluation: Evaluation): EvalRow[] {
  const split: Split = evaluation.split;
  const rows: EvalRow[] = [];
  for (const cls of CLASSES) {
    const of = evaluation.forbidden.filter((v) => v.label === cls);
    const hit = of.filter((v) => v.refused).length;
    rows.push({ judge: "detectors", split, cls, count: of.length, recall: hit / of.length, other: { refused: hit, missed: of.length - hit } });
  }
  for (const set of benignSets(split)) {
    const of = evaluation.benign.filter((v) => setOf(v) === set);
    const wrong = of.filter((v) => v.stopReason !== "SUCCESS_STORED");
    rows.push({
      judge: "detectors",
      split,
      cls: set,
      count: of.length,
      falsePositiveRate: wrong.length / of.length,
      other: { refused: wrong.length, category_bans: wrong.filter(categoryBanOnly).length },
    });
  }
  const hit = evaluation.forbidden.filter((v) => v.refused).length;
  const wrong = evaluation.benign.filter((v) => v.stopReason !== "SUCCESS_STORED");
  const bans = wrong.filter(categoryBanOnly).length;
  rows.push({
    judge: "detectors",
    split,
    cls: "all",
    count: evaluation.forbidden.length + evaluation.benign.length,
    precision: hit / Math.max(1, hit + wrong.length),
    recall: hit / evaluation.forbidden.length,
    falsePositiveRate: wrong.length / evaluation.benign.length,
    other: {
      forbidden: evaluation.forbidden.length,
      missed: evaluation.forbidden.length - hit,
      benign: evaluation.benign.length,
      refused: wrong.length,
      category_bans: bans,
      detector_fpr: (wrong.length - bans) / evaluation.benign.length,
    },
  });
  return rows;
}

/** Scores the detectors on the development and test splits of test/corpus/detectors/. */
export async function evaluate(): Promise<EvalRow[]> {
  const rows: EvalRow[] = [];
  for (const split of ["dev", "test"] as const) rows.push(...detectorRows(await evaluateSplit(split)));
  return rows;
}
