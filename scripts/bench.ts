/**
 * npm run bench: memgate's own cost, measured against ceilings on the same machine and database.
 *   BENCH_DURATION   seconds per scenario (default 10)
 *   BENCH_CONNECTIONS concurrent connections (default 50)
 *   MEMGATE_FERRETDB_POSTGRESQL_URL  also run everything on FerretDB's PostgreSQL backend
 *   BENCH_MONGODB_URI  instead, run everything against this database (a MongoDB 7, or a FerretDB started by hand)
 *   BENCH_COMMANDS   also print each scenario's commands per request by command and collection
 *   BENCH_CPU_PROFILE a directory: the gateway's V8 CPU profile over its scenarios is written there
 *   BENCH_ONLY       READ or STORE: run only the scenarios of that kind (a profile of one path)
 * Prints one table per backend; numbers, not assertions. "db cmds/req" is every command the
 * server's driver started during the scenario (command monitoring; off-path work such as
 * settle marks, counters, chain heads and the settings poll included) per request served;
 * "drain s" is how long the server then took to finish that off-path work, and "sustained"
 * counts it: requests / (duration + drain). "vs raw" compares sustained rates.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createPrivateKey, generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import { SignJWT } from "jose";
import { loadConfig } from "../src/config";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";
import { memoryDocId } from "../src/store/ids";
import { policyLatency } from "./bench-policy";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SEEDED = 200;
/** Traffic spread over many subjects, as real traffic is (a subject's write quota is 100 an hour). */
const SUBJECTS = Array.from({ length: 500 }, (_, i) => `s${i}`);

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Database commands per request; null when the server has no database. */
  commands: number | null;
  /** Seconds the server took after the load to finish what requests left off their path (marks, counters, heads). */
  drain: number;
  /** Requests served over the load's duration plus the drain: what the server sustains. */
  sustained: number;
}

interface Server {
  child: ChildProcess;
  url: string;
}

/** Every server child, killed on the way out whatever happened (a bench must not leave servers behind). */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

async function startChild(kind: string, uri: string, dbName: string, publicKeyPem = ""): Promise<Server> {
  const child = fork(path.join(__dirname, "bench-server.js"), [kind, uri, dbName, publicKeyPem], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/graphql` };
}

/** The bench servers keep nothing worth draining. */
async function stopChild(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
  children.delete(child);
}

interface CommandCount {
  commands: number;
  /** Requests the server received, and those it has not answered yet. */
  requests: number;
  inFlight: number;
  byKind: Record<string, number>;
  /** Milliseconds the database took, summed, by command and collection. */
  msByKind: Record<string, number>;
}

/** How many database commands the server's driver has started so far, in all and by command and collection. */
async function commandsOf(child: ChildProcess): Promise<CommandCount> {
  return new Promise<CommandCount>((resolve) => {
    const onMessage = (m: Partial<CommandCount>) => {
      if (typeof m.commands !== "number") return;
      child.off("message", onMessage);
      resolve({ commands: m.commands, requests: m.requests ?? 0, inFlight: m.inFlight ?? 0, byKind: m.byKind ?? {}, msByKind: m.msByKind ?? {} });
    };
    child.on("message", onMessage);
    child.send("commands");
  });
}

async function profileOf(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve) => {
    const onMessage = (m: { profile?: string }) => {
      if (m.profile === undefined) return;
      child.off("message", onMessage);
      resolve(m.profile);
    };
    child.on("message", onMessage);
    child.send("profile");
  });
}

/** The longest a bench waits for a server's off-path work (a drain that long is reported as such). */
const MAX_DRAIN_S = 60;

/** Waits until the server has done what earlier requests left to do off the request path (at most MAX_DRAIN_S). */
async function idleOf(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, MAX_DRAIN_S * 1000);
    function done() {
      clearTimeout(timer);
      child.off("message", onMessage);
      resolve();
    }
    function onMessage(m: { idle?: boolean }) {
      if (m.idle) done();
    }
    child.on("message", onMessage);
    child.send("idle");
  });
}

/**
 * A refusal is an HTTP 200 with a stop reason, so autocannon alone would happily measure
 * refusals: one probe request must succeed before a scenario is measured.
 */
async function load(scenario: string, server: Server, bodies: () => string, token?: string, database = true): Promise<Row | null> {
  if (process.env.BENCH_ONLY && !scenario.includes(process.env.BENCH_ONLY)) return null;
  const { url } = server;
  if (database) await idleOf(server.child);
  const before = database ? await commandsOf(server.child) : undefined;
  const probe = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: bodies(),
  });
  const text = await probe.text();
  if (!probe.ok || text.includes('"errors"') || (text.includes("stopReason") && !text.includes('"SUCCESS_'))) {
    throw new Error(`${scenario}: the probe request did not succeed, so nothing would be measured: ${text.slice(0, 300)}`);
  }
  let refused = 0;
  const result = await autocannon({
    url,
    method: "POST",
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    requests: [
      {
        setupRequest: (req) => ({ ...req, body: bodies() }),
        onResponse: (_status, body) => {
          if (body.includes("stopReason") && !body.includes('"SUCCESS_')) refused++;
        },
      },
    ],
  });
  let commands: number | null = null;
  let drain = 0;
  let served = result.requests.total + 1;
  if (before) {
    // The requests autocannon left in flight are still served: count them, and what they start, when they are done.
    let after = await commandsOf(server.child);
    for (let i = 0; i < 100 && after.inFlight > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await commandsOf(server.child);
    }
    const drainStart = process.hrtime.bigint();
    await idleOf(server.child);
    drain = Number(process.hrtime.bigint() - drainStart) / 1e9;
    after = await commandsOf(server.child);
    served = Math.max(1, after.requests - before.requests);
    commands = (after.commands - before.commands) / served;
    if (process.env.BENCH_COMMANDS) {
      const kinds = Object.entries(after.byKind).flatMap(([kind, n]) => {
        const count = n - (before.byKind[kind] ?? 0);
        const ms = (after.msByKind[kind] ?? 0) - (before.msByKind[kind] ?? 0);
        return count > 0 ? [`${kind}=${(count / served).toFixed(2)} (${(ms / count).toFixed(1)} ms)`] : [];
      });
      process.stdout.write(`  ${scenario}: ${kinds.join(", ")}\n`);
    }
  }
  const rps = result.requests.average;
  return {
    scenario,
    rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + refused,
    commands,
    drain,
    sustained: drain > 0.05 ? served / (DURATION + drain) : rps,
  };
}

async function gql(url: string, token: string, query: string): Promise<any> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query }),
  });
  return response.json();
}

const pick = <T>(items: T[]): T => items[Math.floor(Math.random() * items.length)];

async function benchBackend(label: string, postgresqlUrl: string | undefined, token: string, publicKeyPem: string): Promise<Row[]> {
  const external = process.env.BENCH_MONGODB_URI;
  const ferret = external
    ? { uri: external, stop: async () => undefined }
    : await EmbeddedFerretDb.start({ binary: loadConfig().ferretdbBinary, dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-")), postgresqlUrl });
  const dbName = `bench_${Date.now()}`;
  const rows: Row[] = [];
  const add = (row: Row | null) => row && rows.push(row);
  try {
    const constant = await startChild("constant", ferret.uri, dbName);
    add(await load("constant (GraphQL ceiling)", constant, () => JSON.stringify({ query: "{ ping }" }), undefined, false));
    await stopChild(constant.child);

    // Governed first, so the raw read looks up the very documents memgate stored.
    const governed = await startChild("governed", ferret.uri, dbName, publicKeyPem);
    const ids: { subject: string; id: string }[] = [];
    for (let i = 0; i < SEEDED; i++) {
      const subject = SUBJECTS[i % SUBJECTS.length];
      const res = await gql(
        governed.url,
        token,
        `mutation { storeMemory(input: {subjectId: "${subject}", category: "PREFERENCE", key: "k${i}", value: "prefers concise answers ${i}", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", consent: {explicit: true}}) { stopReason memory { memoryId } } }`,
      );
      if (res.data?.storeMemory?.stopReason !== "SUCCESS_STORED") throw new Error(`seeding failed: ${JSON.stringify(res)}`);
      ids.push({ subject, id: res.data.storeMemory.memory.memoryId });
    }
    let target = ids[0];
    add(
      await load(
        "governed READ",
        governed,
        () =>
          JSON.stringify({
            query: `{ memory(memoryId: "${(target = pick(ids)).id}", subjectId: "${target.subject}") { stopReason memory { memoryId key value } } }`,
          }),
        token,
      ),
    );
    let n = 0;
    add(
      await load(
        "governed STORE",
        governed,
        () =>
          JSON.stringify({
            query: `mutation { storeMemory(input: {subjectId: "${pick(SUBJECTS)}", category: "WORKFLOW_DEFAULT", key: "build-${n++}", value: "npm run build", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", consent: {explicit: true}}) { stopReason memory { memoryId } } }`,
          }),
        token,
      ),
    );
    if (process.env.BENCH_CPU_PROFILE) process.stdout.write(`  cpu profile: ${await profileOf(governed.child)}\n`);
    await stopChild(governed.child);

    const raw = await startChild("raw", ferret.uri, dbName);
    const rawIds = ids.map(({ subject, id }) => memoryDocId("bench", subject, id));
    add(await load("raw driver READ (_id lookup)", raw, () => JSON.stringify({ query: `{ rawMemory(id: "${pick(rawIds)}") { memoryId key value } }` })));
    add(
      await load("raw driver STORE (two inserts)", raw, () =>
        JSON.stringify({ query: `mutation { rawStore(key: "k-${randomUUID()}", value: "npm run build") { memoryId } }` }),
      ),
    );
    await stopChild(raw.child);
  } finally {
    await ferret.stop();
  }
  const errors = rows.filter((r) => r.errors > 0);
  if (errors.length > 0) process.stderr.write(`bench (${label}): errors in ${errors.map((r) => `${r.scenario}: ${r.errors}`).join(", ")}\n`);
  return rows;
}

function printTable(label: string, rows: Row[]): void {
  const by = (name: string) => rows.find((r) => r.scenario.startsWith(name));
  const ratio = (a: Row, b: Row | undefined) => (b ? `${((a.sustained / b.sustained) * 100).toFixed(0)}%` : "");
  const lines = [
    `\nbackend: ${label}   (${CONNECTIONS} connections, ${DURATION} s each, ${os.cpus().length} cores)`,
    `${"scenario".padEnd(34)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"db cmds/req".padStart(13)}${"drain s".padStart(9)}${"sustained".padStart(11)}${"vs raw".padStart(9)}${"errors".padStart(9)}`,
  ];
  for (const row of rows) {
    const vs =
      row.scenario === "governed READ" ? ratio(row, by("raw driver READ")) : row.scenario === "governed STORE" ? ratio(row, by("raw driver STORE")) : "";
    const commands = row.commands === null ? "-" : row.commands.toFixed(2);
    lines.push(
      `${row.scenario.padEnd(34)}${row.rps.toFixed(0).padStart(9)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${commands.padStart(13)}${(row.drain >= MAX_DRAIN_S ? `>${MAX_DRAIN_S}` : row.drain.toFixed(1)).padStart(9)}${row.sustained.toFixed(0).padStart(11)}${vs.padStart(9)}${String(row.errors).padStart(9)}`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main(): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const token = await new SignJWT({ tenant: "bench", subjects: SUBJECTS, roles: ["agent"] })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject("bench-agent")
    .setIssuer("memgate-bench")
    .setAudience("memgate")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(createPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" })));

  // The same input as `npm run bench:policy` (the contract's own field declarations, the real detectors).
  const policy = await policyLatency(loadConfig().policyBundlePath);
  process.stdout.write(`\npolicy evaluation in-process (${policy.n} STORE decisions): p50 ${policy.p50.toFixed(1)} µs, p99 ${policy.p99.toFixed(1)} µs\n`);
  if (process.env.BENCH_MONGODB_URI) {
    printTable(process.env.BENCH_MONGODB_URI, await benchBackend("external", undefined, token, publicKeyPem));
    return;
  }
  printTable("FerretDB 1.24 / SQLite", await benchBackend("sqlite", undefined, token, publicKeyPem));
  if (process.env.MEMGATE_FERRETDB_POSTGRESQL_URL) {
    printTable("FerretDB 1.24 / PostgreSQL", await benchBackend("postgresql", process.env.MEMGATE_FERRETDB_POSTGRESQL_URL, token, publicKeyPem));
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
