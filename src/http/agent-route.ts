import express, { Router, type NextFunction, type Request, type Response } from "express";
import type { Principal } from "../auth/principal";
import type { TokenVerifier } from "../auth/token-verifier";
import type { DoorConfig } from "../config";
import { runDocument } from "../contracts/agent/door";
import type { AgentOperations } from "../contracts/agent/operations";
import { toResponse } from "../contracts/agent/response";
import type { DoorRefusal, Kernel } from "../kernel/execute";
import { IDEMPOTENCY_HEADER, IdempotencyKeyError, parseIdempotencyKey } from "../kernel/idempotency";
import type { Logger } from "../logger";
import { jsonDeeperThan } from "./limits";
import type { Admission } from "./admission";
import type { PrincipalRateLimiter } from "./rate-limit";
import { admit, authenticate, requireJson, waitAsideOf } from "./door-guards";

export interface AgentRouteLimits {
  door: Pick<DoorConfig, "bodyLimitBytes" | "jsonMaxDepth">;
  rateLimiter: PrincipalRateLimiter;
  admission: Admission;
}

/**
 * A body the door cannot hand on (too large, too deep): the kernel runs DISPATCH without the
 * document, the policy answers SCHEMA_INVALID at its root, and the refusal has its event like any
 * other. The HTTP status still says what the transport refused (413, 400).
 */
async function refuseDocument(res: Response, status: number, refused: DoorRefusal, kernel: Kernel, agent: AgentOperations, requestId: string): Promise<void> {
  const outcome = await kernel.run(agent.dispatch, res.locals.principal as Principal, {}, { requestId, refused });
  res.status(status).json(toResponse(null, outcome));
}

/**
 * POST /v1/memory: a seed-001 document (memory.read.request, memory.write.request or
 * memory.update.request) as JSON, unchanged; the answer is JSON with one stop reason.
 * Bearer token as for /graphql. Refusals are 200 answers with their stop reason; HTTP errors
 * are for the transport: not application/json (415), a missing or bad token (401), over the
 * caller's rate (429 with Retry-After), a body that is not JSON (400), too large (413) or too deep
 * (400), the last two answered by the policy (stop_reason SCHEMA_INVALID) with their refuse event.
 * The body is never logged (SPEC D4). The kernel runs the agent contract's operation.
 */
export function agentRouter(verifier: TokenVerifier, kernel: Kernel, agent: AgentOperations, logger: Logger, limits: AgentRouteLimits): Router {
  const router = Router();
  const { door, rateLimiter, admission } = limits;
  router.post(
    "/v1/memory",
    requireJson("POST /v1/memory takes Content-Type: application/json"),
    authenticate(verifier, rateLimiter, logger),
    express.json({ limit: door.bodyLimitBytes, strict: false }),
    (error: { status?: number; type?: string }, req: Request, res: Response, next: NextFunction) => {
      if (error.type !== "entity.too.large") return next(error);
      refuseDocument(res, 413, { reason: "too_large", limit: door.bodyLimitBytes }, kernel, agent, req.requestId).catch(next);
    },
    // The caller's fair share of the read or write lane, once the body says which.
    admit(admission, (req) => ((req.body as { op?: unknown } | null)?.op === "read" ? "read" : "write")),
    async (req: Request, res: Response) => {
      if (jsonDeeperThan(req.body, door.jsonMaxDepth))
        return refuseDocument(res, 400, { reason: "too_deep", limit: door.jsonMaxDepth }, kernel, agent, req.requestId);
      let idempotencyKey: string | undefined;
      try {
        idempotencyKey = parseIdempotencyKey(req.headers[IDEMPOTENCY_HEADER]);
      } catch (error) {
        if (!(error instanceof IdempotencyKeyError)) throw error;
        res.status(400).json({ errors: [{ message: error.message, extensions: { code: "BAD_USER_INPUT", reason: error.code } }] });
        return;
      }
      res.json(
        await runDocument(kernel, agent, res.locals.principal as Principal, req.body, {
          requestId: req.requestId,
          idempotencyKey,
          waitAside: waitAsideOf(res),
        }),
      );
    },
  );
  return router;
}
