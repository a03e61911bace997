import { Router } from "express";
import type { PolicyEngine } from "../policy/policy-engine";
import { pingDatabase, type Database } from "../store/database";

/** /healthz: the process is up. /readyz: it can serve (database answers, a policy is loaded). */
export function healthRouter(db: Database, policy: PolicyEngine): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const database = await pingDatabase(db);
    const ready = database && policy.loaded;
    res.status(ready ? 200 : 503).json({
      status: ready ? "ready" : "not_ready",
      database: database ? "ok" : "unreachable",
      policy: policy.loaded ? { hash: policy.hash, contractVersion: policy.contract.version } : "not_loaded",
    });
  });
  return router;
}
