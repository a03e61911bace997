/**
 * npm run load [-- --seconds 60 --reads 1000 --writes 100 --users 120 --tenants 4 --inflight 64]
 * Starts a real gateway on loopback in its own process (embedded FerretDB, or MONGODB_URI),
 * drives it from this process with simulated users of several tenants, and prints achieved
 * rates, p50/p99, the isolation result and whether /metrics counted what was sent.
 */
import { fork } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { SignJWT } from "jose";
import { loadConfig } from "../src/config";
import { Gateway } from "../src/gateway";
import { formatLoad, runLoad, type LoadUser } from "./companion-load-core";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** The child: a gateway that prints its URL and stops on SIGTERM. */
async function serve(): Promise<void> {
  const config = loadConfig({
    ...process.env,
    MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-load-")),
    MEMGATE_DB_NAME: `load_${Date.now()}`,
    JWT_ISSUER: "memgate-load",
    PORT: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
    MEMGATE_ENVELOPE_CACHE_SECONDS: process.env.MEMGATE_ENVELOPE_CACHE_SECONDS ?? "20",
  });
  const gateway = await Gateway.start({ config });
  // Stopped by a message, not a signal: Apollo Server's own SIGTERM handler would exit the
  // process before the embedded FerretDB is stopped.
  process.once("message", () => {
    gateway.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(`load: the gateway did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  });
  console.log(JSON.stringify({ url: gateway.url }));
}

async function drive(): Promise<void> {
  const seconds = Math.min(60, arg("seconds", 60));
  const userCount = arg("users", 120);
  const tenants = arg("tenants", 4);
  const pair = generateKeyPairSync("ed25519");
  const child = fork(__filename, ["--serve"], {
    env: { ...process.env, JWT_PUBLIC_KEY: pair.publicKey.export({ type: "spki", format: "pem" }).toString() },
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", (line) => resolve((JSON.parse(line) as { url: string }).url));
      child.once("exit", (code) => reject(new Error(`gateway exited with ${code}`)));
    });
    const users: LoadUser[] = [];
    for (let i = 0; i < userCount; i++) {
      const tenant = `t${i % tenants}`;
      const subject = `u${i}`;
      const token = await new SignJWT({ tenant, subjects: [subject], roles: ["adapter"] })
        .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
        .setSubject(`adapter-${i}`)
        .setIssuer("memgate-load")
        .setAudience("memgate")
        .setIssuedAt()
        .setExpirationTime("1h")
        .sign(pair.privateKey);
      users.push({ tenant, subject, token });
    }
    const report = await runLoad({
      url,
      users,
      durationMs: seconds * 1000,
      readsPerSec: arg("reads", 1000),
      writesPerSec: arg("writes", 100),
      maxInFlight: arg("inflight", 64),
    });
    console.log(formatLoad(report, userCount, tenants));
    if (report.leaks > 0 || !report.countersMatch) process.exitCode = 1;
  } finally {
    if (child.connected) child.send("stop");
    else child.kill("SIGKILL");
    await exited;
  }
}

(process.argv.includes("--serve") ? serve() : drive()).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
