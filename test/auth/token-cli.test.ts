import { execFile } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import express from "express";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { ensureDevKeyPair } from "../../src/auth/dev-keys";
import { developmentJwk, developmentJwksRouter } from "../../src/http/development-jwks";

const ROOT = path.resolve(__dirname, "..", "..");

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run token` as a user runs it (scripts/token.mjs; the suite has compiled dist/ already). */
function token(args: string[], dataDir: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["scripts/token.mjs", ...args],
      { cwd: ROOT, env: { ...process.env, MEMGATE_DATA_DIR: dataDir, PORT: "1" } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}

/** A stand-in for a running gateway on development keys: it publishes the given key as /.well-known/jwks.json. */
async function gatewayPublishing(publicKeyPem: string): Promise<{ url: string; close(): void }> {
  const app = express();
  app.use(developmentJwksRouter(await developmentJwk(publicKeyPem)));
  const server = app.listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

describe("npm run token (development tokens)", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-token-"));

  it("--help prints the options and exits 0", async () => {
    const run = await token(["--help"], dataDir);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/--tenant T/);
    expect(run.stdout).toMatch(/--ttl DURATION/);
  });

  it("an unknown option or a missing role is a usage error (exit 2) with the usage", async () => {
    for (const args of [["--bogus"], ["--tenant", "acme"]]) {
      const run = await token(args, dataDir);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/usage: npm run -s token/);
    }
  });

  it("refuses a --ttl longer than the gateway's maximum lifetime, saying why", async () => {
    const run = await token(["--tenant", "acme", "--subject", "alice", "--role", "agent", "--ttl", "48h"], dataDir);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/--ttl 48h is longer than the gateway accepts \(86400 s/);
  });

  it("signs with the data folder's key, names it by thumbprint, and keeps the asked lifetime", async () => {
    const run = await token(["--tenant", "acme", "--subject", "alice", "--role", "agent", "--ttl", "30m"], dataDir);
    expect(run.code).toBe(0);
    const jwt = run.stdout.trim();
    const claims = decodeJwt(jwt);
    expect(claims).toMatchObject({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    expect(claims.exp! - claims.iat!).toBe(1800);
    const keys = await ensureDevKeyPair(dataDir, "jwt");
    expect(decodeProtectedHeader(jwt).kid).toBe((await developmentJwk(keys.publicKeyPem)).kid);
  });

  it("warns when the running gateway verifies with another folder's key, and not when it is the same", async () => {
    const other = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString();
    const stranger = await gatewayPublishing(other);
    const same = await gatewayPublishing((await ensureDevKeyPair(dataDir, "jwt")).publicKeyPem);
    try {
      const args = ["--tenant", "acme", "--subject", "alice", "--role", "agent"];
      const warned = await token([...args, "--url", stranger.url], dataDir);
      expect(warned.code).toBe(0);
      expect(warned.stderr).toMatch(/warning: the gateway at .* verifies with another development key/);
      const quiet = await token([...args, "--url", same.url], dataDir);
      expect(quiet.code).toBe(0);
      expect(quiet.stderr).toBe("");
    } finally {
      stranger.close();
      same.close();
    }
  });
});
