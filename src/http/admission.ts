import type { Principal } from "../auth/principal";

/**
 * Fair admission at the door (issue 22 §1, SG-LOAD, SG-ISO): how much of this gateway's in-flight
 * capacity each tenant, and each principal within it, may hold, for writes and for reads apart.
 *
 * Two parts, each small enough to read whole:
 * - **How much capacity there is** is measured, not configured: a gradient concurrency limit in the
 *   spirit of Netflix concurrency-limits' GradientLimit (itself TCP Vegas's idea). The no-load
 *   service time is the lowest window average of the last minute; each window's average is compared
 *   with it, and the limit shrinks in proportion while requests take longer than `tolerance` ×
 *   no-load, and grows by √limit while they do not. Why this and not Gradient2 (which compares with
 *   a long-term average): under a sustained flood the long-term average drifts up with the queue,
 *   and the limit stops protecting latency; the victim's p99 is exactly what we promise.
 * - **Who gets it** is an equal split among the tenants that are asking right now (weighted by policy
 *   data), then among each tenant's asking principals: start-time fair queuing with unit cost per
 *   request, in the simplest form that holds here: a request is admitted while its tenant and its
 *   principal are under their shares; otherwise it waits in its principal's bounded queue, and every
 *   finished request admits the longest-waiting request of the tenant furthest under its share.
 *   A lone tenant gets the whole limit (work-conserving); a second tenant that starts asking gets
 *   its half at once, because the flooder's surplus is not refilled until it is back under its half.
 *
 * A full queue, or a wait longer than `maxWaitMs`, answers 429 with Retry-After. The check runs
 * after authentication and before any parse of a GraphQL document, and costs a few map lookups.
 * Everything is per process: capacity is a process's own CPU and connections, so each process
 * measures and splits its own (README "Fair admission" gives the arithmetic for several gateways).
 */

export type Lane = "read" | "write";

/** Policy data (policies/memgate/admission/data.json, `data.memgate.admission`). */
export interface AdmissionData {
  /** One bucket per tenant for all its principals (src/http/rate-limit.ts). */
  tenant_rate?: { per_second: number; burst: number };
  in_flight: { initial: number; min: number; max: number; tolerance: number; window_ms: number; baseline_ms: number; min_per_tenant?: number };
  queue: { per_principal: number; max_wait_ms: number };
  /** Relative shares of the in-flight limit; tenants not listed weigh `default`. */
  tenant_weights: { default: number; tenants: Record<string, number> };
}

export const DEFAULT_ADMISSION: AdmissionData = {
  in_flight: { initial: 16, min: 4, max: 256, tolerance: 2, window_ms: 500, baseline_ms: 60_000, min_per_tenant: 2 },
  queue: { per_principal: 8, max_wait_ms: 5_000 },
  tenant_weights: { default: 1, tenants: {} },
};

export type Admitted = { admitted: true; release(): void };
export type Refused = { admitted: false; retryAfterSeconds: number };
export type AdmissionResult = Admitted | Refused;

/** Milliseconds since some start, monotonic; injected so tests move time by hand. */
export type Ticker = () => number;
const monotonic: Ticker = () => performance.now();

/**
 * The gradient limit of one lane. `sample(ms)` at every finished request; the limit moves once per
 * window. Exported for its own tests.
 */
export class GradientLimit {
  private limitValue: number;
  /** Recent windows' average service times: the lowest of them is the no-load time. */
  private readonly windows: { at: number; averageRtt: number }[] = [];
  private windowStart: number;
  private windowSum = 0;
  private windowCount = 0;

  constructor(
    private readonly settings: AdmissionData["in_flight"],
    private readonly now: Ticker,
  ) {
    this.limitValue = settings.initial;
    this.windowStart = now();
  }

  get limit(): number {
    return Math.floor(this.limitValue);
  }

  /** The no-load service time: the lowest window average of the last `baseline_ms` (a single lucky sample would be too low). */
  private get baseline(): number {
    return Math.min(...this.windows.map((w) => w.averageRtt));
  }

  sample(rttMs: number, inFlight: number): void {
    const now = this.now();
    this.windowSum += rttMs;
    this.windowCount += 1;
    if (now - this.windowStart < this.settings.window_ms) return;
    const averageRtt = Math.max(this.windowSum / this.windowCount, 0.05);
    this.windowStart = now;
    this.windowSum = 0;
    this.windowCount = 0;
    this.windows.push({ at: now, averageRtt });
    // The no-load time is re-learnt from recent windows (a deploy, a warmer cache, a slower disk).
    while (this.windows.length > 1 && now - this.windows[0].at > this.settings.baseline_ms) this.windows.shift();
    const { min, max, tolerance } = this.settings;
    const gradient = Math.max(0.5, Math.min(1, (tolerance * this.baseline) / averageRtt));
    // Slower than tolerated: shrink in proportion. Within it: grow by √limit, but only when the limit
    // was used (an idle gateway's limit says nothing about its capacity).
    const next = gradient < 1 ? this.limitValue * gradient : this.limitValue + (inFlight >= this.limitValue / 2 ? Math.sqrt(this.limitValue) : 0);
    this.limitValue = Math.max(min, Math.min(max, 0.8 * this.limitValue + 0.2 * next));
  }
}

interface Waiter {
  tenant: string;
  principal: string;
  since: number;
  resolve(result: AdmissionResult): void;
  timer: NodeJS.Timeout;
}

interface Holder {
  inFlight: number;
  queue: Waiter[];
}

class LaneScheduler {
  readonly gradient: GradientLimit;
  private inFlightTotal = 0;
  private readonly tenants = new Map<string, Holder & { principals: Map<string, Holder> }>();
  /** Counters for the benchmark and /metrics. */
  admitted = 0;
  refused = 0;

  constructor(
    private readonly data: () => AdmissionData,
    private readonly now: Ticker,
  ) {
    this.gradient = new GradientLimit(data().in_flight, now);
  }

  get inFlight(): number {
    return this.inFlightTotal;
  }

  private weightOf(tenant: string): number {
    const weights = this.data().tenant_weights;
    return weights.tenants[tenant] ?? weights.default;
  }

  /** The tenant's share of the limit among the tenants asking now (in flight or waiting), and its principal's share of that. */
  private shares(tenant: string, principal: string): { tenantShare: number; principalShare: number } {
    let weights = 0;
    for (const [name, holder] of this.tenants) if (holder.inFlight > 0 || holder.queue.length > 0 || name === tenant) weights += this.weightOf(name);
    // Every asking tenant may hold at least `min_per_tenant`, however low the measured limit has gone.
    const tenantShare = Math.max(this.data().in_flight.min_per_tenant ?? 1, Math.floor((this.gradient.limit * this.weightOf(tenant)) / weights));
    const holder = this.tenants.get(tenant);
    let asking = 0;
    for (const [name, p] of holder?.principals ?? []) if (p.inFlight > 0 || p.queue.length > 0 || name === principal) asking += 1;
    return { tenantShare, principalShare: Math.max(1, Math.floor(tenantShare / Math.max(1, asking))) };
  }

  private holders(tenant: string, principal: string) {
    let t = this.tenants.get(tenant);
    if (!t) this.tenants.set(tenant, (t = { inFlight: 0, queue: [], principals: new Map() }));
    let p = t.principals.get(principal);
    if (!p) t.principals.set(principal, (p = { inFlight: 0, queue: [] }));
    return { t, p };
  }

  private fits(tenant: string, principal: string): boolean {
    const { t, p } = this.holders(tenant, principal);
    const { tenantShare, principalShare } = this.shares(tenant, principal);
    return t.inFlight < tenantShare && p.inFlight < principalShare;
  }

  private grant(tenant: string, principal: string): Admitted {
    const { t, p } = this.holders(tenant, principal);
    t.inFlight += 1;
    p.inFlight += 1;
    this.inFlightTotal += 1;
    this.admitted += 1;
    const started = this.now();
    let released = false;
    return {
      admitted: true,
      release: () => {
        if (released) return;
        released = true;
        this.gradient.sample(this.now() - started, this.inFlightTotal);
        t.inFlight -= 1;
        p.inFlight -= 1;
        this.inFlightTotal -= 1;
        this.dispatch();
        this.forget(tenant, principal);
      },
    };
  }

  private retryAfter(): Refused {
    this.refused += 1;
    return { admitted: false, retryAfterSeconds: 1 };
  }

  acquire(tenant: string, principal: string): AdmissionResult | Promise<AdmissionResult> {
    const { p } = this.holders(tenant, principal);
    if (p.queue.length === 0 && this.fits(tenant, principal)) return this.grant(tenant, principal);
    const { per_principal, max_wait_ms } = this.data().queue;
    if (p.queue.length >= per_principal) {
      this.forget(tenant, principal);
      return this.retryAfter();
    }
    return new Promise<AdmissionResult>((resolve) => {
      const waiter: Waiter = {
        tenant,
        principal,
        since: this.now(),
        resolve,
        timer: setTimeout(() => {
          const at = p.queue.indexOf(waiter);
          if (at < 0) return;
          p.queue.splice(at, 1);
          this.holders(tenant, principal).t.queue.splice(this.holders(tenant, principal).t.queue.indexOf(waiter), 1);
          this.forget(tenant, principal);
          resolve(this.retryAfter());
        }, max_wait_ms),
      };
      waiter.timer.unref?.();
      p.queue.push(waiter);
      this.holders(tenant, principal).t.queue.push(waiter);
    });
  }

  /** Admits waiting requests while any fits: the tenant furthest under its share first, its longest waiter first. */
  private dispatch(): void {
    for (;;) {
      let best: Waiter | undefined;
      let bestRatio = Infinity;
      for (const [name, t] of this.tenants) {
        for (const waiter of t.queue) {
          if (!this.fits(waiter.tenant, waiter.principal)) continue;
          const ratio = t.inFlight / this.weightOf(name);
          if (ratio < bestRatio || (ratio === bestRatio && best && waiter.since < best.since)) {
            best = waiter;
            bestRatio = ratio;
          }
          break; // a tenant's queue is in arrival order: its first fitting waiter speaks for it
        }
      }
      if (!best) return;
      const { t, p } = this.holders(best.tenant, best.principal);
      t.queue.splice(t.queue.indexOf(best), 1);
      p.queue.splice(p.queue.indexOf(best), 1);
      clearTimeout(best.timer);
      best.resolve(this.grant(best.tenant, best.principal));
    }
  }

  /** Holders with nothing in flight and nothing waiting are dropped, so the maps hold the active callers only. */
  private forget(tenant: string, principal: string): void {
    const t = this.tenants.get(tenant);
    if (!t) return;
    const p = t.principals.get(principal);
    if (p && p.inFlight === 0 && p.queue.length === 0) t.principals.delete(principal);
    if (t.inFlight === 0 && t.queue.length === 0 && t.principals.size === 0) this.tenants.delete(tenant);
  }
}

const UNLIMITED: Admitted = { admitted: true, release: () => undefined };

/** Both lanes of one gateway process, shared by every door. */
export class Admission {
  private readonly lanes: Record<Lane, LaneScheduler>;

  constructor(
    data: () => AdmissionData = () => DEFAULT_ADMISSION,
    now: Ticker = monotonic,
    /** Off with the rate limits (MEMGATE_RATE_LIMIT_PER_S=0: benchmarks of the store, not of the door). */
    private readonly enabled = true,
  ) {
    this.lanes = { read: new LaneScheduler(data, now), write: new LaneScheduler(data, now) };
  }

  /** Admitted (call `release()` when the request's answer is sent; more calls do nothing), or refused with a Retry-After. */
  acquire(principal: Pick<Principal, "tenant" | "id">, lane: Lane): AdmissionResult | Promise<AdmissionResult> {
    if (!this.enabled) return UNLIMITED;
    return this.lanes[lane].acquire(principal.tenant, principal.id);
  }

  /** What the benchmark and /metrics read. */
  stats(lane: Lane): { limit: number; inFlight: number; admitted: number; refused: number } {
    const l = this.lanes[lane];
    return { limit: l.gradient.limit, inFlight: l.inFlight, admitted: l.admitted, refused: l.refused };
  }
}

/**
 * The door's whole check, in order: the caller's and its tenant's rate (token buckets), then its
 * fair share of the lane's in-flight capacity (which may wait in a bounded queue). Refused: 429 and
 * Retry-After. Admitted: `release()` once the answer is sent.
 */
export async function admit(
  rateLimiter: { consume(principal: Pick<Principal, "tenant" | "id">): Promise<{ allowed: true } | { allowed: false; retryAfterSeconds: number }> },
  admission: Admission,
  principal: Pick<Principal, "tenant" | "id">,
  lane: Lane,
): Promise<AdmissionResult> {
  const rate = await rateLimiter.consume(principal);
  if (!rate.allowed) return { admitted: false, retryAfterSeconds: rate.retryAfterSeconds };
  return admission.acquire(principal, lane);
}

/** A GraphQL document's lane, read from its text without parsing it: a mutation writes, anything else reads. */
export function laneOfGraphQL(query: unknown, operationName?: unknown): Lane {
  if (typeof query !== "string") return "read";
  // Comments and whitespace may precede the first operation; a named operation is looked for by name.
  const stripped = query.replace(/#[^\n\r]*/g, "");
  if (typeof operationName === "string" && /^[_A-Za-z][_0-9A-Za-z]*$/.test(operationName))
    return new RegExp(`\\bmutation\\s+${operationName}\\b`).test(stripped) ? "write" : "read";
  return /^\s*mutation\b/.test(stripped) ? "write" : "read";
}
