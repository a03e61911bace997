/**
 * npm run load [-- --seconds 60 --reads 1000 --writes 100 --users 120 --tenants 4]
 * Starts a real gateway on loopback (embedded FerretDB, or MONGODB_URI), drives it with
 * simulated users of several tenants, prints achieved rates, p50/p99 and the isolation result.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SignJWT } from "jose";
import { loadConfig } from "../src/config";
import { Gateway } from "../src/gateway";
import { formatLoad, runLoad, type LoadUser } from "./companion-load-core";

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

async function main(): Promise<void> {
  const seconds = Math.min(60, arg("seconds", 60));
  const userCount = arg("users", 120);
  const tenants = arg("tenants", 4);
  const pair = generateKeyPairSync("ed25519");
  const config = loadConfig({
    ...process.env,
    MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-load-")),
    MEMGATE_DB_NAME: `load_${Date.now()}`,
    JWT_PUBLIC_KEY: pair.publicKey.export({ type: "spki", format: "pem" }).toString(),
    JWT_ISSUER: "memgate-load",
    PORT: "0",
    LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
    MEMGATE_ENVELOPE_CACHE_SECONDS: process.env.MEMGATE_ENVELOPE_CACHE_SECONDS ?? "20",
  });
  const gateway = await Gateway.start({ config });
  try {
    const users: LoadUser[] = [];
    for (let i = 0; i < userCount; i++) {
      const tenant = `t${i % tenants}`;
      const subject = `u${i}`;
      const token = await new SignJWT({ tenant, subjects: [subject], roles: ["adapter"] })
        .setProtectedHeader({ alg: "EdDSA" }).setSubject(`adapter-${i}`).setIssuer("memgate-load").setAudience("memgate").setIssuedAt().setExpirationTime("1h")
        .sign(pair.privateKey);
      users.push({ tenant, subject, token });
    }
    const report = await runLoad({ url: gateway.url, users, durationMs: seconds * 1000, readsPerSec: arg("reads", 1000), writesPerSec: arg("writes", 100) });
    console.log(formatLoad(report, userCount, tenants));
    if (report.leaks > 0 || !report.countersMatch) process.exitCode = 1;
  } finally {
    await gateway.stop();
  }
}

void main();
