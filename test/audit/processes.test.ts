import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { MongoClient, type Db } from "mongodb";
import type { MemoryEvent } from "../../src/store/event-log";
import { POLICY_BUNDLE } from "../support/gateway";
import { signToken, TEST_AUDIENCE, TEST_ISSUER, TEST_PUBLIC_KEY_PEM } from "../support/tokens";
import { eventsOf, preference, STORE, VERIFY } from "./support";

const ROOT = path.resolve(__dirname, "..", "..");
const CHECKPOINT_KEY = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

interface Proc {
  child: ChildProcess;
  url: string;
}

/** Every child this file started, so none outlives the file even when a start fails half-way. */
const spawned: ChildProcess[] = [];
afterAll(() => {
  for (const child of spawned) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

/** A real gateway process: node dist/src/main.js against the test FerretDB. */
function startProcess(dbName: string, extraEnv: Record<string, string> = {}): Promise<Proc> {
  const child = spawn(process.execPath, [path.join(ROOT, "dist", "src", "main.js")], {
    env: {
      PATH: process.env.PATH,
      MONGODB_URI: process.env.MEMGATE_TEST_MONGODB_URI,
      MEMGATE_DB_NAME: dbName,
      MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-proc-")),
      MEMGATE_POLICY_BUNDLE: POLICY_BUNDLE,
      MEMGATE_CHECKPOINT_PRIVATE_KEY: CHECKPOINT_KEY,
      MEMGATE_CHECKPOINT_EVERY: "25",
      JWT_PUBLIC_KEY: TEST_PUBLIC_KEY_PEM,
      JWT_ISSUER: TEST_ISSUER,
      JWT_AUDIENCE: TEST_AUDIENCE,
      PORT: "0",
      LOG_LEVEL: "info",
      ...extraEnv,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  spawned.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error(`gateway process did not start: ${out}`)), 30_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const match = /"url":"(http:\/\/[^"]+)\/graphql"/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway process exited (${code}): ${out}`));
    });
  });
}

async function stopProcess(proc: Proc, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = new Promise((resolve) => proc.child.once("exit", resolve));
  proc.child.kill(signal);
  await exited;
}

async function gql(url: string, token: string, query: string, variables: Record<string, unknown> = {}) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data: Record<string, any> };
}

/** Every event has its item and every item its event; seqs are 1..n without a gap. Due marks
 * are removed off the request path: `marks` checks none is left beside an item once their process has drained (SIGTERM) or repaired. */
async function assertConsistent(db: Db, tenant: string, marks = true): Promise<{ events: MemoryEvent[]; items: number }> {
  const events = await eventsOf(db, tenant);
  expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
  const items = await db.collection("memories").find({ tenant_id: tenant }).toArray();
  const itemIds = new Set(items.map((i) => i.memory_id));
  const created = events.filter((e) => e.event_type === "create");
  for (const e of created) expect([e.memory_id, itemIds.has(e.memory_id!)]).toEqual([e.memory_id, true]);
  const createdIds = new Set(created.map((e) => e.memory_id));
  for (const item of items) {
    expect([item.memory_id, createdIds.has(item.memory_id)]).toEqual([item.memory_id, true]);
  }
  // A due mark may outlive only a write that never landed (a process killed between mark and item;
  // dropped once stale): none may be left beside an item.
  if (marks) {
    const left = await db.collection("memory_due_events").find({ tenant_id: tenant }).toArray();
    for (const mark of left) expect([mark.object_id, itemIds.has(mark.object_id)]).toEqual([mark.object_id, false]);
  }
  return { events, items: items.length };
}

describe("several gateway processes, one chain, and crashes", () => {
  let client: MongoClient;
  const procs: Proc[] = [];

  beforeAll(async () => {
    // dist/ is built by `npm test` before jest starts.
    client = new MongoClient(process.env.MEMGATE_TEST_MONGODB_URI!);
    await client.connect();
  }, 120_000);
  afterAll(async () => {
    for (const p of procs) await stopProcess(p, "SIGKILL");
    await client.close();
  });

  it("MP-LOG SG-AUDIT: two gateway processes writing one tenant at once produce one gap-free chain that verifies", async () => {
    const dbName = `mp_${randomBytes(4).toString("hex")}`;
    const [a, b] = await Promise.all([startProcess(dbName), startProcess(dbName)]);
    procs.push(a, b);
    const agent = await signToken({ tenant: "mp", subjects: ["alice"], roles: ["agent"] });
    const auditor = await signToken({ tenant: "mp", subjects: [], roles: ["auditor"] });
    const writer = async (url: string, n: number, tag: string) => {
      for (let i = 0; i < n; i++) {
        const input = i % 7 === 3 ? preference({ category: "NOPE" }) : preference({ key: `${tag}-${i}`, value: `value ${tag} ${i}` });
        await gql(url, agent, STORE, { input });
      }
    };
    await Promise.all([writer(a.url, 15, "a1"), writer(b.url, 15, "b1"), writer(a.url, 15, "a2"), writer(b.url, 15, "b2")]);
    const db = client.db(dbName);
    const { events, items } = await assertConsistent(db, "mp", false);
    expect(events).toHaveLength(60);
    expect(items).toBe(60 - 4 * 2); // i = 3 and 10 were refused in each writer
    for (const url of [a.url, b.url]) {
      // a full pass (fromSeq 1); the checkpoints at 25 and 50 are signed off the request path, so they may still be on their way
      expect((await gql(url, auditor, VERIFY, { from: 1 })).data.verifyAuditChain).toMatchObject({ ok: true, eventsChecked: 60 });
    }
    await Promise.all([stopProcess(a), stopProcess(b)]);
    // A drained stop leaves every settle mark written.
    await assertConsistent(db, "mp");

    // The same from the command line (npm run audit:verify / audit:export), then the standalone verifier.
    const cliEnv = {
      ...process.env,
      MONGODB_URI: process.env.MEMGATE_TEST_MONGODB_URI,
      MEMGATE_DB_NAME: dbName,
      MEMGATE_CHECKPOINT_PRIVATE_KEY: CHECKPOINT_KEY,
    };
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [path.join(ROOT, "dist", "scripts", "audit-cli.js"), ...args], { env: cliEnv, encoding: "utf8" });
    const verified = cli("verify", "--tenant", "mp", "--full");
    expect(verified.status).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ tenantId: "mp", ok: true, eventsChecked: 60, checkpointsChecked: 2 });
    const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-cli-"));
    const exported = cli(
      "export",
      "--tenant",
      "mp",
      "--out",
      path.join(dir, "mp.ndjson"),
      "--checkpoints",
      path.join(dir, "cps.json"),
      "--public-key",
      path.join(dir, "key.pem"),
    );
    expect(exported.status).toBe(0);
    const standalone = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "scripts", "verify-ndjson.mjs"),
        path.join(dir, "mp.ndjson"),
        "--checkpoint",
        path.join(dir, "cps.json"),
        "--public-key",
        path.join(dir, "key.pem"),
      ],
      { encoding: "utf8" },
    );
    expect(standalone.stdout).toBe("OK tenant=mp events=60 seq=1..60 anchor=genesis checkpoints=2 keys=pinned\n");
    await db.collection("memory_events").updateOne({ tenant_id: "mp", seq: 37 }, { $set: { stop_reason: "SUCCESS_READ" } });
    const broken = cli("verify", "--tenant", "mp", "--full");
    expect(broken.status).toBe(1);
    expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, firstBrokenSeq: 37, reason: "hash_mismatch" });
  });

  it("MP-LOG C19-FAIL INV-8: a gateway killed with SIGKILL during a write load leaves, after restart and repair, every event with its item and every item with its event", async () => {
    const dbName = `crash_${randomBytes(4).toString("hex")}`;
    const victim = await startProcess(dbName);
    procs.push(victim);
    const agent = await signToken({ tenant: "crash", subjects: ["alice"], roles: ["agent"] });
    let stop = false;
    let acknowledged = 0;
    const writer = async (tag: string) => {
      for (let i = 0; !stop; i++) {
        try {
          const res = await gql(victim.url, agent, STORE, { input: preference({ key: `${tag}-${i}` }) });
          if (res.data?.storeMemory?.stopReason === "SUCCESS_STORED") acknowledged++;
        } catch {
          return; // the process is gone
        }
      }
    };
    const load = Promise.all(["w1", "w2", "w3", "w4", "w5", "w6"].map(writer));
    while (acknowledged < 25) await new Promise((r) => setTimeout(r, 20)); // real I/O progress, not a clock wait
    await stopProcess(victim, "SIGKILL");
    stop = true;
    await load;

    const db = client.db(dbName);
    // A crash between item and event, made certain: an item written, its event never.
    const template = (await db.collection("memories").findOne({ tenant_id: "crash" }))!;
    await db.collection("memories").insertOne({ ...template, _id: `crash:alice:mem_orphan` as never, memory_id: "mem_orphan" });
    await db.collection<{ _id: string; [key: string]: unknown }>("memory_due_events").insertOne({
      _id: "crash:alice:mem_orphan|v1",
      tenant_id: "crash",
      subject_id: "alice",
      object_id: "mem_orphan",
      kind: "write",
      version: 1,
      written_at: new Date(),
    });

    const restarted = await startProcess(dbName, { MEMGATE_REPAIR_MIN_AGE_MS: "0" });
    procs.push(restarted);
    const { events, items } = await assertConsistent(db, "crash");
    expect(items).toBeGreaterThanOrEqual(acknowledged);
    const repaired = events.filter((e) => e.metadata.repaired === true);
    expect(repaired.map((e) => e.memory_id)).toContain("mem_orphan");
    expect(repaired.every((e) => e.actor.kind === "system" && e.reason!.startsWith("repair:"))).toBe(true);
    const auditor = await signToken({ tenant: "crash", subjects: [], roles: ["auditor"] });
    expect((await gql(restarted.url, auditor, VERIFY)).data.verifyAuditChain).toMatchObject({ ok: true });
    // and it still takes writes
    expect((await gql(restarted.url, agent, STORE, { input: preference({ key: "after-crash" }) })).data.storeMemory.stopReason).toBe("SUCCESS_STORED");
    await stopProcess(restarted);
  });
});
