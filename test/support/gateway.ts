import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Clock } from "../../src/clock";
import { loadConfig } from "../../src/config";
import type { Detector } from "../../src/detectors/detector";
import { Gateway } from "../../src/gateway";
import type { Logger } from "../../src/logger";
import { newDatabaseName } from "./database";
import { TEST_AUDIENCE, TEST_ISSUER, TEST_PUBLIC_KEY_PEM, signToken, type TokenClaims } from "./tokens";

export const POLICY_BUNDLE = path.resolve(__dirname, "..", "..", "build", "policy", "bundle.tar.gz");

/** The log's signing key of this test file's gateways: gateways that share a database share it, as a deployment's do. */
export const TEST_LOG_PRIVATE_KEY_PEM = generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString();

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data?: T;
  errors?: { message: string; extensions?: { code?: string } }[];
}

export interface TestGateway {
  gateway: Gateway;
  url: string;
  dbName: string;
  token(claims?: TokenClaims): Promise<string>;
  /** POST /graphql with a Bearer token (null: none). */
  gql<T = Record<string, any>>(token: string | null, query: string, variables?: Record<string, unknown>): Promise<GraphQLResponse<T>>;
  stop(): Promise<void>;
}

export interface TestGatewayOptions {
  clock?: Clock;
  /** The clock tokens and socket sessions are judged by (GatewayOptions.sessionClock); default: the wall clock. */
  sessionClock?: Clock;
  /** Extra environment for loadConfig (for example MEMGATE_POLICY_BUNDLE). */
  env?: Record<string, string>;
  /** Another database server than the run's shared FerretDB. */
  mongodbUri?: string;
  /** The database to use (another gateway's `dbName`, to run two gateways on one database); default: a fresh one. */
  dbName?: string;
  /** A logger of the test's own, to assert on what is (and is not) logged. */
  logger?: Logger;
  /** Replaces the default detectors (GatewayOptions.detectors). */
  detectors?: readonly Detector[];
  /** Added to the default detectors (GatewayOptions.extraDetectors). */
  extraDetectors?: readonly Detector[];
  /** Objects per re-audit batch (GatewayOptions.reauditBatchSize). */
  reauditBatchSize?: number;
}

/** A real gateway on a free port, against the run's real FerretDB in a fresh database, with the real policy. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const uri = options.mongodbUri ?? process.env.MEMGATE_TEST_MONGODB_URI;
  if (!uri) throw new Error("MEMGATE_TEST_MONGODB_URI is not set: run the tests with jest's globalSetup");
  const dbName = options.dbName ?? newDatabaseName();
  const config = loadConfig({
    MONGODB_URI: uri,
    MEMGATE_DB_NAME: dbName,
    MEMGATE_DATA_DIR: mkdtempSync(path.join(os.tmpdir(), "memgate-test-data-")),
    MEMGATE_POLICY_BUNDLE: POLICY_BUNDLE,
    JWT_PUBLIC_KEY: TEST_PUBLIC_KEY_PEM,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    PORT: "0",
    LOG_LEVEL: process.env.MEMGATE_TEST_LOG_LEVEL ?? "silent",
    MEMGATE_CHECKPOINT_PRIVATE_KEY: TEST_LOG_PRIVATE_KEY_PEM,
    // As `npm start` configures its embedded FerretDB (the suite hands the database over by URI).
    MEMGATE_SECONDARY_INDEXES: "false",
    // The background re-verification (issue 22 §3) runs on a real timer: tests that tamper with the
    // log and inspect what follows turn it on and drive it by hand (test/audit/tamper-every-moment.test.ts).
    MEMGATE_AUDIT_SWEEP_EVENTS_PER_S: "0",
    ...options.env,
  });
  const gateway = await Gateway.start({
    config,
    clock: options.clock,
    sessionClock: options.sessionClock,
    detectors: options.detectors,
    extraDetectors: options.extraDetectors,
    logger: options.logger,
    reauditBatchSize: options.reauditBatchSize,
  });
  const url = gateway.url;
  return {
    gateway,
    url,
    dbName,
    token: (claims = {}) => signToken(claims),
    async gql(token, query, variables) {
      const response = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, ...((await response.json()) as object) };
    },
    stop: () => gateway.stop(),
  };
}
