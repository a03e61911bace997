import { performance } from "node:perf_hooks";
import { DetectorSuite } from "../../src/detectors/detector";
import { secretsDetector } from "../../src/detectors/secrets";

/**
 * The secrets detector runs over every text of every write for the life of a gateway: it must
 * keep nothing per run. secretlint's own profiler, on by default, left performance marks in the
 * process's global buffer (and copies in its observer) on every scan.
 */
describe("C19-FORBID SG-LOAD: the secrets detector keeps nothing per scan", () => {
  it("C19-FORBID: finds a key and names the rule, never the match", async () => {
    const findings = await secretsDetector.detect("value", "my token is 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 ok");
    expect(findings.length).toBeGreaterThan(0);
    expect(findings.every((f) => f.class === "credentials" && f.label.startsWith("secretlint:"))).toBe(true);
    expect(findings.map((f) => f.label)).toEqual(["secretlint:github"]);
    expect(JSON.stringify(findings)).not.toContain("ghp_");
  });

  it("SG-LOAD: 200 scans add no performance marks or measures to the process's buffer", async () => {
    const before = performance.getEntriesByType("mark").length + performance.getEntriesByType("measure").length;
    for (let i = 0; i < 200; i++) await secretsDetector.detect("value", `prefers short answers ${i}`);
    expect(performance.getEntriesByType("mark").length + performance.getEntriesByType("measure").length).toBe(before);
  });

  it("C19-FORBID: one scan over a request's fields gives each finding to the field its secret is in, as a scan per field would", async () => {
    const fields = {
      key: "deploy token",
      value: "use 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 for the CI",
      source_ref: "postgres://admin:s3cr3t-Passw0rd@db.internal:5432/app",
      "consent.evidence_ref": "ticket 4411",
    };
    const together = await secretsDetector.detectEach!(fields);
    const alone = (await Promise.all(Object.entries(fields).map(([field, text]) => secretsDetector.detect(field, text)))).flat();
    expect(together.map((f) => `${f.field} ${f.label}`).sort()).toEqual(alone.map((f) => `${f.field} ${f.label}`).sort());
    expect(together.map((f) => f.field).sort()).toEqual(["source_ref", "value"]);
    // The suite runs the one scan, not one per field.
    const facts = await new DetectorSuite([secretsDetector]).run(fields);
    expect(facts.findings.map((f) => f.field).sort()).toEqual(["source_ref", "value"]);
  });
});
