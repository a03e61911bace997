import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, open, unlink, writeFile } from "node:fs/promises";
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
  /** Supervision: the first restart waits this long, each failed one twice as long (default 250 ms). */
  restartBackoffMs?: number;
  /** ... up to this (default 8 s). */
  restartBackoffMaxMs?: number;
  /** Consecutive failed restarts after which the supervisor gives up: /healthz answers 503 (default 8). */
  maxRestartAttempts?: number;
}

/**
 * FerretDB 1.24 passes every `_pragma` of --sqlite-url through to modernc.org/sqlite, which
 * runs it on each new connection. secure_delete overwrites freed content, so text removed
 * from a record (a declined proposal, P54-D) does not linger in the database file; a
 * checkpoint after every commit and a zero journal_size_limit truncate the WAL on its next
 * reset, so old page images holding it do not linger in the -wal file either.
 */
export const SQLITE_ERASING_PRAGMAS = "_pragma=secure_delete(1)&_pragma=wal_autocheckpoint(1)&_pragma=journal_size_limit(0)";

/** The lock file beside the database files: which process serves them. */
export const LOCK_FILE = "memgate.lock";

export class EmbeddedDatabaseError extends Error {
  readonly code = "EMBEDDED_DATABASE_FAILED" as const;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** Another process (or another gateway in this one) serves the same database files. */
export class EmbeddedDatabaseLockedError extends Error {
  readonly code = "EMBEDDED_DATABASE_LOCKED" as const;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The FerretDB binary the embedded database runs. memgate's patches to FerretDB
 * (scripts/ferretdb-patches) are optimisations, never a dependency: MEMGATE_FERRETDB_PATCHES=none
 * runs upstream FerretDB, which `bash scripts/bootstrap.sh --unpatched` builds (the bootstrap
 * does it by itself when the variable is set). MEMGATE_FERRETDB_BIN names any other binary.
 */
export function ferretdbBinaryPath(projectRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  if (env.MEMGATE_FERRETDB_BIN) return path.resolve(env.MEMGATE_FERRETDB_BIN);
  const patches = env.MEMGATE_FERRETDB_PATCHES ?? "memgate";
  if (patches === "none") return path.join(projectRoot, ".tools", "ferretdb-unpatched", "ferretdb");
  if (patches === "memgate" || patches === "") return path.join(projectRoot, ".tools", "bin", "ferretdb");
  throw new EmbeddedDatabaseError(`MEMGATE_FERRETDB_PATCHES is "memgate" (the default) or "none", not ${JSON.stringify(patches)}`);
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

/** Whether `pid` runs; a zombie (dead, not yet reaped: a container whose init does not reap) does not. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return true; // no /proc (not Linux): kill(0) said it exists
  }
}

/** What is running as `pid` (Linux /proc; empty elsewhere or when gone). */
function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return "";
  }
}

interface LockContent {
  pid: number;
  ferretdbPid?: number;
  startedAt: string;
}

/** Lock files this process holds: a second gateway in the same process is refused too. */
const heldLocks = new Set<string>();

/**
 * One embedded database per set of files (issue 15 §1): the lock file names the gateway
 * process and its FerretDB child. A live holder is refused with what to do; a stale lock
 * (its gateway is gone) is taken over, unless the FerretDB it names still serves the files.
 */
async function acquireLock(lockPath: string, dataDir: string): Promise<void> {
  if (heldLocks.has(lockPath)) {
    throw new EmbeddedDatabaseLockedError(`this process already runs an embedded database on ${dataDir}: give the second gateway its own MEMGATE_DATA_DIR`);
  }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(lockPath, "wx");
      await handle.writeFile(JSON.stringify({ pid: process.pid, startedAt: new Date().toISOString() } satisfies LockContent));
      await handle.close();
      heldLocks.add(lockPath);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    let held: LockContent | undefined;
    try {
      held = JSON.parse(readFileSync(lockPath, "utf8")) as LockContent;
    } catch {
      held = undefined; // half-written or unreadable: treated as stale
    }
    // Our own pid in a lock we do not hold: a previous process with the same pid (pid 1 in a container).
    if (held && held.pid !== process.pid && processAlive(held.pid)) {
      throw new EmbeddedDatabaseLockedError(
        `the embedded database in ${dataDir} is in use by another memgate (pid ${held.pid}, since ${held.startedAt}). ` +
          `Stop that gateway first, or give this one another MEMGATE_DATA_DIR, or set MONGODB_URI to share one database server between gateways.`,
      );
    }
    if (held?.ferretdbPid && processAlive(held.ferretdbPid) && commandLine(held.ferretdbPid).includes(dataDir)) {
      throw new EmbeddedDatabaseLockedError(
        `a FerretDB left by a stopped memgate (pid ${held.ferretdbPid}) still serves ${dataDir}: stop it (kill ${held.ferretdbPid}), then start again.`,
      );
    }
    await unlink(lockPath).catch(() => undefined);
  }
  throw new EmbeddedDatabaseLockedError(`could not take the lock ${lockPath}: another process keeps taking it`);
}

async function releaseLock(lockPath: string): Promise<void> {
  heldLocks.delete(lockPath);
  try {
    const held = JSON.parse(readFileSync(lockPath, "utf8")) as LockContent;
    if (held.pid === process.pid) await unlink(lockPath);
  } catch {
    // gone already
  }
}

/**
 * How the child dies with its parent, even when the parent is SIGKILLed (no handler runs then):
 * on Linux `setpriv --pdeathsig KILL` (util-linux) asks the kernel for SIGKILL when the parent
 * goes, then execs FerretDB, so FerretDB is our direct child. Elsewhere a tiny shell runs it and
 * kills it when its stdin, a pipe from this process, reaches end of file (the kernel closes the
 * pipe when this process dies). Node has no prctl of its own.
 */
const SETPRIV = ["/usr/bin/setpriv", "/bin/setpriv"].find((candidate) => process.platform === "linux" && existsSync(candidate));
const PIPE_WATCH =
  'exec 3<&0; "$@" </dev/null & child=$!; (read -r _ <&3; kill -9 $child 2>/dev/null) & watch=$!; wait $child; code=$?; kill $watch 2>/dev/null; exit $code';

function spawnTiedToParent(binary: string, args: string[]): ChildProcess {
  if (SETPRIV) return spawn(SETPRIV, ["--pdeathsig", "KILL", "--", binary, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  return spawn("/bin/sh", ["-c", PIPE_WATCH, "ferretdb-watch", binary, ...args], { stdio: ["pipe", "ignore", "pipe"] });
}

export type EmbeddedState = "running" | "restarting" | "failed" | "stopped";

/**
 * A FerretDB process this process owns and supervises: started on loopback, restarted with
 * backoff on the same port when it dies (the MongoDB driver reconnects by itself), stopped
 * with this process, and killed by the kernel if this process dies without stopping it.
 * Events: "down" (it died), "up" (restarted), "failed" (gave up).
 */
export class EmbeddedFerretDb extends EventEmitter {
  private child!: ChildProcess;
  private exited!: Promise<void>;
  private stderr = "";
  private currentState: EmbeddedState = "running";
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  /** How many times it was restarted since start (tests, metrics). */
  restarts = 0;

  private constructor(
    readonly uri: string,
    private readonly options: EmbeddedFerretDbOptions & { dataDir: string; port: number },
    private readonly lockPath: string,
  ) {
    super();
  }

  static async start(options: EmbeddedFerretDbOptions): Promise<EmbeddedFerretDb> {
    if (!existsSync(options.binary)) {
      const bootstrap = options.binary.includes("ferretdb-unpatched") ? "bash scripts/bootstrap.sh --unpatched" : "bash scripts/bootstrap.sh";
      throw new EmbeddedDatabaseError(`ferretdb is not installed at ${options.binary}: run "${bootstrap}" (npm start and npm test do)`);
    }
    const dataDir = path.resolve(options.dataDir);
    await mkdir(dataDir, { recursive: true });
    const lockPath = path.join(dataDir, LOCK_FILE);
    await acquireLock(lockPath, dataDir);
    try {
      // The port is fixed for the life of the gateway: a restarted child answers where the driver looks.
      const port = options.port || (await freePort());
      const db = new EmbeddedFerretDb(`mongodb://127.0.0.1:${port}/`, { ...options, dataDir, port }, lockPath);
      await db.launch();
      if (options.uriFile) await writeFile(options.uriFile, `${db.uri}\n`, "utf8");
      return db;
    } catch (error) {
      await releaseLock(lockPath);
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get state(): EmbeddedState {
    return this.currentState;
  }

  /** Whether operations may reach the database now (the kernel refuses at once otherwise). */
  get available(): boolean {
    return this.currentState === "running";
  }

  private async launch(): Promise<void> {
    const { dataDir, port, postgresqlUrl, binary } = this.options;
    const backend = postgresqlUrl
      ? ["--handler=postgresql", `--postgresql-url=${postgresqlUrl}`]
      : ["--handler=sqlite", `--sqlite-url=file:${dataDir}/?${SQLITE_ERASING_PRAGMAS}`];
    const child = spawnTiedToParent(binary, [
      ...backend,
      `--state-dir=${dataDir}`,
      `--listen-addr=127.0.0.1:${port}`,
      // Every instance binds 127.0.0.1:8088 for metrics by default, so a second one would fail.
      "--debug-addr=-",
      "--telemetry=disable",
      "--log-level=error",
    ]);
    this.child = child;
    this.stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-4000);
    });
    this.exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    try {
      await waitUntilAnswering(this.uri, child, this.options.startTimeoutMs ?? 30_000);
    } catch (error) {
      child.kill("SIGKILL");
      await this.exited;
      throw new EmbeddedDatabaseError(`ferretdb did not start: ${this.stderr.trim() || String(error)}`, { cause: error });
    }
    await this.writeLock(child.pid);
    child.once("exit", (code, signal) => this.onExit(child, code, signal));
  }

  private async writeLock(ferretdbPid: number | undefined): Promise<void> {
    const content: LockContent = { pid: process.pid, ferretdbPid, startedAt: new Date().toISOString() };
    await writeFile(this.lockPath, JSON.stringify(content), "utf8").catch(() => undefined);
  }

  private onExit(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.stopping || child !== this.child) return;
    this.currentState = "restarting";
    this.emit("down", { code, signal, stderr: this.stderr.trim() });
    // eslint-disable-next-line @typescript-eslint/no-floating-promises -- restart reports a final failure by the `failed` event and never rejects
    void this.restart(0);
  }

  private async restart(attempt: number): Promise<void> {
    const base = this.options.restartBackoffMs ?? 250;
    const max = this.options.restartBackoffMaxMs ?? 8_000;
    const delayMs = Math.min(max, base * 2 ** attempt);
    await new Promise<void>((resolve) => {
      this.restartTimer = setTimeout(resolve, delayMs);
    });
    this.restartTimer = undefined;
    if (this.stopping) return;
    try {
      await this.launch();
    } catch (error) {
      if (this.stopping) return;
      if (attempt + 1 >= (this.options.maxRestartAttempts ?? 8)) {
        this.currentState = "failed";
        this.emit("failed", error);
        return;
      }
      return this.restart(attempt + 1);
    }
    if (this.stopping) {
      this.child.kill("SIGKILL");
      return;
    }
    this.restarts++;
    this.currentState = "running";
    this.emit("up", { pid: this.child.pid, restarts: this.restarts });
  }

  /** Stops the process and waits for it; escalates to SIGKILL after the grace time. */
  async stop(graceMs = 5_000): Promise<void> {
    this.stopping = true;
    this.currentState = "stopped";
    if (this.restartTimer) clearTimeout(this.restartTimer);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill("SIGTERM");
      const timer = setTimeout(() => this.child.kill("SIGKILL"), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    await releaseLock(this.lockPath);
  }
}

async function waitUntilAnswering(uri: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited with ${child.exitCode ?? child.signalCode}`);
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
