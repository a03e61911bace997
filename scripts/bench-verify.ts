/**
 * npx tsx scripts/bench-verify.ts: how long verifying a tenant's signed chain takes on the
 * embedded FerretDB (SQLite), full and from the last good checkpoint, and what each way of
 * reading `memory_events` costs there. Prints one table; numbers, not assertions.
 *   BENCH_VERIFY_EVENTS  events in the tenant (default 100000)
 *   BENCH_VERIFY_TAIL    events appended after the last checkpoint (default 100)
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { generateKeyPairSync } from "node:crypto";
import { MongoClient } from "mongodb";
import { ManualClock } from "../src/clock";
import { createLogger } from "../src/logger";
import { EmbeddedFerretDb, ferretdbBinaryPath } from "../src/store/embedded-ferretdb";
import { EventLog, type EventDraft } from "../src/store/event-log";
import { eventDocId } from "../src/store/ids";
import { ChainAuditor } from "../src/store/log/chain-auditor";
import { ChainSweep } from "../src/store/log/chain-sweep";
import { Checkpointer } from "../src/store/log/checkpoints";
import { logKeySet, signEventBody } from "../src/store/log/event-signing";
import { checkEvent } from "../src/store/log/verify";

const EVENTS = Number(process.env.BENCH_VERIFY_EVENTS ?? 100_000);
const TAIL = Number(process.env.BENCH_VERIFY_TAIL ?? 100);
const TENANT = "bench";

const draft = (i: number): EventDraft => ({
  tenant_id: TENANT,
  subject_id: `subject-${i % 50}`,
  event_type: i % 9 === 0 ? "refuse" : "create",
  operation: "STORE",
  contract: "governed",
  memory_id: `mem_${i}`,
  actor: { id: "bench-agent", roles: ["agent"], kind: "system" },
  stop_reason: i % 9 === 0 ? "FORBIDDEN_CATEGORY" : "SUCCESS_STORED",
  decision_id: `decision-${i}`,
  policy_hash: "a".repeat(64),
  contract_version: "19.1.0",
  request_id: `request-${i}`,
  content_digest: "b".repeat(64),
  reason: null,
  metadata: { category: "PREFERENCE", key_length: 12, value_length: 40, explanations: [] },
});

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const started = process.hrtime.bigint();
  const value = await work();
  return [value, Number(process.hrtime.bigint() - started) / 1e6];
}

async function main(): Promise<void> {
  const ferret = await EmbeddedFerretDb.start({
    binary: ferretdbBinaryPath(path.resolve(__dirname, "..")),
    dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-verify-")),
  });
  const client = await MongoClient.connect(ferret.uri);
  try {
    const db = client.db("bench");
    const clock = new ManualClock("2026-06-01T00:00:00.000Z");
    const keys = logKeySet(generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    const log = new EventLog(db, clock);
    log.sealWith((body) => signEventBody(body, keys));
    const checkpointer = new Checkpointer(db, log, clock, keys, { every: 0, intervalS: 0 }, createLogger("silent"));
    const auditor = new ChainAuditor(log, checkpointer);

    const body = EVENTS - TAIL;
    const [, loadMs] = await timed(async () => {
      for (let i = 0; i < body; i += 1000) await Promise.all(Array.from({ length: Math.min(1000, body - i) }, (_, k) => log.append(draft(i + k))));
    });
    const head = await log.head(TENANT);
    const [signed, checkpointMs] = await timed(() => checkpointer.checkpoint(TENANT, head.seq, head.hash));
    if (!signed) throw new Error("the checkpointer refused the chain it wrote");
    for (let i = body; i < EVENTS; i++) await log.append(draft(i));
    await log.settled();

    const [full, fullMs] = await timed(() => auditor.verify(TENANT, { full: true }));
    const [since, sinceMs] = await timed(() => auditor.verify(TENANT));
    if (!full.ok || !since.ok) throw new Error(`verification failed: ${JSON.stringify({ full, since })}`);

    // The background sweep (issue 22 §3): steps of 1,000 events from seq 1, as the gateway runs them;
    // wall time and this process's CPU per 1,000 events give the rate it can hold and what it costs.
    const sweep = new ChainSweep(log, auditor, clock, { eventsPerSecond: 500, stepMs: 1000 }, createLogger("silent"));
    const sweepSteps = Math.min(20, Math.floor(EVENTS / 1000));
    const cpuBefore = process.cpuUsage();
    const [, sweepMs] = await timed(async () => {
      for (let i = 0; i < sweepSteps; i++) await sweep.step(1000);
    });
    const sweepCpu = process.cpuUsage(cpuBefore);
    const sweepMsPer1000 = sweepMs / sweepSteps;
    const sweepCpuMsPer1000 = (sweepCpu.user + sweepCpu.system) / 1000 / sweepSteps;

    // What verification is made of: one pass over the segment, then hash + signature per event.
    const events = db.collection<{ _id: string }>("memory_events");
    const [read, readMs] = await timed(async () => {
      let n = 0;
      for await (const _event of log.segment(TENANT, 1, EVENTS)) n++;
      return n;
    });
    const sample = await log.segment(TENANT, 1, 2000).toArray();
    const [, cpuMs] = await timed(async () => {
      for (const event of sample) checkEvent(event, TENANT, event.seq, event.prev_hash, keys);
    });
    const perEventCpuUs = (cpuMs * 1000) / sample.length;

    // Ways of reading 500 events at the tail (seq EVENTS-499 … EVENTS) on FerretDB/SQLite.
    const ids = Array.from({ length: 500 }, (_, k) => eventDocId(TENANT, EVENTS - 499 + k));
    const [, inMs] = await timed(() => events.find({ _id: { $in: ids } }).toArray());
    const [, rangeMs] = await timed(() => events.find({ _id: { $gte: ids[0], $lte: ids[499] } }).toArray());
    const [, lookupsMs] = await timed(async () => {
      for (let i = 0; i < ids.length; i += 16) await Promise.all(ids.slice(i, i + 16).map((id) => events.findOne({ _id: id })));
    });
    const [, oneTailMs] = await timed(() => events.findOne({ _id: ids[499] }));
    const [, oneHeadMs] = await timed(() => events.findOne({ _id: eventDocId(TENANT, 1) }));
    const [, absentMs] = await timed(() => events.findOne({ _id: eventDocId(TENANT, EVENTS + 1) }));
    const explainIn = (await db.command({ explain: { find: "memory_events", filter: { _id: { $in: ids.slice(0, 2) } } } })) as { filterPushdown?: boolean };
    const explainEq = (await db.command({ explain: { find: "memory_events", filter: { _id: ids[0] } } })) as { filterPushdown?: boolean };

    const rows: [string, string][] = [
      [`events in the tenant`, `${EVENTS}`],
      [`load (append, signed, group commit)`, `${(loadMs / 1000).toFixed(1)} s`],
      [`checkpoint over ${body} events (verifies them first)`, `${(checkpointMs / 1000).toFixed(1)} s`],
      [`full verification, ${full.eventsChecked} events`, `${(fullMs / 1000).toFixed(1)} s`],
      [`from the last good checkpoint, ${since.eventsChecked} events`, `${(sinceMs / 1000).toFixed(2)} s`],
      [`  of which: one pass reading ${read} events`, `${(readMs / 1000).toFixed(1)} s`],
      [`  of which: hash + Ed25519 verify per event`, `${perEventCpuUs.toFixed(0)} µs`],
      [`background sweep: one step of 1,000 events (wall / gateway CPU)`, `${sweepMsPer1000.toFixed(0)} ms / ${sweepCpuMsPer1000.toFixed(0)} ms`],
      [`  the most it can verify, all wall time`, `${(1_000_000 / sweepMsPer1000).toFixed(0)} events/s`],
      [`  at the default 500 events/s: CPU share of one core`, `${((0.5 * sweepCpuMsPer1000) / 10).toFixed(0)} %`],
      [
        `  worst case to find an edit, 100k / 1M events (one pass at min(500/s, the most))`,
        `${(100_000 / Math.min(500, 1_000_000 / sweepMsPer1000)).toFixed(0)} s / ${(1_000_000 / Math.min(500, 1_000_000 / sweepMsPer1000) / 60).toFixed(1)} min`,
      ],
      [`500 tail events by _id $in (pushdown: ${String(explainIn.filterPushdown)})`, `${inMs.toFixed(0)} ms`],
      [`500 tail events by _id range`, `${rangeMs.toFixed(0)} ms`],
      [`500 tail events by _id lookups, 16 in flight`, `${lookupsMs.toFixed(0)} ms`],
      [`one _id lookup, seq 1 (pushdown: ${String(explainEq.filterPushdown)})`, `${oneHeadMs.toFixed(1)} ms`],
      [`one _id lookup, seq ${EVENTS}`, `${oneTailMs.toFixed(1)} ms`],
      [`one _id lookup, absent (a poll that finds nothing)`, `${absentMs.toFixed(1)} ms`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    process.stdout.write(
      `\nbench-verify (FerretDB ${process.env.MEMGATE_FERRETDB_POSTGRESQL_URL ? "PostgreSQL" : "SQLite"}, load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)\n`,
    );
    for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
  } finally {
    await client.close();
    await ferret.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench-verify: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
