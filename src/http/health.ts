import { Router } from "express";
import type { PolicyEngine } from "../policy/policy-engine";
import { pingDatabase, type Database } from "../store/database";
import type { EmbeddedFerretDb } from "../store/embedded-ferretdb";

/**
 * /healthz: liveness. 503 only when this process cannot recover by itself (its embedded
 * database's supervisor gave up): a restart of the process is what helps then.
 * /readyz: readiness. The database answers (and, when embedded, is not restarting) and a
 * policy is loaded.
 */
export function healthRouter(db: Database, policy: PolicyEngine, embedded?: EmbeddedFerretDb): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    const failed = embedded?.state === "failed";
    res.status(failed ? 503 : 200).json(failed ? { status: "failed", database: "embedded database could not be restarted" } : { status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const database = embedded && !embedded.available ? false : await pingDatabase(db);
    const ready = database && policy.loaded;
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "not_ready",
      database: database ? "ok" : embedded && embedded.state !== "running" ? embedded.state : "unreachable",
      policy: policy.loaded ? { hash: policy.hash, signerKeyId: policy.signerKeyId, contractVersion: policy.contract.version } : "not_loaded",
    });
  });
  return router;
}
