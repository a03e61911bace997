import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { Detector, Finding } from "./detector";

const CONFIG = { rules: [{ id: "@secretlint/secretlint-rule-preset-recommend", rule: recommended }] };

// secretlint profiles every run by default: performance marks in the process's global buffer and
// entries its observer keeps, never cleared. A gateway scans every text of every write, so it grew
// ~11 KB per scan (217 MB over 20,000 scans) and each scan took 95 µs instead of 30.
secretLintProfiler.setEnabled(false);

/** Between the fields of one scan, a blank line: a match that runs across it is given to the field it starts in. */
const SEPARATOR = "\n\n";

/**
 * seed 000 §4.6 credentials and secrets, by secretlint's recommended preset (AWS, GCP,
 * GitHub, GitLab, Slack, npm, OpenAI, Anthropic, Stripe, private keys, basic auth and
 * connection strings with passwords, ...). The finding names the rule, never the match.
 * The fields of a request are scanned as one text, each finding given to the field its
 * match starts in: a scan's setup (the preset's rules, registered anew per call) was as
 * costly as the matching, and a secret split over two fields is then seen too.
 */
export const secretsDetector: Detector = {
  name: "secrets",
  detect(field: string, text: string): Promise<Finding[]> {
    return scan({ [field]: text });
  },
  detectEach(fields: Record<string, string>): Promise<Finding[]> {
    return scan(fields);
  },
};

async function scan(fields: Record<string, string>): Promise<Finding[]> {
  const names = Object.keys(fields);
  if (names.length === 0) return [];
  const starts: number[] = [];
  let content = "";
  for (const name of names) {
    if (starts.length > 0) content += SEPARATOR;
    starts.push(content.length);
    content += fields[name];
  }
  const result = await lintSource({
    source: { filePath: "fields.txt", content, contentType: "text", ext: ".txt" },
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
  });
  const findings = new Map<string, Finding>();
  for (const message of result.messages) {
    let i = starts.length - 1;
    while (i > 0 && starts[i] > message.range[0]) i--;
    const label = `secretlint:${message.ruleId.replace("@secretlint/secretlint-rule-", "")}`;
    findings.set(`${names[i]}\u0000${label}`, { field: names[i], class: "credentials", label });
  }
  return [...findings.values()];
}
