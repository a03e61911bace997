import { aliasesIn, clausesOf, type Clause } from "./clauses";
import { otherLanguageOf, supportInLanguage } from "./other-languages";
import { FORMER, IRREALIS, NEGATIONS } from "./lexical-scorer";
import paraphrases from "./paraphrases.json";
import type { GroundingScore, GroundingScorer } from "./scorer";

/** What the clause-level scorer needs of a word-level one: a synchronous score of one text against another. */
export interface WordScorer {
  readonly name: string;
  scoreSync(summary: string, candidate: string): GroundingScore;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const stem: (word: string) => string = require("wink-porter2-stemmer");

/** Words a restatement may add or drop without changing the claim. */
const FILLERS = new Set(["a", "an", "the", "their", "his", "her", "my", "its", "also", "now", "really"]);
const SUBJECTS = new Set(["user", "users", "they", "she", "he", "i", "the"]);

/**
 * SG-GROUND at the level of clauses. The summary and the candidate are cut into clauses
 * (clauses.ts: wink-nlp's parts of speech, a subject or verb shared by coordination written
 * out). Each clause of the candidate must be supported by ONE clause of the summary, so
 * subject, predicate and arguments align ("has a cat named Rufus" is not supported by "has a
 * dog named Rufus and a cat named Miso"). A clause under a condition ("when they drink coffee
 * after 4 pm") supports only a candidate that keeps the condition. A verbatim or near-verbatim
 * restatement of a clause about the user scores 1. Produces a number; the policy decides.
 */
export class ClauseGroundingScorer implements GroundingScorer {
  readonly name: string;

  constructor(private readonly words: WordScorer) {
    this.name = `clauses+${words.name}`;
  }

  async score(summary: string, candidate: string): Promise<GroundingScore> {
    return this.scoreSync(summary, candidate);
  }

  scoreSync(source: string, claim: string): GroundingScore {
    // the parser, WordNet and paraphrases below read English only
    const lang = otherLanguageOf(source);
    if (lang) return { score: supportInLanguage(source, claim, lang), unsupported: 0, scorer: this.name };
    const summary = samePhrasing(source);
    const candidate = samePhrasing(claim);
    // the same fact with its parts in the summary's order: a fronted time or place, an apposition,
    // a passive. Only the rewrite is scored: cut into clauses, "In 2019, the user renovated the
    // kitchen" would leave "In 2019" a clause of its own, free to match another fact's year.
    const rewritten = canonicalOrder(candidate);
    const score = this.scoreClauses(summary, rewritten);
    // a folded apposition names a person ("User's brother Tom") or a pet or thing ("User's cat luna")
    const named = canonicalOrder(candidate, true);
    if (score.score >= 1 || named === rewritten) return score;
    const other = this.scoreClauses(summary, named);
    return other.score > score.score ? other : score;
  }

  private scoreClauses(summary: string, candidate: string): GroundingScore {
    const aliases = aliasesIn(summary);
    const sources = clausesOf(summary, aliases);
    const claims = clausesOf(candidate, aliases, false);
    if (claims.length === 0 || sources.length === 0) return { score: 0, unsupported: 0, scorer: this.name };
    let score = 1;
    let unsupported = 0;
    for (const claim of claims) {
      let best: GroundingScore = { score: 0, unsupported: Number.MAX_SAFE_INTEGER, scorer: this.name };
      for (const source of sources) {
        const s = this.scoreClause(source, claim);
        if (s.score > best.score || (s.score === best.score && s.unsupported < best.unsupported)) best = s;
        if (best.score === 1) break;
      }
      score = Math.min(score, best.score);
      unsupported += best.unsupported === Number.MAX_SAFE_INTEGER ? 0 : best.unsupported;
    }
    return { score, unsupported, scorer: this.name };
  }

  private scoreClause(source: Clause, claim: Clause): GroundingScore {
    if (restates(source, claim)) return { score: 1, unsupported: 0, scorer: this.name };
    const whole = this.words.scoreSync(source.text, claim.text);
    if (source.condition === null) return whole;
    // the condition restricts the fact: neither the fact without it nor the condition alone is said
    const alone = Math.max(this.words.scoreSync(source.main, claim.text).score, this.words.scoreSync(source.condition, claim.text).score);
    return alone >= whole.score ? { ...whole, score: Math.min(whole.score, 0.5) } : whole;
  }
}

const PHRASES = paraphrases.phrases.map((p) => ({ from: new RegExp(p.from, "gi"), to: p.to }));

/** Multi-word paraphrases written one way ("grew up" and "was raised", "from home" and "remotely"): paraphrases.json. */
export function samePhrasing(text: string): string {
  return PHRASES.reduce((t, p) => t.replace(p.from, p.to), text);
}

/**
 * A verbatim or near-verbatim restatement: the candidate's words (stemmed, fillers aside)
 * are a run of the clause's words starting right after its subject, and what the candidate
 * leaves out of the clause carries no negation, hedge or past marker; a clause under a
 * condition is never restated by a shorter candidate.
 */
export function restates(source: Clause, claim: Clause): boolean {
  // under a condition, the word-level score with the condition rule decides
  if (!claim.aboutUser || claim.condition !== null || source.condition !== null) return false;
  const have = normal(source.text);
  const want = normal(claim.text);
  while (want.length > 0 && SUBJECTS.has(want[0])) want.shift();
  if (want.length === 0) return false;
  for (let at = 0; at + want.length <= have.length; at++) {
    if (!want.every((w, i) => have[at + i] === w)) continue;
    // the run starts right after the user as subject ("they bake ...", "that they bake ...")
    if (at === 0 || !SUBJECTS.has(have[at - 1])) continue;
    if (at >= 2 && have[at - 2] === "'s") continue; // "User's manager asked": not the user
    const left = have.slice(at + want.length);
    if (left.some((w) => NEGATIONS.has(w) || IRREALIS.has(w) || FORMER.has(w))) return false;
    return true;
  }
  return false;
}

function normal(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/n't\b/g, " not")
      .replace(/'s\b/g, " 's")
      .match(/'s|[a-z0-9]+(?:[-'][a-z0-9]+)*/g) ?? []
  )
    .filter((w) => !FILLERS.has(w))
    .map((w) => (w === "'s" ? w : stem(w)));
}

const SUBJECT_START = /^(?:the user|user|they|she|he)\b/i;
/** Openers of a fronted adverbial of time or place ("Every December, ..."). */
const FRONTED =
  /^((?:in|on|at|every|each|since|before|after|during|last|this|next|for|from|until|once|twice|two|three|four|five|six|most)\b[^,;]{0,40}?),?\s+(?=(?:the user|user|they|she|he)\b)/i;
/** "Fettuccini is loved by the user": the passive of a fact about the user. */
const PASSIVE = /^([^,]+?) (?:is|are|was|were|has been|have been) ([a-z]+(?:ed|en|wn|ght|lt|nt|id|de|ne))(?: by (?:the user|user))\b(.*)$/i;
/** "Priya is the user's manager", "Mia and Zoe are their daughters": who a named person or pet is. */
const IDENTITY = /^(\p{Lu}\p{Ll}+(?: and \p{Lu}\p{Ll}+)?) (is|are) (?:the user's|user's|their|his|her) ([a-z]+)$/u;
/** "Tom, the user's brother, lives ..." / "Luna, their cat, is ...": a name in apposition to a relation. */
const APPOSITION = /^([A-Z][\p{L}'-]+), (?:the user's|user's|their|his|her) ([a-z]+(?: [a-z]+)?), (.+)$/u;

/**
 * A candidate rewritten in the order a summary usually has: a fronted adverbial moved to the end
 * of its clause ("Every December, the user visits X" -> "the user visits X every December") and
 * an apposition folded ("Tom, the user's brother, lives in Denver" -> "User's brother Tom lives in
 * Denver"), a passive made active ("Fettuccini is loved by the user" -> "User loved fettuccini"). Meaning-preserving only, so the rewrite is scored like the candidate itself.
 */
export function canonicalOrder(candidate: string, keepNameCase = false): string {
  let text = candidate.trim();
  const stop = /[.!?]$/.test(text) ? text.slice(-1) : "";
  if (stop) text = text.slice(0, -1);
  const fronted = FRONTED.exec(text);
  if (fronted && !/,/.test(fronted[1])) {
    const rest = text.slice(fronted[0].length);
    // to the end of its own clause, not of the sentence ("..., and in the afternoon green tea")
    const end = rest.search(/,|\s(?:and|but|while)\s/);
    const [own, after] = end < 0 ? [rest, ""] : [rest.slice(0, end), rest.slice(end)];
    if (SUBJECT_START.test(rest)) text = `${own} ${fronted[1].charAt(0).toLowerCase()}${fronted[1].slice(1)}${after}`;
  }
  // "User, an architect in Boston, plays tennis" / "User is an architect in Boston who plays tennis": two facts
  const described = /^(the user|user), (an? [^,]+), (.+)$/i.exec(text);
  if (described) text = `${described[1]} is ${described[2]} and ${described[3]}`;
  const relative = /^(the user|user) (is|was) (an? [^,]+?) (?:who|that) (.+)$/i.exec(text);
  if (relative) text = `${relative[1]} ${relative[2]} ${relative[3]} and ${relative[4]}`;
  const passive = PASSIVE.exec(text);
  if (passive) text = `User ${passive[2]} ${passive[1].charAt(0).toLowerCase()}${passive[1].slice(1)}${passive[3]}`;
  // "Mia and Zoe are the user's daughters": the user has daughters named Mia and Zoe
  const identity = IDENTITY.exec(text);
  if (identity) text = `User has ${identity[3]} named ${identity[1]}`;
  const apposition = APPOSITION.exec(text);
  // the name in lower case: the relation before it ("brother") marks whom the rest is about, and
  // "User's cat Luna is ..." must not read "Luna" as another person
  if (apposition) text = `User's ${apposition[2]} ${keepNameCase ? apposition[1] : apposition[1].toLowerCase()} ${apposition[3]}`;
  return text + stop;
}
