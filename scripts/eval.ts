/**
 * `npm run eval`: every judge (detectors, injection, ledger validator, grounding, retrieval) on
 * every split of test/corpus/ (dev, test, blind), per language and per class, one table. Tune on
 * `dev` only; `test` grows only with text written before any tuning against it; `blind` was
 * written without reading the judges and is never read here beyond its counts.
 */
import { evaluate as detectors } from "./eval/detectors";
import { evaluate as grounding } from "./eval/grounding";
import { evaluate as ledger } from "./eval/ledger";
import { evaluate as retrieval } from "./eval/retrieval";
import { SPLITS, type EvalRow } from "./eval/types";

function cell(value: number | undefined, digits = 3): string {
  return value === undefined ? "" : value.toFixed(digits);
}

async function main(): Promise<void> {
  const rows: EvalRow[] = [];
  for (const evaluate of [detectors, ledger, grounding, retrieval]) rows.push(...(await evaluate()));
  const table = rows.map((row) => ({
    judge: row.judge,
    split: row.split,
    lang: row.lang ?? "all",
    class: row.cls,
    n: row.count,
    precision: cell(row.precision),
    recall: cell(row.recall),
    fpr: cell(row.falsePositiveRate, 4),
    other: Object.entries(row.other ?? {})
      .map(([key, value]) => `${key}=${Number.isInteger(value) ? value : value.toFixed(3)}`)
      .join(" "),
  }));
  table.sort((a, b) => a.judge.localeCompare(b.judge) || SPLITS.indexOf(a.split) - SPLITS.indexOf(b.split));
  console.table(table);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
