/**
 * npm run eval:grounding [-- --verbose] [-- file.jsonl]
 * Scores the labelled (summary, candidate, grounded?) triples with the configured grounding
 * scorer against the policy's threshold and prints a table per kind.
 */
import path from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { evaluate, formatReport, loadTriples } from "../src/contracts/companion/grounding/corpus";
import { createGroundingScorer } from "../src/contracts/companion/grounding";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const verbose = args.includes("--verbose");
  let root = path.resolve(__dirname, "..");
  if (!existsSync(path.join(root, "package.json"))) root = path.resolve(root, "..");
  const file = args.find((a) => a.endsWith(".jsonl")) ?? path.join(root, "test", "corpus", "grounding");
  const data = JSON.parse(readFileSync(path.join(root, "policies", "memgate", "contracts", "companion", "data.json"), "utf8")) as { grounding_min: number };
  const report = await evaluate(createGroundingScorer(process.env), loadTriples(file), data.grounding_min);
  console.log(formatReport(report, verbose));
  if (report.hallucinationsAccepted > 0 || report.groundedRecall < 0.85) process.exitCode = 1;
}

void main();
