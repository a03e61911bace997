import { existsSync } from "node:fs";
import path from "node:path";

/**
 * Language identification of one text with eld (Efficient Language Detector, Apache-2.0): n-gram
 * scores over 60 languages from a database shipped inside the npm package, nothing fetched.
 * Chosen over franc (about 20x slower here) and tinyld (about 5x slower) for the 0.5 ms decision
 * budget: about 20-60 µs for 100-300 characters.
 *
 * eld ships ES modules only, and its package exports only the dynamic entry (which loads its
 * database with `await import`). The static entry with the `small` database is a plain module
 * without top-level await, so Node 22 `require`s it synchronously from its file path.
 */
interface EldResult {
  language: string;
  getScores(): Record<string, number>;
  isReliable(): boolean;
}
interface Eld {
  detect(text: string): EldResult;
}

let shared: Eld | undefined;
function eld(): Eld {
  if (shared) return shared;
  const entry = (require.resolve.paths("eld") ?? []).map((dir) => path.join(dir, "eld", "src", "entries", "static.small.js")).find((file) => existsSync(file));
  if (!entry) throw new Error("the eld package (language identification) is not installed");
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file path, see above
  shared = (require(entry) as { eld: Eld }).eld;
  return shared;
}

/** The language read from this many characters at most: enough for eld, and bounded in cost. */
const SAMPLE = 120;

export interface LanguageGuess {
  /** ISO 639-1 code of the most likely language, or "und" when eld cannot tell. */
  lang: string;
  /** Languages scoring close to the best one (the best first), for short or mixed texts. */
  candidates: string[];
  reliable: boolean;
}

/**
 * The language(s) of `text`. `near` is how close (as a share of the best score) another language
 * must score to be a candidate too: "Ela é lésbica." reads as pt but also nearly as es.
 */
export function identifyLanguage(text: string, near = 0.9): LanguageGuess {
  const result = eld().detect(text.length > SAMPLE ? text.slice(0, SAMPLE) : text);
  const scores = Object.entries(result.getScores()).sort((a, b) => b[1] - a[1]);
  if (scores.length === 0 || !result.language) return { lang: "und", candidates: [], reliable: false };
  const best = scores[0][1];
  const candidates = scores.filter(([, score]) => score >= best * near).map(([lang]) => lang);
  return { lang: result.language, candidates, reliable: result.isReliable() };
}
