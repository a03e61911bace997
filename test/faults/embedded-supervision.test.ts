import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { Gateway } from "../../src/gateway";
import { processAlive as alive } from "../../src/store/embedded-ferretdb";
import { POLICY_BUNDLE } from "../support/gateway";
import { TEST_AUDIENCE, TEST_ISSUER, TEST_PUBLIC_KEY_PEM, signToken } from "../support/tokens";

const root = path.resolve(__dirname, "..", "..");

/** Waits for a condition a real process reaches (not for time): checked every 50 ms up to `limitMs`. */
async function until(condition: () => boolean, limitMs = 10_000): Promise<boolean> {
  for (const deadline = Date.now() + limitMs; Date.now() < deadline;) {
    if (condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return condition();
}

function embeddedConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    MEMGATE_DATA_DIR: dataDir,
    MEMGATE_POLICY_BUNDLE: POLICY_BUNDLE,
    JWT_PUBLIC_KEY: TEST_PUBLIC_KEY_PEM,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    PORT: "0",
    LOG_LEVEL: "silent",
    MEMGATE_AUDIT_VERIFY_ON_START: "false",
    ...env,
  });
}

const STORE = `mutation($key: String!) { storeMemory(input: {category: "PREFERENCE", key: $key, value: "concise", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", consent: {explicit: true}}) { stopReason memory { memoryId } } }`;

async function gql(url: string, query: string, variables: Record<string, unknown> = {}) {
  const token = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as { data?: Record<string, any>; errors?: unknown[] };
}

describe("a supervised embedded database (issue 15 §1, INV-8)", () => {
  it("INV-8: FerretDB killed with SIGKILL is restarted on the same port; meanwhile writes answer INTERNAL_INCONSISTENCY, after it everything is back", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-supervise-"));
    // A long first backoff keeps the outage open long enough to ask during it.
    const gateway = await Gateway.start({ config: embeddedConfig(dataDir, { MEMGATE_FERRETDB_RESTART_BACKOFF_MS: "1500" }) });
    const embedded = gateway.embeddedDatabase!;
    try {
      const before = await gql(gateway.url, STORE, { key: "before" });
      expect(before.data?.storeMemory.stopReason).toBe("SUCCESS_STORED");
      const firstPid = embedded.pid!;
      const down = once(embedded, "down");
      process.kill(firstPid, "SIGKILL");
      await down;
      expect(embedded.state).toBe("restarting");
      const during = await gql(gateway.url, STORE, { key: "during" });
      expect(during.data?.storeMemory).toEqual({ stopReason: "INTERNAL_INCONSISTENCY", memory: null });
      expect((await fetch(`${gateway.url}/readyz`)).status).toBe(503);
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);

      await once(embedded, "up");
      expect(embedded.pid).not.toBe(firstPid);
      expect(gateway.databaseUri).toBe(readFileSync(path.join(dataDir, "mongodb-uri"), "utf8").trim());
      const after = await gql(gateway.url, STORE, { key: "after" });
      expect(after.data?.storeMemory.stopReason).toBe("SUCCESS_STORED");
      const read = await gql(gateway.url, `query($id: ID!) { memory(memoryId: $id) { stopReason } }`, { id: before.data?.storeMemory.memory.memoryId });
      expect(read.data?.memory.stopReason).toBe("SUCCESS_READ");
      expect((await fetch(`${gateway.url}/readyz`)).status).toBe(200);
    } finally {
      await gateway.stop();
    }
  });

  it("/healthz answers 503 once the supervisor gives up (the port stays taken), so a liveness probe restarts the process", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-giveup-"));
    const gateway = await Gateway.start({
      config: embeddedConfig(dataDir, { MEMGATE_FERRETDB_RESTART_BACKOFF_MS: "20", MEMGATE_FERRETDB_RESTART_ATTEMPTS: "2" }),
    });
    const embedded = gateway.embeddedDatabase!;
    const port = Number(new URL(gateway.databaseUri).port);
    const squatter = net.createServer();
    try {
      const down = once(embedded, "down");
      process.kill(embedded.pid!, "SIGKILL");
      await down;
      await new Promise<void>((resolve) => squatter.listen(port, "127.0.0.1", resolve));
      await once(embedded, "failed");
      const health = await fetch(`${gateway.url}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toMatchObject({ status: "failed" });
    } finally {
      squatter.close();
      await gateway.stop();
    }
  });

  it("refuses a second embedded database on files another gateway holds, saying what to do", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-lock-"));
    const first = await Gateway.start({ config: embeddedConfig(dataDir) });
    try {
      await expect(Gateway.start({ config: embeddedConfig(dataDir) })).rejects.toMatchObject({
        code: "EMBEDDED_DATABASE_LOCKED",
        message: expect.stringContaining("MEMGATE_DATA_DIR"),
      });
    } finally {
      await first.stop();
    }
    const again = await Gateway.start({ config: embeddedConfig(dataDir) });
    await again.stop();
  });
});

describe("no orphans (issue 15 §1)", () => {
  function startProcess(dataDir: string): { child: ChildProcess; started: Promise<{ ferretPid: number }>; output: () => string } {
    const child = spawn(process.execPath, [path.join(root, "dist", "src", "main.js")], {
      env: { ...process.env, MEMGATE_DATA_DIR: dataDir, MEMGATE_POLICY_BUNDLE: POLICY_BUNDLE, PORT: "0", LOG_LEVEL: "info" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const started = new Promise<{ ferretPid: number }>((resolve, reject) => {
      child.stdout!.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("memgate is listening")) {
          const line = out.split("\n").find((l) => l.includes("embedded FerretDB started"))!;
          resolve({ ferretPid: (JSON.parse(line) as { pid: number }).pid });
        }
      });
      child.once("exit", (code) => reject(new Error(`exited early (${code}): ${out}`)));
    });
    return { child, started, output: () => out };
  }

  it("a SIGKILLed gateway takes its FerretDB with it; the next gateway on the same files starts; a second one is refused", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-orphan-"));
    const first = startProcess(dataDir);
    const { ferretPid } = await first.started;
    expect(alive(ferretPid)).toBe(true);
    first.child.kill("SIGKILL");
    await once(first.child, "exit");
    expect(await until(() => !alive(ferretPid))).toBe(true);

    const second = startProcess(dataDir);
    const { ferretPid: secondFerret } = await second.started;
    try {
      const third = startProcess(dataDir);
      third.started.catch(() => undefined); // it is meant to exit
      const [code] = (await once(third.child, "exit")) as [number];
      expect(code).toBe(1);
      expect(third.output()).toContain(`in use by another memgate (pid ${second.child.pid}`);
      expect(alive(secondFerret)).toBe(true);
    } finally {
      second.child.kill("SIGTERM");
      await once(second.child, "exit");
    }
    expect(alive(secondFerret)).toBe(false);
  });
});
