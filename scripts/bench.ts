/**
 * npm run bench: memgate's own cost, measured against ceilings on the same machine and database.
 *   BENCH_DURATION   seconds per scenario and round (default 10)
 *   BENCH_ROUNDS     rounds in which governed and raw take turns (default 3); the median round is printed
 *   BENCH_CONNECTIONS concurrent connections (default 50)
 *   MEMGATE_FERRETDB_POSTGRESQL_URL  also run everything on FerretDB's PostgreSQL backend
 *   BENCH_MONGODB_URI  instead, run everything against this database (a MongoDB 7, or a FerretDB started by hand)
 *   BENCH_COMMANDS   also print each scenario's commands per request by command and collection
 *   BENCH_CPU_PROFILE a directory: the gateway's and the raw server's V8 CPU profiles of each scenario's load and drain are written there
 *   BENCH_ONLY       READ or STORE: run only the scenarios of that kind (a profile of one path)
 *   BENCH_REST_SECONDS seconds the gateway's CPU is watched with no request, after seeding (default 5; 0: not)
 * The raw server also reads with its lookups grouped as memgate groups them (the "grouped"
 * row; its "vs raw" cell, in parentheses, is the governed READ against it).
 * Prints one table per backend; numbers, not assertions. "db cmds/req" is every command the
 * server's driver started during the scenario (command monitoring; off-path work such as
 * settle marks, counters, chain heads and the settings poll included) per request served;
 * "drain s" is how long the server then took to finish that off-path work, and "sustained"
 * counts it: requests / (duration + drain). "vs raw" compares sustained rates. "server cpu"
 * and "db cpu" are the CPU milliseconds per request the server process (all its threads) and
 * the embedded FerretDB spent over the load and its drain (Linux /proc; "-" elsewhere): the
 * server is one Node thread, so once it nears a core its cpu per request sets the rate.
 */
import { fork, type ChildProcess } from "node:child_process";
import { createPrivateKey, generateKeyPairSync, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
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
/** Seconds the governed gateway is watched at rest after seeding (BENCH_REST_SECONDS; 0: not). */
const REST_SECONDS = Number(process.env.BENCH_REST_SECONDS ?? 5);
/** Rounds of every scenario (BENCH_ROUNDS); each row is the median round, with the range of all. */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
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
  /** CPU milliseconds per request of the server process and of the embedded database (null: not measured). */
  serverCpu: number | null;
  dbCpu: number | null;
  /** Lowest and highest sustained rate over the rounds. */
  range: [number, number];
}

/** The round with the median sustained rate, carrying the range of all rounds. */
function median(rounds: Row[]): Row {
  const sorted = [...rounds].sort((a, b) => a.sustained - b.sustained);
  return { ...sorted[Math.floor((sorted.length - 1) / 2)], range: [sorted[0].sustained, sorted[sorted.length - 1].sustained] };
}

interface Server {
  child: ChildProcess;
  url: string;
  /** The embedded FerretDB's pid, when the bench started it. */
  dbPid?: number;
}

/** CPU seconds a process has used so far, all threads (Linux /proc; null elsewhere or once gone). */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    // utime and stime, fields 14 and 15 of stat (11 and 12 after the command), in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const perRequest = (before: number | null, after: number | null, served: number): number | null =>
  before === null || after === null ? null : ((after - before) * 1000) / served;

/** Every server child, killed on the way out whatever happened (a bench must not leave servers behind). */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

async function startChild(
  kind: string,
  uri: string,
  dbName: string,
  dbPid: number | undefined,
  publicKeyPem = "",
  env: NodeJS.ProcessEnv = {},
): Promise<Server> {
  const child = fork(path.join(__dirname, "bench-server.js"), [kind, uri, dbName, publicKeyPem], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...env },
  });
  children.add(child);
  const port = await new Promise<number>((resolve, reject) => {
    child.once("message", (m: { port: number }) => resolve(m.port));
    child.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  return { child, url: `http://127.0.0.1:${port}/graphql`, dbPid };
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

/** BENCH_CPU_PROFILE: the server starts its V8 profiler (one profile per scenario and round). */
async function profileStart(child: ChildProcess): Promise<void> {
  await new Promise<void>((resolve) => {
    const onMessage = (m: { profiling?: boolean }) => {
      if (!m.profiling) return;
      child.off("message", onMessage);
      resolve();
    };
    child.on("message", onMessage);
    child.send("profile-start");
  });
}

/** Stops the server's profiler and writes the profile; resolves with its file. */
async function profileOf(child: ChildProcess, scenario: string): Promise<string> {
  return new Promise<string>((resolve) => {
    const onMessage = (m: { profile?: string | null }) => {
      if (m.profile === undefined) return;
      child.off("message", onMessage);
      resolve(String(m.profile));
    };
    child.on("message", onMessage);
    child.send({ profile: scenario });
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

const PROBE_TIMEOUT_MS = 30_000;

/**
 * One request. The connection fetch keeps from the round before may have been closed by the
 * server's keep-alive timeout while autocannon ran: such a "fetch failed" is tried again, once.
 */
async function sendProbe(url: string, body: string, token?: string): Promise<Response> {
  const request = () =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
      // Given up on and sent again rather than waited for forever (a PostgreSQL run once stopped before a scenario, its servers idle).
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  try {
    return await request();
  } catch {
    return request();
  }
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
  const profiling = Boolean(process.env.BENCH_CPU_PROFILE) && database;
  if (profiling) await profileStart(server.child);
  const cpuBefore = { server: cpuSeconds(server.child.pid), db: database ? cpuSeconds(server.dbPid) : null };
  const probe = await sendProbe(url, bodies(), token).catch(async (error: unknown) => {
    // The server says what it waits for (on its stderr) before the bench stops it.
    server.child.send("diagnose");
    await new Promise((resolve) => setTimeout(resolve, 1000));
    throw new Error(`${scenario}: the probe request got no answer`, { cause: error });
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
  const cpuAfter = { server: cpuSeconds(server.child.pid), db: database ? cpuSeconds(server.dbPid) : null };
  if (profiling) process.stdout.write(`  ${scenario}: cpu profile ${await profileOf(server.child, scenario)}\n`);
  return {
    scenario,
    rps,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + refused,
    commands,
    drain,
    sustained: drain > 0.05 ? served / (DURATION + drain) : rps,
    serverCpu: perRequest(cpuBefore.server, cpuAfter.server, served),
    dbCpu: perRequest(cpuBefore.db, cpuAfter.db, served),
    range: [0, 0],
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

/**
 * Each scenario sends one document with variables, as a client built on a GraphQL library
 * does, so the servers parse and validate it once (Apollo's document cache) and the rows
 * measure the operation, not the parsing of a new query text per request.
 */
const GOVERNED_READ =
  "query Read($memoryId: ID!, $subjectId: ID!) { memory(memoryId: $memoryId, subjectId: $subjectId) { stopReason memory { memoryId key value } } }";
const RAW_READ = "query RawRead($id: ID!) { rawMemory(id: $id) { memoryId key value } }";
const RAW_READ_GROUPED = "query RawReadGrouped($id: ID!) { rawMemoryGrouped(id: $id) { memoryId key value } }";
const GOVERNED_STORE = "mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason memory { memoryId } } }";
const RAW_STORE = "mutation RawStore($key: String!, $value: String!) { rawStore(key: $key, value: $value) { memoryId } }";

async function benchBackend(label: string, postgresqlUrl: string | undefined, token: string, publicKeyPem: string): Promise<Row[]> {
  const external = process.env.BENCH_MONGODB_URI;
  const ferret = external
    ? { uri: external, stop: async () => undefined }
    : await EmbeddedFerretDb.start({ binary: loadConfig().ferretdbBinary, dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-")), postgresqlUrl });
  const dbName = `bench_${Date.now()}`;
  const rows: Row[] = [];
  const add = (row: Row | null) => row && rows.push(row);
  try {
    const dbPid = "pid" in ferret ? ferret.pid : undefined;
    const constant = await startChild("constant", ferret.uri, dbName, dbPid);
    add(await load("constant (GraphQL ceiling)", constant, () => JSON.stringify({ query: "{ ping }" }), undefined, false));
    await stopChild(constant.child);

    // Governed first, so the raw read looks up the very documents memgate stored.
    // Configured as `npm start` configures its embedded FerretDB (the bench hands the database over by URI).
    const governed = await startChild("governed", ferret.uri, dbName, dbPid, publicKeyPem, {
      MEMGATE_SECONDARY_INDEXES: process.env.MEMGATE_SECONDARY_INDEXES ?? String(Boolean(external)),
    });
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
    if (REST_SECONDS > 0) {
      // What the gateway spends with no request (chain sweep, checkpointer, settings poll, repair):
      // a cost per second, which the rows' cpu per request include at whatever rate they reach.
      await idleOf(governed.child);
      const before = { server: cpuSeconds(governed.child.pid), db: cpuSeconds(dbPid) };
      await new Promise((resolve) => setTimeout(resolve, REST_SECONDS * 1000));
      const after = { server: cpuSeconds(governed.child.pid), db: cpuSeconds(dbPid) };
      const perSecond = (a: number | null, b: number | null) => (a === null || b === null ? "-" : (((b - a) * 1000) / REST_SECONDS).toFixed(0));
      process.stdout.write(
        `  governed gateway at rest (${REST_SECONDS} s, no request): ${perSecond(before.server, after.server)} ms cpu/s, database ${perSecond(before.db, after.db)} ms cpu/s\n`,
      );
    }
    const raw = await startChild("raw", ferret.uri, dbName, dbPid);
    const rawIds = ids.map(({ subject, id }) => memoryDocId("bench", subject, id));
    let n = 0;
    const scenarios: { name: string; server: Server; body: () => string; token?: string }[] = [
      {
        name: "governed READ",
        server: governed,
        token,
        body: () => {
          const target = pick(ids);
          return JSON.stringify({ query: GOVERNED_READ, variables: { memoryId: target.id, subjectId: target.subject } });
        },
      },
      {
        name: "raw driver READ (_id lookup)",
        server: raw,
        body: () => JSON.stringify({ query: RAW_READ, variables: { id: pick(rawIds) } }),
      },
      {
        name: "raw driver READ, grouped lookups",
        server: raw,
        body: () => JSON.stringify({ query: RAW_READ_GROUPED, variables: { id: pick(rawIds) } }),
      },
      {
        name: "governed STORE",
        server: governed,
        token,
        body: () =>
          JSON.stringify({
            query: GOVERNED_STORE,
            variables: {
              input: {
                subjectId: pick(SUBJECTS),
                category: "WORKFLOW_DEFAULT",
                key: `build-${n++}`,
                value: "npm run build",
                sourceKind: "USER_EXPLICIT",
                ttlClass: "LONG",
                consent: { explicit: true },
              },
            },
          }),
      },
      {
        name: "raw driver STORE (two inserts)",
        server: raw,
        body: () => JSON.stringify({ query: RAW_STORE, variables: { key: `k-${randomUUID()}`, value: "npm run build" } }),
      },
    ];
    // Governed and raw take turns, round after round, so a machine that is slower for a while
    // (a neighbour, a compaction) costs both alike; each row is the round with the median rate.
    const runs = new Map<string, Row[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const { name, server, body, token: bearer } of scenarios) {
        const row = await load(name, server, body, bearer);
        if (row) runs.set(name, [...(runs.get(name) ?? []), row]);
      }
    }
    // The table lists the gateway's rows, then the raw server's.
    for (const { name } of [...scenarios.filter((s) => s.server === governed), ...scenarios.filter((s) => s.server === raw)]) {
      const measured = runs.get(name);
      if (measured) add(median(measured));
    }
    await stopChild(governed.child);
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
    `\nbackend: ${label}   (${CONNECTIONS} connections, ${DURATION} s each, median of ${ROUNDS} rounds, ${os.cpus().length} cores; cpu in ms per request)`,
    `${"scenario".padEnd(34)}${"req/s".padStart(9)}${"p50 ms".padStart(9)}${"p99 ms".padStart(9)}${"db cmds/req".padStart(13)}${"drain s".padStart(9)}${"sustained".padStart(11)}${"range".padStart(12)}${"vs raw".padStart(9)}${"server cpu".padStart(12)}${"db cpu".padStart(9)}${"errors".padStart(9)}`,
  ];
  for (const row of rows) {
    // The grouped raw read's cell compares the governed READ with it (memgate groups its lookups too).
    const vs =
      row.scenario === "governed READ"
        ? ratio(row, by("raw driver READ (_id lookup)"))
        : row.scenario === "governed STORE"
          ? ratio(row, by("raw driver STORE"))
          : row.scenario === "raw driver READ, grouped lookups" && by("governed READ")
            ? `(${ratio(by("governed READ")!, row)})`
            : "";
    const commands = row.commands === null ? "-" : row.commands.toFixed(2);
    const ms = (value: number | null) => (value === null ? "-" : value.toFixed(2));
    lines.push(
      `${row.scenario.padEnd(34)}${row.rps.toFixed(0).padStart(9)}${String(row.p50).padStart(9)}${String(row.p99).padStart(9)}${commands.padStart(13)}${(row.drain >= MAX_DRAIN_S ? `>${MAX_DRAIN_S}` : row.drain.toFixed(1)).padStart(9)}${row.sustained.toFixed(0).padStart(11)}${(row.range[1] > 0 ? `${row.range[0].toFixed(0)}-${row.range[1].toFixed(0)}` : "").padStart(12)}${vs.padStart(9)}${ms(row.serverCpu).padStart(12)}${ms(row.dbCpu).padStart(9)}${String(row.errors).padStart(9)}`,
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
