/**
 * npm run bench:agent: the agent interface (seed 001) through the real HTTP path
 * (POST /v1/memory, real token, policy, FerretDB), on one repository of 10,000 memories.
 *   BENCH_AGENT_MEMORIES     memories in the repository (default 10000)
 *   BENCH_AGENT_LOAD=http    load them through POST /v1/memory (minutes on FerretDB/SQLite)
 *                            instead of seeding the database directly
 *   BENCH_AGENT_SECONDS      seconds per read scenario (default 8)
 *   BENCH_AGENT_CONCURRENCY  requests in flight (default 8)
 *   BENCH_AGENT_PROFILE      a directory: write a V8 CPU profile of the gateway process there
 * The gateway runs in a child process (scripts/bench-server.js governed) so the load generator
 * does not share its event loop. Prints one table; numbers, not assertions.
 */
import { fork, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { loadConfig } from "../src/config";
import { AGENT_COLLECTIONS, agentMemoryDocId, repoSpace, sealMemory, type AgentMemoryRecord, type UnsealedMemory } from "../src/contracts/agent/records";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";

const MEMORIES = Number(process.env.BENCH_AGENT_MEMORIES ?? 10_000);
const SECONDS = Number(process.env.BENCH_AGENT_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_AGENT_CONCURRENCY ?? 8);
const REPO = "bench/monorepo";

/** A deterministic pseudo-random source, so every run loads the same repository. */
let seed = 6;
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];

const COMPONENTS = [
  "checkout",
  "cart",
  "catalog",
  "search",
  "auth",
  "billing",
  "invoices",
  "shipping",
  "inventory",
  "reviews",
  "coupons",
  "admin",
  "profile",
  "notifications",
  "webhooks",
  "exports",
  "imports",
  "scheduler",
  "gateway",
  "worker",
];
const SYMPTOMS = [
  "times out",
  "returns 500",
  "leaks memory",
  "is flaky in CI",
  "renders blank",
  "double charges",
  "drops events",
  "is slow on mobile",
  "loses the session",
  "logs secrets",
  "deadlocks under load",
  "fails after the upgrade",
];
const CAUSES = [
  "a missing index",
  "an unbounded retry loop",
  "a stale cache entry",
  "a race between two workers",
  "the wrong time zone",
  "an N+1 query",
  "a connection pool limit",
  "an unawaited promise",
  "a breaking dependency update",
  "a misconfigured proxy",
];
const TOOLS = [
  "Postgres",
  "Redis",
  "Prisma",
  "Jest",
  "Playwright",
  "Docker",
  "nginx",
  "Kafka",
  "S3",
  "Stripe",
  "Sentry",
  "GraphQL",
  "React",
  "Node 20",
  "pnpm",
  "Vite",
];
const FIXES = [
  "add a composite index",
  "cap retries with backoff",
  "purge the cache on write",
  "take a distributed lock",
  "use UTC everywhere",
  "batch with DataLoader",
  "raise the pool size",
  "await the promise",
  "pin the dependency",
  "set the forwarded headers",
];

function text(kind: string): string {
  const c = pick(COMPONENTS);
  const t = pick(TOOLS);
  switch (kind) {
    case "problem":
      return `The ${c} ${pick(SYMPTOMS)} when ${t} hits ${pick(CAUSES)}`;
    case "solution":
      return `For ${c} with ${t}: ${pick(FIXES)} and verify in staging`;
    case "failed_tactic":
      return `Tried to ${pick(FIXES)} in ${c}; it did not help with ${t}`;
    case "change":
      return `The ${c} service moved from ${t} to ${pick(TOOLS)}`;
    case "preference":
      return `In ${c}, prefer ${pick(FIXES)} over quick patches`;
    default:
      return `The ${c} module uses ${t} and ${pick(TOOLS)}; its owner is team ${pick(COMPONENTS)}`;
  }
}

const query = (): string => `${pick(COMPONENTS)} ${pick(SYMPTOMS)} ${pick(TOOLS)}`;

interface Stats {
  scenario: string;
  n: number;
  errors: number;
  seconds: number;
  samples: number[];
}

/** What the load generator reads of an answer of POST /v1/memory. */
interface Answer {
  stop_reason?: string;
  memory?: { id: string };
}

async function post(url: string, token: string, body: unknown): Promise<Answer> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await response.json()) as Answer;
}

/** `work(i)` CONCURRENCY at a time, until `count` calls or `seconds` have passed. */
async function run(scenario: string, work: (i: number) => Promise<boolean>, limits: { count?: number; seconds?: number }): Promise<Stats> {
  const samples: number[] = [];
  let errors = 0;
  let next = 0;
  const started = process.hrtime.bigint();
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e9;
  const worker = async () => {
    for (;;) {
      const i = next++;
      if (limits.count !== undefined && i >= limits.count) return;
      if (limits.seconds !== undefined && elapsed() >= limits.seconds) return;
      const t0 = process.hrtime.bigint();
      const ok = await work(i).catch(() => false);
      samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
      if (!ok) errors++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { scenario, n: samples.length, errors, seconds: elapsed(), samples };
}

function row(s: Stats): string {
  const sorted = [...s.samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? 0;
  return `${s.scenario.padEnd(36)}${String(s.n).padStart(8)}${(s.n / s.seconds).toFixed(0).padStart(9)}${at(0.5).toFixed(1).padStart(9)}${at(0.95).toFixed(1).padStart(9)}${at(0.99).toFixed(1).padStart(9)}${String(s.errors).padStart(8)}`;
}

/** The repository as records: 40 % problems, facts, preferences; then linked memories and changes. */
function seedRecords(count: number): { records: AgentMemoryRecord[]; problems: string[] } {
  const records: UnsealedMemory[] = [];
  const problems: string[] = [];
  const facts: string[] = [];
  const base = Math.floor(count * 0.4);
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    const kind = i < base ? ["problem", "problem", "fact", "fact", "preference"][i % 5] : ["solution", "solution", "failed_tactic", "fact", "change"][i % 5];
    const memoryId = `am_bench_${i}`;
    const links = { problem_id: null as string | null, related_memory_ids: [] as string[], change_targets: [] as string[] };
    if (i >= base) {
      if (kind === "change" && facts.length > 0) links.change_targets.push(facts.pop()!);
      else {
        if (kind !== "fact") links.problem_id = pick(problems);
        links.related_memory_ids.push(records[Math.floor(random() * records.length)].memory_id);
      }
    }
    const created = new Date(now - Math.floor(random() * 365) * 86_400_000);
    records.push({
      _id: agentMemoryDocId("bench", repoSpace(REPO), memoryId),
      tenant_id: "bench",
      space: repoSpace(REPO),
      repo_id: REPO,
      memory_id: memoryId,
      subject_id: repoSpace(REPO),
      author_id: "bench-seed",
      scope: "repo",
      kind,
      text: text(kind),
      confidence: 0.5 + random() / 2,
      rationale: null,
      links,
      evidence_refs: [],
      truth: null,
      utility: null,
      invalidated_by: null,
      status: "active",
      created_at: created,
      updated_at: created,
      created_by: { id: "bench-seed", roles: ["agent"] },
      content_salt: "bench",
    });
    if (kind === "problem") problems.push(memoryId);
    if (kind === "fact" && i < base) facts.push(memoryId);
  }
  const byId = new Map(records.map((r) => [r.memory_id, r]));
  for (const r of records) for (const target of r.links.change_targets) byId.get(target)!.invalidated_by = r.memory_id;
  // MP-OBJECT: sealed as the contract's store seals them, so the gateway reads them back checked.
  return { records: records.map((r) => sealMemory(r)), problems };
}

async function seedDatabase(uri: string, dbName: string, records: AgentMemoryRecord[]): Promise<void> {
  const client = await MongoClient.connect(uri);
  try {
    const collection = client.db(dbName).collection<AgentMemoryRecord>(AGENT_COLLECTIONS.memories);
    for (let i = 0; i < records.length; i += 1000) await collection.insertMany(records.slice(i, i + 1000));
  } finally {
    await client.close();
  }
}

async function startGateway(uri: string, dbName: string, publicKeyPem: string): Promise<{ child: ChildProcess; url: string }> {
  const child = fork(path.join(__dirname, "bench-server.js"), ["governed", uri, dbName, publicKeyPem], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    // BENCH_AGENT_PROFILE=<dir>: a V8 CPU profile of the gateway process, for chrome://inspect.
    execArgv: process.env.BENCH_AGENT_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_AGENT_PROFILE}`] : [],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`gateway exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/v1/memory` };
}

async function main(): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const token = await new SignJWT({ tenant: "bench", subjects: [`repo:${REPO}`], roles: ["agent"] })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject("bench-agent")
    .setIssuer("memgate-bench")
    .setAudience("memgate")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(privateKey);
  const ferret = await EmbeddedFerretDb.start({ binary: loadConfig().ferretdbBinary, dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-agent-")) });
  const dbName = `bench_agent_${Date.now()}`;
  const { child, url } = await startGateway(ferret.uri, dbName, publicKey.export({ type: "spki", format: "pem" }).toString());
  try {
    const problems: string[] = [];
    const facts: string[] = [];
    const all: string[] = [];
    const write = async (kind: string, links?: Record<string, unknown>) => {
      const res = await post(url, token, {
        op: "write",
        repo_id: REPO,
        memory: { text: text(kind), scope: "repo", kind, confidence: 0.5 + random() / 2, ...(links ? { links } : {}) },
      });
      if (res.stop_reason !== "SUCCESS_STORED" || !res.memory) return false;
      const { id } = res.memory;
      all.push(id);
      if (kind === "problem") problems.push(id);
      if (kind === "fact") facts.push(id);
      return true;
    };
    let loaded: Stats | null = null;
    if (process.env.BENCH_AGENT_LOAD === "http") {
      // The whole repository through POST /v1/memory: 40 % problems, facts and preferences,
      // then memories linking to them (solutions, failed tactics, related links, changes).
      const base = Math.floor(MEMORIES * 0.4);
      const baseKinds = ["problem", "problem", "fact", "fact", "preference"];
      const w1 = await run("load", (i) => write(baseKinds[i % baseKinds.length]), { count: base });
      const targets = [...facts];
      const w2 = await run(
        "load",
        (i) => {
          const kind = ["solution", "solution", "failed_tactic", "fact", "change"][i % 5];
          if (kind === "change" && targets.length > 0) return write("change", { change_targets: [targets.pop()!] });
          return write(kind, { ...(kind !== "fact" ? { problem_id: pick(problems) } : {}), related_memory_ids: [pick(all)] });
        },
        { count: MEMORIES - base },
      );
      loaded = {
        scenario: `write (loading ${MEMORIES} over HTTP)`,
        n: w1.n + w2.n,
        errors: w1.errors + w2.errors,
        seconds: w1.seconds + w2.seconds,
        samples: [...w1.samples, ...w2.samples],
      };
    } else {
      // Seeded straight into the database, as a restore would (no events), so the run stays short.
      const seeded = seedRecords(MEMORIES);
      await seedDatabase(ferret.uri, dbName, seeded.records);
      problems.push(...seeded.problems);
      all.push(...seeded.records.map((r) => r.memory_id));
    }
    // The first read builds the process's index of the repository from the database.
    const t0 = process.hrtime.bigint();
    await post(url, token, { op: "read", repo_id: REPO, mode: "ambient", query: "warm up" });
    const buildMs = Number(process.hrtime.bigint() - t0) / 1e6;

    const readOk = (res: Answer) => res.stop_reason === "SUCCESS_READ";
    const ambient = await run(
      "read ambient (limit 20)",
      async () => readOk(await post(url, token, { op: "read", repo_id: REPO, mode: "ambient", query: query() })),
      { seconds: SECONDS },
    );
    const targeted = await run(
      "read targeted, expand 2 hops",
      async () => readOk(await post(url, token, { op: "read", repo_id: REPO, mode: "targeted", query: query(), limit: 10, expand: { semantic_hops: 2 } })),
      { seconds: SECONDS },
    );
    const hot = await run(
      `write over HTTP (repo of ${MEMORIES})`,
      async (i) => write(i % 2 ? "fact" : "solution", i % 2 ? undefined : { problem_id: pick(problems) }),
      { seconds: SECONDS },
    );

    process.stdout.write(
      [
        `\nagent interface over POST /v1/memory: ${all.length} memories in one repository, ${CONCURRENCY} requests in flight, ${os.cpus().length} cores, FerretDB/SQLite`,
        `${"scenario".padEnd(36)}${"n".padStart(8)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p95 ms".padStart(9)}${"p99 ms".padStart(9)}${"errors".padStart(8)}`,
        `first read (builds the index of ${all.length} memories): ${buildMs.toFixed(0)} ms`,
        ...(loaded ? [row(loaded)] : []),
        row(ambient),
        row(targeted),
        row(hot),
        "",
      ].join("\n"),
    );
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    await ferret.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench:agent: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
