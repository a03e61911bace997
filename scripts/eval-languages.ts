/**
 * `npx tsx scripts/eval-languages.ts [dev|test|blind ...]`: the per-language corpora only
 * (sensitive, benign-tricky, injection, injection talk, fairness pairs), fast enough to run
 * after each lexicon edit (the bundle must be built: `npm run -s policy:build`). Per split and
 * language: sensitive recall, benign refused, injection recall, injection talk refused; the
 * lines judged wrongly on dev and test (never on blind, which prints counts only).
 */
import { evaluateDetectorSplit, fairness, splitMisses, type Judged } from "./eval/detectors";
import { EVAL_SPLITS, hasSplit } from "./eval/corpus";

const rate = (part: number, whole: number): string => (whole ? `${part}/${whole}` : "-");

async function main(): Promise<void> {
  const wanted = EVAL_SPLITS.filter((s) => process.argv.includes(s));
  for (const split of wanted.length ? wanted : EVAL_SPLITS) {
    if (!hasSplit(split)) continue;
    const e = await evaluateDetectorSplit(split, undefined, { perLanguageOnly: true });
    const langs = [...new Set([...e.sensitive, ...e.injection, ...e.benign].map((v) => v.lang))].sort();
    const of = (set: Judged[], lang: string): Judged[] => set.filter((v) => lang === "all" || v.lang === lang);
    const rows = ["all", ...langs].map((lang) => ({
      split,
      lang,
      sensitive: rate(of(e.sensitive, lang).filter((v) => v.caught).length, of(e.sensitive, lang).length),
      benign_refused: rate(of(e.benign, lang).filter((v) => v.stopReason !== "SUCCESS_STORED").length, of(e.benign, lang).length),
      injection: rate(of(e.injection, lang).filter((v) => v.caught).length, of(e.injection, lang).length),
      talk_refused: rate(of(e.injectionTalk, lang).filter((v) => v.stopReason !== "SUCCESS_STORED").length, of(e.injectionTalk, lang).length),
    }));
    console.table(rows);
    const classes = [...new Set(e.sensitive.map((v) => v.cls))].sort();
    console.log(
      split,
      "sensitive by class:",
      classes.map((c) => `${c} ${rate(e.sensitive.filter((v) => v.cls === c && v.caught).length, e.sensitive.filter((v) => v.cls === c).length)}`).join(", "),
    );
    const kinds = [...new Set(e.injection.map((v) => v.cls))].sort();
    console.log(
      split,
      "injection by kind:",
      kinds.map((c) => `${c} ${rate(e.injection.filter((v) => v.cls === c && v.caught).length, e.injection.filter((v) => v.cls === c).length)}`).join(", "),
    );
    const f = fairness(e.fairness);
    console.log(split, `fairness ${f.identical}/${f.frames}`);
    for (const line of splitMisses(e)) console.log(line);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
