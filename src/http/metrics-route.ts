import { Router } from "express";
import type { Metrics } from "../kernel/metrics";

/** GET /metrics in the Prometheus text format. */
export function metricsRouter(metrics: Metrics): Router {
  const router = Router();
  router.get("/metrics", async (_req, res) => {
    res.setHeader("content-type", metrics.registry.contentType);
    res.send(await metrics.registry.metrics());
  });
  return router;
}
