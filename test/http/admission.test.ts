import { Admission, DEFAULT_ADMISSION, GradientLimit, laneOfGraphQL, type AdmissionData, type AdmissionResult, type Admitted } from "../../src/http/admission";
import { PrincipalRateLimiter } from "../../src/http/rate-limit";
import { manualTime } from "../support/manual-time";
import { settled } from "../support/settled";

/** A hand-moved monotonic clock (milliseconds): no test here waits for time. */
function ticker(): { now: () => number; advance(ms: number): void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

/**
 * Requests of named callers: those admitted at once are in flight, the others wait; each turn
 * releases the oldest in flight and records who was admitted, in order.
 */
class Turns {
  readonly order: string[] = [];
  private readonly inFlight: Admitted[] = [];
  private readonly waiting = new Map<Promise<AdmissionResult>, string>();

  ask(who: string, result: AdmissionResult | Promise<AdmissionResult>): void {
    if (result instanceof Promise) this.waiting.set(result, who);
    else if (result.admitted) this.admit(who, result);
  }

  async turns(count: number): Promise<void> {
    for (let turn = 0; turn < count; turn++) {
      this.inFlight.shift()?.release();
      for (const [promise, who] of this.waiting) {
        if (!(await settled(promise))) continue;
        this.waiting.delete(promise);
        const result = await promise;
        if (result.admitted) this.admit(who, result);
      }
    }
  }

  private admit(who: string, entry: Admitted): void {
    this.order.push(who);
    this.inFlight.push(entry);
  }
}

const data = (overrides: Partial<AdmissionData> = {}): AdmissionData => ({ ...DEFAULT_ADMISSION, ...overrides });
const admitted = (result: AdmissionResult | Promise<AdmissionResult>): Admitted => {
  if (result instanceof Promise || !result.admitted) throw new Error("expected an immediate admission");
  return result;
};

describe("token buckets: the documented rate is the real one (SG-LOAD, issue 22 §1)", () => {
  it("100/s with a burst of 200: over 10 s of asking 1,000 times a second, exactly 200 + 100 x 10 pass", async () => {
    const clock = ticker();
    const limiter = new PrincipalRateLimiter({ perSecond: 100, burst: 200 }, undefined, clock.now);
    let passed = 0;
    for (let ms = 0; ms < 10_000; ms++) {
      if ((await limiter.consume({ tenant: "t", id: "p" })).allowed) passed += 1;
      clock.advance(1);
    }
    // (BurstyRateLimiter 100/s + 200 per 2 s let about 2,000 + 200 through here.)
    expect(passed).toBeGreaterThanOrEqual(1199);
    expect(passed).toBeLessThanOrEqual(1200);
  });

  it("SG-ISO: 50 principals of one tenant are held to the tenant's bucket together; a principal of another tenant is not", async () => {
    const clock = ticker();
    const limiter = new PrincipalRateLimiter({ perSecond: 100, burst: 200 }, () => ({ perSecond: 500, burst: 1000 }), clock.now);
    let passed = 0;
    for (let ms = 0; ms < 5_000; ms += 10) {
      clock.advance(10);
      for (let p = 0; p < 50; p++) if ((await limiter.consume({ tenant: "flood", id: `p${p}` })).allowed) passed += 1;
    }
    // Each principal alone would be allowed 200 + 100 x 5 = 700, the 50 together 35,000; the tenant's bucket holds them to 1,000 + 500 x 5.
    expect(passed).toBeGreaterThanOrEqual(1000 + 500 * 5 - 10); // floating-point refills of 5.0 tokens a round
    expect(passed).toBeLessThanOrEqual(1000 + 500 * 5 + 1);
    const refused = await limiter.consume({ tenant: "flood", id: "p-new" });
    expect(refused).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect((await limiter.consume({ tenant: "victim", id: "v" })).allowed).toBe(true);
  });

  it("perSecond 0 turns every bucket off", async () => {
    const limiter = new PrincipalRateLimiter({ perSecond: 0, burst: 1 }, () => ({ perSecond: 1, burst: 1 }));
    for (let i = 0; i < 100; i++) expect((await limiter.consume({ tenant: "t", id: "p" })).allowed).toBe(true);
  });
});

describe("fair admission of in-flight capacity (SG-LOAD, SG-ISO, issue 22 §1)", () => {
  const fixed = (limit: number, perPrincipal = 8, overrides: Partial<AdmissionData> = {}): AdmissionData =>
    data({
      in_flight: { ...DEFAULT_ADMISSION.in_flight, initial: limit, min: limit, max: limit },
      queue: { per_principal: perPrincipal, max_wait_ms: 60_000 },
      ...overrides,
    });
  const start = (settings: AdmissionData) => {
    const time = manualTime();
    return { time, admission: new Admission(() => settings, time.now, true, time.timer) };
  };

  it("SG-LOAD: a lone flooder gets the whole limit; a victim tenant is admitted at once however long the flooder's queue, and goes first when it waits", async () => {
    const { admission } = start(fixed(16));
    const flood = { tenant: "flood", id: "one" };
    const held = Array.from({ length: 16 }, () => admitted(admission.acquire(flood, "write")));
    const floodWaiting = [admission.acquire(flood, "write"), admission.acquire(flood, "write")];
    expect(floodWaiting.every((w) => w instanceof Promise)).toBe(true);
    // Past the limit, but its tenant has nothing in flight: at once.
    const victim = admitted(admission.acquire({ tenant: "victim", id: "v" }, "write"));
    const victimWaiting = admission.acquire({ tenant: "victim", id: "v" }, "write") as Promise<AdmissionResult>;
    expect(victimWaiting).toBeInstanceOf(Promise);
    held[0].release(); // 15 + 1 in flight: still at the limit
    expect(await settled(victimWaiting)).toBe(false);
    held[1].release(); // under it: the victim is furthest behind in virtual time, although the flooder waited longer
    expect(await settled(victimWaiting)).toBe(true);
    expect(await settled(floodWaiting[0] as Promise<AdmissionResult>)).toBe(false);
    held[2].release();
    expect(await settled(floodWaiting[0] as Promise<AdmissionResult>)).toBe(true);
    for (const entry of [...held.slice(3), victim, (await victimWaiting) as Admitted]) entry.release();
    for (const w of floodWaiting) ((await w) as Admitted).release();
    expect(admission.stats("write").inFlight).toBe(0);
  });

  it("SG-LOAD: a retry waiting on another attempt's idempotency key gives its slot back while it waits, and takes one again after", async () => {
    const { admission } = start(fixed(1));
    const p = { tenant: "t", id: "p" };
    const retry = admitted(admission.acquire(p, "write"));
    const next = admission.acquire(p, "write") as Promise<AdmissionResult>;
    expect(next).toBeInstanceOf(Promise);
    let endWait!: () => void;
    const waited = retry.waitAside(() => new Promise<string>((resolve) => (endWait = () => resolve("answered"))));
    // While the retry waits, its slot is the next request's.
    expect(await settled(next)).toBe(true);
    expect(admission.stats("write").inFlight).toBe(1);
    endWait();
    expect(await waited).toBe("answered");
    // Back in flight whatever the limit: it was admitted once and is not queued again.
    expect(admission.stats("write").inFlight).toBe(2);
    retry.release();
    retry.release();
    ((await next) as Admitted).release();
    expect(admission.stats("write").inFlight).toBe(0);
  });

  it("SG-LOAD: a wait outside the slot is not service time (the measured limit does not shrink); a caller gone meanwhile takes no slot back", async () => {
    const settings = data({ in_flight: { ...DEFAULT_ADMISSION.in_flight, initial: 8, min: 1, max: 8, window_ms: 0, window_min_requests: 1 } });
    const { admission, time } = start(settings);
    const p = { tenant: "t", id: "p" };
    for (let i = 0; i < 5; i++) {
      const quick = admitted(admission.acquire(p, "write"));
      time.advance(10);
      quick.release();
    }
    const limit = admission.stats("write").limit;
    const retry = admitted(admission.acquire(p, "write"));
    await retry.waitAside(async () => time.advance(2_000));
    time.advance(10);
    retry.release();
    expect(admission.stats("write").limit).toBeGreaterThanOrEqual(limit);
    const gone = admitted(admission.acquire(p, "write"));
    await gone.waitAside(async () => gone.release());
    expect(admission.stats("write").inFlight).toBe(0);
  });

  it("a principal's queue is bounded: past it, 429 with Retry-After, and the refusal is counted", async () => {
    const { admission } = start(fixed(2, 3));
    const p = { tenant: "t", id: "p" };
    const held = [admitted(admission.acquire(p, "read")), admitted(admission.acquire(p, "read"))];
    const queued = [1, 2, 3].map(() => admission.acquire(p, "read"));
    expect(queued.every((q) => q instanceof Promise)).toBe(true);
    expect(admission.acquire(p, "read")).toEqual({ admitted: false, retryAfterSeconds: 1 });
    expect(admission.stats("read")).toMatchObject({ admitted: 2, refused: 1, inFlight: 2 });
    for (const entry of held) entry.release();
    for (const q of queued) ((await q) as Admitted).release();
  });

  it("a wait longer than max_wait_ms is a 429 (the clock and the timers are moved by hand)", async () => {
    const { admission, time } = start({ ...fixed(1), queue: { per_principal: 8, max_wait_ms: 5_000 } });
    const held = admitted(admission.acquire({ tenant: "t", id: "p" }, "write"));
    const waiting = admission.acquire({ tenant: "t", id: "p" }, "write") as Promise<AdmissionResult>;
    time.advance(4_999);
    expect(await settled(waiting)).toBe(false);
    time.advance(1);
    expect(await waiting).toEqual({ admitted: false, retryAfterSeconds: 1 });
    held.release();
    expect(admission.stats("write").inFlight).toBe(0);
  });

  it("SG-ISO: 50 principals of one tenant with many connections get one tenant's turns; a second tenant gets every other turn", async () => {
    const { admission } = start(fixed(4, 8));
    const run = new Turns();
    for (let i = 0; i < 50; i++) for (let c = 0; c < 2; c++) run.ask("flood", admission.acquire({ tenant: "flood", id: `p${i}` }, "write"));
    expect(run.order).toEqual(["flood", "flood", "flood", "flood"]); // alone, the tenant may use the whole limit
    for (let i = 0; i < 4; i++) run.ask("victim", admission.acquire({ tenant: "victim", id: "v" }, "write"));
    expect(run.order.slice(4)).toEqual(["victim"]); // nothing of its tenant in flight: at once, past the limit
    await run.turns(12);
    // From here each finished request admits the tenant furthest behind: the two share the turns
    // (100 requests of 50 principals against 4 of one) until the victim has nothing waiting.
    const shared = run.order.slice(5, 11);
    expect(shared.filter((w) => w === "victim").length).toBe(3);
    expect(shared.filter((w) => w === "flood").length).toBe(3);
    expect(new Set(run.order.slice(11))).toEqual(new Set(["flood"]));
  });

  it("SG-ISO: within a tenant, a principal that starts asking goes before another principal's backlog", async () => {
    const { admission } = start(fixed(1, 8));
    const busy = { tenant: "t", id: "busy" };
    const first = admitted(admission.acquire(busy, "write"));
    const backlog = Array.from({ length: 5 }, () => admission.acquire(busy, "write") as Promise<AdmissionResult>);
    const quiet = admission.acquire({ tenant: "t", id: "quiet" }, "write") as Promise<AdmissionResult>;
    first.release(); // busy has had a turn, quiet none: quiet first, although busy's backlog came earlier
    expect(await settled(quiet)).toBe(true);
    expect(await settled(backlog[0])).toBe(false);
    ((await quiet) as Admitted).release();
    for (const b of backlog) {
      expect(await settled(b)).toBe(true);
      ((await b) as Admitted).release();
    }
    expect(admission.stats("write").inFlight).toBe(0);
  });

  it("reads and writes are separate lanes: a write flood does not take the read lane's slots", () => {
    const { admission } = start(fixed(4, 1));
    for (let i = 0; i < 4; i++) admitted(admission.acquire({ tenant: "t", id: "p" }, "write"));
    expect(admission.acquire({ tenant: "t", id: "p" }, "read")).toMatchObject({ admitted: true });
  });

  it("tenant weights from policy data give a heavier tenant two turns for a plain tenant's one", async () => {
    const { admission } = start({ ...fixed(6, 100), tenant_weights: { default: 1, tenants: { gold: 2 } } });
    const run = new Turns();
    for (let i = 0; i < 40; i++) {
      run.ask("gold", admission.acquire({ tenant: "gold", id: "g" }, "write"));
      run.ask("plain", admission.acquire({ tenant: "plain", id: "p" }, "write"));
    }
    expect(run.order.length).toBe(6); // alone on an idle lane: at once, up to the limit
    await run.turns(30);
    const later = run.order.slice(6, 36);
    expect(later.filter((w) => w === "gold").length).toBeGreaterThanOrEqual(19);
    expect(later.filter((w) => w === "plain").length).toBeLessThanOrEqual(11);
  });
});

describe("the gradient limit: measured, not configured", () => {
  const settings = { ...DEFAULT_ADMISSION.in_flight, initial: 32, min: 2, max: 256, window_ms: 100 };

  it("shrinks while requests take longer than tolerance x the no-load time, and grows back while they do not and the limit is used", () => {
    const clock = ticker();
    const limit = new GradientLimit(settings, clock.now);
    for (let i = 0; i < 50; i++) {
      clock.advance(10);
      limit.sample(10, 32);
    }
    const rested = limit.limit;
    for (let i = 0; i < 200; i++) {
      clock.advance(10);
      limit.sample(100, 32); // ten times the no-load time
    }
    const loaded = limit.limit;
    expect(loaded).toBeLessThan(rested / 4);
    for (let i = 0; i < 200; i++) {
      clock.advance(10);
      limit.sample(10, loaded);
    }
    expect(limit.limit).toBeGreaterThan(loaded);
  });

  it("decreases at once: one window twice past the tolerance halves the limit (a flood keeps no idle-time slots for seconds)", () => {
    const clock = ticker();
    const limit = new GradientLimit({ ...settings, initial: 16, window_min_requests: 1 }, clock.now);
    for (let i = 0; i < 20; i++) {
      clock.advance(10);
      limit.sample(10, 1); // not used: no growth
    }
    expect(limit.limit).toBe(16);
    for (let i = 0; i < 10; i++) {
      clock.advance(10);
      limit.sample(80, 16); // 8 x the no-load time, 4 x the tolerance: the gradient's floor, one half
    }
    expect(limit.limit).toBe(8);
  });

  it("a window counts only once it holds window_min_requests: one lucky request does not set the no-load time", () => {
    const clock = ticker();
    const limit = new GradientLimit({ ...settings, initial: 16, window_min_requests: 5 }, clock.now);
    for (let i = 0; i < 10; i++) {
      clock.advance(200); // one request per 200 ms: a window of 100 ms would hold one
      limit.sample(i === 3 ? 1 : 20, 1);
    }
    // Windows of five: averages near 16 and 20. With the lucky 1 ms alone as the no-load time, 20 ms would be 10 x past it.
    clock.advance(200);
    limit.sample(30, 1);
    expect(limit.limit).toBe(16);
  });

  it("stays within min and max", () => {
    const clock = ticker();
    const limit = new GradientLimit({ ...settings, min: 3, max: 40 }, clock.now);
    for (let i = 0; i < 3000; i++) {
      clock.advance(10);
      // no-load 1 ms, then 1,000 ms (far past tolerance), then no-load again with the limit fully used
      limit.sample(i < 100 || i >= 1500 ? 1 : 1000, 1000);
      if (i === 1499) expect(limit.limit).toBe(3);
    }
    expect(limit.limit).toBe(40);
  });
});

describe("laneOfGraphQL", () => {
  it.each([
    ["mutation { storeMemory }", undefined, "write"],
    ["  # a comment\n mutation Store { x }", undefined, "write"],
    ["query { me }", undefined, "read"],
    ["{ me }", undefined, "read"],
    ["query A { me } mutation B { x }", "B", "write"],
    ["query A { me } mutation B { x }", "A", "read"],
    ["subscription { auditEvents }", undefined, "read"],
    [undefined, undefined, "read"],
  ])("%s (%s) is %s", (query, operationName, lane) => {
    expect(laneOfGraphQL(query, operationName)).toBe(lane);
  });
});
