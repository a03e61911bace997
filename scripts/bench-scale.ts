/**
 * Scale benchmark (issue 26 item 3): a database loaded with many tenants and one large one,
 * then every read of a small tenant timed beside the same reads on a database holding that
 * tenant alone, and the large tenant's reads. Loading goes directly through the store layer's
 * document shapes (bulk inserts of what the stores write, id lists included), not the API.
 *
 *   npm run bench:scale
 *   BENCH_TENANTS (1000) x BENCH_ITEMS (1000) governed items and agent memories each, plus one
 *   tenant of BENCH_LARGE (100000) of each, BENCH_EVENTS (1000000) log events, an erasure of a
 *   subject with BENCH_ERASE (10000) items, BENCH_SAMPLES (500) timed requests per operation (p99 is then the
 *   5th slowest; of 200 it was the 2nd, and ratios moved by 1.5x between runs).
 *   MEMGATE_FERRETDB_POSTGRESQL_URL set: the same on PostgreSQL after SQLite; BENCH_BACKENDS=postgresql
 *   runs PostgreSQL only (default sqlite,postgresql).
 *
 * Run with `node --expose-gc` (compiled: type-graphql needs decorator metadata). The loader runs in
 * this process; each measured gateway runs in a process of its own, whose RSS is read after a GC.
 */
import "reflect-metadata";
import { fork, type ChildProcess } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { MongoClient, type Db } from "mongodb";
import { loadConfig } from "../src/config";
import { agentMemoryDocId, AGENT_COLLECTIONS, sealMemory } from "../src/contracts/agent/records";
import { AGENT_LOCATORS } from "../src/contracts/agent/store";
import { Gateway } from "../src/gateway";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";
import { ID_LIST_PAGE, ID_LISTS, IdLists, timeEntry, type IdListRef } from "../src/store/id-lists";
import { memoryDocId } from "../src/store/ids";
import { GOVERNED_COLLECTIONS, governedProvenance } from "../src/contracts/governed/records";

// ---------------------------------------------------------------- the API as a client uses it

const keys = generateKeyPairSync("ed25519");
// A measured gateway process (GatewayProcess) takes the run's token key and data directory from its parent.
const PUBLIC_KEY_PEM = process.env.BENCH_SCALE_JWT_PUBLIC_KEY ?? keys.publicKey.export({ type: "spki", format: "pem" }).toString();
const signToken = (claims: { tenant: string; sub?: string; subjects: string[]; roles: string[] }): Promise<string> =>
  new SignJWT({ tenant: claims.tenant, subjects: claims.subjects, roles: claims.roles })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject(claims.sub ?? "bench-caller")
    .setIssuer("memgate-bench")
    .setAudience("memgate")
    .setIssuedAt()
    .setExpirationTime("4h")
    .sign(keys.privateKey);

const D = "stopReason explanations";
const GOVERNED = {
  STORE: `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { ${D} memory { memoryId } } }`,
  READ: `query Read($id: ID!, $subject: ID) { memory(memoryId: $id, subjectId: $subject) { ${D} memory { memoryId key value } } }`,
  LIST: `query List($subject: ID) { memories(subjectId: $subject) { ${D} nextCursor memories { memoryId key value } } }`,
};
const COMPANION = {
  ADD: `mutation Add($input: AddFactInput!) { addFact(input: $input) { ${D} proposalId fact { memoryId } } }`,
  ENVELOPE: `query Env($subject: ID, $skip: Boolean) { memoryEnvelope(purpose: RESPONSE, subjectId: $subject, skipCache: $skip) {
    ${D} envelope { userFacts { memoryId text } } } }`,
};
const LEDGER = {
  PROPOSE: `mutation Propose($input: ProposeMemoryInput!) { proposeMemory(input: $input) { ${D} proposalId } }`,
  APPROVE: `mutation Approve($id: ID!, $text: String!) { approveProposal(proposalId: $id, finalText: $text) { ${D} memory { memoryId } } }`,
  LEDGER: `query Ledger($subject: ID) { ledger(subjectId: $subject) { ${D} items { memoryId text } } }`,
};
const preference = (over: Record<string, unknown>) => ({
  category: "PREFERENCE",
  key: "tone",
  value: "prefer concise responses",
  sourceKind: "USER_EXPLICIT",
  ttlClass: "LONG",
  consent: { explicit: true },
  ...over,
});
const fact = (over: Record<string, unknown>) => ({
  type: "USER_FACT",
  text: "User loves fettuccini",
  confidence: 0.9,
  source: "llm_extraction",
  summary: "User mentioned they love fettuccini and work on FL Studio",
  ...over,
});
const proposal = (over: Record<string, unknown>) => ({
  proposedText: "I've noticed I focus better in the morning",
  kind: "SELF_OBSERVATION",
  source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: "After Phase 3 summary" },
  ...over,
});

const num = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);
const TENANTS = num("BENCH_TENANTS", 1000);
const ITEMS = num("BENCH_ITEMS", 1000);
const LARGE = num("BENCH_LARGE", 100_000);
const EVENTS = num("BENCH_EVENTS", 1_000_000);
const ERASE = num("BENCH_ERASE", 10_000);
const SAMPLES = num("BENCH_SAMPLES", 500);
const REJUDGE_S = num("BENCH_REJUDGE_S", 60);
/** Subjects per tenant the items are spread over. */
const SUBJECTS = 10;
const NOW = new Date();

const DATA_DIR = process.env.BENCH_SCALE_DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), "memgate-bench-scale-"));
const gc = (globalThis as { gc?: () => void }).gc;

// ---------------------------------------------------------------- loading (store-layer documents)

function governedItem(tenant: string, subject: string, n: number): Record<string, unknown> {
  const memoryId = `mem_${tenant}_${subject}_${n}`;
  const created = new Date(NOW.getTime() - 86_400_000 + n);
  const record = {
    _id: memoryDocId(tenant, subject, memoryId),
    tenant_id: tenant,
    subject_id: subject,
    memory_id: memoryId,
    version: 1,
    category: "PREFERENCE",
    key: `k${n}`,
    value: `prefers option ${n} for the weekly summary`,
    source_kind: "USER_EXPLICIT",
    ttl_class: "LONG",
    source_ref: null,
    origin: "bench",
    consent: { explicit: true, evidence_ref: null },
    status: "active",
    created_at: created,
    updated_at: created,
    expires_at: new Date(NOW.getTime() + 300 * 86_400_000),
    created_by: { id: "loader", roles: ["agent"] },
    content_salt: "bench-salt",
  };
  return { ...record, ...governedProvenance(record as never) };
}

function agentMemory(tenant: string, n: number): Record<string, unknown> {
  const memoryId = `mem_${tenant}_a${n}`;
  return sealMemory({
    _id: agentMemoryDocId(tenant, "repo:app", memoryId),
    tenant_id: tenant,
    space: "repo:app",
    repo_id: "app",
    memory_id: memoryId,
    subject_id: "repo:app",
    author_id: "loader",
    scope: "repo",
    kind: "fact",
    text: `module ${n % 997} of the service uses library ${n % 389} for ${["parsing", "caching", "logging", "retries"][n % 4]} in build step ${n}`,
    confidence: 0.8,
    rationale: null,
    links: { problem_id: null, related_memory_ids: n > 0 ? [`mem_${tenant}_a${n - 1}`] : [], change_targets: [] },
    evidence_refs: [],
    truth: null,
    utility: null,
    invalidated_by: null,
    status: "active",
    created_at: NOW,
    updated_at: NOW,
    created_by: { id: "loader", roles: ["agent"] },
    content_salt: "bench-salt",
  }) as unknown as Record<string, unknown>;
}

/** The id list documents a list of `entries` occupies when written page by page (what IdLists.add and its pages leave). */
function listDocs(ref: IdListRef, entries: string[]): Record<string, unknown>[] {
  const key = IdLists.key(ref);
  const docs: Record<string, unknown>[] = [];
  const pages = Math.floor(entries.length / ID_LIST_PAGE);
  for (let p = 0; p < pages; p++) {
    const page = entries.slice(p * ID_LIST_PAGE, (p + 1) * ID_LIST_PAGE);
    docs.push({ _id: `${key}:p${p}`, tenant_id: ref.tenantId, entries: page });
    page.forEach((entry, s) => docs.push({ _id: `${key}:${p * ID_LIST_PAGE + s}`, tenant_id: ref.tenantId, entries: [entry] }));
  }
  entries
    .slice(pages * ID_LIST_PAGE)
    .forEach((entry, s) => docs.push({ _id: `${key}:${pages * ID_LIST_PAGE + s}`, tenant_id: ref.tenantId, entries: [entry] }));
  if (pages > 0) docs.push({ _id: `${key}:head`, tenant_id: ref.tenantId, pages });
  return docs;
}

async function insertAll(db: Db, collection: string, docs: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < docs.length; i += 1000) await db.collection(collection).insertMany(docs.slice(i, i + 1000) as never[], { ordered: false });
}

/** One tenant: `items` governed items over SUBJECTS subjects (the first with `erase` of them when set: the subject erased), `items` agent memories; with their lists and locators. */
async function loadTenant(db: Db, tenant: string, items: number, erase = 0): Promise<void> {
  const memories: Record<string, unknown>[] = [];
  const lists: Record<string, unknown>[] = [];
  for (let s = 0; s < SUBJECTS; s++) {
    const subject = `s${s}`;
    const count = s === 0 && erase > 0 ? erase : Math.floor(items / SUBJECTS);
    const docs = Array.from({ length: count }, (_, n) => governedItem(tenant, subject, n));
    memories.push(...docs);
    lists.push(
      ...listDocs(
        { collection: GOVERNED_COLLECTIONS.memories, tenantId: tenant, scope: subject, list: "items" },
        docs.map((d) => timeEntry(d.created_at as Date, d.memory_id as string)),
      ),
    );
  }
  const agent = Array.from({ length: items }, (_, n) => agentMemory(tenant, n));
  const ids = agent.map((m) => m._id as string);
  lists.push(...listDocs({ collection: AGENT_COLLECTIONS.memories, tenantId: tenant, scope: "*", list: "memories" }, ids));
  lists.push(...listDocs({ collection: AGENT_COLLECTIONS.memories, tenantId: tenant, scope: "repo:app", list: "owned" }, ids));
  lists.push(...listDocs({ collection: AGENT_COLLECTIONS.memories, tenantId: tenant, scope: "loader", list: "owned" }, ids));
  const locators = agent.map((m) => ({ _id: `${encodeURIComponent(tenant)}:${encodeURIComponent(m.memory_id as string)}`, doc_id: m._id }));
  await insertAll(db, GOVERNED_COLLECTIONS.memories, memories);
  await insertAll(db, AGENT_COLLECTIONS.memories, agent);
  await insertAll(db, AGENT_LOCATORS, locators);
  await insertAll(db, ID_LISTS, lists);
}

// ---------------------------------------------------------------- measuring

interface Timing {
  p50: number;
  p99: number;
}

function percentiles(samples: number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

/**
 * Times `run` on each target in turn, sample by sample (the order flipped every sample), so
 * every target is measured under the same machine load: this machine's speed varies by 2-3x
 * over minutes, and a table of one database timed after the other compared two moments.
 */
async function timedSideBySide(targets: number, n: number, run: (target: number, i: number) => Promise<void>): Promise<Timing[]> {
  for (let t = 0; t < targets; t++) await run(t, -1); // warm: the first read of a tenant builds its caches
  const samples: number[][] = Array.from({ length: targets }, () => []);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < targets; k++) {
      const t = i % 2 === 0 ? k : targets - 1 - k;
      const from = performance.now();
      await run(t, i);
      samples[t].push(performance.now() - from);
    }
  }
  return samples.map(percentiles);
}

async function gql(url: string, token: string, query: string, variables: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: Record<string, any>; errors?: unknown };
  if (!body.data) throw new Error(`graphql: ${JSON.stringify(body.errors)}`);
  return body.data;
}

async function agentRead(url: string, token: string, query: string): Promise<void> {
  const res = await fetch(`${url}/v1/memory`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      op: "read",
      repo_id: "app",
      mode: "targeted",
      query,
      expand: { semantic_hops: 1, include_problem_links: true, include_update_links: true },
    }),
  });
  if (res.status !== 200) throw new Error(`agent read: ${res.status} ${await res.text()}`);
}

function config(uri: string, dbName: string) {
  return loadConfig({
    ...process.env,
    MONGODB_URI: uri,
    MEMGATE_DB_NAME: dbName,
    // One data directory for every gateway of the run: one log signing key, as a deployment's gateways share it.
    MEMGATE_DATA_DIR: DATA_DIR,
    JWT_PUBLIC_KEY: PUBLIC_KEY_PEM,
    JWT_ISSUER: "memgate-bench",
    JWT_AUDIENCE: "memgate",
    PORT: "0",
    LOG_LEVEL: "silent",
    MEMGATE_SECONDARY_INDEXES: "false",
    MEMGATE_RATE_LIMIT_PER_S: "0",
  });
}

interface Target {
  url: string;
  tenant: string;
}

/** Every measured operation on each target (a gateway and a tenant), side by side: per operation, one Timing per target. */
async function operations(targets: Target[], n: number): Promise<Record<string, Timing[]>> {
  const callers: { url: string; agent: string; adapter: string; person: string; ids: string[] }[] = [];
  for (const { url, tenant } of targets) {
    const agent = await signToken({ tenant, subjects: ["s1", "repo:app"], roles: ["agent"] });
    const adapter = await signToken({ tenant, subjects: ["s1"], roles: ["adapter"] });
    const person = await signToken({ tenant, sub: "s1", subjects: ["s1"], roles: ["user"] });
    // A few companion facts and ledger items of the measured subject, through the API.
    for (let i = 0; i < 5; i++) {
      await gql(url, adapter, COMPANION.ADD, { input: fact({ subjectId: "s1", text: i === 0 ? "User loves fettuccini" : "User works on FL Studio" }) });
      const proposed = await gql(url, agent, LEDGER.PROPOSE, { input: proposal({ subjectId: "s1", proposedText: `I want to learn skill ${i}` }) });
      if (!proposed.proposeMemory.proposalId) throw new Error(`ledger proposal: ${JSON.stringify(proposed.proposeMemory)}`);
      await gql(url, person, LEDGER.APPROVE, { id: proposed.proposeMemory.proposalId, text: `I want to learn skill ${i}` });
    }
    const list = await gql(url, agent, GOVERNED.LIST, { subject: "s1" });
    const ids = (list.memories.memories as { memoryId: string }[]).map((m) => m.memoryId);
    callers.push({ url, agent, adapter, person, ids });
  }
  const on = (run: (c: (typeof callers)[number], i: number) => Promise<unknown>) =>
    timedSideBySide(callers.length, n, async (t, i) => void (await run(callers[t], i)));
  return {
    "governed READ": await on((c, i) => gql(c.url, c.agent, GOVERNED.READ, { id: c.ids[Math.abs(i) % c.ids.length], subject: "s1" })),
    "governed LIST": await on((c) => gql(c.url, c.agent, GOVERNED.LIST, { subject: "s1" })),
    "governed STORE": await on((c, i) =>
      gql(c.url, c.agent, GOVERNED.STORE, { input: preference({ subjectId: "s1", key: `bench${i + 1}`, value: `bench value ${i}` }) }),
    ),
    "agent read (1 hop)": await on((c, i) => agentRead(c.url, c.agent, `which library does module ${Math.abs(i) % 97} use for caching`)),
    "companion envelope": await on((c) => gql(c.url, c.adapter, COMPANION.ENVELOPE, { subject: "s1", skip: true })),
    "ledger list": await on((c) => gql(c.url, c.person, LEDGER.LEDGER, { subject: "s1" })),
  };
}

const fmt = (t: Timing): string => `${t.p50.toFixed(1)} / ${t.p99.toFixed(1)}`;

async function benchBackend(label: string, postgresqlUrl: string | undefined): Promise<void> {
  const started = performance.now();
  const ferret = await EmbeddedFerretDb.start({
    binary: loadConfig().ferretdbBinary,
    dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-bench-scale-db-")),
    postgresqlUrl,
  });
  const client = await MongoClient.connect(ferret.uri);
  const scale = client.db("scale");
  const alone = client.db("alone");
  const small = "t0";
  const large = "large";

  // Load: N small tenants, the large one (with the subject to erase), and the small tenant alone in its own database.
  const loadFrom = performance.now();
  for (let t = 0; t < TENANTS; t++) await loadTenant(scale, `t${t}`, ITEMS);
  await loadTenant(scale, large, LARGE, ERASE);
  await loadTenant(alone, small, ITEMS);
  const loadS = (performance.now() - loadFrom) / 1000;

  // The log: EVENTS events over the tenants, appended through a gateway's log (hash-chained and signed as in production).
  const gateway = await Gateway.start({ config: config(ferret.uri, "scale") });
  const eventsFrom = performance.now();
  const log = gateway.services.events;
  const per = Math.max(1, Math.floor(EVENTS / (TENANTS + 1)));
  for (const tenant of [large, ...Array.from({ length: TENANTS }, (_, t) => `t${t}`)]) {
    for (let i = 0; i < per; i += 200) {
      await Promise.all(
        Array.from({ length: Math.min(200, per - i) }, (_, k) =>
          log.append({
            tenant_id: tenant,
            subject_id: "s1",
            event_type: "create",
            operation: "STORE",
            contract: "governed",
            memory_id: `mem_${tenant}_s1_${i + k}`,
            actor: { id: "loader", kind: "system" } as never,
            stop_reason: "SUCCESS_STORED",
            decision_id: null,
            policy_hash: null,
            contract_version: null,
            request_id: null,
            content_digest: null,
            reason: null,
            metadata: { loaded: true },
          }),
        ),
      );
    }
  }
  const eventsS = (performance.now() - eventsFrom) / 1000;
  await gateway.stop();

  // Start-to-ready on the loaded database, then the measured gateway: a process of its own, so
  // its RSS is the gateway's, not the loader's.
  const measured = await GatewayProcess.start(ferret.uri, "scale");
  const url = measured.url;
  const rejudgeS = measured.rejudgeS;
  const progress = await scale.collection<{ targets: Record<string, { scanned: number }> }>("reaudit_progress").find({}).toArray();
  const rejudged = progress.reduce((sum, p) => sum + Object.values(p.targets ?? {}).reduce((s, t) => s + (t.scanned ?? 0), 0), 0);

  // The small tenant beside the same tenant on a database holding it alone, sample by sample.
  const aloneGateway = await GatewayProcess.start(ferret.uri, "alone");
  const side = await operations(
    [
      { url: aloneGateway.url, tenant: small },
      { url, tenant: small },
    ],
    SAMPLES,
  );
  await aloneGateway.stop();
  const largeOps = await operations([{ url, tenant: large }], Math.max(20, Math.floor(SAMPLES / 2)));
  const rss = await measured.rss();

  const auditor = await signToken({ tenant: large, subjects: [], roles: ["auditor"] });
  const verifyFrom = performance.now();
  const verified = await gql(url, auditor, `query { verifyAuditChain { stopReason ok } }`, {});
  const verifyS = (performance.now() - verifyFrom) / 1000;

  const eraser = await signToken({ tenant: large, sub: "s0", subjects: ["s0"], roles: ["user"] });
  const eraseFrom = performance.now();
  // A failure (the client gives up after 300 s without an answer) is printed in its row, not lost with the table.
  const erased = await gql(url, eraser, `mutation { eraseSubject(reason: "bench erasure", subjectId: "s0") { stopReason erasedMemoryIds } }`, {}).catch(
    (error: unknown) => ({ eraseSubject: { stopReason: `failed: ${String((error as Error).cause ?? error)}`, erasedMemoryIds: [] as string[] } }),
  );
  const eraseS = (performance.now() - eraseFrom) / 1000;
  await measured.stop();

  console.log(
    `\n## ${label}: ${TENANTS} tenants x ${ITEMS} governed items + ${ITEMS} agent memories, one tenant of ${LARGE} + ${LARGE}, ${per * (TENANTS + 1)} events`,
  );
  console.log(
    `loaded documents in ${loadS.toFixed(1)} s, events in ${eventsS.toFixed(1)} s; whole run ${((performance.now() - started) / 1000).toFixed(0)} s\n`,
  );
  console.log("| operation (p50 / p99 ms) | small tenant alone | small tenant, loaded | ratio p99 | large tenant |");
  console.log("|---|---|---|---|---|");
  for (const [op, [a, s]] of Object.entries(side)) console.log(`| ${op} | ${fmt(a)} | ${fmt(s)} | ${(s.p99 / a.p99).toFixed(2)} | ${fmt(largeOps[op][0])} |`);
  console.log(`\n| measure | value |\n|---|---|`);
  console.log(`| gateway process RSS after the reads (after a GC) | ${(rss / 1024 / 1024).toFixed(0)} MB |`);
  console.log(`| start to ready (a new process: Node, modules, the bundle, the database's indexes) | ${measured.readyS.toFixed(2)} s |`);
  console.log(
    `| re-judging (the start-up re-audit walk, stopped after at most ${REJUDGE_S} s) | ${rejudged} objects in ${rejudgeS.toFixed(1)} s: ${(rejudged / Math.max(rejudgeS, 0.001)).toFixed(0)} objects/s |`,
  );
  console.log(`| full verify of the large tenant's chain (${per} events) | ${verifyS.toFixed(2)} s (${verified.verifyAuditChain.stopReason}) |`);
  console.log(
    `| erasure of a subject with ${ERASE} governed items | ${eraseS.toFixed(1)} s (${erased.eraseSubject.stopReason}, ${erased.eraseSubject.erasedMemoryIds?.length ?? 0} ids) |`,
  );
  await client.close();
  await ferret.stop();
}

/** What a measured gateway process says (process.send). */
type GatewayMessage = { ready: { url: string; readyS: number } } | { rejudged: { seconds: number } } | { rss: number };

/**
 * A gateway in a child process (this script with `--gateway <uri> <db>`), timed from its start:
 * it reports when it serves, then runs its start-up re-judging walk for at most BENCH_REJUDGE_S
 * seconds and stops it (so no walk runs under the timed reads), and answers its RSS after a GC.
 */
class GatewayProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly readyS: number,
    readonly rejudgeS: number,
  ) {}

  static async start(uri: string, dbName: string): Promise<GatewayProcess> {
    const child = fork(__filename, ["--gateway", uri, dbName], {
      execArgv: ["--expose-gc"],
      env: { ...process.env, BENCH_SCALE_JWT_PUBLIC_KEY: PUBLIC_KEY_PEM, BENCH_SCALE_DATA_DIR: DATA_DIR },
    });
    const ready = await GatewayProcess.next(child, "ready");
    const rejudged = await GatewayProcess.next(child, "rejudged");
    return new GatewayProcess(child, ready.url, ready.readyS, rejudged.seconds);
  }

  private static next<K extends "ready" | "rejudged" | "rss">(child: ChildProcess, key: K): Promise<Extract<GatewayMessage, Record<K, unknown>>[K]> {
    return new Promise((resolve, reject) => {
      const onMessage = (message: GatewayMessage) => {
        if (!(key in message)) return;
        child.off("message", onMessage);
        child.off("exit", onExit);
        resolve((message as unknown as Record<K, never>)[key]);
      };
      const onExit = (code: number | null) => reject(new Error(`gateway process exited (${code}) before "${key}"`));
      child.on("message", onMessage);
      child.once("exit", onExit);
    });
  }

  async rss(): Promise<number> {
    const answer = GatewayProcess.next(this.child, "rss");
    this.child.send("rss");
    return answer;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.send("stop");
    await exited;
  }
}

async function serveGateway(uri: string, dbName: string): Promise<void> {
  const gateway = await Gateway.start({ config: config(uri, dbName) });
  process.send!({ ready: { url: gateway.url, readyS: performance.now() / 1000 } });
  const from = performance.now();
  await Promise.race([gateway.services.reaudit?.idle(), new Promise((resolve) => setTimeout(resolve, REJUDGE_S * 1000).unref())]);
  await gateway.services.reaudit?.stop();
  process.send!({ rejudged: { seconds: (performance.now() - from) / 1000 } });
  process.on("message", (message) => {
    if (message === "rss") {
      gc?.();
      process.send!({ rss: process.memoryUsage().rss });
    } else if (message === "stop") {
      gateway.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
}

async function main(): Promise<void> {
  if (process.argv[2] === "--gateway") return serveGateway(process.argv[3], process.argv[4]);
  const backends = (process.env.BENCH_BACKENDS ?? "sqlite,postgresql").split(",");
  if (backends.includes("sqlite")) await benchBackend("FerretDB 1.24 / SQLite", undefined);
  if (backends.includes("postgresql") && process.env.MEMGATE_FERRETDB_POSTGRESQL_URL)
    await benchBackend("FerretDB 1.24 / PostgreSQL", process.env.MEMGATE_FERRETDB_POSTGRESQL_URL);
}

main().then(
  () => {
    if (process.argv[2] !== "--gateway") process.exit(0);
  },
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
