/**
 * npm run eval:retrieval [-- dev|test] [-- --json]: recall@5 and MRR of the agent interface's ranked
 * retrieval on the labelled splits (test/corpus/agent-retrieval/{dev,test}/), per mode,
 * through the real kernel, policy and an embedded FerretDB. Prints a table per split and
 * the queries each mode missed.
 */
import { formatScores, readCorpus, scoreSplit, withEvalGateway, type ModeScore, type Split } from "./agent-retrieval";

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const asked = args.filter((a): a is Split => a === "dev" || a === "test");
  const splits: Split[] = asked.length > 0 ? asked : ["dev", "test"];
  await withEvalGateway(async (door, clock, now) => {
    const all: Record<string, ModeScore[]> = {};
    for (const split of splits) {
      const scores = await scoreSplit(door, clock, now, split);
      all[split] = scores;
      if (args.includes("--json")) continue;
      process.stdout.write(`\n${formatScores(scores, readCorpus(split).memories.length, split)}\n`);
      for (const s of scores) {
        for (const miss of s.misses)
          process.stdout.write(`  ${split} ${s.mode} miss: "${miss.query}" expected ${miss.expected.join(", ")}; top 5: ${miss.got.join(", ")}\n`);
      }
    }
    // `npm run eval` (scripts/eval/retrieval.ts) reads this line
    if (args.includes("--json")) process.stdout.write(`${JSON.stringify(all)}\n`);
  });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`eval:retrieval: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
