import { Admission, DEFAULT_ADMISSION, type AdmissionData, type AdmissionResult } from "../../src/http/admission";
import { RefusalPacer, type RefusalPacing } from "../../src/http/admission-pacing";
import { PrincipalRateLimiter } from "../../src/http/rate-limit";
import { manualTime } from "../support/manual-time";
import { settled } from "../support/settled";

const pacing = (overrides: Partial<RefusalPacing> = {}): RefusalPacing => ({
  per_principal_per_second: 5,
  per_tenant_per_second: 20,
  max_hold_ms: 5_000,
  max_held: 512,
  ...overrides,
});
const refusal = { admitted: false as const, retryAfterSeconds: 1 };

describe("paced refusals: a caller that ignores Retry-After cannot turn refusals into load (SG-LOAD, issue 22 §1)", () => {
  it("a principal's first refusal is answered at once, the next ones at 5 a second", async () => {
    const time = manualTime();
    const pacer = new RefusalPacer(() => pacing(), time.now, time.timer);
    const p = { tenant: "t", id: "p" };
    expect(pacer.pace(p, refusal)).toEqual(refusal);
    const second = pacer.pace(p, refusal) as Promise<unknown>;
    const third = pacer.pace(p, refusal) as Promise<unknown>;
    expect(second).toBeInstanceOf(Promise);
    time.advance(199);
    expect(await settled(second)).toBe(false);
    time.advance(1);
    expect(await second).toEqual(refusal);
    expect(await settled(third)).toBe(false);
    time.advance(200);
    expect(await settled(third)).toBe(true);
    expect(pacer.held).toBe(2);
    expect(pacer.holding).toBe(0);
  });

  it("a caller that waits for its Retry-After never meets the pace", () => {
    const time = manualTime();
    const pacer = new RefusalPacer(() => pacing(), time.now, time.timer);
    for (let i = 0; i < 10; i++) {
      expect(pacer.pace({ tenant: "t", id: "p" }, refusal)).toEqual(refusal);
      time.advance(1_000);
    }
  });

  it("SG-ISO: 50 principals of one tenant share the tenant's pace of 20 a second; another tenant is not slowed", async () => {
    const time = manualTime();
    const pacer = new RefusalPacer(() => pacing(), time.now, time.timer);
    const answers = Array.from({ length: 50 }, (_, i) => pacer.pace({ tenant: "flood", id: `p${i}` }, refusal));
    expect(answers.filter((a) => !(a instanceof Promise)).length).toBe(1);
    expect(pacer.pace({ tenant: "victim", id: "v" }, refusal)).toEqual(refusal);
    time.advance(1_000);
    let done = 0;
    for (const a of answers) if (await settled(Promise.resolve(a))) done += 1;
    expect(done).toBe(21); // the first at once, then one every 50 ms
    time.advance(1_500);
    for (const a of answers) expect(await settled(Promise.resolve(a))).toBe(true);
  });

  it("a refusal is held at most max_hold_ms, and at most max_held are held at once (past it: answered at once)", async () => {
    const time = manualTime();
    const pacer = new RefusalPacer(() => pacing({ max_hold_ms: 1_000, max_held: 8 }), time.now, time.timer);
    const p = { tenant: "t", id: "p" };
    const answers = Array.from({ length: 12 }, () => pacer.pace(p, refusal));
    // 1 at once, 5 within the second (200 ms apart), 2 more held to the second's end, then the process's bound of 8 held.
    expect(answers.filter((a) => a instanceof Promise).length).toBe(8);
    expect(answers.slice(9).every((a) => !(a instanceof Promise))).toBe(true);
    time.advance(1_000);
    for (const a of answers) expect(await settled(Promise.resolve(a))).toBe(true);
    expect(pacer.holding).toBe(0);
  });

  it("admission and the rate limiter pace through one pacer: a flood of 100 requests gets 5 answers a second", async () => {
    const time = manualTime();
    const settings: AdmissionData = {
      ...DEFAULT_ADMISSION,
      in_flight: { ...DEFAULT_ADMISSION.in_flight, initial: 1, min: 1, max: 1 },
      queue: { per_principal: 2, max_wait_ms: 60_000 },
      refusals: pacing(),
    };
    const admission = new Admission(() => settings, time.now, true, time.timer);
    const limiter = new PrincipalRateLimiter({ perSecond: 1_000, burst: 50 }, undefined, time.now, admission.pacer);
    const flooder = { tenant: "flood", id: "one" };
    const byAdmission = Array.from({ length: 50 }, () => admission.acquire(flooder, "write"));
    const byRate: Promise<unknown>[] = [];
    for (let i = 0; i < 60; i++) byRate.push(limiter.consume(flooder));
    const refusals = [...byAdmission.slice(3), ...byRate.slice(50)].map((a) => Promise.resolve(a as AdmissionResult | Promise<AdmissionResult>));
    expect(refusals.length).toBe(57);
    time.advance(1_000);
    let answered = 0;
    for (const r of refusals) if (await settled(r)) answered += 1;
    expect(answered).toBe(6); // the first at once, then 5 a second, whichever refused them
    time.advance(5_000);
    for (const r of refusals) expect(await settled(r)).toBe(true); // none held past max_hold_ms
    expect(await refusals[0]).toEqual({ admitted: false, retryAfterSeconds: 1 });
    expect(await byRate[59]).toMatchObject({ allowed: false });
  });
});
