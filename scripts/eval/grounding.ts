import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { createGroundingScorer } from "../../src/contracts/companion/grounding";
import { evaluate as score, loadTriples } from "../../src/contracts/companion/grounding/corpus";
import type { EvalRow, Split } from "./types";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * SG-GROUND on every split of test/corpus/grounding/ (dev, test, blind): one row per split and kind, plus "all".
 * Positive class = grounded (accepted): precision = accepted that are grounded, recall =
 * grounded that are accepted, false-positive rate = hallucinations accepted / hallucinations.
 */
export async function evaluate(): Promise<EvalRow[]> {
  const { grounding_min: threshold } = JSON.parse(readFileSync(path.join(ROOT, "policies/memgate/contracts/companion/data.json"), "utf8")) as {
    grounding_min: number;
  };
  const scorer = createGroundingScorer(process.env);
  const rows: EvalRow[] = [];
  for (const split of ["dev", "test", "blind", "blind-2"] as Split[]) {
    const dir = path.join(ROOT, "test/corpus/grounding", split);
    if (!existsSync(dir)) continue;
    const report = await score(scorer, loadTriples(dir), threshold);
    const all = report.rows;
    const accepted = all.filter((r) => r.accepted);
    const grounded = all.filter((r) => r.grounded);
    const hallucinated = all.filter((r) => !r.grounded);
    rows.push({
      judge: "grounding",
      split,
      cls: "all",
      count: all.length,
      precision: accepted.length > 0 ? accepted.filter((r) => r.grounded).length / accepted.length : 1,
      recall: grounded.filter((r) => r.accepted).length / Math.max(1, grounded.length),
      falsePositiveRate: hallucinated.filter((r) => r.accepted).length / Math.max(1, hallucinated.length),
      other: {
        grounded: grounded.length,
        grounded_accepted: grounded.filter((r) => r.accepted).length,
        hallucinations_accepted: report.hallucinationsAccepted,
      },
    });
    for (const [kind, k] of Object.entries(report.byKind).sort()) {
      rows.push({ judge: "grounding", split, cls: kind, count: k.total, other: { accepted: k.accepted } });
    }
  }
  return rows;
}
