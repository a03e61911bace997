/**
 * `node dist/scripts/bench-idle.js`: what the gateway and the embedded FerretDB spend with no
 * request at all (issue 26 §5): the background work a gateway does per second, whatever its load
 * (the chain sweep, the checkpointer, the settings poll, the repair), which the bench's
 * per-request CPU includes. Stores BENCH_IDLE_EVENTS governed items (default 1000) through the
 * gateway, waits for its off-path work, then measures both processes' CPU over
 * BENCH_IDLE_SECONDS (default 15). Environment variables (MEMGATE_AUDIT_SWEEP_EVENTS_PER_S, ...)
 * reach the gateway, so one run per setting compares them.
 */
import { fork } from "node:child_process";
import { createPrivateKey, generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { loadConfig } from "../src/config";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";

const EVENTS = Number(process.env.BENCH_IDLE_EVENTS ?? 1000);
const SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 15);
const CONCURRENCY = 20;

function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function main(): Promise<void> {
  const { privateKey, publicKey } = generateKeyPairSync("ed25519");
  const publicKeyPem = publicKey.export({ type: "spki", format: "pem" }).toString();
  const subjects = Array.from({ length: 50 }, (_, i) => `s${i}`);
  const token = await new SignJWT({ tenant: "idle", subjects, roles: ["agent"] })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject("idle-agent")
    .setIssuer("memgate-bench")
    .setAudience("memgate")
    .setIssuedAt()
    .setExpirationTime("2h")
    .sign(createPrivateKey(privateKey.export({ type: "pkcs8", format: "pem" })));
  const ferret = await EmbeddedFerretDb.start({ binary: loadConfig().ferretdbBinary, dataDir: mkdtempSync(path.join(os.tmpdir(), "memgate-idle-")) });
  const child = fork(path.join(__dirname, "bench-server.js"), ["governed", ferret.uri, `idle_${Date.now()}`, publicKeyPem], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      child.once("message", (m: { port: number }) => resolve(m.port));
      child.once("exit", (code) => reject(new Error(`gateway exited with ${code}`)));
    });
    const url = `http://127.0.0.1:${port}/graphql`;
    let next = 0;
    const store = async (): Promise<void> => {
      for (let i = next++; i < EVENTS; i = next++) {
        const response = await fetch(url, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
          body: JSON.stringify({
            query: "mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason } }",
            variables: {
              input: {
                subjectId: subjects[i % subjects.length],
                category: "WORKFLOW_DEFAULT",
                key: `k${i}`,
                value: "npm run build",
                sourceKind: "USER_EXPLICIT",
                ttlClass: "LONG",
                consent: { explicit: true },
              },
            },
          }),
        });
        const text = await response.text();
        if (!text.includes("SUCCESS_STORED")) throw new Error(`store failed: ${text.slice(0, 200)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, store));
    await new Promise<void>((resolve) => {
      child.on("message", (m: { idle?: boolean }) => m.idle && resolve());
      child.send("idle");
    });
    await new Promise((resolve) => setTimeout(resolve, 3000)); // the checkpointer's round after the writes
    const before = { gateway: cpuSeconds(child.pid), db: cpuSeconds(ferret.pid) };
    await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
    const after = { gateway: cpuSeconds(child.pid), db: cpuSeconds(ferret.pid) };
    const perSecond = (a: number, b: number) => (((b - a) * 1000) / SECONDS).toFixed(1);
    process.stdout.write(
      `idle after ${EVENTS} events: gateway ${perSecond(before.gateway, after.gateway)} ms cpu/s, FerretDB ${perSecond(before.db, after.db)} ms cpu/s` +
        ` (MEMGATE_AUDIT_SWEEP_EVENTS_PER_S=${process.env.MEMGATE_AUDIT_SWEEP_EVENTS_PER_S ?? "default"})\n`,
    );
  } finally {
    child.kill("SIGKILL");
    await ferret.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`bench-idle: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
