/**
 * The audit log from the command line, read straight from the database (no gateway needed):
 *   npm run audit:verify -- [--tenant acme] [--from 1] [--to 500]
 *   npm run audit:export -- --tenant acme [--after 0] [--out acme.ndjson] [--checkpoints cps.json] [--public-key key.pem]
 * The database is MONGODB_URI, else the embedded gateway's (<MEMGATE_DATA_DIR>/mongodb-uri).
 * Checkpoints are checked with MEMGATE_CHECKPOINT_PRIVATE_KEY's public half, else the development key.
 * verify exits 1 when a chain does not verify. Neither command writes to the database.
 */
import { existsSync, readFileSync, writeFileSync, createWriteStream } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { ChainAuditor } from "../src/store/log/chain-auditor";
import { Checkpointer, checkpointKey } from "../src/store/log/checkpoints";
import { ndjsonLine } from "../src/http/audit-export-route";
import { ensureDevKeyPair } from "../src/auth/dev-keys";
import { systemClock } from "../src/clock";
import { loadConfig } from "../src/config";
import { createLogger } from "../src/logger";
import { connectDatabase } from "../src/store/database";
import { EventLog } from "../src/store/event-log";

async function main(): Promise<number> {
  const [command, ...rest] = process.argv.slice(2);
  const { values } = parseArgs({
    args: rest,
    options: {
      tenant: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      after: { type: "string", default: "0" },
      out: { type: "string" },
      checkpoints: { type: "string" },
      "public-key": { type: "string" },
    },
  });
  const env = { ...process.env };
  // The CLI reads; it needs no JWT key even with MONGODB_URI set.
  if (env.MONGODB_URI && !env.JWT_PUBLIC_KEY && !env.JWT_JWKS_URL) env.JWT_JWKS_URL = "http://unused.invalid/jwks";
  const config = loadConfig(env);
  const uriFile = path.join(config.dataDir, "mongodb-uri");
  const uri = config.mongodbUri ?? (existsSync(uriFile) ? readFileSync(uriFile, "utf8").trim() : undefined);
  if (!uri) throw new Error("no database: set MONGODB_URI, or start the embedded gateway once (npm start)");
  const { client, db } = await connectDatabase(uri, config.dbName);
  try {
    const log = new EventLog(db, systemClock);
    const privateKeyPem = config.audit.checkpointPrivateKeyPem ?? (await ensureDevKeyPair(config.dataDir, "checkpoint")).privateKeyPem;
    const checkpointer = new Checkpointer(db, log, systemClock, checkpointKey(privateKeyPem), { every: 0, intervalS: 0 }, createLogger("silent"));
    if (command === "verify") {
      const tenants = values.tenant ? [values.tenant] : await log.tenants();
      const auditor = new ChainAuditor(log, checkpointer);
      let failed = 0;
      for (const tenant of tenants) {
        const result = await auditor.verify(tenant, { fromSeq: values.from ? Number(values.from) : null, toSeq: values.to ? Number(values.to) : null });
        if (!result.ok) failed++;
        process.stdout.write(`${JSON.stringify(result)}\n`);
      }
      return failed > 0 ? 1 : 0;
    }
    if (command === "export") {
      if (!values.tenant) throw new Error("export needs --tenant");
      const tenant = values.tenant;
      const after = Number(values.after);
      if (!Number.isInteger(after) || after < 0) throw new Error("--after must be a non-negative integer");
      const out: NodeJS.WritableStream = values.out ? createWriteStream(values.out) : process.stdout;
      const head = await log.head(tenant);
      let count = 0;
      for (let seq = after + 1; seq <= head.seq; seq += 500) {
        for (const event of await log.range(tenant, seq, Math.min(head.seq, seq + 499), 500)) {
          if (!out.write(ndjsonLine(event))) await new Promise<void>((r) => out.once("drain", () => r()));
          count++;
        }
      }
      if (values.out) await new Promise<void>((r) => out.end(() => r()));
      if (values.checkpoints) {
        const cps = (await checkpointer.list(tenant)).map(({ _id, ...cp }) => cp);
        writeFileSync(values.checkpoints, JSON.stringify(cps, null, 2));
      }
      if (values["public-key"]) writeFileSync(values["public-key"], checkpointer.key.publicKeyPem);
      process.stderr.write(`exported ${count} events of ${tenant} after seq ${after}\n`);
      return 0;
    }
    throw new Error("usage: audit-cli verify|export [options] (see the top of scripts/audit-cli.ts)");
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
