/**
 * npm run build && node dist/scripts/bench-subscriptions.js [-- --events 10000 --subscriptions 200 --seconds 10]
 * Idle log subscriptions against the embedded database (issue 15 §2): seeds a tenant's log,
 * starts a gateway on it, then samples the FerretDB process's CPU (from /proc) while
 *   1. nothing subscribes,
 *   2. `subscriptions` auditors hold memoryEvents open at the head (idle: nothing new),
 *   3. the same number of readers poll the log the old way (an `_id` range per poll), for comparison,
 *   4. after every client has gone.
 * Prints one table: the database's CPU in each phase and the reads it answered.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "graphql-ws";
import { SignJWT } from "jose";
import WebSocket from "ws";
import { loadConfig } from "../src/config";
import { Gateway } from "../src/gateway";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";
import type { EventDraft } from "../src/store/event-log";

const TENANT = "audited";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** CPU seconds (user + system) the process has used, from /proc/<pid>/stat. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function sample(pid: number, seconds: number): Promise<number> {
  const before = cpuSeconds(pid);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return ((cpuSeconds(pid) - before) / seconds) * 100;
}

const draft = (i: number): EventDraft => ({
  tenant_id: TENANT,
  subject_id: "alice",
  event_type: "create",
  operation: "STORE",
  contract: "governed",
  memory_id: `mem_${i}`,
  actor: { id: "seed", roles: ["agent"], kind: "system" },
  stop_reason: "SUCCESS_STORED",
  decision_id: null,
  policy_hash: null,
  contract_version: null,
  request_id: null,
  content_digest: null,
  reason: null,
  metadata: {},
});

async function main(): Promise<void> {
  const eventCount = arg("events", 10_000);
  const subscriptions = arg("subscriptions", 200);
  const seconds = arg("seconds", 10);
  const pair = generateKeyPairSync("ed25519");
  const ferret = await EmbeddedFerretDb.start({ binary: loadConfig({}).ferretdbBinary, dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-subs-")) });
  const pid = ferret.pid!;
  const gateway = await Gateway.start({
    config: loadConfig({
      MONGODB_URI: ferret.uri,
      MEMGATE_DB_NAME: "subs",
      MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-subs-data-")),
      JWT_PUBLIC_KEY: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
      JWT_ISSUER: "memgate-bench",
      PORT: "0",
      LOG_LEVEL: "error",
      MEMGATE_AUDIT_EVENT_SOURCE: "poll",
      MEMGATE_SUBSCRIPTIONS_PER_TOKEN: String(subscriptions),
      MEMGATE_SUBSCRIPTIONS_PER_TENANT: String(subscriptions),
      MEMGATE_RATE_LIMIT_PER_S: "0",
    }),
  });
  const rows: [string, number, string][] = [];
  try {
    const log = gateway.services.events;
    for (let i = 0; i < eventCount; i += 256) await Promise.all(Array.from({ length: Math.min(256, eventCount - i) }, (_, j) => log.append(draft(i + j))));
    await log.settled();
    const head = (await log.head(TENANT)).seq;
    process.stdout.write(`seeded ${head} events; sampling ${seconds} s per phase\n`);

    rows.push(["nothing subscribed", await sample(pid, seconds), "-"]);

    const token = await new SignJWT({ tenant: TENANT, subjects: [], roles: ["auditor"] })
      .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
      .setSubject("auditor")
      .setIssuer("memgate-bench")
      .setAudience("memgate")
      .setIssuedAt()
      .setExpirationTime("1h")
      .sign(pair.privateKey);
    const clients = Array.from({ length: Math.ceil(subscriptions / 20) }, () =>
      createClient({
        url: `${gateway.url.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${token}` },
        retryAttempts: 0,
      }),
    );
    const errors: unknown[] = [];
    for (let i = 0; i < subscriptions; i++) {
      clients[i % clients.length].subscribe(
        { query: `subscription($after: Int) { memoryEvents(afterSeq: $after) { seq } }`, variables: { after: head } },
        { next: () => undefined, error: (error) => errors.push(error), complete: () => undefined },
      );
    }
    const live = gateway.auditSystem!.source.limits;
    for (let i = 0; i < 200 && live.live(TENANT) < subscriptions; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    rows.push([`${live.live(TENANT)} idle subscriptions (exact _id, one lookup per poll)`, await sample(pid, seconds), `${errors.length} errors`]);
    await Promise.all(clients.map((c) => c.dispose()));
    for (let i = 0; i < 200 && live.live(TENANT) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));

    rows.push([`after the subscriptions ended (${live.live(TENANT)} live)`, await sample(pid, seconds), ""]);
    if (process.argv.includes("--no-range")) return;
    // The former reader, for comparison: an `_id` range per poll, every 250 ms.
    const stop = new AbortController();
    const pollers = Array.from({ length: subscriptions }, async () => {
      while (!stop.signal.aborted) {
        await log.range(TENANT, head + 1, head + 500, 500).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    });
    rows.push([`${subscriptions} readers polling by _id range (before)`, await sample(pid, seconds), ""]);
    stop.abort();
    const drained = Date.now();
    await Promise.all(pollers);
    const drainS = (Date.now() - drained) / 1000;
    rows.push(["after the range readers stopped asking", await sample(pid, seconds), `their reads in flight took ${drainS.toFixed(1)} s to drain`]);
    rows.push([`after every client has gone (${live.live(TENANT)} live)`, await sample(pid, seconds), ""]);
  } finally {
    await gateway.stop();
    await ferret.stop();
  }
  process.stdout.write(`\n| phase (${eventCount} events in the log) | FerretDB CPU % | note |\n|---|---:|---|\n`);
  for (const [phase, cpu, note] of rows) process.stdout.write(`| ${phase} | ${cpu.toFixed(1)} | ${note} |\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
