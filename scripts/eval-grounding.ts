/**
 * npm run eval:grounding [-- --verbose] [-- dev|test|file.jsonl]
 * Scores the labelled (summary, candidate, grounded?) triples of each split
 * (test/corpus/grounding/{dev,test}/) with the configured grounding scorer against the
 * policy's threshold and prints a table per kind. Tune on dev only.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { evaluate, formatReport, loadTriples } from "../src/contracts/companion/grounding/corpus";
import { createGroundingScorer } from "../src/contracts/companion/grounding";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes("--verbose");
  let root = path.resolve(__dirname, "..");
  if (!existsSync(path.join(root, "package.json"))) root = path.resolve(root, "..");
  const named = args.filter((a) => a.endsWith(".jsonl") || a === "dev" || a === "test");
  const targets = named.length > 0 ? named : ["dev", "test"];
  const data = JSON.parse(readFileSync(path.join(root, "policies", "memgate", "contracts", "companion", "data.json"), "utf8")) as { grounding_min: number };
  const scorer = createGroundingScorer(process.env);
  for (const target of targets) {
    const file = target.endsWith(".jsonl") ? target : path.join(root, "test", "corpus", "grounding", target);
    const report = await evaluate(scorer, loadTriples(file), data.grounding_min);
    console.log(`\n== ${target} (${scorer.name}) ==\n${formatReport(report, verbose)}`);
    if (report.hallucinationsAccepted > 0 || report.groundedRecall < 0.85) process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
