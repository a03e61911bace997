import { viewsOf } from "./normalise";

/**
 * Detectors turn content into facts and decide nothing (STYLE §1): the policy maps each
 * finding's class to a stop reason. A finding names the field and what was seen, never
 * the matched text, so facts can be logged and evaluated without leaking content.
 */
export interface Finding {
  field: string;
  /** What kind of thing was found: a forbidden class of seed 000 §4, "injection", ... */
  class: string;
  /** Which rule found it, for explanations and the detector evaluation. */
  label: string;
  /**
   * The sense of the policy (a name from policy data, never the text) whose word the match
   * covered, and that word's linguistic facts (src/detectors/linguistic.ts): the policy
   * decides from them whether this reading of the word counts.
   */
  term?: string;
  facts?: string[];
}

export interface Detector {
  readonly name: string;
  detect(field: string, text: string): Finding[] | Promise<Finding[]>;
  /** Optional: every field of one request in one call, each finding naming its own field (used instead of `detect`). */
  detectEach?(fields: Record<string, string>): Finding[] | Promise<Finding[]>;
  /** Optional: all fields of one request read together (field "entry"), e.g. a key and its value. */
  detectTogether?(fields: Record<string, string>): Finding[] | Promise<Finding[]>;
}

export interface ContentFacts {
  findings: Finding[];
}

/** Between the texts of an operation read together: a space, so "card 4111 1111" + "1111 1111" reads as one number. */
const TOGETHER_SEPARATOR = " ";

/**
 * Runs every detector over every named text field, and over each field's normalised views
 * (src/detectors/normalise.ts: NFKC, look-alikes, invisible characters, carriers opened,
 * split tokens joined), so every detector judges undisguised text without knowing how.
 * A view identical to its text is never run. When an operation has several text fields,
 * the detectors that do not read fields together themselves (`detectTogether`) nor scan all
 * fields in one pass (`detectEach`) also read their concatenation; a finding seen only there names the fields it spans ("key+value").
 * Findings are deduplicated by (field, class, label, term, facts). A detector that throws
 * fails the operation closed.
 */
export class DetectorSuite {
  constructor(private readonly detectors: readonly Detector[]) {}

  async run(fields: Record<string, string | null | undefined>): Promise<ContentFacts> {
    const present: Record<string, string> = {};
    for (const [field, text] of Object.entries(fields)) if (text) present[field] = text;
    const names = Object.keys(present);
    // Pass 0 is the texts as written; pass i > 0 holds each field's i-th view, where it has one.
    const passes: Record<string, string>[] = [present];
    for (const field of names) {
      viewsOf(present[field]).forEach((view, i) => ((passes[i + 1] ??= {})[field] = view));
    }
    const runs: (Finding[] | Promise<Finding[]>)[] = [];
    for (const [index, pass] of passes.entries()) {
      for (const [field, text] of Object.entries(pass)) {
        for (const detector of this.detectors) if (!detector.detectEach) runs.push(detector.detect(field, text));
      }
      for (const detector of this.detectors) {
        if (detector.detectEach) runs.push(detector.detectEach(pass));
        if (detector.detectTogether && (index === 0 || Object.keys(pass).length > 0))
          runs.push(detector.detectTogether(index === 0 ? pass : { ...present, ...pass }));
      }
    }
    const single = checked(await Promise.all(runs));
    const together = names.length > 1 ? await this.readTogether(names, present, single) : [];
    return { findings: dedupe([...single, ...together]) };
  }

  /**
   * The concatenation of all text fields (and its views), read by every detector that has no
   * `detectTogether` of its own; only findings no single field produced are kept, named by the
   * narrowest run of adjacent fields that still produces them.
   */
  private async readTogether(names: string[], present: Record<string, string>, single: Finding[]): Promise<Finding[]> {
    const seen = new Set(single.map((f) => `${f.class}\u0000${f.label}`));
    // Detectors that read fields together themselves are left out, and so are those that scan every field of
    // a request in one pass (`detectEach`: secretlint, whose setup costs as much as its matching).
    const readers = this.detectors.filter((d) => !d.detectTogether && !d.detectEach);
    const found = await this.readSpan(readers, names, present);
    const fresh = found.filter((f) => !seen.has(`${f.class}\u0000${f.label}`));
    if (fresh.length === 0) return [];
    const out: Finding[] = [];
    for (const finding of dedupe(fresh)) {
      let span = names;
      // Narrowest adjacent span first: pairs, then triples, ... (only on a fresh finding: rare).
      search: for (let width = 2; width < names.length; width++) {
        for (let at = 0; at + width <= names.length; at++) {
          const candidate = names.slice(at, at + width);
          const again = await this.readSpan(readers, candidate, present);
          if (again.some((f) => f.class === finding.class && f.label === finding.label)) {
            span = candidate;
            break search;
          }
        }
      }
      out.push({ ...finding, field: span.join("+") });
    }
    return out;
  }

  private async readSpan(readers: readonly Detector[], span: string[], present: Record<string, string>): Promise<Finding[]> {
    const field = span.join("+");
    const text = span.map((name) => present[name]).join(TOGETHER_SEPARATOR);
    const runs: (Finding[] | Promise<Finding[]>)[] = [];
    for (const view of [text, ...viewsOf(text)]) for (const detector of readers) runs.push(detector.detect(field, view));
    return checked(await Promise.all(runs));
  }
}

function checked(results: unknown[]): Finding[] {
  for (const result of results) {
    if (!Array.isArray(result) || !result.every(isFinding)) throw new DetectorError("a detector returned something that is not a list of findings");
  }
  return (results as Finding[][]).flat();
}

/** One finding per (field, class, label, term, facts): a view that repeats what the text showed adds nothing. */
function dedupe(findings: Finding[]): Finding[] {
  const out = new Map<string, Finding>();
  for (const f of findings) {
    const key = [f.field, f.class, f.label, f.term ?? "", (f.facts ?? []).join(" ")].join("\u0000");
    if (!out.has(key)) out.set(key, f);
  }
  return [...out.values()];
}

/** Internal; the service turns it into INTERNAL_INCONSISTENCY (C19-FAIL). */
export class DetectorError extends Error {
  readonly code = "DETECTOR_FAILED" as const;
  constructor(detail: string) {
    super(`detector failed: ${detail}`);
    this.name = new.target.name;
  }
}

function isFinding(value: unknown): value is Finding {
  if (typeof value !== "object" || value === null) return false;
  const f = value as Record<string, unknown>;
  return typeof f.field === "string" && typeof f.class === "string" && typeof f.label === "string";
}
