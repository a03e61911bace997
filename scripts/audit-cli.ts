/**
 * The audit log from the command line, read straight from the database (read-only):
 *   npm run audit:verify -- [--tenant acme] [--full] [--from 1] [--to 500]
 *   npm run audit:export -- --tenant acme [--after 0] [--out acme.ndjson] [--checkpoints cps.json] [--public-key key.pem]
 * The database is MONGODB_URI, else the embedded gateway's (<MEMGATE_DATA_DIR>/mongodb-uri): the
 * gateway must be running then (its embedded FerretDB is), and the command says so when it is not.
 * verify checks what was appended since each tenant's last good checkpoint; --full (or --from)
 * checks every event. Keys: MEMGATE_CHECKPOINT_PRIVATE_KEY (+ MEMGATE_LOG_PUBLIC_KEYS), else the
 * development key. verify exits 1 when a chain does not verify, 2 when it cannot run.
 */
import { existsSync, readFileSync, writeFileSync, createWriteStream } from "node:fs";
import net from "node:net";
import path from "node:path";
import { parseArgs } from "node:util";
import { ChainAuditor } from "../src/store/log/chain-auditor";
import { Checkpointer } from "../src/store/log/checkpoints";
import { logKeySet } from "../src/store/log/event-signing";
import { exportManifest, orderedEvents } from "../src/store/log/export";
import { ndjsonLine } from "../src/http/audit-export-route";
import { ensureDevKeyPair } from "../src/auth/dev-keys";
import { systemClock } from "../src/clock";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/logger";
import { connectDatabase } from "../src/store/database";
import { EventLog } from "../src/store/event-log";

class CliError extends Error {}

/** True when something accepts connections at the URI's first host within `ms`. */
function answers(uri: string, ms: number): Promise<boolean> {
  const hostPort = /^mongodb(?:\+srv)?:\/\/(?:[^@/]*@)?([^/,?]+)/.exec(uri)?.[1] ?? "";
  const [host, port] = hostPort.startsWith("[") ? [hostPort.slice(1, hostPort.indexOf("]")), hostPort.split("]:")[1]] : hostPort.split(":");
  if (uri.startsWith("mongodb+srv")) return Promise.resolve(true); // DNS seed lists: leave it to the driver
  return new Promise((resolve) => {
    const socket = net.connect({ host: host || "127.0.0.1", port: Number(port || 27017) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      tenant: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      full: { type: "boolean", default: false },
      after: { type: "string", default: "0" },
      out: { type: "string" },
      checkpoints: { type: "string" },
      "public-key": { type: "string" },
    },
  });
  if (command !== "verify" && command !== "export") throw new CliError("usage: audit-cli verify|export [options] (see the top of scripts/audit-cli.ts)");
  const env = { ...process.env };
  // The CLI reads; it needs no JWT key even with MONGODB_URI set.
  if (env.MONGODB_URI && !env.JWT_PUBLIC_KEY && !env.JWT_JWKS_URL) env.JWT_JWKS_URL = "http://unused.invalid/jwks";
  const config = loadConfig(env);
  const uriFile = path.join(config.dataDir, "mongodb-uri");
  const uri = config.mongodbUri ?? (existsSync(uriFile) ? readFileSync(uriFile, "utf8").trim() : undefined);
  if (!uri) throw new CliError("no database: set MONGODB_URI, or start the gateway (npm start), whose embedded database this command reads");
  if (!(await answers(uri, 3_000))) {
    throw new CliError(
      config.mongodbUri
        ? `the database at MONGODB_URI does not answer (${uri})`
        : `the gateway is not running: its embedded database (${uri}, from ${uriFile}) does not answer. Start it with npm start, then run this again.`,
    );
  }
  const { client, db } = await connectDatabase(uri, config.dbName);
  try {
    const log = new EventLog(db, systemClock);
    const privateKeyPem = config.audit.checkpointPrivateKeyPem ?? (await ensureDevKeyPair(config.dataDir, "checkpoint")).privateKeyPem;
    const keys = logKeySet(privateKeyPem, config.audit.logPublicKeysPem);
    const checkpointer = new Checkpointer(db, log, systemClock, keys, { every: 0, intervalS: 0 }, createLogger("silent"));
    if (command === "verify") {
      const tenants = values.tenant ? [values.tenant] : await log.tenants();
      const auditor = new ChainAuditor(log, checkpointer);
      let failed = 0;
      for (const tenant of tenants) {
        const started = Date.now();
        const range = { fromSeq: values.from ? Number(values.from) : null, toSeq: values.to ? Number(values.to) : null, full: values.full };
        const result = await auditor.verify(tenant, range);
        if (!result.ok) failed++;
        process.stdout.write(`${JSON.stringify(result)}\n`);
        process.stderr.write(
          `${tenant}: ${result.ok ? "ok" : `BROKEN at seq ${result.firstBrokenSeq} (${result.reason})`}, ${result.eventsChecked} events checked ` +
            `(seq ${result.fromSeq}..${result.toSeq} of ${result.headSeq}${result.fromSeq > 1 && !range.fromSeq ? ", since the last good checkpoint; --full checks all" : ""}) in ${Date.now() - started} ms\n`,
        );
      }
      return failed > 0 ? 1 : 0;
    }
    if (!values.tenant) throw new CliError("export needs --tenant");
    const tenant = values.tenant;
    const after = Number(values.after);
    if (!Number.isInteger(after) || after < 0) throw new CliError("--after must be a non-negative integer");
    const out: NodeJS.WritableStream = values.out ? createWriteStream(values.out) : process.stdout;
    const manifest = await exportManifest(log, keys, tenant, after, systemClock.now());
    out.write(`${JSON.stringify(manifest)}\n`);
    let count = 0;
    for await (const event of orderedEvents(log, tenant, after, manifest.to_seq)) {
      if (!out.write(ndjsonLine(event))) await new Promise<void>((r) => out.once("drain", () => r()));
      count++;
    }
    if (values.out) await new Promise<void>((r) => out.end(() => r()));
    if (values.checkpoints) {
      const cps = (await checkpointer.list(tenant, 0, Number.MAX_SAFE_INTEGER)).map(({ _id, ...cp }) => cp);
      writeFileSync(values.checkpoints, JSON.stringify(cps, null, 2));
    }
    if (values["public-key"]) writeFileSync(values["public-key"], keys.publicKeys.map((k) => k.publicKeyPem).join(""));
    process.stderr.write(`exported ${count} events of ${tenant} (seq ${after + 1}..${manifest.to_seq})\n`);
    return 0;
  } finally {
    await client.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`audit: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  },
);
