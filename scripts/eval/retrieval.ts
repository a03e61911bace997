import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { ModeScore } from "../agent-retrieval";
import type { EvalRow, Split } from "./types";

const ROOT = path.resolve(__dirname, "..", "..");

/**
 * IF1-READ / IF1-HOPS on both splits of test/corpus/agent-retrieval/: one row per split and
 * mode, recall = recall@5. The gateway needs the compiled build (decorator metadata), so the
 * evaluation runs as `node dist/scripts/eval-retrieval.js --json` (npm run eval builds first).
 */
export async function evaluate(): Promise<EvalRow[]> {
  const script = path.join(ROOT, "dist", "scripts", "eval-retrieval.js");
  if (!existsSync(script)) throw new Error("dist/scripts/eval-retrieval.js is missing: run npm run build first");
  const out = execFileSync(process.execPath, [script, "--json"], { cwd: ROOT, encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  const last = out.trim().split("\n").pop() ?? "{}";
  const scores = JSON.parse(last) as Record<Split, ModeScore[]>;
  const rows: EvalRow[] = [];
  for (const split of ["dev", "test"] as Split[]) {
    for (const s of scores[split] ?? []) {
      rows.push({
        judge: "retrieval",
        split,
        cls: s.mode,
        count: s.queries,
        recall: s.recallAt5,
        other: {
          mrr: s.mrr,
          hop_queries: s.hopQueries,
          hop_recall_at_5: s.hopRecallAt5,
          invalidated_in_ambient: s.invalidatedInAmbient,
          misses: s.misses.length,
        },
      });
    }
  }
  return rows;
}
