import { Admission, DEFAULT_ADMISSION, GradientLimit, laneOfGraphQL, type AdmissionData, type AdmissionResult, type Admitted } from "../../src/http/admission";
import { PrincipalRateLimiter } from "../../src/http/rate-limit";

/** A hand-moved monotonic clock (milliseconds): no test here waits for time. */
function ticker(): { now: () => number; advance(ms: number): void } {
  let t = 0;
  return { now: () => t, advance: (ms) => (t += ms) };
}

const data = (overrides: Partial<AdmissionData> = {}): AdmissionData => ({ ...DEFAULT_ADMISSION, ...overrides });
const admitted = (result: AdmissionResult | Promise<AdmissionResult>): Admitted => {
  if (result instanceof Promise || !result.admitted) throw new Error("expected an immediate admission");
  return result;
};
/** Whether a promise has settled by the end of this turn of the event loop. */
async function settled<T>(promise: Promise<T>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

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

describe("fair shares of in-flight capacity (SG-LOAD, SG-ISO, issue 22 §1)", () => {
  const fixed = (limit: number, perPrincipal = 8): AdmissionData =>
    data({
      in_flight: { ...DEFAULT_ADMISSION.in_flight, initial: limit, min: limit, max: limit },
      queue: { per_principal: perPrincipal, max_wait_ms: 60_000 },
    });

  it("a lone flooder gets the whole limit; a victim tenant that starts asking is admitted at once, and the flooder waits until it is back under half", async () => {
    const clock = ticker();
    const admission = new Admission(() => fixed(16), clock.now);
    const flood = { tenant: "flood", id: "one" };
    const held = Array.from({ length: 16 }, () => admitted(admission.acquire(flood, "write")));
    const victim = admitted(admission.acquire({ tenant: "victim", id: "v" }, "write"));
    const waiting = admission.acquire(flood, "write") as Promise<AdmissionResult>;
    expect(waiting).toBeInstanceOf(Promise);
    for (const entry of held.slice(0, 8)) entry.release(); // 8 of the flooder's in flight: its share, not under it
    expect(await settled(waiting)).toBe(false);
    held[8].release();
    expect(await settled(waiting)).toBe(true);
    expect(await waiting).toMatchObject({ admitted: true });
    victim.release();
    ((await waiting) as Admitted).release();
    for (const entry of held.slice(9)) entry.release();
    expect(admission.stats("write").inFlight).toBe(0);
  });

  it("a principal's queue is bounded: past it, 429 with Retry-After, and the refusal is counted", async () => {
    const admission = new Admission(() => fixed(2, 3), ticker().now);
    const p = { tenant: "t", id: "p" };
    const held = [admitted(admission.acquire(p, "read")), admitted(admission.acquire(p, "read"))];
    const queued = [1, 2, 3].map(() => admission.acquire(p, "read"));
    expect(queued.every((q) => q instanceof Promise)).toBe(true);
    expect(admission.acquire(p, "read")).toEqual({ admitted: false, retryAfterSeconds: 1 });
    expect(admission.stats("read")).toMatchObject({ admitted: 2, refused: 1, inFlight: 2 });
    for (const entry of held) entry.release();
    for (const q of queued) ((await q) as Admitted).release();
  });

  it("SG-ISO: 50 principals of one tenant share their tenant's half; a second tenant's one principal still gets the other half", async () => {
    const admission = new Admission(() => fixed(20, 1), ticker().now);
    const flood = Array.from({ length: 50 }, (_, i) => admission.acquire({ tenant: "flood", id: `p${i}` }, "write"));
    const immediate = flood.filter((r): r is Admitted => !(r instanceof Promise) && r.admitted);
    expect(immediate.length).toBe(20); // alone, the tenant may use the whole limit
    const victims = Array.from({ length: 10 }, () => admission.acquire({ tenant: "victim", id: "v" }, "write"));
    expect(victims.every((v) => !(v instanceof Promise) && v.admitted)).toBe(true);
    expect(admission.acquire({ tenant: "victim", id: "v" }, "write")).toBeInstanceOf(Promise); // past its half, it waits too
  });

  it("reads and writes are separate lanes: a write flood does not take the read lane's slots", () => {
    const admission = new Admission(() => fixed(4, 1), ticker().now);
    for (let i = 0; i < 4; i++) admitted(admission.acquire({ tenant: "t", id: "p" }, "write"));
    expect(admission.acquire({ tenant: "t", id: "p" }, "read")).toMatchObject({ admitted: true });
  });

  it("tenant weights from policy data give a heavier tenant a larger share", () => {
    const weighted = { ...fixed(12, 100), tenant_weights: { default: 1, tenants: { gold: 2 } } };
    const admission = new Admission(() => weighted, ticker().now);
    admitted(admission.acquire({ tenant: "plain", id: "p" }, "write"));
    let gold = 0;
    while (!(admission.acquire({ tenant: "gold", id: "g" }, "write") instanceof Promise)) gold += 1;
    expect(gold).toBe(8); // 12 x 2/3
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
