/**
 * The steps every JSON door (POST /v1/memory, POST /v1/operations/...) takes before the kernel,
 * in this order: the media type, the token and the caller's rate, then its share of the read or
 * write lane. Each answers the transport's status itself (415, 401, 429 with Retry-After, 500);
 * the principal is left in `res.locals.principal`.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Principal } from "../auth/principal";
import { AuthenticationError, type TokenVerifier } from "../auth/token-verifier";
import type { Logger } from "../logger";
import type { Admission, Admitted } from "./admission";
import type { CallContext } from "../kernel/outcome";
import type { PrincipalRateLimiter } from "./rate-limit";
import { explainAuthenticationFailure } from "./unauthenticated";

const errors = (message: string, code: string) => ({ errors: [{ message, extensions: { code } }] });

export function tooMany(res: Response, retryAfterSeconds: number): void {
  res.setHeader("Retry-After", String(retryAfterSeconds));
  res.status(429).json(errors(`Rate limited: retry after ${retryAfterSeconds} s`, "RATE_LIMITED"));
}

/** 415 unless the body is declared JSON. */
export function requireJson(message: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.is("application/json")) return next();
    res.status(415).json(errors(message, "UNSUPPORTED_MEDIA_TYPE"));
  };
}

/** The bearer token (401 with what to check), then the principal's rate (429). */
export function authenticate(verifier: TokenVerifier, rateLimiter: PrincipalRateLimiter, logger: Logger): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    let principal: Principal;
    try {
      principal = await verifier.verifyAuthorization(req.headers.authorization);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) {
        logger.error({ err: error, requestId: req.requestId }, "token verification failed unexpectedly");
        res.status(500).json(errors("Internal server error", "INTERNAL_SERVER_ERROR"));
        return;
      }
      res.status(401).json(errors(`Unauthenticated: ${explainAuthenticationFailure(error.reason, req.headers.authorization)}`, "UNAUTHENTICATED"));
      return;
    }
    const rate = await rateLimiter.consume(principal);
    if (!rate.allowed) return tooMany(res, rate.retryAfterSeconds);
    res.locals.principal = principal;
    next();
  };
}

/**
 * Holds an admission slot until the answer is sent or the caller leaves. A caller that left while
 * it waited for the slot (a page reloaded, a fetch aborted) has had its "close" already: a
 * listener added now would never run and the slot would be lost for good, so it is released at
 * once. Returns whether the caller is still there.
 */
export function holdSlot(res: Response, entry: Admitted): boolean {
  if (res.destroyed || !res.socket || res.socket.destroyed) {
    entry.release();
    return false;
  }
  res.once("close", entry.release);
  res.locals.admitted = entry;
  return true;
}

/** How the kernel waits outside the request's slot (CallContext.waitAside), when the request holds one. */
export function waitAsideOf(res: Response): CallContext["waitAside"] {
  return (res.locals.admitted as Admitted | undefined)?.waitAside;
}

/** The caller's fair share of a lane (src/http/admission.ts), released when the answer is sent. */
export function admit(admission: Admission, laneOf: (req: Request) => "read" | "write"): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    const entry = await admission.acquire(res.locals.principal as Principal, laneOf(req));
    if (!entry.admitted) return tooMany(res, entry.retryAfterSeconds);
    if (holdSlot(res, entry)) next();
  };
}
