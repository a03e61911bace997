/**
 * npm run -s build && node dist/scripts/bench-gateways.js [--seconds 15 --writers 3 --gateways 2,3]
 * Fair appends across gateways (issue 15 §3): starts one FerretDB, then two (and three)
 * real gateway processes on it, each driven by `writers` concurrent clients that store into
 * ONE tenant for `seconds`. Prints per gateway: writes answered, p50/p99 latency, errors;
 * then whether the tenant's chain has every seq from 1 to its head (no gap, no duplicate)
 * and the slowest gateway's throughput over the fastest's (the goal: at least 0.5).
 */
import { fork, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { SignJWT } from "jose";
import { MongoClient } from "mongodb";
import { loadConfig } from "../src/config";
import { Gateway } from "../src/gateway";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";

const TENANT = "bench";
const SUBJECTS_PER_WRITER = 20;
const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason } }`;

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

async function serve(): Promise<void> {
  const config = loadConfig({
    ...process.env,
    MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-gw-")),
    JWT_ISSUER: "memgate-bench",
    PORT: "0",
    LOG_LEVEL: "error",
    MEMGATE_AUDIT_VERIFY_ON_START: "false",
    // The per-caller token bucket would answer 429 to writers that never pause: this measures the log.
    MEMGATE_RATE_LIMIT_PER_S: "0",
  });
  const gateway = await Gateway.start({ config });
  process.once("message", () => {
    gateway
      .stop()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
  });
  console.log(JSON.stringify({ url: gateway.url }));
}

interface GatewayResult {
  ok: number;
  errors: number;
  latencies: number[];
}

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : NaN);

async function run(gateways: number, writers: number, seconds: number, uri: string, privateKey: import("node:crypto").KeyObject, publicPem: string) {
  const dbName = `bench_${gateways}_${Date.now()}`;
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  // Gateways of one deployment share the log's signing key (each would otherwise make its own, and
  // refuse the others' events as signed by an unknown key).
  const logKey = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  for (let g = 0; g < gateways; g++) {
    const child = fork(__filename, ["--serve"], {
      env: { ...process.env, MONGODB_URI: uri, MEMGATE_DB_NAME: dbName, JWT_PUBLIC_KEY: publicPem, MEMGATE_CHECKPOINT_PRIVATE_KEY: logKey },
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    });
    children.push(child);
    urls.push(
      await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
        child.once("exit", (code) => reject(new Error(`gateway exited with ${code}`)));
      }),
    );
  }
  try {
    const results: GatewayResult[] = urls.map(() => ({ ok: 0, errors: 0, latencies: [] }));
    let deadline = Infinity;
    let ready = 0;
    let go: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (go = resolve));
    const loops: Promise<void>[] = [];
    for (let g = 0; g < gateways; g++) {
      for (let w = 0; w < writers; w++) {
        loops.push(
          (async () => {
            // Subjects of their own per writer and gateway, a new one every 90 writes: the per-subject
            // write quota (100 a window) stays out of the way however fast the log goes.
            const subject = `g${g}w${w}`;
            const subjects = Array.from({ length: SUBJECTS_PER_WRITER }, (_, n) => `${subject}s${n}`);
            const token = await new SignJWT({ tenant: TENANT, subjects, roles: ["agent"] })
              .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
              .setSubject(subject)
              .setIssuer("memgate-bench")
              .setAudience("memgate")
              .setIssuedAt()
              .setExpirationTime("1h")
              .sign(privateKey);
            for (let i = -1; Date.now() < deadline; i++) {
              // One warm-up request per writer (every gateway's first requests compile code), then all start together.
              if (i === 0) {
                if (++ready === gateways * writers) {
                  deadline = Date.now() + seconds * 1000;
                  go();
                }
                await started;
              }
              const startedAt = performance.now();
              try {
                const response = await fetch(`${urls[g]}/graphql`, {
                  method: "POST",
                  headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
                  body: JSON.stringify({
                    query: STORE,
                    variables: {
                      input: {
                        subjectId: subjects[Math.max(0, Math.floor(i / 90)) % SUBJECTS_PER_WRITER],
                        category: "PREFERENCE",
                        key: `k${i % 90}`,
                        value: "v",
                        sourceKind: "USER_EXPLICIT",
                        ttlClass: "LONG",
                        consent: { explicit: true },
                      },
                    },
                  }),
                  signal: AbortSignal.timeout(60_000),
                });
                const body = (await response.json()) as { data?: { storeMemory: { stopReason: string } } };
                if (i < 0) continue;
                if (body.data?.storeMemory.stopReason === "SUCCESS_STORED") {
                  results[g].ok++;
                  results[g].latencies.push(performance.now() - startedAt);
                } else results[g].errors++;
              } catch {
                if (i >= 0) results[g].errors++;
              }
            }
          })(),
        );
      }
    }
    await Promise.all(loops);
    const client = new MongoClient(uri);
    await client.connect();
    const seqs = (
      await client
        .db(dbName)
        .collection<{ seq: number }>("memory_events")
        .find({ tenant_id: TENANT }, { projection: { seq: 1 } })
        .toArray()
    ).map((e) => e.seq);
    await client.close();
    const sorted = [...seqs].sort((a, b) => a - b);
    const gapless = sorted.every((s, i) => s === i + 1);
    const rates = results.map((r) => r.ok / seconds);
    return { results, rates, events: seqs.length, head: sorted.at(-1) ?? 0, gapless, fairness: Math.min(...rates) / Math.max(...rates) };
  } finally {
    for (const child of children) child.send("stop");
    await Promise.all(children.map((child) => new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once("exit", resolve)))));
  }
}

async function drive(): Promise<void> {
  const seconds = Number(arg("seconds", "15"));
  const writers = Number(arg("writers", "3"));
  const counts = arg("gateways", "2,3").split(",").map(Number);
  const pair = generateKeyPairSync("ed25519");
  const publicPem = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
  const ferret = await EmbeddedFerretDb.start({
    binary: loadConfig({}).ferretdbBinary,
    dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-db-")),
  });
  try {
    console.log(`\n${writers} writers per gateway, one tenant, ${seconds} s per run, FerretDB on SQLite\n`);
    console.log("| gateways | gateway | writes | writes/s | p50 ms | p99 ms | errors |");
    console.log("|---:|---:|---:|---:|---:|---:|---:|");
    const summary: string[] = [];
    for (const n of counts) {
      const r = await run(n, writers, seconds, ferret.uri, pair.privateKey, publicPem);
      r.results.forEach((g, i) => {
        const sorted = [...g.latencies].sort((a, b) => a - b);
        console.log(
          `| ${n} | ${i + 1} | ${g.ok} | ${r.rates[i].toFixed(1)} | ${percentile(sorted, 50).toFixed(0)} | ${percentile(sorted, 99).toFixed(0)} | ${g.errors} |`,
        );
      });
      summary.push(`| ${n} | ${r.events} | ${r.head} | ${r.gapless ? "yes" : "NO"} | ${r.fairness.toFixed(2)} |`);
    }
    console.log("\n| gateways | events in the tenant's chain | head seq | seqs 1..head, no gap | slowest / fastest writes/s |");
    console.log("|---:|---:|---:|---|---:|");
    for (const line of summary) console.log(line);
  } finally {
    await ferret.stop();
  }
}

(process.argv.includes("--serve") ? serve() : drive()).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
