import type { Principal } from "../auth/principal";
import { DEFAULT_REFUSAL_PACING, realTimer, RefusalPacer, type RefusalPacing, type Ticker, type Timer } from "./admission-pacing";

export type { Ticker, Timer } from "./admission-pacing";

/**
 * Fair admission at the door (issue 22 §1, SG-LOAD, SG-ISO): how much of this gateway's in-flight
 * capacity each tenant, and each principal within it, may hold, for writes and for reads apart.
 *
 * Three parts, each small enough to read whole:
 * - **How much capacity there is** is measured, not configured: a gradient concurrency limit in the
 *   spirit of Netflix concurrency-limits' GradientLimit (itself TCP Vegas's idea). The no-load
 *   service time is the lowest window average of the last `baseline_ms`; each window's average is
 *   compared with it, and the limit shrinks in proportion while requests take longer than
 *   `tolerance` × no-load, and grows by √limit while they do not. Why this and not Gradient2 (which
 *   compares with a long-term average): under a sustained flood the long-term average drifts up
 *   with the queue, and the limit stops protecting latency. It decreases at once (a flood must not
 *   keep for seconds the slots it took while the gateway was idle) and increases smoothly; it may
 *   go down to one request in flight: on a database with one writer every further write in flight
 *   is a wait for the next one.
 * - **Who goes next** is start-time fair queuing over tenants, then over each tenant's principals
 *   (LaneScheduler): under overload every asking tenant gets an equal (weighted) share of the
 *   admissions, whatever its connection count, and a tenant with fewer than `min_per_tenant` in
 *   flight is admitted at once, so a tenant asking now and then never waits behind a flood.
 *   Measured before (one principal, 100 connections): the old equal split of the limit let the
 *   flooder fill every slot between two of the victim's requests, and the limit's floor (4, 2 per
 *   tenant) kept two of its writes in flight however slow the gateway got.
 * - **How fast refusals are answered** (src/http/admission-pacing.ts): a full queue, or a wait
 *   longer than `max_wait_ms`, answers 429 with Retry-After, at a bounded pace per principal and
 *   tenant, so a caller that asks again at once cannot turn refusals into load.
 *
 * The check runs after authentication and before any parse of a GraphQL document, and costs a
 * few map lookups. Everything is per process: capacity is a process's own CPU and connections, so
 * each process measures and splits its own (README "Fair admission" gives the arithmetic for
 * several gateways).
 */

export type Lane = "read" | "write";

/** Policy data (policies/memgate/admission/data.json, `data.memgate.admission`). */
export interface AdmissionData {
  /** One bucket per tenant for all its principals (src/http/rate-limit.ts). */
  tenant_rate?: { per_second: number; burst: number };
  in_flight: {
    initial: number;
    min: number;
    max: number;
    tolerance: number;
    window_ms: number;
    baseline_ms: number;
    /** Requests a window must hold before it counts (absent: 1). */
    window_min_requests?: number;
    /** Requests a tenant may always have in flight, whatever the limit (absent: 1). */
    min_per_tenant?: number;
  };
  queue: { per_principal: number; max_wait_ms: number };
  /** How fast refused callers are answered (src/http/admission-pacing.ts); absent: the defaults. */
  refusals?: RefusalPacing;
  /** Relative shares of the in-flight limit; tenants not listed weigh `default`. */
  tenant_weights: { default: number; tenants: Record<string, number> };
}

export const DEFAULT_ADMISSION: AdmissionData = {
  in_flight: { initial: 4, min: 1, max: 256, tolerance: 2, window_ms: 500, window_min_requests: 5, baseline_ms: 300_000, min_per_tenant: 1 },
  queue: { per_principal: 16, max_wait_ms: 5_000 },
  refusals: DEFAULT_REFUSAL_PACING,
  tenant_weights: { default: 1, tenants: {} },
};

export type Admitted = {
  admitted: true;
  release(): void;
  /**
   * Runs `wait` (a wait on another attempt: an idempotency key held elsewhere) outside the slot:
   * the slot is given back while it runs, and its time is not counted as service time by the
   * gradient limit. On return the request holds a slot again, taken whatever the limit (it was
   * admitted once; the lane runs over its limit by at most the number of such returns at a time).
   */
  waitAside<T>(wait: () => Promise<T>): Promise<T>;
};
export type Refused = { admitted: false; retryAfterSeconds: number };
export type AdmissionResult = Admitted | Refused;

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

  /** The limit before rounding, for /metrics and the benchmark. */
  get value(): number {
    return this.limitValue;
  }

  /**
   * The no-load service time: the lowest window average of the last `baseline_ms`. A window
   * closes once it is `window_ms` long and holds `window_min_requests` requests: windows of one or
   * two requests (a quiet gateway) made the lowest of them a lucky sample no load could keep, and
   * the limit then sat at its minimum with a single tenant asking.
   */
  private get baseline(): number {
    return Math.min(...this.windows.map((w) => w.averageRtt));
  }

  sample(rttMs: number, inFlight: number): void {
    const now = this.now();
    this.windowSum += rttMs;
    this.windowCount += 1;
    if (now - this.windowStart < this.settings.window_ms || this.windowCount < (this.settings.window_min_requests ?? 1)) return;
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
    // Down at once, up smoothly: the seconds a smoothed decrease takes are the seconds a flood
    // keeps the slots it took while the gateway was idle (from 16 to 1 took 13 s at 0.9 a window).
    const next =
      gradient < 1
        ? this.limitValue * gradient
        : 0.8 * this.limitValue + 0.2 * (this.limitValue + (inFlight >= this.limitValue / 2 ? Math.sqrt(this.limitValue) : 0));
    this.limitValue = Math.max(min, Math.min(max, next));
  }
}

interface Waiter {
  tenant: string;
  principal: string;
  resolve(result: AdmissionResult): void;
  /** Set once the waiter is admitted or refused: its timeout then does nothing. */
  done: boolean;
}

interface PrincipalHolder {
  inFlight: number;
  /** This principal's waiters, in arrival order. */
  queue: Waiter[];
  /** Fair queuing within the tenant: how far this principal has been served. */
  virtualTime: number;
}

interface TenantHolder {
  inFlight: number;
  waiting: number;
  principals: Map<string, PrincipalHolder>;
  /** Fair queuing among tenants: how far this tenant has been served, in requests / weight. */
  virtualTime: number;
  /** Where a principal that starts asking starts. */
  principalNow: number;
}

/**
 * One lane's admission: the measured limit of requests in flight, and who goes next. A request
 * is admitted at once while the lane is under its limit and nobody waits, or while its tenant
 * has fewer than `min_per_tenant` in flight (however low the limit and however long the queue:
 * a tenant sending a request now and then never waits behind a flooder). Otherwise it waits in
 * its principal's bounded queue, and each finished request admits the next waiter by start-time
 * fair queuing, two levels: the tenant furthest behind in virtual time (1/weight per admitted
 * request; a tenant that starts asking starts at the lane's current virtual time, so idleness
 * earns no credit), then within it the principal furthest behind. Under overload every asking
 * tenant therefore gets an equal (weighted) share of admissions, and every principal an equal
 * share of its tenant's, whatever their connection counts.
 */
class LaneScheduler {
  readonly gradient: GradientLimit;
  private inFlightTotal = 0;
  private waitingTotal = 0;
  private readonly tenants = new Map<string, TenantHolder>();
  /** The virtual time of the last admission: where a tenant that starts asking starts. */
  private virtualNow = 0;
  /** Counters for the benchmark and /metrics. */
  admitted = 0;
  refused = 0;

  constructor(
    private readonly data: () => AdmissionData,
    private readonly now: Ticker,
    private readonly timer: Timer,
    private readonly pacer: RefusalPacer,
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

  private holders(tenant: string, principal: string): { t: TenantHolder; p: PrincipalHolder } {
    let t = this.tenants.get(tenant);
    if (!t) this.tenants.set(tenant, (t = { inFlight: 0, waiting: 0, principals: new Map(), virtualTime: this.virtualNow, principalNow: 0 }));
    let p = t.principals.get(principal);
    if (!p) t.principals.set(principal, (p = { inFlight: 0, queue: [], virtualTime: t.principalNow }));
    return { t, p };
  }

  /**
   * Whether one more request of this tenant may start now: the lane is under its limit, or the
   * tenant has fewer than `min_per_tenant` in flight (whatever the limit: a tenant asking now and
   * then never waits behind a flood).
   */
  private fits(t: TenantHolder): boolean {
    return t.inFlight < (this.data().in_flight.min_per_tenant ?? 1) || this.inFlightTotal < this.gradient.limit;
  }

  private grant(tenant: string, principal: string): Admitted {
    const { t, p } = this.holders(tenant, principal);
    this.virtualNow = Math.max(this.virtualNow, t.virtualTime);
    t.virtualTime = Math.max(t.virtualTime, this.virtualNow) + 1 / this.weightOf(tenant);
    t.principalNow = Math.max(t.principalNow, p.virtualTime);
    p.virtualTime = Math.max(p.virtualTime, t.principalNow) + 1;
    this.admitted += 1;
    let started = this.enter(tenant, principal);
    let aside = false;
    return admittedOnce(
      () => {
        if (aside) return; // given back while it waits; the wait's end finds the ticket released
        this.gradient.sample(this.now() - started, this.inFlightTotal);
        this.leave(tenant, principal);
      },
      async (wait, released) => {
        if (aside) return wait();
        // The wait measures another attempt, not this lane's load: it is not a service-time sample.
        aside = true;
        this.leave(tenant, principal);
        try {
          return await wait();
        } finally {
          aside = false;
          if (!released()) started = this.enter(tenant, principal);
        }
      },
    );
  }

  /** One more request of this tenant and principal in flight; returns when it started. */
  private enter(tenant: string, principal: string): number {
    const { t, p } = this.holders(tenant, principal);
    t.inFlight += 1;
    p.inFlight += 1;
    this.inFlightTotal += 1;
    return this.now();
  }

  /** One request fewer in flight: the next waiters may start. */
  private leave(tenant: string, principal: string): void {
    const { t, p } = this.holders(tenant, principal);
    t.inFlight -= 1;
    p.inFlight -= 1;
    this.inFlightTotal -= 1;
    this.dispatch();
    this.forget(tenant, principal);
  }

  /** A refusal with Retry-After, answered at the caller's turn (src/http/admission-pacing.ts). */
  private retryAfter(tenant: string, principal: string): Refused | Promise<Refused> {
    this.refused += 1;
    return this.pacer.pace({ tenant, id: principal }, { admitted: false, retryAfterSeconds: 1 });
  }

  acquire(tenant: string, principal: string): AdmissionResult | Promise<AdmissionResult> {
    const { t, p } = this.holders(tenant, principal);
    // Others' waiters wait only while nothing of theirs fits, so a fitting arrival goes at once.
    if (t.waiting === 0 && this.fits(t)) return this.grant(tenant, principal);
    const { per_principal, max_wait_ms } = this.data().queue;
    if (p.queue.length >= per_principal) {
      this.forget(tenant, principal);
      return this.retryAfter(tenant, principal);
    }
    return new Promise<AdmissionResult>((resolve) => {
      const waiter: Waiter = { tenant, principal, resolve, done: false };
      p.queue.push(waiter);
      t.waiting += 1;
      this.waitingTotal += 1;
      this.timer(() => {
        if (waiter.done) return;
        waiter.done = true;
        p.queue.splice(p.queue.indexOf(waiter), 1);
        t.waiting -= 1;
        this.waitingTotal -= 1;
        this.forget(tenant, principal);
        resolve(this.retryAfter(tenant, principal));
      }, max_wait_ms);
    });
  }

  /** Admits waiters while any may start: the tenant furthest behind in virtual time first, within it the principal furthest behind. */
  private dispatch(): void {
    while (this.waitingTotal > 0) {
      let tenant: TenantHolder | undefined;
      let tenantName = "";
      for (const [name, t] of this.tenants) {
        if (t.waiting === 0 || !this.fits(t) || (tenant && !behind(t, tenant, this.weightOf(name), this.weightOf(tenantName)))) continue;
        [tenant, tenantName] = [t, name];
      }
      if (!tenant) return;
      let principal: PrincipalHolder | undefined;
      for (const p of tenant.principals.values()) if (p.queue.length > 0 && (!principal || p.virtualTime < principal.virtualTime)) principal = p;
      const waiter = principal!.queue.shift()!;
      tenant.waiting -= 1;
      this.waitingTotal -= 1;
      waiter.done = true;
      waiter.resolve(this.grant(tenantName, waiter.principal));
    }
  }

  /** Holders with nothing in flight and nothing waiting are dropped, so the maps hold the active callers only. */
  private forget(tenant: string, principal: string): void {
    const t = this.tenants.get(tenant);
    if (!t) return;
    const p = t.principals.get(principal);
    if (p && p.inFlight === 0 && p.queue.length === 0) t.principals.delete(principal);
    if (t.inFlight === 0 && t.waiting === 0 && t.principals.size === 0) this.tenants.delete(tenant);
  }
}

/** Whether tenant `a` goes before `b`: further behind in virtual time; level, the one with fewer (weighted) requests in flight. */
function behind(a: TenantHolder, b: TenantHolder, weightA: number, weightB: number): boolean {
  if (a.virtualTime !== b.virtualTime) return a.virtualTime < b.virtualTime;
  return a.inFlight / weightA < b.inFlight / weightB;
}

const UNLIMITED: Admitted = { admitted: true, release: () => undefined, waitAside: (wait) => wait() };

/**
 * An admission whose `release` runs `done` once, however often it is called; `aside` runs a
 * wait outside the slot and is told whether the ticket was released meanwhile.
 */
function admittedOnce(done: () => void, aside: <T>(wait: () => Promise<T>, released: () => boolean) => Promise<T> = (wait) => wait()): Admitted {
  let released = false;
  return {
    admitted: true,
    release: () => {
      if (released) return;
      released = true;
      done();
    },
    waitAside: (wait) => (released ? wait() : aside(wait, () => released)),
  };
}

/** Both lanes of one gateway process, shared by every door. */
export class Admission {
  private readonly lanes: Record<Lane, LaneScheduler>;
  /** How fast refusals are answered, shared with the rate limiter (src/http/rate-limit.ts). */
  readonly pacer: RefusalPacer;
  /** Requests admitted and not yet answered, on both lanes, counted even with the limits off. */
  private serving = 0;
  /** When a request was last admitted, refused or answered (Ticker ms). */
  private lastActivity = -Infinity;

  constructor(
    data: () => AdmissionData = () => DEFAULT_ADMISSION,
    private readonly now: Ticker = monotonic,
    /** Off with the rate limits (MEMGATE_RATE_LIMIT_PER_S=0: benchmarks of the store, not of the door). */
    private readonly enabled = true,
    timer: Timer = realTimer,
  ) {
    this.pacer = new RefusalPacer(() => data().refusals ?? DEFAULT_REFUSAL_PACING, now, timer);
    this.lanes = { read: new LaneScheduler(data, now, timer, this.pacer), write: new LaneScheduler(data, now, timer, this.pacer) };
  }

  /** Admitted (call `release()` when the request's answer is sent; more calls do nothing), or refused with a Retry-After. */
  acquire(principal: Pick<Principal, "tenant" | "id">, lane: Lane): AdmissionResult | Promise<AdmissionResult> {
    const result = this.enabled ? this.lanes[lane].acquire(principal.tenant, principal.id) : UNLIMITED;
    return result instanceof Promise ? result.then((r) => this.tracked(r)) : this.tracked(result);
  }

  /**
   * How long the doors have served nothing (ms): 0 while a request is being served. Background
   * passes (the start-up verification of the whole log) read it to give way to requests.
   */
  idleForMs(): number {
    return this.serving > 0 ? 0 : this.now() - this.lastActivity;
  }

  private tracked(result: AdmissionResult): AdmissionResult {
    this.lastActivity = this.now();
    if (!result.admitted) return result;
    this.serving++;
    return admittedOnce(
      () => {
        this.serving--;
        this.lastActivity = this.now();
        result.release();
      },
      (wait) => result.waitAside(wait),
    );
  }

  /** What the benchmark and /metrics read. */
  stats(lane: Lane): { limit: number; inFlight: number; admitted: number; refused: number; held: number } {
    const l = this.lanes[lane];
    return { limit: l.gradient.value, inFlight: l.inFlight, admitted: l.admitted, refused: l.refused, held: this.pacer.held };
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
