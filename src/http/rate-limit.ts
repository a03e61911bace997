import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Principal } from "../auth/principal";

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimitOptions {
  /** Sustained requests per second per principal; 0 turns the limiter off. */
  perSecond: number;
  /** Requests a principal may make on top of the sustained rate before it is held to it. */
  burst: number;
}

/**
 * One bucket per tenant and principal (the token's `sub`), so one token cannot flood its
 * tenant's chain with refusals nor starve the tenant's other callers. rate-limiter-flexible's
 * BurstyRateLimiter is its token-bucket shape: a per-second bucket plus a burst bucket that
 * refills over burst / perSecond seconds. In-process: each gateway process counts its own.
 *
 * Every door calls `consume(principal)` once per request or socket operation, after
 * authentication and before any work: GraphQL over HTTP and graphql-ws, POST /v1/memory,
 * and any new door (the MCP door gets the gateway's instance).
 */
export class PrincipalRateLimiter {
  private readonly limiter: BurstyRateLimiter | undefined;

  constructor(options: RateLimitOptions) {
    if (options.perSecond <= 0) return;
    this.limiter = new BurstyRateLimiter(
      new RateLimiterMemory({ keyPrefix: "memgate-rate", points: options.perSecond, duration: 1 }),
      new RateLimiterMemory({ keyPrefix: "memgate-burst", points: options.burst, duration: Math.max(1, Math.ceil(options.burst / options.perSecond)) }),
    );
  }

  async consume(principal: Pick<Principal, "tenant" | "id">): Promise<RateDecision> {
    if (!this.limiter) return { allowed: true };
    try {
      await this.limiter.consume(`${principal.tenant}\u0000${principal.id}`);
      return { allowed: true };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }
}
