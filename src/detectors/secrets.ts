import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { Detector, Finding } from "./detector";

const CONFIG = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }] };

// secretlint profiles every run by default: performance marks in the process's global buffer and
// entries its observer keeps, never cleared. A gateway scans every text of every write, so it grew
// ~11 KB per scan (217 MB over 20,000 scans) and each scan took 95 µs instead of 30.
secretLintProfiler.setEnabled(false);

/**
 * seed 000 §4.6 credentials and secrets, by secretlint's recommended preset (AWS, GCP,
 * GitHub, GitLab, Slack, npm, OpenAI, Anthropic, Stripe, private keys, basic auth and
 * connection strings with passwords, ...). The finding names the rule, never the match.
 */
export const secretsDetector: Detector = {
  name: "secrets",
  async detect(field: string, text: string): Promise<Finding[]> {
    const result = await lintSource({
      source: { filePath: `${field}.txt`, content: text, contentType: "text", ext: ".txt" },
      options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
    });
    const labels = new Set(result.messages.map((m) => `secretlint:${m.ruleId.replace("@secretlint/secretlint-rule-", "")}`));
    return [...labels].map((label) => ({ field, class: "credentials", label }));
  },
};
