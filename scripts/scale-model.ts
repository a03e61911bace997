/**
 * A measured model of memgate's event log beyond one machine (docs/SCALE.md "Beyond one machine").
 *
 *   npm run scale:model            (SCALE_SECONDS per measurement, default 5)
 *
 * Measures, on this machine's embedded FerretDB (SQLite; MEMGATE_FERRETDB_PATCHES=none for
 * upstream), the group-commit append rate of the hash chain (src/store/event-log.ts): one tenant
 * with 1, 16, 64 and 256 appends in flight, and 4 and 16 tenants side by side (what one database
 * server sustains when chains do not wait on each other). It then prints the model: a tenant's
 * chain is one sequence of ordered inserts, so its appends per second are bounded by one shard's
 * insert latency whatever the cluster size, while the cluster's total grows with its shards (the
 * shard key keeps each tenant's chain on one shard: `memory_events` by `_id` = tenant:seq,
 * ranged, or hashed on `tenant_id`).
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { systemClock } from "../src/clock";
import { projectRoot } from "../src/config";
import { connectDatabase } from "../src/store/database";
import { EmbeddedFerretDb, ferretdbBinaryPath } from "../src/store/embedded-ferretdb";
import { EventLog, type EventDraft } from "../src/store/event-log";

const SECONDS = Number(process.env.SCALE_SECONDS ?? 5);
const SHARDS = [1, 3, 10, 30];

const draft = (tenant: string, n: number): EventDraft => ({
  tenant_id: tenant,
  subject_id: `s${n % 100}`,
  event_type: "create",
  operation: "STORE",
  contract: "governed",
  memory_id: `mem_${tenant}_${n}`,
  actor: { id: "scale-model", roles: ["agent"], kind: "system" },
  stop_reason: "SUCCESS_STORED",
  decision_id: `d${n}`,
  policy_hash: "0".repeat(64),
  contract_version: "19.1.0",
  request_id: `r${n}`,
  content_digest: "1".repeat(64),
  reason: null,
  metadata: { explanations: [], category: "PREFERENCE", ttl_class: "LONG", source_kind: "USER_EXPLICIT", version: 1 },
});

interface Measured {
  label: string;
  tenants: number;
  inflight: number;
  appends: number;
  seconds: number;
  p50: number;
  p99: number;
}

/** `inflight` appends kept in flight per tenant for SECONDS; every append's latency recorded. */
async function measure(log: EventLog, label: string, tenants: string[], inflight: number): Promise<Measured> {
  const latencies: number[] = [];
  let n = 0;
  const until = performance.now() + SECONDS * 1000;
  const started = performance.now();
  const worker = async (tenant: string) => {
    while (performance.now() < until) {
      const t0 = performance.now();
      await log.append(draft(tenant, n++));
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(tenants.flatMap((tenant) => Array.from({ length: inflight }, () => worker(tenant))));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { label, tenants: tenants.length, inflight, appends: latencies.length, seconds, p50: at(0.5), p99: at(0.99) };
}

const rate = (m: Measured) => m.appends / m.seconds;
const fmt = (n: number) => Math.round(n).toLocaleString("en-US");

async function main(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-scale-model-"));
  const db = await EmbeddedFerretDb.start({ binary: ferretdbBinaryPath(projectRoot), dataDir });
  const { client, db: database } = await connectDatabase(db.uri, "scale_model");
  try {
    const log = new EventLog(database, systemClock);
    await measure(log, "warm-up", ["warm"], 16);
    const rows: Measured[] = [];
    for (const inflight of [1, 16, 64, 256]) rows.push(await measure(log, `1 tenant, ${inflight} in flight`, [`t-one-${inflight}`], inflight));
    for (const tenants of [4, 16]) {
      rows.push(
        await measure(
          log,
          `${tenants} tenants, 16 in flight each`,
          Array.from({ length: tenants }, (_, i) => `t-many-${tenants}-${i}`),
          16,
        ),
      );
    }

    const patches = process.env.MEMGATE_FERRETDB_PATCHES === "none" ? "upstream, no patches" : "memgate's patches";
    const out: string[] = [];
    out.push(`\nMeasured: the event log's group-commit appends on FerretDB 1.24 / SQLite (${patches}), ${os.cpus().length} cores, ${SECONDS} s each`);
    out.push(`${"load".padEnd(34)}${"appends/s".padStart(11)}${"per tenant".padStart(12)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}`);
    for (const m of rows) {
      out.push(
        `${m.label.padEnd(34)}${fmt(rate(m)).padStart(11)}${fmt(rate(m) / m.tenants).padStart(12)}${m.p50.toFixed(1).padStart(9)}${m.p99.toFixed(1).padStart(9)}`,
      );
    }

    const single = Math.max(...rows.filter((m) => m.tenants === 1).map(rate));
    // A shard serving many tenants: their chains' batches are separate inserts (no grouping across
    // tenants), so the many-tenant rows, not the best single chain, are what a shard sustains.
    const server = Math.min(...rows.filter((m) => m.tenants > 1).map(rate));
    const serial = rows.find((m) => m.tenants === 1 && m.inflight === 1)!;
    out.push(
      `\nModel (one shard = this machine's database; a tenant's chain lives on one shard):`,
      `  a tenant's chain, serial (1 in flight): ${fmt(rate(serial))} appends/s (one insert round trip each)`,
      `  a tenant's chain, grouped (best above): ${fmt(single)} appends/s; a shard of many tenants: ${fmt(server)} appends/s`,
    );
    out.push(`${"shards".padEnd(8)}${"cluster appends/s".padStart(19)}${"one tenant at most".padStart(20)}${"tenants at 10/s each".padStart(22)}`);
    for (const shards of SHARDS) {
      const cluster = server * shards;
      out.push(`${String(shards).padEnd(8)}${fmt(cluster).padStart(19)}${fmt(single).padStart(20)}${fmt(cluster / 10).padStart(22)}`);
    }
    out.push(
      `  One governed STORE appends one event (a refused one too), so a tenant's writes/s are capped near ${fmt(single)}`,
      `  on this machine's database, however many shards; more shards add tenants, not one tenant's rate.`,
    );
    process.stdout.write(out.join("\n") + "\n");
  } finally {
    await client.close();
    await db.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`scale-model: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
