import { existsSync } from "node:fs";
import path from "node:path";

/** Everything memgate reads from its environment, read once at boot (STYLE §2). */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** Absent: memgate starts an embedded FerretDB under dataDir. */
  readonly mongodbUri: string | undefined;
  readonly dbName: string;
  /** When set, the embedded FerretDB uses this PostgreSQL database instead of SQLite. */
  readonly ferretdbPostgresUrl: string | undefined;
  readonly ferretdbBinary: string;
  readonly policyBundlePath: string;
  readonly jwt: {
    readonly publicKeyPem: string | undefined;
    readonly jwksUrl: string | undefined;
    readonly issuer: string;
    readonly audience: string;
    readonly algorithms: readonly string[];
  };
  readonly logLevel: string;
  readonly shutdownGraceMs: number;
  /** SG-ENVELOPE cache time of memory envelopes (MEMGATE_ENVELOPE_CACHE_SECONDS, default 900). */
  readonly envelopeCacheSeconds: number;
  /** The tamper-evident log (issue 5, docs/AUDIT.md). */
  readonly audit: AuditConfig;
}

export interface AuditConfig {
  /** Ed25519 private key (PKCS#8 PEM) that signs checkpoints; absent: a development key under dataDir/keys. */
  readonly checkpointPrivateKeyPem: string | undefined;
  /** A checkpoint at every seq divisible by this (0: none by count). */
  readonly checkpointEvery: number;
  /** And every this many seconds for each tenant whose head moved (0: none by time). */
  readonly checkpointIntervalS: number;
  /** How often the polling event source reads the log for subscribers. */
  readonly pollMs: number;
  /** auto (change streams when the server has them, else polling) | poll | change_stream */
  readonly eventSource: "auto" | "poll" | "change_stream";
  /** An item not settled with its event for this long (by the injected clock) is repaired at start. */
  readonly repairMinAgeMs: number;
  /** Verify every tenant's chain at start (MP-BREAK). */
  readonly verifyOnStart: boolean;
  /** How often a process re-reads which tenants are blocked by a conformance break. */
  readonly integrityRefreshMs: number;
}

export class ConfigError extends TypeError {
  readonly code = "CONFIG_INVALID" as const;
  constructor(message: string) {
    super(`configuration: ${message}`);
    this.name = new.target.name;
  }
}

/** The folder with memgate's package.json, whether running from src/ (tests) or dist/src/. */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return from;
  }
}

export const projectRoot = findProjectRoot(__dirname);
const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const ALGORITHMS = ["EdDSA", "ES256", "ES384", "RS256", "PS256"];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === "" ? undefined : raw;
}

/** Reads, validates and freezes the configuration; throws ConfigError at boot. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = env.LOG_LEVEL ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  }
  const algorithms = (env.JWT_ALGORITHMS ?? "EdDSA,ES256,RS256")
    .split(",")
    .map((a) => a.trim())
    .filter(Boolean);
  const unknown = algorithms.filter((a) => !ALGORITHMS.includes(a));
  if (algorithms.length === 0 || unknown.length > 0) {
    throw new ConfigError(`JWT_ALGORITHMS may list only ${ALGORITHMS.join(", ")}, got "${env.JWT_ALGORITHMS}"`);
  }
  const publicKeyPem = optional(env, "JWT_PUBLIC_KEY")?.replace(/\\n/g, "\n");
  const jwksUrl = optional(env, "JWT_JWKS_URL");
  if (publicKeyPem && jwksUrl) {
    throw new ConfigError("set JWT_PUBLIC_KEY or JWT_JWKS_URL, not both");
  }
  const mongodbUri = optional(env, "MONGODB_URI");
  if (mongodbUri && !publicKeyPem && !jwksUrl) {
    // The development key pair is for the embedded database only: a real deployment names its issuer's key.
    throw new ConfigError("MONGODB_URI is set, so JWT_PUBLIC_KEY or JWT_JWKS_URL must be set too");
  }
  return Object.freeze({
    port: integer(env, "PORT", 4000, 0, 65535),
    host: env.HOST ?? "127.0.0.1",
    dataDir: path.resolve(env.MEMGATE_DATA_DIR ?? path.join(projectRoot, "data")),
    mongodbUri,
    dbName: env.MEMGATE_DB_NAME ?? "memgate",
    ferretdbPostgresUrl: optional(env, "MEMGATE_FERRETDB_POSTGRESQL_URL"),
    ferretdbBinary: path.resolve(env.MEMGATE_FERRETDB_BIN ?? path.join(projectRoot, ".tools", "bin", "ferretdb")),
    policyBundlePath: path.resolve(env.MEMGATE_POLICY_BUNDLE ?? path.join(projectRoot, "build", "policy", "bundle.tar.gz")),
    jwt: Object.freeze({
      publicKeyPem,
      jwksUrl,
      issuer: env.JWT_ISSUER ?? "memgate-dev",
      audience: env.JWT_AUDIENCE ?? "memgate",
      algorithms: Object.freeze(algorithms),
    }),
    logLevel,
    shutdownGraceMs: integer(env, "MEMGATE_SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    envelopeCacheSeconds: integer(env, "MEMGATE_ENVELOPE_CACHE_SECONDS", 900, 0, 900),
    audit: auditConfig(env),
  });
}

function auditConfig(env: NodeJS.ProcessEnv): AuditConfig {
  const eventSource = env.MEMGATE_AUDIT_EVENT_SOURCE ?? "auto";
  if (eventSource !== "auto" && eventSource !== "poll" && eventSource !== "change_stream") {
    throw new ConfigError(`MEMGATE_AUDIT_EVENT_SOURCE must be auto, poll or change_stream, got "${eventSource}"`);
  }
  const verifyOnStart = env.MEMGATE_AUDIT_VERIFY_ON_START ?? "true";
  if (verifyOnStart !== "true" && verifyOnStart !== "false") {
    throw new ConfigError(`MEMGATE_AUDIT_VERIFY_ON_START must be true or false, got "${verifyOnStart}"`);
  }
  return Object.freeze({
    checkpointPrivateKeyPem: optional(env, "MEMGATE_CHECKPOINT_PRIVATE_KEY")?.replace(/\\n/g, "\n"),
    checkpointEvery: integer(env, "MEMGATE_CHECKPOINT_EVERY", 100, 0, 1_000_000),
    checkpointIntervalS: integer(env, "MEMGATE_CHECKPOINT_INTERVAL_S", 60, 0, 86_400),
    pollMs: integer(env, "MEMGATE_AUDIT_POLL_MS", 250, 10, 60_000),
    eventSource,
    repairMinAgeMs: integer(env, "MEMGATE_REPAIR_MIN_AGE_MS", 60_000, 0, 86_400_000),
    verifyOnStart: verifyOnStart === "true",
    integrityRefreshMs: integer(env, "MEMGATE_INTEGRITY_REFRESH_MS", 5_000, 100, 600_000),
  });
}
