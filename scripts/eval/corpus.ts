/**
 * Readers of the labelled corpora in the per-language formats (issue 21 item 7), shared by the
 * dev, test and blind splits of test/corpus/detectors/<split>/:
 *
 * | file | columns |
 * |---|---|
 * | `sensitive.tsv` | lang, class, subclass, form, text |
 * | `injection.tsv` | lang, kind, text |
 * | `benign-tricky.tsv` (blind: `benign.tsv`) | lang, category, kind, text |
 * | `benign-injection-talk.tsv` | lang, category, text |
 * | `fairness-pairs.tsv` | frame, group_kind, group, category, text |
 *
 * The blind split's texts are read only to be judged: nothing here prints them, and the
 * evaluation reports only counts (docs/JUDGEMENT.md, "Evaluation").
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { SPLITS, type Split } from "./types";

const ROOT = path.resolve(__dirname, "..", "..");
export const DETECTOR_CORPUS = path.join(ROOT, "test", "corpus", "detectors");

export type EvalSplit = Split;
export const EVAL_SPLITS: readonly EvalSplit[] = SPLITS;
/** The blind splits are judged and counted, never printed (their READMEs say who wrote them, and when). */
export const isBlind = (split: EvalSplit): split is Exclude<EvalSplit, "dev" | "test"> => split.startsWith("blind");

/** One labelled line: `label` is the class (sensitive), kind (injection) or category (benign). */
export interface LabelledLine {
  lang: string;
  /** Forbidden class, injection kind, or the group kind of a fairness pair. */
  cls: string;
  /** Subclass, form, benign kind, or the group of a fairness pair. */
  detail: string;
  /** The category the text is stored under. */
  category: string;
  /** The frame of a fairness pair (lines of one frame differ only by the group). */
  frame?: string;
  text: string;
  file: string;
  line: number;
}

function rows(file: string): { cells: string[]; line: number }[] {
  if (!existsSync(file)) return [];
  return (
    readFileSync(file, "utf8")
      .split("\n")
      .map((raw, i) => ({ raw: raw.replace(/\r$/, ""), line: i + 1 }))
      .filter(({ raw }) => raw.trim() !== "" && !raw.startsWith("#"))
      .map(({ raw, line }) => ({ cells: raw.split("\t"), line }))
      // A header row naming the columns, if a file has one.
      .filter(({ cells }) => !["lang", "frame"].includes(cells[0]))
  );
}

/** The rest of a line from column `from` on (a text may itself hold a tab). */
const rest = (cells: string[], from: number): string => cells.slice(from).join("\t");

const fileOf = (split: EvalSplit, name: string): string => path.join(DETECTOR_CORPUS, split, name);

/**
 * Further dev files in the same columns, read after the main one (named here, not globbed, so no
 * other split's directory is listed; the other splits keep their fixed files): rounds 10 and 11's lines.
 */
const DEV_EXTRA: Record<string, readonly string[]> = {
  "sensitive.tsv": ["profiling-structure.tsv", "sensitive-sens46.tsv", "sensitive-prec46.tsv"],
  "benign-tricky.tsv": ["benign-evaluative.tsv", "benign-tricky-sens46.tsv", "benign-tricky-prec46.tsv"],
  "injection.tsv": ["injection-arrangements.tsv", "injection-varied.tsv", "injection-prefs.tsv", "injection-inj46.tsv"],
  "benign-injection-talk.tsv": ["benign-injection-talk-2.tsv", "benign-injection-talk-inj46.tsv"],
};
const filesOf = (split: EvalSplit, name: string): string[] => [name, ...(split === "dev" ? (DEV_EXTRA[name] ?? []) : [])].map((n) => fileOf(split, n));

export function readSensitive(split: EvalSplit): LabelledLine[] {
  return filesOf(split, "sensitive.tsv").flatMap((file) =>
    rows(file).map(({ cells, line }) => ({
      lang: cells[0],
      cls: cells[1],
      detail: `${cells[2]}/${cells[3]}`,
      category: "PREFERENCE",
      text: rest(cells, 4),
      file,
      line,
    })),
  );
}

export function readInjection(split: EvalSplit): LabelledLine[] {
  return filesOf(split, "injection.tsv").flatMap((file) =>
    rows(file).map(({ cells, line }) => ({ lang: cells[0], cls: cells[1], detail: cells[1], category: "PREFERENCE", text: rest(cells, 2), file, line })),
  );
}

/** Benign but tricky texts: the blind split calls the file benign.tsv, dev and test benign-tricky.tsv. */
export function readBenignTricky(split: EvalSplit): LabelledLine[] {
  return filesOf(split, isBlind(split) ? "benign.tsv" : "benign-tricky.tsv").flatMap((file) =>
    rows(file).map(({ cells, line }) => ({ lang: cells[0], cls: cells[2], detail: cells[2], category: cells[1], text: rest(cells, 3), file, line })),
  );
}

export function readBenignInjectionTalk(split: EvalSplit): LabelledLine[] {
  return filesOf(split, "benign-injection-talk.tsv").flatMap((file) =>
    rows(file).map(({ cells, line }) => ({ lang: cells[0], cls: "injection-talk", detail: "", category: cells[1], text: rest(cells, 2), file, line })),
  );
}

export function readFairnessPairs(split: EvalSplit): LabelledLine[] {
  const file = fileOf(split, "fairness-pairs.tsv");
  return rows(file).map(({ cells, line }) => ({
    lang: "en",
    frame: cells[0],
    cls: cells[1],
    detail: cells[2],
    category: cells[3],
    text: rest(cells, 4),
    file,
    line,
  }));
}

/** Whether a split holds any of the per-language files (the blind split exists once merged). */
export const hasSplit = (split: EvalSplit): boolean => existsSync(path.join(DETECTOR_CORPUS, split));
