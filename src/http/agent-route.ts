import express, { Router } from "express";
import { AuthenticationError, type TokenVerifier } from "../auth/token-verifier";
import { runDocument } from "../contracts/agent/door";
import type { AgentOperations } from "../contracts/agent/operations";
import type { Kernel } from "../kernel/execute";
import type { Logger } from "../logger";

/**
 * POST /v1/memory: a seed-001 document (memory.read.request, memory.write.request or
 * memory.update.request) as JSON, unchanged; the answer is JSON with one stop reason.
 * Bearer token as for /graphql. Refusals are 200 answers with their stop reason; only a
 * missing or bad token (401) and a body that is not JSON (400) are HTTP errors.
 * The body is never logged (SPEC D4). The kernel runs the agent contract's operation.
 */
export function agentRouter(verifier: TokenVerifier, kernel: Kernel, agent: AgentOperations, logger: Logger): Router {
  const router = Router();
  router.post("/v1/memory", express.json({ limit: "256kb", strict: false, type: () => true }), async (req, res) => {
    let principal;
    try {
      principal = await verifier.verifyAuthorization(req.headers.authorization);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) {
        logger.error({ err: error, requestId: req.requestId }, "token verification failed unexpectedly");
        res.status(500).json({ errors: [{ message: "Internal server error", extensions: { code: "INTERNAL_SERVER_ERROR" } }] });
        return;
      }
      res.status(401).json({ errors: [{ message: `Unauthenticated: ${error.reason}`, extensions: { code: "UNAUTHENTICATED" } }] });
      return;
    }
    res.json(await runDocument(kernel, agent, principal, req.body, { requestId: req.requestId }));
  });
  return router;
}
