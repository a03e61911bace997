import { copyFileSync, mkdtempSync, renameSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import pino from "pino";
import { PolicyEngine, type PolicyChange } from "../../src/policy/policy-engine";
import { POLICY_BUNDLE } from "../support/gateway";
import { buildVariant } from "./build-bundle";

const logger = pino({ level: "silent" });

const storeInput = {
  operation: "STORE",
  contract: "governed",
  now_ms: Date.parse("2026-01-01T00:00:00Z"),
  principal: { id: "a", tenant: "t", subjects: ["s"], roles: ["agent"] },
  subject_id: "s",
  item: { category: "PREFERENCE", key: "k", value: "v", source_kind: "USER_EXPLICIT", ttl_class: "LONG", consent: { explicit: true } },
  texts: { key: "k", value: "v" },
  facts: { findings: [] },
};

/** The same policy with a different declared contract version, as a policy author's signed rebuild would produce. */
function rebuiltBundle(version: string): string {
  return buildVariant("rebuilt", "memgate/contract/data.json", (data) => (data.version = version));
}

describe("the policy runtime", () => {
  let dir: string;
  let bundlePath: string;
  let engine: PolicyEngine;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), "memgate-policy-"));
    bundlePath = path.join(dir, "bundle.tar.gz");
    copyFileSync(POLICY_BUNDLE, bundlePath);
    engine = new PolicyEngine(bundlePath, logger);
  });
  afterEach(() => engine.close());

  it("C19-VERSION: evaluates the compiled entrypoint in-process and stamps the bundle's sha256 and contract version", async () => {
    expect(await engine.reload()).toBe(true);
    const decision = engine.decide(storeInput);
    expect(decision).toEqual({
      outcome: "allow",
      stop_reason: "SUCCESS_STORED",
      explanations: [],
      contract_version: "19.1.0",
      detail: null,
      errors: [],
      rules: [],
      policy_hash: engine.hash,
    });
    expect(engine.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("C19-FAIL: with no bundle loaded, decide throws (and services answer INTERNAL_INCONSISTENCY)", async () => {
    const missing = new PolicyEngine(path.join(dir, "absent.tar.gz"), logger);
    expect(await missing.reload()).toBe(false);
    expect(missing.loaded).toBe(false);
    expect(() => missing.decide(storeInput)).toThrow("no policy bundle is loaded");
  });

  it("C19-FAIL: a corrupt bundle is refused and the previous one stays in force", async () => {
    await engine.reload();
    const before = engine.hash;
    const failures: Error[] = [];
    engine.on("reloadFailed", (error) => failures.push(error));
    writeFileSync(bundlePath, "this is not a tar.gz");
    expect(await engine.reload()).toBe(false);
    expect(failures).toHaveLength(1);
    expect(engine.hash).toBe(before);
    expect(engine.decide(storeInput).stop_reason).toBe("SUCCESS_STORED");
  });

  it("reloads without a restart when the bundle file is replaced, and reports the old and new versions", async () => {
    await engine.reload();
    const before = engine.hash!;
    engine.watch();
    const next = rebuiltBundle("19.1.0-rebuilt");
    const changed = once(engine, "changed") as Promise<[PolicyChange]>;
    copyFileSync(next, `${bundlePath}.tmp`);
    renameSync(`${bundlePath}.tmp`, bundlePath); // as scripts/policy.sh build does
    const [change] = await changed;
    expect(change.previous).toEqual({ hash: before, version: "19.1.0" });
    expect(change.current.version).toBe("19.1.0-rebuilt");
    expect(engine.decide(storeInput).contract_version).toBe("19.1.0-rebuilt");
  });

  it("C19-FAIL: input the policy cannot judge fails closed instead of succeeding", async () => {
    await engine.reload();
    expect(engine.decide({ ...storeInput, operation: "DROP_DATABASE" }).stop_reason).toBe("INTERNAL_INCONSISTENCY");
    expect(engine.decide({ ...storeInput, contract: "nonexistent" }).stop_reason).toBe("INTERNAL_INCONSISTENCY");
  });
});
