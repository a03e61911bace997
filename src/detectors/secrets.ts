import { lintSource } from "@secretlint/core";
import { secretLintProfiler } from "@secretlint/profiler";
import { creator as recommended } from "@secretlint/secretlint-rule-preset-recommend";
import type { Detector, Finding } from "./detector";
import { matchesOf } from "./matches";

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
 * A token random enough to be a key is a finding too (`high_entropy_token`), with no keyword.
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
  // Randomness names no vendor: counted only in a field where secretlint named none.
  const named = new Set([...findings.values()].map((f) => f.field));
  for (const name of names) {
    if (!named.has(name) && highEntropyToken(fields[name]))
      findings.set(`${name}\u0000entropy`, { field: name, class: "credentials", label: "high_entropy_token" });
  }
  return [...findings.values()];
}

// A token of the alphabets keys are written in (base62/base64/base64url), 24 or more characters.
const TOKEN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{24,}={0,2}(?![A-Za-z0-9+/_=-])/g;
// Digests that are published, not secret: Subresource Integrity and npm lockfile hashes ("sha512-…").
const DIGEST_PREFIX = /(?:^|[^a-z])(?:sha(?:1|224|256|384|512)|md5)[-:]$|^(?:sha(?:1|224|256|384|512)|md5)-/i;

/** Shannon entropy in bits per character. */
function entropy(token: string): number {
  const counts = new Map<string, number>();
  for (const ch of token) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / token.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * A secret by its randomness, whatever the vendor (issue 21 item 2): upper case, lower case and
 * digits mixed, at least 4.2 bits of entropy per character (4.1 for 24 characters: random base62
 * measures about 4.3-4.8; identifiers in camelCase, words and paths stay below 4), and not a
 * hex digest, a UUID or a published integrity hash. No keyword is needed; secretlint still names
 * the vendor when it knows the format.
 */
export function highEntropyToken(text: string): boolean {
  if (text.length < 24) return false;
  for (const match of matchesOf(TOKEN, text)) {
    const token = match[0].replace(/=+$/, "");
    if (!/[A-Z]/.test(token) || !/[a-z]/.test(token) || !/\d/.test(token)) continue;
    if (
      /^[0-9a-fA-F-]+$/.test(token) ||
      token.includes("/") ||
      DIGEST_PREFIX.test(token) ||
      DIGEST_PREFIX.test(text.slice(Math.max(0, match.index - 7), match.index))
    )
      continue;
    if ((token.match(/\d/g)?.length ?? 0) < 2) continue;
    // The most a token of n distinct characters can measure is log2(n): short tokens get the same margin.
    if (entropy(token) >= Math.min(4.2, Math.log2(token.length) - 0.5)) return true;
  }
  return false;
}
