import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { loadConfig } from "../../src/config";
import { Gateway } from "../../src/gateway";
import { POLICY_BUNDLE } from "../support/gateway";
import { alive } from "../support/processes";

const run = promisify(execFile);
const root = path.resolve(__dirname, "..", "..");

describe("the embedded default (npm start without MONGODB_URI)", () => {
  it("starts FerretDB itself, publishes its URI, accepts a token from `npm run token`, and stops FerretDB on stop", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-embedded-"));
    const config = loadConfig({ MEMGATE_DATA_DIR: dataDir, MEMGATE_POLICY_BUNDLE: POLICY_BUNDLE, PORT: "0", LOG_LEVEL: "silent" });
    const gateway = await Gateway.start({ config });
    const ferretPid = (gateway as unknown as { embedded: { pid: number } }).embedded.pid;
    try {
      expect(readFileSync(path.join(dataDir, "mongodb-uri"), "utf8").trim()).toBe(gateway.databaseUri);
      expect(gateway.databaseUri).toMatch(/^mongodb:\/\/127\.0\.0\.1:\d+\/$/);
      expect(existsSync(path.join(dataDir, "ferretdb", "memgate.sqlite"))).toBe(true);
      expect(alive(ferretPid)).toBe(true);

      // The token CLI signs with the development key the gateway created under the data folder.
      const { stdout } = await run(
        process.execPath,
        [
          path.join(root, "node_modules", "tsx", "dist", "cli.mjs"),
          path.join(root, "scripts", "token.ts"),
          "--tenant",
          "acme",
          "--subject",
          "alice",
          "--role",
          "agent",
        ],
        { env: { ...process.env, MEMGATE_DATA_DIR: dataDir } },
      );
      const response = await fetch(`${gateway.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${stdout.trim()}` },
        body: JSON.stringify({
          query: `mutation { storeMemory(input: {category: "PREFERENCE", key: "tone", value: "concise", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", consent: {explicit: true}}) { stopReason } }`,
        }),
      });
      expect(await response.json()).toEqual({ data: { storeMemory: { stopReason: "SUCCESS_STORED" } } });
    } finally {
      await gateway.stop();
    }
    expect(alive(ferretPid)).toBe(false);
  });

  it("refuses to boot with MONGODB_URI but no JWT key: the development key is for the embedded database only", () => {
    expect(() => loadConfig({ MONGODB_URI: "mongodb://db:27017/" })).toThrow("JWT_PUBLIC_KEY or JWT_JWKS_URL must be set");
  });

  it("rejects malformed configuration at boot with a typed error", () => {
    expect(() => loadConfig({ PORT: "eighty" })).toThrow(expect.objectContaining({ code: "CONFIG_INVALID" }));
    expect(() => loadConfig({ LOG_LEVEL: "loud" })).toThrow("LOG_LEVEL must be one of");
    expect(() => loadConfig({ JWT_ALGORITHMS: "none" })).toThrow("JWT_ALGORITHMS may list only");
  });
});

describe("stopping the process (npm start)", () => {
  it("SIGTERM drains the gateway and stops the embedded FerretDB before the process exits", async () => {
    const { spawn } = await import("node:child_process");
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-sigterm-"));
    const child = spawn(
      process.execPath,
      // The real entrypoint, compiled (`npm test` builds dist/ before jest starts).
      [path.join(root, "dist", "src", "main.js")],
      {
        env: { ...process.env, MEMGATE_DATA_DIR: dataDir, MEMGATE_POLICY_BUNDLE: POLICY_BUNDLE, PORT: "0", LOG_LEVEL: "info" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    const listening = new Promise<void>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("memgate is listening")) resolve();
      });
      child.once("exit", (code) => reject(new Error(`exited early (${code}): ${out}`)));
    });
    await listening;
    const ferretPid = (JSON.parse(out.split("\n").find((line) => line.includes("embedded FerretDB started"))!) as { pid: number }).pid;
    expect(alive(ferretPid)).toBe(true);
    let err = "";
    child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
    const exited = new Promise<number | string | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
    child.kill("SIGTERM");
    expect({ exit: await exited, out: out.split("\n").slice(-4), err: err.slice(-800) }).toMatchObject({ exit: 0 });
    expect(alive(ferretPid)).toBe(false);
  });
});
