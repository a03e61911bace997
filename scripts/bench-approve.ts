/**
 * What one ledger APPROVE decision costs in-process, as the kernel takes it: the declared
 * fields parsed, every detector over the final text (the lexicon detector matches the P54-C
 * validator's patterns from policy data), one evaluation of the compiled policy.
 *   npx tsx scripts/bench-approve.ts [bundle]   (default: MEMGATE_POLICY_BUNDLE or build/policy/bundle.tar.gz)
 *   BENCH_ROUNDS  passes over the final-text corpus (default 5; the first one warms up)
 * Also the issue 21 item 8 row: one decision for a 300-character text (dev texts joined and
 * cut to 300 characters, so every row is the same length), target ≤ 0.5 ms at p99.
 * Prints a table (wall-clock percentiles, and CPU µs per decision, which a busy machine moves
 * less) and the CPU cost of each detector on a 300-character text; numbers, not assertions.
 */
import path from "node:path";
import { createDetectorSuite, defaultDetectors } from "../src/detectors";
import { viewsOf } from "../src/detectors/normalise";
import { createLogger } from "../src/logger";
import { PolicyEngine } from "../src/policy/policy-engine";
import { approveInput, readLedgerCorpus } from "./eval/ledger";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const BUNDLE = process.argv[2] ?? process.env.MEMGATE_POLICY_BUNDLE ?? path.resolve(__dirname, "..", "build", "policy", "bundle.tar.gz");

const micros = (from: bigint, to: bigint): number => Number(to - from) / 1e3;

/** CPU time (user + system, µs) this process spent in each step, over the measured rounds: less moved by a busy machine than wall time. */
const cpu: Record<string, number> = {};
function timedCpu<T>(step: string, measured: boolean, run: () => Promise<T>): Promise<T> {
  const before = process.cpuUsage();
  return run().then((value) => {
    const used = process.cpuUsage(before);
    if (measured) cpu[step] = (cpu[step] ?? 0) + used.user + used.system;
    return value;
  });
}

function row(name: string, samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const mean = samples.reduce((sum, x) => sum + x, 0) / samples.length;
  const cpuMean = (cpu[name] ?? 0) / samples.length;
  return `| ${name.padEnd(36)} | ${String(samples.length).padStart(5)} | ${at(0.5).toFixed(1).padStart(8)} | ${at(0.99).toFixed(1).padStart(8)} | ${mean.toFixed(1).padStart(8)} | ${cpuMean.toFixed(1).padStart(8)} |`;
}

async function main(): Promise<void> {
  const policy = new PolicyEngine(BUNDLE, createLogger("silent"));
  if (!(await policy.reload())) throw new Error(`cannot load ${BUNDLE}: run npm run policy:build`);
  const detectors = createDetectorSuite(defaultDetectors(policy));
  // The development split: timing tunes nothing, and the test split stays unread by anything but the eval.
  const texts = [...readLedgerCorpus("dev", "pass"), ...readLedgerCorpus("dev", "refuse")];
  const inputOf = (finalText: string) => approveInput(finalText, detectors);
  // Texts of exactly 300 characters, from the same development texts.
  const joined = texts.join(" ");
  const long: string[] = [];
  for (let at = 0; at + 300 <= joined.length && long.length < texts.length; at += 300) long.push(joined.slice(at, at + 300));
  const evaluation: number[] = [];
  const decision300: number[] = [];
  const detection: number[] = [];
  const decision: number[] = [];
  // The first round warms up (JIT, the lexicon detector compiling the bundle's patterns).
  for (let round = 0; round < ROUNDS; round++) {
    const measured = round > 0;
    const inputs: Record<string, unknown>[] = [];
    await timedCpu("fields + detectors", measured, async () => {
      for (const finalText of texts) {
        const t0 = process.hrtime.bigint();
        inputs.push(await inputOf(finalText));
        if (measured) detection.push(micros(t0, process.hrtime.bigint()));
      }
    });
    // One policy evaluation, alone, as the kernel makes it for each input.
    await timedCpu("policy evaluation", measured, async () => {
      for (const input of inputs) {
        const t0 = process.hrtime.bigint();
        policy.decide(input);
        if (measured) evaluation.push(micros(t0, process.hrtime.bigint()));
      }
    });
    // The whole decision, end to end.
    await timedCpu("decision (fields, detectors, policy)", measured, async () => {
      for (const finalText of texts) {
        const t0 = process.hrtime.bigint();
        policy.decide(await inputOf(finalText));
        if (measured) decision.push(micros(t0, process.hrtime.bigint()));
      }
    });
    await timedCpu("decision, 300-character text", measured, async () => {
      for (const finalText of long) {
        const t0 = process.hrtime.bigint();
        policy.decide(await inputOf(finalText));
        if (measured) decision300.push(micros(t0, process.hrtime.bigint()));
      }
    });
  }
  // Each detector alone on the 300-character texts, and the normaliser's view screen (CPU µs per text).
  const perDetector: [string, number][] = [];
  const rounds = Math.max(1, ROUNDS - 1);
  const screen = process.cpuUsage();
  for (let round = 0; round < rounds; round++) for (const text of long) viewsOf(text);
  const screened = process.cpuUsage(screen);
  perDetector.push(["views (normalise.ts)", (screened.user + screened.system) / (rounds * long.length)]);
  for (const detector of defaultDetectors(policy)) {
    const detectOnce = async (): Promise<void> => {
      for (const text of long) await (detector.detectEach ? detector.detectEach({ finalText: text }) : detector.detect("finalText", text));
    };
    // A fresh detector compiles the bundle's lexicons on its first text: a warm-up round, unmeasured.
    await detectOnce();
    const before = process.cpuUsage();
    for (let round = 0; round < rounds; round++) await detectOnce();
    const used = process.cpuUsage(before);
    perDetector.push([detector.name, (used.user + used.system) / (rounds * long.length)]);
  }
  process.stdout.write(`APPROVE decisions over ${texts.length} final texts x ${ROUNDS - 1} rounds, bundle ${policy.hash?.slice(0, 12)}\n\n`);
  process.stdout.write(
    `| ${"step (µs)".padEnd(36)} | ${"n".padStart(5)} | ${"p50".padStart(8)} | ${"p99".padStart(8)} | ${"mean".padStart(8)} | ${"CPU mean".padStart(8)} |\n`,
  );
  process.stdout.write(`|${"-".repeat(38)}|${"-".repeat(7)}|${"-".repeat(10)}|${"-".repeat(10)}|${"-".repeat(10)}|${"-".repeat(10)}|\n`);
  process.stdout.write(`${row("policy evaluation", evaluation)}\n`);
  process.stdout.write(`${row("fields + detectors", detection)}\n`);
  process.stdout.write(`${row("decision (fields, detectors, policy)", decision)}\n`);
  process.stdout.write(`${row("decision, 300-character text", decision300)}\n`);
  process.stdout.write(`\n| ${"on a 300-character text (CPU µs)".padEnd(36)} | ${"mean".padStart(8)} |\n|${"-".repeat(38)}|${"-".repeat(10)}|\n`);
  for (const [name, micros300] of perDetector) process.stdout.write(`| ${name.padEnd(36)} | ${micros300.toFixed(1).padStart(8)} |\n`);
  policy.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
