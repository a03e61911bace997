import { buildEnvelope, DAY_MS, live } from "../../src/contracts/companion/envelope";
import type { ActiveEntry } from "../../src/contracts/companion/records";

const now = new Date("2026-05-01T12:00:00.000Z");
const entry = (over: Partial<ActiveEntry>): ActiveEntry => ({
  memory_id: "f1",
  tenant_id: "acme",
  subject_id: "alice",
  type: "USER_FACT",
  text: "User loves fettuccini",
  confidence: 0.9,
  created_at: new Date(now.getTime() - 2 * DAY_MS),
  expires_at: new Date(now.getTime() + 28 * DAY_MS),
  ...over,
});
const open = { memory_enabled: true, learn_patterns: true, anonymize_dates: false, delete_after_days: null };
const scope = { tenant: "acme", subjectId: "alice", purpose: "RESPONSE", power: false, now };

describe("envelope construction", () => {
  it("SG-WARMTH SG-ADVISORY: for a power purpose the SHARED_NARRATIVE group does not exist at all", () => {
    const entries = [entry({}), entry({ memory_id: "n1", type: "SHARED_NARRATIVE", text: "User shared a cute memory" })];
    const power = buildEnvelope(entries, open, { ...scope, purpose: "MODERATION", power: true }, () => undefined);
    expect(Object.keys(power.facts).sort()).toEqual(["USER_FACT", "USER_PATTERN"]);
    expect(JSON.stringify(power)).not.toContain("cute memory");
    const warm = buildEnvelope(entries, open, scope, () => undefined);
    expect(warm.facts.SHARED_NARRATIVE).toHaveLength(1);
  });

  it("SG-ISOLATION: a record of another tenant or subject is dropped and reported, never returned", () => {
    let reported = 0;
    const env = buildEnvelope(
      [entry({ tenant_id: "globex", text: "foreign A" }), entry({ subject_id: "bob", text: "foreign B" }), entry({})],
      open,
      scope,
      () => reported++,
    );
    expect(reported).toBe(2);
    expect(JSON.stringify(env)).not.toContain("foreign");
    expect(env.facts.USER_FACT).toHaveLength(1);
  });

  it("SG-PRIVACY SG-DECAY: opt-out empties; patterns opt-out; dates to the day; expiry and retention by the clock", () => {
    expect(buildEnvelope([entry({})], { ...open, memory_enabled: false }, scope, () => undefined).facts.USER_FACT).toEqual([]);
    expect(buildEnvelope([entry({ type: "USER_PATTERN" })], { ...open, learn_patterns: false }, scope, () => undefined).facts.USER_PATTERN).toEqual([]);
    const env = buildEnvelope([entry({})], { ...open, anonymize_dates: true }, scope, () => undefined);
    expect(env.facts.USER_FACT[0]).toMatchObject({ addedAt: "2026-04-29", ageDays: 2 });
    expect(live(env, open, new Date(now.getTime() + 28 * DAY_MS)).facts.USER_FACT).toEqual([]);
    expect(live(env, { delete_after_days: 2 }, now).facts.USER_FACT).toEqual([]);
    expect(live(env, open, new Date(now.getTime() + DAY_MS)).facts.USER_FACT[0].ageDays).toBe(3);
  });
});
