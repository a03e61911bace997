import { Router } from "express";
import type { Principal } from "../auth/principal";
import type { TokenVerifier } from "../auth/token-verifier";
import type { AuditOperations } from "../contracts/audit";
import type { Kernel } from "../kernel/execute";
import type { Logger } from "../logger";
import { httpStatusOf } from "./stop-status";

/** One event per line, as stored minus the storage `_id`: what docs/AUDIT.md hashes. */
export function ndjsonLine(event: object): string {
  const { _id: _unused, ...rest } = event as { _id?: unknown };
  return `${JSON.stringify(rest)}\n`;
}

/**
 * GET /audit/export.ndjson?afterSeq=N with an auditor's Bearer token: a signed manifest line
 * (tenant, range, anchor, public keys; src/store/log/export.ts), then the tenant's events
 * after N, one per line. A door: it parses, runs the audit contract's EXPORT_EVENTS through
 * the kernel and shapes the answer. Refusals answer JSON with the stop reason, at the status
 * the policy's table gives it (src/http/stop-status.ts: 400 for bad input, 500 for the
 * gateway's failure, 403 otherwise).
 */
export function auditExportRouter(kernel: Kernel, exportEvents: AuditOperations["exportEvents"], verifier: TokenVerifier, logger: Logger): Router {
  const router = Router();
  router.get("/audit/export.ndjson", async (req, res) => {
    let principal: Principal;
    try {
      principal = await verifier.verifyAuthorization(req.headers.authorization);
    } catch {
      res.status(401).json({ errors: [{ message: "Unauthenticated", extensions: { code: "UNAUTHENTICATED" } }] });
      return;
    }
    const raw = req.query.afterSeq;
    const afterSeq = raw === undefined ? 0 : typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : -1;
    const outcome = await kernel.run(exportEvents, principal, { afterSeq }, { requestId: req.requestId });
    if (!outcome.value) {
      res.status(httpStatusOf(outcome.stopReason)).json({ stopReason: outcome.stopReason, decisionId: outcome.decisionId, explanations: outcome.explanations });
      return;
    }
    res.status(200);
    res.setHeader("content-type", "application/x-ndjson; charset=utf-8");
    res.setHeader("x-memgate-decision-id", outcome.decisionId);
    const { manifest, events } = outcome.value;
    res.setHeader("x-memgate-export-range", `${manifest.after_seq}..${manifest.to_seq}`);
    try {
      res.write(`${JSON.stringify(manifest)}\n`);
      for await (const event of events) {
        if (!res.write(ndjsonLine(event))) await new Promise((resolve) => res.once("drain", resolve));
      }
      res.end();
    } catch (error) {
      logger.error({ err: error, requestId: req.requestId }, "audit export failed mid-stream");
      res.destroy(error instanceof Error ? error : undefined);
    }
  });
  return router;
}
