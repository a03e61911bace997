/**
 * `npx tsx scripts/bench-detectors-store.ts` (or node dist/scripts/bench-detectors-store.js): the gateway CPU of
 * the detectors on the texts of a governed STORE (issue 26 §5), per decision, in-process. Texts:
 * the bench's STORE (a short key and value), a 300-character value, and keys that are all new.
 *   BENCH_DETECTORS_MS  milliseconds per case (default 3000)
 *   BENCH_DETECTORS_CASE  run only the cases whose name contains this (a profile of one: node --cpu-prof)
 */
import path from "node:path";
import { createDetectorSuite, defaultDetectors } from "../src/detectors";
import { createLogger } from "../src/logger";
import { PolicyEngine } from "../src/policy/policy-engine";

const ROOT = path.basename(path.resolve(__dirname, "..")) === "dist" ? path.resolve(__dirname, "..", "..") : path.resolve(__dirname, "..");
const BUDGET_MS = Number(process.env.BENCH_DETECTORS_MS ?? 3000);

const LONG =
  "The user prefers concise answers with the code first, then a short explanation. When a build fails, they want the failing command, the first error and a suggested fix; they work mostly in TypeScript and Go, deploy on Fridays only after tests pass, and like tables.";

const CASES: { name: string; texts: (n: number) => Record<string, string> }[] = [
  { name: "bench STORE (key build-N, value 'npm run build')", texts: (n) => ({ key: `build-${n}`, value: "npm run build" }) },
  { name: `300-char value (${LONG.length} chars), new key`, texts: (n) => ({ key: `pref-${n}`, value: LONG }) },
  { name: "300-char value, each value new", texts: (n) => ({ key: "tone", value: `${LONG} (${n})` }) },
];

async function main(): Promise<void> {
  const engine = new PolicyEngine(path.join(ROOT, "build", "policy", "bundle.tar.gz"), createLogger("warn"));
  if (!(await engine.reload())) throw new Error("cannot load the policy bundle (npm run policy:build)");
  const suite = createDetectorSuite(defaultDetectors(engine));
  for (const c of CASES.filter((k) => k.name.includes(process.env.BENCH_DETECTORS_CASE ?? ""))) {
    for (let n = 0; n < 50; n++) await suite.run(c.texts(-n)); // warm-up
    const start = process.cpuUsage();
    const wall = performance.now();
    let n = 0;
    while (performance.now() - wall < BUDGET_MS) await suite.run(c.texts(n++));
    const used = process.cpuUsage(start);
    process.stdout.write(`${c.name.padEnd(52)} ${((used.user + used.system) / 1000 / n).toFixed(3)} ms cpu per decision (${n} runs)\n`);
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench-detectors: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
