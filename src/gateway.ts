import "reflect-metadata";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { AuditSystem } from "./jobs/audit-system";
import { auditExportRouter } from "./http/audit-export-route";
import { ensureDevKeyPair } from "./auth/dev-keys";
import { TokenVerifier } from "./auth/token-verifier";
import { systemClock, type Clock } from "./clock";
import type { Config } from "./config";
import { CONTRACT_DEFINITIONS, createContracts } from "./contracts";
import { declarationProblems, DeclarationError, type ContractModule } from "./kernel/contract";
import type { ContractStore } from "./kernel/contract-store";
import { Kernel } from "./kernel/execute";
import { createDetectorSuite, defaultDetectors } from "./detectors";
import type { Detector } from "./detectors/detector";
import { buildGatewaySchema } from "./graphql/schema";
import { agentRouter } from "./http/agent-route";
import { developmentJwk, developmentJwksRouter } from "./http/development-jwks";
import { healthRouter } from "./http/health";
import { ledgerPageRouter } from "./http/ledger-page";
import { Metrics } from "./kernel/metrics";
import { metricsRouter } from "./http/metrics-route";
import { mcpRouter } from "./mcp/route";
import { openApiRouter } from "./http/openapi-route";
import { operationRouter } from "./http/operation-route";
import { Admission, DEFAULT_ADMISSION, type AdmissionData } from "./http/admission";
import { PrincipalRateLimiter } from "./http/rate-limit";
import { createHttpServer, type RunningHttpServer } from "./http/server";
import { createLogger, type Logger } from "./logger";
import { PolicyEngine } from "./policy/policy-engine";
import { bundleTrust } from "./policy/bundle-signature";
import type { Services } from "./services";
import { connectDatabase, ensureIndexes, type Database, type DatabaseClient } from "./store/database";
import { EmbeddedFerretDb } from "./store/embedded-ferretdb";
import { EventLog } from "./store/event-log";
import { STORE_FAULTS } from "./store/faults";
import type { RejudgeTarget } from "./kernel/rejudge";
import { Reauditor } from "./jobs/reaudit";
import { MongoIdempotencyStore } from "./store/idempotency-store";
import type { ReservedObject } from "./kernel/idempotency";

/** The embedded FerretDB (no MONGODB_URI), supervised: its deaths and restarts are logged. */
async function startEmbeddedDatabase(config: Config, logger: Logger): Promise<EmbeddedFerretDb> {
  const embedded = await EmbeddedFerretDb.start({
    binary: config.ferretdbBinary,
    dataDir: path.join(config.dataDir, "ferretdb"),
    postgresqlUrl: config.ferretdbPostgresUrl,
    uriFile: path.join(config.dataDir, "mongodb-uri"),
    restartBackoffMs: config.ferretdbRestart.backoffMs,
    maxRestartAttempts: config.ferretdbRestart.maxAttempts,
  });
  embedded.on("down", (exit: { code: number | null; signal: string | null; stderr: string }) =>
    logger.error(exit, "embedded FerretDB died: restarting it; operations answer INTERNAL_INCONSISTENCY meanwhile"),
  );
  embedded.on("up", (info: { pid: number; restarts: number }) => logger.warn(info, "embedded FerretDB restarted"));
  embedded.on("failed", (error: unknown) => logger.fatal({ err: error }, "embedded FerretDB could not be restarted: /healthz answers 503"));
  logger.info(
    { mongodbUri: embedded.uri, backend: config.ferretdbPostgresUrl ? "postgresql" : "sqlite", pid: embedded.pid },
    "embedded FerretDB started; its connection string is also in <data>/mongodb-uri",
  );
  return embedded;
}

/**
 * One bucket per tenant and principal, shared by every door of this process (README "Limits,
 * sessions and production mode"). The tenant's bucket and the fair shares of in-flight capacity
 * are policy data (policies/memgate/admission), read at each use; refusals by either are
 * answered at one pace per principal and tenant (src/http/admission-pacing.ts).
 */
function doorLimits(config: Config, policy: PolicyEngine): { admission: Admission; rateLimiter: PrincipalRateLimiter } {
  const admissionData = (): AdmissionData => (policy.loaded ? policy.data<AdmissionData | undefined>("admission") : undefined) ?? DEFAULT_ADMISSION;
  const admission = new Admission(admissionData, undefined, config.door.rateLimit.perSecond > 0);
  const rateLimiter = new PrincipalRateLimiter(
    config.door.rateLimit,
    () => {
      const tenant = admissionData().tenant_rate;
      return tenant && { perSecond: tenant.per_second, burst: tenant.burst };
    },
    undefined,
    admission.pacer,
  );
  return { admission, rateLimiter };
}

/** Declarations against the policy's bounds, and stored text against re-judging (issue 23): a mismatch does not start. */
function checkDeclarations(contracts: ContractModule[], policy: PolicyEngine): void {
  const policyContracts = () => policy.data<Record<string, { fields?: Record<string, unknown> } | undefined> | undefined>("contracts");
  const problems = declarationProblems(contracts, policy.loaded ? (name) => policyContracts()?.[name]?.fields : undefined);
  if (problems.length > 0) throw new DeclarationError(problems);
}

/** Every door on one HTTP server (GraphQL, REST, MCP, audit export, the ledger page, health and metrics), listening. */
async function openDoors(
  config: Config,
  services: Services,
  parts: {
    db: Database;
    embedded: EmbeddedFerretDb | undefined;
    verifier: TokenVerifier;
    logger: Logger;
    rateLimiter: PrincipalRateLimiter;
    admission: Admission;
    developmentKeyPem: string | undefined;
  },
): Promise<RunningHttpServer> {
  const { db, embedded, verifier, logger, rateLimiter, admission, developmentKeyPem } = parts;
  const { kernel, policy, metrics, contracts } = services;
  const http = await createHttpServer({
    schema: buildGatewaySchema(),
    services,
    verifier,
    logger,
    door: config.door,
    rateLimiter,
    admission,
    routers: [
      healthRouter(db, policy, embedded),
      metricsRouter(metrics),
      auditExportRouter(kernel, contracts.audit.operations.exportEvents, verifier, logger),
      ledgerPageRouter(undefined, config),
      agentRouter(verifier, kernel, contracts.agent.operations, logger, { door: config.door, rateLimiter, admission }),
      mcpRouter({ config, verifier, services, logger, rateLimiter, admission }),
      operationRouter(CONTRACT_DEFINITIONS, { verifier, services, logger, door: config.door, rateLimiter, admission }),
      openApiRouter(),
      ...(developmentKeyPem ? [developmentJwksRouter(await developmentJwk(developmentKeyPem))] : []),
    ],
  });
  await new Promise<void>((resolve, reject) => {
    http.httpServer.once("error", reject);
    http.httpServer.listen(config.port, config.host, () => resolve());
  });
  return http;
}

export interface GatewayOptions {
  config: Config;
  clock?: Clock;
  logger?: Logger;
  /** Replaces the default detector list (tests use it to break a detector for real). */
  detectors?: readonly Detector[];
  /** Added to the default detectors (tests use it to make one throw on a marker). */
  extraDetectors?: readonly Detector[];
  /** Objects per re-audit batch (src/jobs/reaudit.ts); tests make it small to walk many batches. */
  reauditBatchSize?: number;
  /**
   * The wall clock tokens are judged by (exp, iat, socket expiry). Apart from `clock` because
   * tokens come from an issuer living in real time while tests move the domain clock by months.
   */
  sessionClock?: Clock;
}

/**
 * The composition root: the one place that wires parts together. `main.ts` runs it for
 * the process; tests and benchmarks run it in-process against a real database and policy.
 */
export class Gateway {
  private constructor(
    readonly config: Config,
    readonly logger: Logger,
    readonly services: Services,
    readonly db: Database,
    readonly databaseUri: string,
    private readonly client: DatabaseClient,
    private readonly embedded: EmbeddedFerretDb | undefined,
    private readonly http: RunningHttpServer,
    readonly auditSystem?: AuditSystem,
  ) {}

  static async start(options: GatewayOptions): Promise<Gateway> {
    const { config } = options;
    const clock = options.clock ?? systemClock;
    const logger = options.logger ?? createLogger(config.logLevel);

    let embedded: EmbeddedFerretDb | undefined;
    let databaseUri = config.mongodbUri;
    if (!databaseUri) {
      embedded = await startEmbeddedDatabase(config, logger);
      databaseUri = embedded.uri;
    }
    let startedClient: DatabaseClient | undefined;
    let startedAudit: AuditSystem | undefined;
    try {
      const { client, db, reachability } = await connectDatabase(databaseUri, config.dbName);
      startedClient = client;
      // Only where the database reads through them (INDEXES in src/store/database.ts says why).
      if (config.secondaryIndexes) await ensureIndexes(db);

      const policy = new PolicyEngine(config.policyBundlePath, logger, bundleTrust(config.policyPublicKeysPem));
      await policy.reload();
      policy.watch();

      const developmentKeyPem = config.jwt.publicKeyPem || config.jwt.jwksUrl ? undefined : (await ensureDevKeyPair(config.dataDir, "jwt")).publicKeyPem;
      const verifier = TokenVerifier.create({
        ...config.jwt,
        publicKeyPem: config.jwt.publicKeyPem ?? developmentKeyPem,
        clock: options.sessionClock ?? systemClock,
        maxLifetimeS: config.door.session.maxTokenLifetimeS,
        clockSkewS: config.door.session.clockSkewS,
      });
      const { admission, rateLimiter } = doorLimits(config, policy);

      const events = new EventLog(db, clock);
      events.onHeadError = (error, tenant) => logger.warn({ err: error, tenant }, "chain head not advanced (harmless: reads walk forward from it)");
      const metrics = new Metrics();
      const detectors = createDetectorSuite(options.detectors ?? [...defaultDetectors(policy), ...(options.extraDetectors ?? [])]);
      const stores: ContractStore[] = [];
      const idempotency = {
        store: new MongoIdempotencyStore(db),
        windowMs: config.idempotencyWindowS * 1000,
        waitMs: config.idempotencyWaitMs,
        // An attempt this old is presumed dead, as the repair presumes of an unsettled object (docs/FAULTS.md "Idempotency").
        staleMs: config.audit.repairMinAgeMs,
        exists: async (o: ReservedObject) => (await stores.find((s) => s.contract === o.contract)?.lookup(o.tenantId, o.subjectId, o.objectId))?.found ?? false,
      };
      const kernel = new Kernel({
        policy,
        events,
        faults: STORE_FAULTS,
        clock,
        logger,
        detectors,
        metrics,
        // An embedded database's supervisor knows its state at once, also that a restarted one is back
        // (the driver's monitor would take up to a heartbeat longer); an external one is known by the driver.
        database: embedded ?? reachability,
        idempotency,
      });
      const auditSystem = await AuditSystem.create({ db, config, logger, kernel, events, stores, doors: admission });
      startedAudit = auditSystem;
      const rejudgeTargets: RejudgeTarget[] = [];
      const contracts = createContracts({
        db,
        kernel,
        policy,
        events,
        clock,
        logger,
        config,
        metrics,
        detectors,
        stores,
        auditLog: auditSystem,
        rejudgeTargets,
      });
      checkDeclarations(Object.values(contracts) as ContractModule[], policy);
      for (const contract of Object.values(contracts) as ContractModule[]) stores.push(...contract.stores);
      for (const contract of Object.values(contracts) as ContractModule[]) rejudgeTargets.push(...(contract.rejudge ?? []));
      if (config.secondaryIndexes) for (const store of stores) await store.ensureIndexes();
      // Start-up duties over every store: policy version check, repair, chain verification, timers.
      await auditSystem.start();
      // Issue 13 item 5: every bundle that comes into force re-judges stored memory in the background.
      const reaudit = new Reauditor({ db, kernel, policy, events, clock, logger, targets: rejudgeTargets, batchSize: options.reauditBatchSize });
      reaudit.start();
      const services: Services = {
        policy,
        kernel,
        contracts,
        metrics,
        events,
        reaudit,
      };

      const http = await openDoors(config, services, { db, embedded, verifier, logger, rateLimiter, admission, developmentKeyPem });
      return new Gateway(config, logger, services, db, databaseUri, client, embedded, http, auditSystem);
    } catch (error) {
      await startedAudit?.stop().catch(() => undefined);
      await startedClient?.close().catch(() => undefined);
      await embedded?.stop();
      throw error;
    }
  }

  /** The supervised embedded database, when this gateway started one (no MONGODB_URI). */
  get embeddedDatabase(): EmbeddedFerretDb | undefined {
    return this.embedded;
  }

  get port(): number {
    return (this.http.httpServer.address() as AddressInfo).port;
  }

  get url(): string {
    return `http://${this.config.host}:${this.port}`;
  }

  /** Resolves once what answered requests left to do off the request path (settle marks, counters, chain heads) has landed. */
  async idle(): Promise<void> {
    const stores = (Object.values(this.services.contracts) as ContractModule[]).flatMap((contract) => contract.stores);
    await Promise.all([
      ...stores.map((store) => store.idle?.()),
      this.services.events.settled(),
      this.services.kernel.idle(),
      this.auditSystem?.checkpointer.settled(),
    ]);
  }

  /** Graceful: drain requests and subscriptions, close the database, stop the embedded one. */
  async stop(): Promise<void> {
    await this.http.stop();
    // Off-path work lands first, for a while: what is left after that is settled by the next start's repair.
    await Promise.race([this.idle(), new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
    await this.services.reaudit?.stop();
    await this.auditSystem?.stop();
    this.services.policy.close();
    await this.client.close();
    await this.embedded?.stop();
  }
}
