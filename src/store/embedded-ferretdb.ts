import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { MongoClient } from "mongodb";

export interface EmbeddedFerretDbOptions {
  binary: string;
  /** SQLite files and FerretDB's state live here. */
  dataDir: string;
  /** When set, FerretDB stores in this PostgreSQL database instead of SQLite. */
  postgresqlUrl?: string;
  /** 0 or absent: a free loopback port. */
  port?: number;
  /** Written with the connection string so an operator can open it with any MongoDB tool. */
  uriFile?: string;
  startTimeoutMs?: number;
}

/**
 * FerretDB 1.24 passes every `_pragma` of --sqlite-url through to modernc.org/sqlite, which
 * runs it on each new connection. secure_delete overwrites freed content, so text removed
 * from a record (a declined proposal, P54-D) does not linger in the database file; a
 * checkpoint after every commit and a zero journal_size_limit truncate the WAL on its next
 * reset, so old page images holding it do not linger in the -wal file either.
 */
export const SQLITE_ERASING_PRAGMAS = "_pragma=secure_delete(1)&_pragma=wal_autocheckpoint(1)&_pragma=journal_size_limit(0)";

export class EmbeddedDatabaseError extends Error {
  readonly code = "EMBEDDED_DATABASE_FAILED" as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A FerretDB process this process owns: started on loopback, stopped with it. */
export class EmbeddedFerretDb {
  private constructor(
    readonly uri: string,
    private readonly child: ChildProcess,
    private readonly exited: Promise<void>,
  ) {}

  static async start(options: EmbeddedFerretDbOptions): Promise<EmbeddedFerretDb> {
    if (!existsSync(options.binary)) {
      throw new EmbeddedDatabaseError(`ferretdb is not installed at ${options.binary}: run "bash scripts/bootstrap.sh" (npm start and npm test do)`);
    }
    const dataDir = path.resolve(options.dataDir);
    await mkdir(dataDir, { recursive: true });
    const port = options.port || (await freePort());
    const backend = options.postgresqlUrl
      ? ["--handler=postgresql", `--postgresql-url=${options.postgresqlUrl}`]
      : ["--handler=sqlite", `--sqlite-url=file:${dataDir}/?${SQLITE_ERASING_PRAGMAS}`];
    const child = spawn(
      options.binary,
      [
        ...backend,
        `--state-dir=${dataDir}`,
        `--listen-addr=127.0.0.1:${port}`,
        // Every instance binds 127.0.0.1:8088 for metrics by default, so a second one would fail.
        "--debug-addr=-",
        "--telemetry=disable",
        "--log-level=error",
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const uri = `mongodb://127.0.0.1:${port}/`;
    try {
      await waitUntilAnswering(uri, child, options.startTimeoutMs ?? 30_000);
    } catch (error) {
      child.kill("SIGKILL");
      throw new EmbeddedDatabaseError(`ferretdb did not start: ${stderr.trim() || String(error)}`, { cause: error });
    }
    if (options.uriFile) await writeFile(options.uriFile, `${uri}\n`, "utf8");
    return new EmbeddedFerretDb(uri, child, exited);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Stops the process and waits for it; escalates to SIGKILL after the grace time. */
  async stop(graceMs = 5_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

async function waitUntilAnswering(uri: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}`);
    const client = new MongoClient(uri, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 });
    try {
      await client.connect();
      await client.db("admin").command({ ping: 1 });
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      await client.close().catch(() => undefined);
    }
  }
  throw new Error(`no answer within ${timeoutMs} ms: ${String(lastError)}`);
}
