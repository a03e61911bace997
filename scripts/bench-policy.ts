/**
 * One policy evaluation, in-process (issue 11 §7: p99 <= 100 µs). Loads the real compiled
 * bundle through src/policy/policy-engine.ts and times `PolicyEngine.decide` (input to the
 * wasm, evaluation, decision back) for one representative input per operation, built the
 * way the kernel builds it: declared-field facts (src/kernel/fields.ts), the texts, the
 * real detectors' findings and the operation's own part. `npm run bench:policy`
 * (builds the bundle first). Prints p50/p99 in µs per input.
 *
 *   --budget-ms N   time spent sampling each input (default 2000); at most 20,000 samples
 *   --bundle PATH   another bundle (default build/policy/bundle.tar.gz)
 *   --dump DIR      also write each input to DIR/<contract>-<operation>.json (for opa eval --profile)
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { principalInput, type Principal } from "../src/auth/principal";
import { createDetectorSuite, defaultDetectors } from "../src/detectors";
import { VERIFY_CHAIN_FIELDS } from "../src/contracts/audit/fields";
import { ADD_FACT_FIELDS } from "../src/contracts/companion/fields";
import { LIST_FIELDS, READ_FIELDS, STORE_FIELDS } from "../src/contracts/governed/fields";
import { APPROVE_FIELDS } from "../src/contracts/ledger/fields";
import { parseFields, type Fields } from "../src/kernel/fields";
import { TENANT_SCOPE } from "../src/kernel/operation";
import { createLogger } from "../src/logger";
import { PolicyEngine } from "../src/policy/policy-engine";

// Run from scripts/ by tsx, or from dist/scripts/ after a build.
const ROOT = path.basename(path.resolve(__dirname, "..")) === "dist" ? path.resolve(__dirname, "..", "..") : path.resolve(__dirname, "..");

interface Case {
  name: string;
  contract: string;
  operation: string;
  principal: Principal;
  subjectId: string;
  /** What the operation declares; the kernel reports a fact per value present. */
  fields: Fields;
  /** The request as a door hands it to the kernel. */
  request: Record<string, unknown>;
  /** The operation's own part of the input (what `input(req, gathered)` answers). */
  part: Record<string, unknown>;
}

const NOW = Date.UTC(2026, 5, 1);
const DAY = 86_400_000;

const principal = (roles: Principal["roles"], subjects = ["alice"]): Principal => ({
  id: `${roles[0]}-1`,
  tenant: "bench",
  subjects,
  roles,
  agentType: null,
  job: null,
});

const settings = { tenant: null, subject: null };

const CASES: Case[] = [
  {
    name: "governed STORE",
    contract: "governed",
    operation: "STORE",
    principal: principal(["agent"]),
    subjectId: "alice",
    fields: STORE_FIELDS,
    request: {
      subject_id: "alice",
      category: "PREFERENCE",
      key: "tone",
      value: "prefer concise responses with code first",
      source_kind: "USER_EXPLICIT",
      ttl_class: "LONG",
      origin: "USER",
      consent: { explicit: true },
    },
    part: {
      item: {
        category: "PREFERENCE",
        key: "tone",
        value: "prefer concise responses with code first",
        source_kind: "USER_EXPLICIT",
        ttl_class: "LONG",
        source_ref: null,
        origin: "USER",
        consent: { explicit: true, evidence_ref: null },
      },
      settings,
      counts: { items: 12, writes_in_window: 3 },
    },
  },
  {
    name: "governed READ",
    contract: "governed",
    operation: "READ",
    principal: principal(["agent"]),
    subjectId: "alice",
    fields: READ_FIELDS,
    request: { subject_id: "alice", memory_id: "mem_5b0c6f5e-8d4f-4a55-9a57-3f1f6c1b2a10" },
    part: {
      item: { memory_id: "mem_5b0c6f5e-8d4f-4a55-9a57-3f1f6c1b2a10" },
      target: { found: true, status: "active", version: 2, expires_at_ms: NOW + 30 * DAY },
      settings,
    },
  },
  {
    name: "governed LIST",
    contract: "governed",
    operation: "LIST",
    principal: principal(["agent"]),
    subjectId: "alice",
    fields: LIST_FIELDS,
    request: { subject_id: "alice", limit: 20 },
    part: { list: { limit: 20, category: null, cursor_valid: true }, settings },
  },
  {
    name: "ledger APPROVE",
    contract: "ledger",
    operation: "APPROVE",
    principal: principal(["user"]),
    subjectId: "alice",
    fields: APPROVE_FIELDS,
    request: {
      proposalId: "prop_0d7f3c1e-2b8a-4f4e-9c1d-7a6b5e4d3c2b",
      finalText: "I like to plan my week on Sunday evenings and keep Fridays free of meetings.",
    },
    part: {
      approval: { final_text: "I like to plan my week on Sunday evenings and keep Fridays free of meetings.", kind: "preference" },
      target: { found: true, status: "active" },
    },
  },
  {
    name: "companion ADD_FACT",
    contract: "companion",
    operation: "ADD_FACT",
    principal: principal(["adapter"]),
    subjectId: "alice",
    fields: ADD_FACT_FIELDS,
    request: {
      subjectId: "alice",
      type: "USER_FACT",
      text: "The user prefers morning meetings and dislikes calls after 6pm.",
      confidence: 0.92,
      source: "llm_extraction",
      summary: "prefers morning meetings",
      origin: "adapter",
      sourceRefs: ["conv:42"],
    },
    part: {
      // text and summary: what the contract sent before it declared them as fields (ignored after).
      fact: {
        type: "USER_FACT",
        confidence: 0.92,
        source: "llm_extraction",
        text: "The user prefers morning meetings and dislikes calls after 6pm.",
        summary: "prefers morning meetings",
      },
      origin: "adapter",
      grounding: { score: 0.9 },
      privacy: { memory_enabled: true, learn_patterns: true, share_with: [], anonymize_dates: false, delete_after_days: null },
      supersedes: { requested: false },
      proposal: { found: false },
      valid_to: { given: false, valid: false },
    },
  },
  {
    name: "audit VERIFY_CHAIN",
    contract: "audit",
    operation: "VERIFY_CHAIN",
    principal: principal(["auditor"], []),
    subjectId: TENANT_SCOPE,
    fields: VERIFY_CHAIN_FIELDS,
    request: { fromSeq: 1 },
    part: { range: { from_seq: 1, to_seq: null } },
  },
];

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The kernel's input for one case (src/kernel/execute.ts decide + inputOf). */
async function inputOf(c: Case, engine: PolicyEngine): Promise<Record<string, unknown>> {
  const parsed = parseFields<Record<string, unknown>>(c.fields, c.request);
  const facts = await createDetectorSuite(defaultDetectors(engine)).run(parsed.texts);
  // A contract still on its old service has no field bounds in the bundle and sends no field facts.
  const contracts = engine.data<Record<string, { fields?: unknown } | undefined> | undefined>("contracts");
  const declared = contracts?.[c.contract]?.fields !== undefined;
  return {
    operation: c.operation,
    contract: c.contract,
    now_ms: NOW,
    principal: principalInput(c.principal, c.subjectId),
    subject_id: c.subjectId,
    integrity: { chain_broken: false, broken_seq: null },
    ...(declared ? { fields: parsed.facts } : {}),
    texts: parsed.texts,
    facts,
    ...c.part,
  };
}

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** Warms up (JIT, wasm tiering), then times `decide` on one input for the budget: sorted µs. */
function sample(engine: PolicyEngine, input: Record<string, unknown>, budgetMs: number): Float64Array {
  const warmUntil = performance.now() + Math.min(500, budgetMs / 4);
  let warm = 0;
  while (performance.now() < warmUntil || warm < 50) {
    engine.decide(input);
    warm++;
  }
  const samples: number[] = [];
  const until = performance.now() + budgetMs;
  while (samples.length < 20_000 && (performance.now() < until || samples.length < 100)) {
    const start = process.hrtime.bigint();
    engine.decide(input);
    samples.push(Number(process.hrtime.bigint() - start) / 1_000);
  }
  return Float64Array.from(samples).sort();
}

/** p50/p99 µs of one case (`npm run bench` prints the governed STORE one beside its load table). */
export async function policyLatency(bundlePath: string, name = "governed STORE", budgetMs = 2000): Promise<{ p50: number; p99: number; n: number }> {
  const engine = new PolicyEngine(bundlePath, createLogger("warn"));
  if (!(await engine.reload())) throw new Error(`cannot load ${bundlePath} (npm run policy:build)`);
  try {
    const c = CASES.find((candidate) => candidate.name === name);
    if (!c) throw new Error(`no policy bench case named ${name}`);
    const sorted = sample(engine, await inputOf(c, engine), budgetMs);
    return { p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), n: sorted.length };
  } finally {
    engine.close();
  }
}

async function main(): Promise<void> {
  const bundlePath = path.resolve(arg("--bundle") ?? path.join(ROOT, "build", "policy", "bundle.tar.gz"));
  const budgetMs = Number(arg("--budget-ms") ?? 2000);
  const engine = new PolicyEngine(bundlePath, createLogger("warn"));
  if (!(await engine.reload())) throw new Error(`cannot load ${bundlePath} (npm run policy:build)`);

  const rows: string[] = [];
  rows.push(
    `${"operation".padEnd(22)}${"answer".padEnd(32)}${"outcome".padEnd(9)}${"fields".padStart(7)}${"n".padStart(8)}${"p50 µs".padStart(9)}${"p99 µs".padStart(9)}`,
  );
  for (const c of CASES) {
    const input = await inputOf(c, engine);
    const dump = arg("--dump");
    if (dump) writeFileSync(path.join(dump, `${c.contract}-${c.operation}.json`), JSON.stringify(input));
    const decision = engine.decide(input);
    const sorted = sample(engine, input, budgetMs);
    const fields = Array.isArray(input.fields) ? String(input.fields.length) : "-";
    rows.push(
      `${c.name.padEnd(22)}${decision.stop_reason.padEnd(32)}${String(decision.outcome).padEnd(9)}${fields.padStart(7)}${String(sorted.length).padStart(8)}` +
        `${quantile(sorted, 0.5).toFixed(1).padStart(9)}${quantile(sorted, 0.99).toFixed(1).padStart(9)}`,
    );
  }
  engine.close();
  process.stdout.write(`policy evaluation in-process, ${path.relative(ROOT, bundlePath)} (${engine.hash?.slice(0, 12)})\n${rows.join("\n")}\n`);
  process.stdout.write('fields: field facts sent ("-": the contract has no field bounds in this bundle yet, so none are sent)\n');
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench-policy: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
