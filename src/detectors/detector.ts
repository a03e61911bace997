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

/** Runs every detector over every named text field. A detector that throws fails the operation closed. */
export class DetectorSuite {
  constructor(private readonly detectors: readonly Detector[]) {}

  async run(fields: Record<string, string | null | undefined>): Promise<ContentFacts> {
    const runs: (Finding[] | Promise<Finding[]>)[] = [];
    const present: Record<string, string> = {};
    for (const [field, text] of Object.entries(fields)) {
      if (!text) continue;
      present[field] = text;
      for (const detector of this.detectors) if (!detector.detectEach) runs.push(detector.detect(field, text));
    }
    for (const detector of this.detectors) {
      if (detector.detectEach) runs.push(detector.detectEach(present));
      if (detector.detectTogether) runs.push(detector.detectTogether(present));
    }
    const results = await Promise.all(runs);
    for (const result of results) {
      if (!Array.isArray(result) || !result.every(isFinding)) throw new DetectorError("a detector returned something that is not a list of findings");
    }
    return { findings: results.flat() };
  }
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
