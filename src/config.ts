import { existsSync } from "node:fs";
import path from "node:path";
import { ferretdbBinaryPath } from "./store/embedded-ferretdb";

/** The background sweep's rate when MEMGATE_AUDIT_SWEEP_EVENTS_PER_S is not set (docs/AUDIT.md). */
export const DEFAULT_SWEEP_EVENTS_PER_S = 500;

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
  /**
   * Whether the indexes that serve reads other than by `_id` are created (MEMGATE_SECONDARY_INDEXES).
   * Default: yes on a database given by URI (MongoDB), no on the embedded FerretDB, which reads
   * through none of them on either backend (src/store/database.ts, INDEXES).
   */
  readonly secondaryIndexes: boolean;
  /** How long a write's Idempotency-Key answers its first outcome (MEMGATE_IDEMPOTENCY_WINDOW_S, default 86400). */
  readonly idempotencyWindowS: number;
  /** How long a retry waits for the attempt that holds its key before answering "in progress" (MEMGATE_IDEMPOTENCY_WAIT_MS, default 2000). */
  readonly idempotencyWaitMs: number;
  /** Supervision of the embedded FerretDB (issue 15): first restart delay, doubled per failed attempt, and attempts before giving up. */
  readonly ferretdbRestart: { readonly backoffMs: number; readonly maxAttempts: number };
  readonly policyBundlePath: string;
  /** PEM public keys a policy bundle's signature may be made with (MEMGATE_POLICY_PUBLIC_KEYS); absent: the development key. */
  readonly policyPublicKeysPem: string | undefined;
  readonly jwt: {
    readonly publicKeyPem: string | undefined;
    readonly jwksUrl: string | undefined;
    readonly issuer: string;
    readonly audience: string;
    readonly algorithms: readonly string[];
    /** Where tenant, subjects and roles are in a token (issue 25: Auth0, Okta, Keycloak, Entra ID, Google name them differently). */
    readonly claims: ClaimMapping;
    /** RFC 8725 explicit typing (JWT_REQUIRE_TYP, default true); OpenID ID tokens often carry no `typ`. */
    readonly requireTyp: boolean;
  };
  /** The ledger page's sign-in (issue 25, README "The ledger page"). */
  readonly ledgerPage: LedgerPageConfig;
  readonly logLevel: string;
  readonly shutdownGraceMs: number;
  /** SG-ENVELOPE cache time of memory envelopes (MEMGATE_ENVELOPE_CACHE_SECONDS, default 900). */
  readonly envelopeCacheSeconds: number;
  /**
   * Byte budgets of the in-process caches (least recently used entries evicted past them), so a
   * gateway's memory does not grow with the tenants it has served: the agent contract's search
   * indexes (MEMGATE_AGENT_INDEX_CACHE_MB, default 256) and companion envelopes
   * (MEMGATE_ENVELOPE_CACHE_MB, default 32). The defaults leave room in a 1 GB gateway.
   */
  readonly cacheBudgets: { readonly agentIndexBytes: number; readonly envelopeBytes: number };
  /** The tamper-evident log (issue 5, docs/AUDIT.md). */
  readonly audit: AuditConfig;
  /** The MCP door (issue 14, src/mcp/). */
  readonly mcp: McpConfig;
  /** Bounds, rate limits, sessions and production mode of every door (issue 12, README "Limits, sessions and production mode"). */
  readonly door: DoorConfig;
}

/** Claim names (a name as is, else a dotted path into nested claims) and what applies when a claim is absent. */
export interface ClaimMapping {
  /** MEMGATE_CLAIM_TENANT (default "tenant"). */
  readonly tenant: string;
  /** MEMGATE_CLAIM_SUBJECTS (default "subjects"). */
  readonly subjects: string;
  /** MEMGATE_CLAIM_ROLES (default "roles"; Keycloak: realm_access.roles, Okta: groups). */
  readonly roles: string;
  /** MEMGATE_DEFAULT_TENANT: the tenant of a token without the tenant claim (one tenant per identity provider). */
  readonly defaultTenant: string | undefined;
  /** MEMGATE_DEFAULT_ROLES (comma-separated): the roles of a token without the roles claim (people from an IdP: user). */
  readonly defaultRoles: readonly string[];
  /** MEMGATE_SUBJECTS_FROM_SUB: a token without the subjects claim speaks for its own `sub` (a person's ID token). */
  readonly subjectsFromSub: boolean;
  /** MEMGATE_IGNORE_UNKNOWN_ROLES: roles memgate does not know (an IdP's other groups) are dropped instead of refused. */
  readonly ignoreUnknownRoles: boolean;
}

export interface LedgerPageConfig {
  /** OpenID Connect sign-in (MEMGATE_OIDC_ISSUER and MEMGATE_OIDC_CLIENT_ID); absent: no sign-in button. */
  readonly oidc:
    | {
        readonly issuer: string;
        readonly clientId: string;
        /** MEMGATE_OIDC_SCOPE (default "openid profile"). */
        readonly scope: string;
        /** MEMGATE_OIDC_TOKEN: which token the page sends to the gateway (id_token, the default, or access_token when it is a JWT for this gateway). */
        readonly token: "id_token" | "access_token";
        /** MEMGATE_OIDC_AUDIENCE: an `audience` authorization parameter (Auth0's way to get a JWT access token). */
        readonly audience: string | undefined;
      }
    | undefined;
  /** Development keys are in use (no issuer key, not production): the page offers a development sign-in and says so. */
  readonly development: boolean;
}

export interface McpConfig {
  /** MEMGATE_PUBLIC_URL: the gateway's URL as clients reach it (the OAuth resource); absent: from each request's Host. */
  readonly publicUrl: string | undefined;
  /** MEMGATE_AUTHORIZATION_SERVERS (comma-separated): where tokens come from (RFC 9728); default: JWT_ISSUER when it is a URL. */
  readonly authorizationServers: readonly string[];
}

export interface DoorConfig {
  /** NODE_ENV=production: no introspection, no field suggestions, no landing page, no development keys. */
  readonly production: boolean;
  /** Largest HTTP body and WebSocket message, in bytes (MEMGATE_BODY_LIMIT_BYTES, default 256 KiB). */
  readonly bodyLimitBytes: number;
  /** Deepest JSON nesting a request may carry, in body or variables (MEMGATE_JSON_MAX_DEPTH, default 64). */
  readonly jsonMaxDepth: number;
  /** Per GraphQL document; graphql-armor's defaults (MEMGATE_GRAPHQL_MAX_DEPTH, _MAX_ALIASES, _MAX_TOKENS, _MAX_DIRECTIVES, _MAX_COST). */
  readonly document: DocumentLimits;
  /** Token bucket per tenant and principal: refilled at perSecond, holding at most burst (MEMGATE_RATE_LIMIT_PER_S, 0: off; MEMGATE_RATE_LIMIT_BURST). */
  readonly rateLimit: { readonly perSecond: number; readonly burst: number };
  readonly session: {
    /** Longest token lifetime (exp - iat) accepted (MEMGATE_TOKEN_MAX_LIFETIME_S, default 24 h). */
    readonly maxTokenLifetimeS: number;
    /** How far a token's iat may be ahead of our clock (MEMGATE_TOKEN_CLOCK_SKEW_S, default 60); exp is exact. */
    readonly clockSkewS: number;
    /** How often open sockets are checked for an expired token (MEMGATE_SESSION_CHECK_MS, default 1000). */
    readonly expiryCheckMs: number;
  };
  /** Browser origins allowed by CORS (MEMGATE_CORS_ORIGINS, comma-separated; default none: CORS off). */
  readonly corsOrigins: readonly string[];
}

export interface DocumentLimits {
  readonly maxDepth: number;
  readonly maxAliases: number;
  readonly maxTokens: number;
  readonly maxDirectives: number;
  readonly maxCost: number;
}

export interface AuditConfig {
  /** Ed25519 private key (PKCS#8 PEM) that signs checkpoints; absent: a development key under dataDir/keys. */
  readonly checkpointPrivateKeyPem: string | undefined;
  /** Earlier log signing keys (PEM public keys, after a rotation): events and checkpoints they signed still verify. */
  readonly logPublicKeysPem: string | undefined;
  /** A checkpoint at every seq divisible by this (0: none by count). */
  readonly checkpointEvery: number;
  /** And every this many seconds for each tenant whose head moved (0: none by time). */
  readonly checkpointIntervalS: number;
  /** How often the polling event source reads the log for subscribers. */
  readonly pollMs: number;
  /** Live memoryEvents subscriptions one token (its subject) may hold on one gateway (issue 15 §2). */
  readonly subscriptionsPerToken: number;
  /** ... and one tenant, all tokens together. */
  readonly subscriptionsPerTenant: number;
  /** auto (change streams when the server has them, else polling) | poll | change_stream */
  readonly eventSource: "auto" | "poll" | "change_stream";
  /** An item not settled with its event for this long (by the injected clock) is repaired at start. */
  readonly repairMinAgeMs: number;
  /** How often the repair pass runs while serving (MEMGATE_REPAIR_INTERVAL_MS, default 30000). */
  readonly repairIntervalMs: number;
  /** Verify every tenant's chain at start (MP-BREAK). */
  readonly verifyOnStart: boolean;
  /** How often a process re-reads which tenants are blocked by a conformance break. */
  readonly integrityRefreshMs: number;
  /** Events per second the background sweep verifies again from seq 1, all tenants together (issue 22 §3; 0: no sweep). */
  readonly sweepEventsPerSecond: number;
  /** How often a sweep step runs (ms). */
  readonly sweepStepMs: number;
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

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (raw !== "true" && raw !== "false") throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  return raw === "true";
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
  const ferretdbPatches = env.MEMGATE_FERRETDB_PATCHES;
  if (ferretdbPatches !== undefined && ferretdbPatches !== "" && ferretdbPatches !== "memgate" && ferretdbPatches !== "none") {
    throw new ConfigError(`MEMGATE_FERRETDB_PATCHES must be memgate or none, got "${ferretdbPatches}"`);
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
    ferretdbBinary: ferretdbBinaryPath(projectRoot, env), // MEMGATE_FERRETDB_BIN, MEMGATE_FERRETDB_PATCHES
    secondaryIndexes: flag(env, "MEMGATE_SECONDARY_INDEXES", Boolean(mongodbUri)),
    idempotencyWindowS: integer(env, "MEMGATE_IDEMPOTENCY_WINDOW_S", 86_400, 1, 30 * 86_400),
    idempotencyWaitMs: integer(env, "MEMGATE_IDEMPOTENCY_WAIT_MS", 2_000, 0, 60_000),
    ferretdbRestart: Object.freeze({
      backoffMs: integer(env, "MEMGATE_FERRETDB_RESTART_BACKOFF_MS", 250, 10, 60_000),
      maxAttempts: integer(env, "MEMGATE_FERRETDB_RESTART_ATTEMPTS", 8, 1, 1_000),
    }),
    policyBundlePath: path.resolve(env.MEMGATE_POLICY_BUNDLE ?? path.join(projectRoot, "build", "policy", "bundle.tar.gz")),
    policyPublicKeysPem: optional(env, "MEMGATE_POLICY_PUBLIC_KEYS")?.replace(/\\n/g, "\n"),
    jwt: Object.freeze({
      publicKeyPem,
      jwksUrl,
      issuer: env.JWT_ISSUER ?? "memgate-dev",
      audience: env.JWT_AUDIENCE ?? "memgate",
      algorithms: Object.freeze(algorithms),
      claims: claimMapping(env),
      requireTyp: flag(env, "JWT_REQUIRE_TYP", true),
    }),
    ledgerPage: ledgerPageConfig(env, Boolean(publicKeyPem || jwksUrl)),
    logLevel,
    shutdownGraceMs: integer(env, "MEMGATE_SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    envelopeCacheSeconds: integer(env, "MEMGATE_ENVELOPE_CACHE_SECONDS", 900, 0, 900),
    cacheBudgets: Object.freeze({
      agentIndexBytes: integer(env, "MEMGATE_AGENT_INDEX_CACHE_MB", 256, 1, 1_048_576) * 1024 * 1024,
      envelopeBytes: integer(env, "MEMGATE_ENVELOPE_CACHE_MB", 32, 1, 1_048_576) * 1024 * 1024,
    }),
    audit: auditConfig(env),
    mcp: mcpConfig(env),
    door: doorConfig(env, Boolean(publicKeyPem || jwksUrl)),
  });
}

function doorConfig(env: NodeJS.ProcessEnv, issuerKeyConfigured: boolean): DoorConfig {
  const production = env.NODE_ENV === "production";
  if (production && !issuerKeyConfigured) {
    // The development key pair lives beside the data: anyone who can read it can mint tokens.
    throw new ConfigError("NODE_ENV=production refuses development keys: set JWT_PUBLIC_KEY or JWT_JWKS_URL");
  }
  const corsOrigins = (env.MEMGATE_CORS_ORIGINS ?? "")
    .split(",")
    .map((o) => o.trim())
    .filter(Boolean);
  for (const origin of corsOrigins) {
    if (!/^https?:\/\/[^/\s*]+$/.test(origin)) throw new ConfigError(`MEMGATE_CORS_ORIGINS lists exact origins like https://app.example.com, got "${origin}"`);
  }
  return Object.freeze({
    production,
    bodyLimitBytes: integer(env, "MEMGATE_BODY_LIMIT_BYTES", 256 * 1024, 1024, 64 * 1024 * 1024),
    jsonMaxDepth: integer(env, "MEMGATE_JSON_MAX_DEPTH", 64, 4, 1000),
    document: Object.freeze({
      maxDepth: integer(env, "MEMGATE_GRAPHQL_MAX_DEPTH", 6, 1, 100),
      maxAliases: integer(env, "MEMGATE_GRAPHQL_MAX_ALIASES", 15, 0, 10_000),
      maxTokens: integer(env, "MEMGATE_GRAPHQL_MAX_TOKENS", 1000, 10, 1_000_000),
      maxDirectives: integer(env, "MEMGATE_GRAPHQL_MAX_DIRECTIVES", 50, 0, 10_000),
      maxCost: integer(env, "MEMGATE_GRAPHQL_MAX_COST", 5000, 1, 10_000_000),
    }),
    rateLimit: Object.freeze({
      perSecond: integer(env, "MEMGATE_RATE_LIMIT_PER_S", 100, 0, 1_000_000),
      burst: integer(env, "MEMGATE_RATE_LIMIT_BURST", 200, 1, 10_000_000),
    }),
    session: Object.freeze({
      maxTokenLifetimeS: integer(env, "MEMGATE_TOKEN_MAX_LIFETIME_S", 86_400, 60, 30 * 86_400),
      clockSkewS: integer(env, "MEMGATE_TOKEN_CLOCK_SKEW_S", 60, 0, 600),
      expiryCheckMs: integer(env, "MEMGATE_SESSION_CHECK_MS", 1000, 10, 60_000),
    }),
    corsOrigins: Object.freeze(corsOrigins),
  });
}

function claimMapping(env: NodeJS.ProcessEnv): ClaimMapping {
  const name = (key: string, fallback: string) => {
    const value = optional(env, key)?.trim() ?? fallback;
    if (value.length > 256) throw new ConfigError(`${key} is longer than 256 characters`);
    return value;
  };
  return Object.freeze({
    tenant: name("MEMGATE_CLAIM_TENANT", "tenant"),
    subjects: name("MEMGATE_CLAIM_SUBJECTS", "subjects"),
    roles: name("MEMGATE_CLAIM_ROLES", "roles"),
    defaultTenant: optional(env, "MEMGATE_DEFAULT_TENANT")?.trim(),
    defaultRoles: Object.freeze(
      (env.MEMGATE_DEFAULT_ROLES ?? "")
        .split(",")
        .map((r) => r.trim())
        .filter(Boolean),
    ),
    subjectsFromSub: flag(env, "MEMGATE_SUBJECTS_FROM_SUB", false),
    ignoreUnknownRoles: flag(env, "MEMGATE_IGNORE_UNKNOWN_ROLES", false),
  });
}

function ledgerPageConfig(env: NodeJS.ProcessEnv, issuerKeyConfigured: boolean): LedgerPageConfig {
  const issuer = optional(env, "MEMGATE_OIDC_ISSUER");
  const clientId = optional(env, "MEMGATE_OIDC_CLIENT_ID");
  if (Boolean(issuer) !== Boolean(clientId)) throw new ConfigError("set MEMGATE_OIDC_ISSUER and MEMGATE_OIDC_CLIENT_ID together");
  if (issuer && (!URL.canParse(issuer) || !/^https?:$/.test(new URL(issuer).protocol)))
    throw new ConfigError(`MEMGATE_OIDC_ISSUER must be an http(s) URL, got "${issuer}"`);
  const token = env.MEMGATE_OIDC_TOKEN ?? "id_token";
  if (token !== "id_token" && token !== "access_token") throw new ConfigError(`MEMGATE_OIDC_TOKEN must be id_token or access_token, got "${token}"`);
  return Object.freeze({
    oidc:
      issuer && clientId
        ? Object.freeze({
            issuer,
            clientId,
            scope: optional(env, "MEMGATE_OIDC_SCOPE") ?? "openid profile",
            token,
            audience: optional(env, "MEMGATE_OIDC_AUDIENCE"),
          })
        : undefined,
    development: env.NODE_ENV !== "production" && !issuerKeyConfigured,
  });
}

function mcpConfig(env: NodeJS.ProcessEnv): McpConfig {
  const urls = (name: string, raw: string | undefined): string[] => {
    const list = (raw ?? "")
      .split(",")
      .map((u) => u.trim())
      .filter(Boolean);
    for (const u of list) {
      if (!URL.canParse(u) || !/^https?:$/.test(new URL(u).protocol)) throw new ConfigError(`${name} must list http(s) URLs, got "${u}"`);
    }
    return list;
  };
  const publicUrl = urls("MEMGATE_PUBLIC_URL", optional(env, "MEMGATE_PUBLIC_URL"))[0]?.replace(/\/+$/, "");
  const issuer = env.JWT_ISSUER ?? "";
  const fallback = URL.canParse(issuer) && /^https?:$/.test(new URL(issuer).protocol) ? [issuer] : [];
  const configured = urls("MEMGATE_AUTHORIZATION_SERVERS", optional(env, "MEMGATE_AUTHORIZATION_SERVERS"));
  return Object.freeze({ publicUrl, authorizationServers: Object.freeze(configured.length > 0 ? configured : fallback) });
}

function auditConfig(env: NodeJS.ProcessEnv): AuditConfig {
  const eventSource = env.MEMGATE_AUDIT_EVENT_SOURCE ?? "auto";
  if (eventSource !== "auto" && eventSource !== "poll" && eventSource !== "change_stream") {
    throw new ConfigError(`MEMGATE_AUDIT_EVENT_SOURCE must be auto, poll or change_stream, got "${eventSource}"`);
  }
  return Object.freeze({
    checkpointPrivateKeyPem: optional(env, "MEMGATE_CHECKPOINT_PRIVATE_KEY")?.replace(/\\n/g, "\n"),
    logPublicKeysPem: optional(env, "MEMGATE_LOG_PUBLIC_KEYS")?.replace(/\\n/g, "\n"),
    checkpointEvery: integer(env, "MEMGATE_CHECKPOINT_EVERY", 100, 0, 1_000_000),
    checkpointIntervalS: integer(env, "MEMGATE_CHECKPOINT_INTERVAL_S", 60, 0, 86_400),
    pollMs: integer(env, "MEMGATE_AUDIT_POLL_MS", 250, 10, 60_000),
    subscriptionsPerToken: integer(env, "MEMGATE_SUBSCRIPTIONS_PER_TOKEN", 10, 1, 100_000),
    subscriptionsPerTenant: integer(env, "MEMGATE_SUBSCRIPTIONS_PER_TENANT", 100, 1, 100_000),
    eventSource,
    repairMinAgeMs: integer(env, "MEMGATE_REPAIR_MIN_AGE_MS", 60_000, 0, 86_400_000),
    repairIntervalMs: integer(env, "MEMGATE_REPAIR_INTERVAL_MS", 30_000, 100, 86_400_000),
    verifyOnStart: flag(env, "MEMGATE_AUDIT_VERIFY_ON_START", true),
    integrityRefreshMs: integer(env, "MEMGATE_INTEGRITY_REFRESH_MS", 5_000, 100, 600_000),
    sweepEventsPerSecond: integer(env, "MEMGATE_AUDIT_SWEEP_EVENTS_PER_S", DEFAULT_SWEEP_EVENTS_PER_S, 0, 10_000_000),
    sweepStepMs: integer(env, "MEMGATE_AUDIT_SWEEP_STEP_MS", 1_000, 10, 60_000),
  });
}
