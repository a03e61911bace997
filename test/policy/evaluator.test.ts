import { loadBundle, type PolicyBundle } from "../../src/policy/bundle";
import { createEvaluator } from "../../src/policy/evaluator";
import { ENTRYPOINT } from "../../src/policy/policy-engine";
import { POLICY_BUNDLE } from "../support/gateway";

const principal = { id: "a", tenant: "t", subjects: ["s"], roles: ["agent"], agent_type: null, job: null };

const store = (value: string) => ({
  operation: "STORE",
  contract: "governed",
  now_ms: Date.parse("2026-01-01T00:00:00Z"),
  principal,
  subject_id: "s",
  item: { category: "PREFERENCE", key: "tone", value, source_kind: "USER_EXPLICIT", ttl_class: "LONG", consent: { explicit: true } },
  texts: { key: "tone", value },
  facts: { findings: [] },
});

describe("the fast evaluation path (opa_eval straight into the module's memory)", () => {
  let bundle: PolicyBundle;

  beforeAll(async () => {
    bundle = await loadBundle(POLICY_BUNDLE);
  });

  it("C19-STOP: answers exactly what LoadedPolicy.evaluate answers, input after input", () => {
    const evaluate = createEvaluator(bundle.policy, ENTRYPOINT);
    const inputs = [
      store("concise answers"),
      store("café — naïve 👩‍💻 résumé, 日本語"),
      store("x".repeat(600)),
      { ...store("ok"), subject_id: "someone-else" },
      { ...store("ok"), operation: "DROP" },
      store("ok"),
      {},
    ];
    for (const input of inputs) expect(evaluate(input)).toEqual(bundle.policy.evaluate(input, ENTRYPOINT));
  });

  it("C19-STOP: an input larger than the module's free memory grows it, and later small inputs still evaluate", () => {
    const evaluate = createEvaluator(bundle.policy, ENTRYPOINT);
    const huge = store("é".repeat(2_000_000));
    const before = bundle.policy.mem.buffer.byteLength;
    expect(evaluate(huge)).toEqual(bundle.policy.evaluate(huge, ENTRYPOINT));
    expect(bundle.policy.mem.buffer.byteLength).toBeGreaterThan(before);
    expect(evaluate(store("ok"))).toEqual([{ result: expect.objectContaining({ outcome: "allow", stop_reason: "SUCCESS_STORED" }) }]);
  });

  it("C19-FAIL: a bundle without the entrypoint is refused when it is loaded, not when it is asked", () => {
    expect(() => createEvaluator(bundle.policy, "memgate/main/nothing")).toThrow("has no entrypoint memgate/main/nothing");
  });
});
