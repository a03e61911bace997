import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { GroundingScorer } from "./scorer";

export interface Triple {
  summary: string;
  candidate: string;
  grounded: boolean;
  kind: string;
}

export interface EvalRow extends Triple {
  score: number;
  accepted: boolean;
}

export interface EvalReport {
  rows: EvalRow[];
  /** per kind: total and accepted */
  byKind: Record<string, { total: number; accepted: number }>;
  groundedRecall: number;
  hallucinationsAccepted: number;
}

/** A .jsonl file, or every .jsonl file of a folder. */
export function loadTriples(file: string): Triple[] {
  if (statSync(file).isDirectory()) {
    return readdirSync(file)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .flatMap((f) => loadTriples(path.join(file, f)));
  }
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Triple);
}

/** Scores every triple; `threshold` is the policy's grounding_min (the decision stays the policy's). */
export async function evaluate(scorer: GroundingScorer, triples: Triple[], threshold: number): Promise<EvalReport> {
  const rows: EvalRow[] = [];
  for (const t of triples) {
    const { score } = await scorer.score(t.summary, t.candidate);
    rows.push({ ...t, score, accepted: score >= threshold });
  }
  const byKind: EvalReport["byKind"] = {};
  for (const r of rows) {
    const k = (byKind[r.kind] ??= { total: 0, accepted: 0 });
    k.total++;
    if (r.accepted) k.accepted++;
  }
  const grounded = rows.filter((r) => r.grounded);
  return {
    rows,
    byKind,
    groundedRecall: grounded.filter((r) => r.accepted).length / Math.max(1, grounded.length),
    hallucinationsAccepted: rows.filter((r) => !r.grounded && r.accepted).length,
  };
}

export function formatReport(report: EvalReport, verbose: boolean): string {
  const lines: string[] = [];
  if (verbose) {
    for (const r of report.rows) {
      const mark = r.accepted === r.grounded ? "ok  " : "MISS";
      lines.push(`${mark} ${r.score.toFixed(2)} ${r.grounded ? "grounded    " : "hallucinated"} ${r.kind.padEnd(16)} ${r.candidate}  <=  ${r.summary}`);
    }
    lines.push("");
  }
  lines.push("kind              total  accepted  rejected");
  for (const [kind, k] of Object.entries(report.byKind).sort()) {
    lines.push(`${kind.padEnd(16)}  ${String(k.total).padStart(5)}  ${String(k.accepted).padStart(8)}  ${String(k.total - k.accepted).padStart(8)}`);
  }
  lines.push("");
  lines.push(`grounded paraphrases accepted: ${(report.groundedRecall * 100).toFixed(1)}% (needs >= 85%)`);
  lines.push(`hallucinated candidates accepted: ${report.hallucinationsAccepted} (needs 0)`);
  return lines.join("\n");
}
