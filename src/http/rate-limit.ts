import type { Principal } from "../auth/principal";
import type { RefusalPacer, Ticker } from "./admission-pacing";

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

export interface RateLimitOptions {
  /** Sustained requests per second per principal; 0 turns the limiter off. */
  perSecond: number;
  /** Requests a principal may make at once, on top of nothing: the bucket's size. */
  burst: number;
}

/** A tenant's bucket, from policy data (`data.memgate.admission.tenant_rate`); absent: no tenant bucket. */
export type TenantRate = () => RateLimitOptions | undefined;

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets: one per tenant and principal (the token's `sub`), and one per tenant for all its
 * principals together, so neither one token nor many tokens of one tenant can flood its chain or
 * starve the others. A bucket holds at most `burst` tokens and refills at `perSecond`: the sustained
 * rate is exactly `perSecond` and the most a caller can do in any `t` seconds is `burst + perSecond·t`.
 * (rate-limiter-flexible's BurstyRateLimiter, used before, adds its burst bucket's refill to the
 * sustained rate: 100/s + 200 per 2 s let 200/s through for a documented 100/s.)
 * In-process: each gateway process counts its own (README "Fair admission" gives the arithmetic).
 *
 * Every door calls `consume(principal)` once per request or socket operation, after
 * authentication and before any work: GraphQL over HTTP and graphql-ws, POST /v1/memory and MCP.
 */
export class PrincipalRateLimiter {
  private readonly principals = new Map<string, Bucket>();
  private readonly tenants = new Map<string, Bucket>();
  private sweptAt: number;

  constructor(
    private readonly options: RateLimitOptions,
    private readonly tenantRate: TenantRate = () => undefined,
    private readonly now: Ticker = () => performance.now(),
    /** Answers refusals at a bounded pace (src/http/admission-pacing.ts); absent: at once. */
    private readonly pacer?: RefusalPacer,
  ) {
    this.sweptAt = now();
  }

  // Kept async: a shared (database) counter could take its place behind the same call.
  async consume(principal: Pick<Principal, "tenant" | "id">): Promise<RateDecision> {
    if (this.options.perSecond <= 0) return { allowed: true };
    const now = this.now();
    this.sweep(now);
    const own = this.take(this.principals, `${principal.tenant}\u0000${principal.id}`, this.options, now, false);
    const tenantOptions = this.tenantRate();
    const tenant = tenantOptions && tenantOptions.perSecond > 0 ? this.take(this.tenants, principal.tenant, tenantOptions, now, false) : 0;
    const wait = Math.max(own, tenant);
    if (wait > 0) {
      const refusal = { allowed: false as const, retryAfterSeconds: Math.max(1, Math.ceil(wait / 1000)) };
      if (!this.pacer) return refusal;
      const paced = await this.pacer.pace(principal, { admitted: false, retryAfterSeconds: refusal.retryAfterSeconds });
      return { allowed: false, retryAfterSeconds: paced.retryAfterSeconds };
    }
    // Both had a token: take them (a refusal by one bucket does not spend the other's).
    this.take(this.principals, `${principal.tenant}\u0000${principal.id}`, this.options, now, true);
    if (tenantOptions && tenantOptions.perSecond > 0) this.take(this.tenants, principal.tenant, tenantOptions, now, true);
    return { allowed: true };
  }

  /** Milliseconds until the bucket has a token (0: it has one now, and it is spent when `spend`). */
  private take(buckets: Map<string, Bucket>, key: string, { perSecond, burst }: RateLimitOptions, now: number, spend: boolean): number {
    const bucket = buckets.get(key) ?? { tokens: burst, at: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
    buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      if (spend) bucket.tokens -= 1;
      return 0;
    }
    return ((1 - bucket.tokens) / perSecond) * 1000;
  }

  /** Full buckets are forgotten once a minute: the maps hold recent callers only. */
  private sweep(now: number): void {
    if (now - this.sweptAt < 60_000) return;
    this.sweptAt = now;
    for (const buckets of [this.principals, this.tenants]) {
      for (const [key, bucket] of buckets) if (now - bucket.at > 60_000) buckets.delete(key);
    }
  }
}
