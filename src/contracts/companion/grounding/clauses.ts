import winkNLP, { type ItemSentence, type WinkMethods } from "wink-nlp";
import model from "wink-eng-lite-web-model";
import { aliasesOf, expandSentence, type Word } from "./entities";
import { baseForms } from "./morphy";
import { sharedWordNet } from "./wordnet";

/**
 * One clause of a text: a subject, one predicate and its arguments. A clause that shares its
 * subject or verb with the clause before it ("... and a cat named Miso", "... but loves almond
 * butter") is written out in full, so each clause can be judged on its own (SG-GROUND).
 */
export interface Clause {
  /** the whole clause, subject and verb restored */
  text: string;
  /** the clause without its condition ("they sleep badly" of "... when they drink coffee") */
  main: string;
  /** a restricting condition (when, whenever, if, unless ...), or null */
  condition: string | null;
  /** the subject is the user (User, they, she, he, I, or none written) */
  aboutUser: boolean;
}

/** Words that open a condition: the fact holds only under it. */
const CONDITIONS = new Set(["when", "whenever", "if", "unless", "once"]);
/** Words that can join two clauses. */
const COORDINATORS = new Set(["and", "but", "or", "while", "whereas", "yet"]);
/** Words that join a clause of cause or consequence. */
const CAUSALS = new Set(["because", "so"]);
/** Words that open a relative clause: it belongs to the noun before it, not a new clause. */
const RELATIVES = new Set(["which", "who", "whom", "whose", "that", "where"]);
const USER_WORDS = new Set(["user", "users", "they", "she", "he", "i", "the"]);
const SUBJECT_PRONOUNS = new Set(["i", "you", "he", "she", "we", "they", "it"]);
const SUBJECT_POS = new Set(["PRON", "PROPN", "NOUN", "DET", "ADJ", "NUM", "PART"]);

let shared: WinkMethods | null = null;
/**
 * wink-nlp with its bundled English model (no network, no download): sentences and parts of speech,
 * and only those steps (the default pipe also reads negation, sentiment and entities, unused here).
 */
function nlp(): WinkMethods {
  shared ??= winkNLP(model, ["sbd", "pos"]);
  return shared;
}

const tagged = new Map<string, Word[][]>();
/** The words of each sentence of a text, tagged (the last few texts kept: a summary is read for each of its candidates). */
function sentencesOf(text: string): Word[][] {
  const known = tagged.get(text);
  if (known) return known;
  if (tagged.size >= 64) tagged.delete(tagged.keys().next().value as string);
  const out = tagSentences(text);
  tagged.set(text, out);
  return out;
}

function tagSentences(text: string): Word[][] {
  const engine = nlp();
  const its = engine.its;
  const out: Word[][] = [];
  const doc = engine.readDoc(text.replace(/[\u2018\u2019]/g, "'"));
  doc.sentences().each((sentence: ItemSentence) => {
    const texts = sentence.tokens().out(its.value) as string[];
    const tags = sentence.tokens().out(its.pos) as string[];
    out.push(texts.map((t, i) => ({ text: t, lower: t.toLowerCase(), pos: tags[i] })));
  });
  return out;
}

/** Names of the people in a text with the relation each is ("Marco" → "husband"), for `clausesOf`. */
export function aliasesIn(text: string): Map<string, string> {
  return aliasesOf(sentencesOf(text).flatMap((words) => expandSentence(words).whole));
}

/**
 * The clauses of a text, in order; then the clauses the text states implicitly (entities.ts:
 * appositions, relative clauses, names of relations; for a summary also rewordings, which a
 * candidate, `summary` false, does not have to prove). With `aliases`, a clause whose subject is
 * a bare name of a known relation is written with it ("Elena coaches ..." → "User's wife Elena
 * coaches ..."), so a fact attaches to the same person in summary and candidate.
 */
export function clausesOf(text: string, aliases: Map<string, string> = new Map(), summary = true): Clause[] {
  const clauses: Clause[] = [];
  const implicit: Clause[] = [];
  for (const words of sentencesOf(text)) {
    // a semicolon ends a sentence as far as clauses go
    let start = 0;
    words.forEach((w, i) => {
      if (w.text === ";" || i === words.length - 1) {
        const { sentences, whole } = expandSentence(words.slice(start, w.text === ";" ? i : i + 1), summary);
        clauses.push(...clausesOfSentence(sentences[0]));
        for (const s of sentences.slice(1)) implicit.push(...clausesOfSentence(s));
        for (const c of whole) implicit.push({ text: join(c), main: join(c), condition: null, aboutUser: c[0].lower === "user" && c[1]?.text !== "'s" });
        start = i + 1;
      }
    });
  }
  return [...clauses, ...implicit].map((c) => withAlias(c, aliases));
}

function withAlias(clause: Clause, aliases: Map<string, string>): Clause {
  const name = /^(\p{Lu}[\p{L}'-]+)\s/u.exec(clause.text)?.[1];
  const relation = name === undefined ? undefined : aliases.get(name);
  if (relation === undefined) return clause;
  const prefix = `User's ${relation} `;
  return { ...clause, text: prefix + clause.text, main: prefix + clause.main, aboutUser: false };
}

function clausesOfSentence(words: Word[]): Clause[] {
  const chunks = splitChunks(words.filter((w) => w.pos !== "PUNCT" || w.text === ","));
  const out: Clause[] = [];
  let head: Word[] = [];
  /** the head without a shared predicate adjective ("User is"), for a gapped predicate of its own ("... and fond of snakes") */
  let verbHead: Word[] = [];
  let subject: Word[] = [];
  let pendingCondition: Word[] | null = null;
  let purpose: Word[] = [];
  /** what the clause before was about after its verb ("a bike last month"), for "it" in the next one */
  let object: Word[] = [];
  for (const raw of chunks) {
    let chunk = raw.filter((w) => w.text !== ",");
    if (chunk.length > 1 && chunk[0].lower === "that") chunk = chunk.slice(1); // "... and that their partner ...": a second reported clause
    if (chunk.length > 1 && CAUSALS.has(chunk[0].lower)) chunk = chunk.slice(1); // "Because the gym is quiet, ...": the clause itself
    if (chunk.length === 0) continue;
    if (out.length > 0 && chunk.length <= 3 && chunk[0].lower === "to" && chunk[1]?.pos === "VERB") {
      purpose = chunk; // "..., and, to unwind, knits scarves": the purpose of the clause that follows
      continue;
    }
    if (CONDITIONS.has(chunk[0].lower) && out.length === 0 && pendingCondition === null) {
      pendingCondition = chunk; // "When it rains, ...": the condition of the clause that follows
      continue;
    }
    if (head.length > 0 && misTaggedVerb(chunk, head)) chunk = [{ ...chunk[0], pos: "VERB" }, ...chunk.slice(1)];
    const shape = shapeOf(chunk);
    if (shape === "verb-first" && subject.length > 0) chunk = [...subject, ...chunk];
    else if (shape === "gapped" && head.length > 0) chunk = [...(opensPredicate(chunk) ? verbHead : head), ...chunk];
    chunk = resolveObjectPronoun(chunk, object);
    const verbAt = reportedVerbAt(
      chunk,
      chunk.findIndex((w, i) => isVerb(chunk, i)),
    );
    if (verbAt >= 0) {
      const groupEnd = verbGroupEnd(chunk, verbAt);
      const rest = chunk.slice(groupEnd + 1).filter((w) => !CONDITIONS.has(w.lower));
      if (rest.length > 0 && !rest.every((w) => w.pos === "PRON")) object = nounPhrase(rest);
      subject = chunk.slice(0, verbAt).filter((w) => !["now", "also", "then", "often", "still"].includes(w.lower));
      head = chunk.slice(0, predicateEnd(chunk, groupEnd) + 1);
      verbHead = chunk.slice(0, groupEnd + 1);
    }
    if (purpose.length > 0) [chunk, purpose] = [[...chunk, ...purpose], []];
    const conditionAt = chunk.findIndex((w, i) => i > 0 && CONDITIONS.has(w.lower) && !pastTime(chunk, i));
    const main = conditionAt > 0 ? chunk.slice(0, conditionAt) : chunk;
    let condition = conditionAt > 0 ? chunk.slice(conditionAt) : null;
    if (pendingCondition) {
      condition = pendingCondition;
      pendingCondition = null;
    }
    const about = subjectOf(main);
    out.push({
      text: join(condition && conditionAt < 0 ? [...main, ...condition] : chunk),
      main: join(main),
      condition: condition ? join(condition) : null,
      aboutUser: about.every((w) => USER_WORDS.has(w.lower)),
    });
  }
  return out;
}

/**
 * The verb of the innermost reported clause: "User said they keep a pet iguana ..." shares
 * "User said they keep" with "... and a parrot named Pico", not "User said" (nor "User" with
 * "... and love fettuccini"). A relative clause ("a cat that sleeps") is not a reported one.
 */
function reportedVerbAt(chunk: Word[], verbAt: number): number {
  let at = verbAt;
  while (at >= 0) {
    let from = verbGroupEnd(chunk, at) + 1;
    if (chunk[from]?.lower === "that") from++;
    const rest = chunk.slice(from);
    if (shapeOf(rest) !== "own-subject") return at;
    const inner = rest.findIndex((w, i) => isVerb(rest, i));
    if (inner < 0 || rest.slice(0, inner).some((w) => RELATIVES.has(w.lower))) return at;
    at = from + inner;
  }
  return at;
}

/**
 * "they keep a parrot and love fettuccini": the small tagger takes a bare verb after a
 * coordinator for a noun. A base form that WordNet knows mostly as a verb, with an object
 * after it, after a shared verb in the base form too ("keep", not "has"), is read as a verb. Else
 * "love fettuccini" would be gapped into "they keep love fettuccini" and ground "keeps fettuccini".
 */
function misTaggedVerb(chunk: Word[], head: Word[]): boolean {
  const [first, next] = chunk;
  const shared = head[head.length - 1];
  return (
    first.pos === "NOUN" &&
    next !== undefined &&
    ["NOUN", "PROPN", "DET", "PRON", "ADJ"].includes(next.pos) &&
    (shared.pos === "VERB" || shared.pos === "AUX") &&
    !/(s|ed)$/.test(shared.lower) &&
    // a word that is mostly a verb ("love", "visit"), not mostly a noun ("cat toys", "book club")
    sharedWordNet().lookup(first.lower, "v").length * 2 > sharedWordNet().lookup(first.lower, "n").length
  );
}

/** "a beagle named Pepper last year": the object without what follows its noun phrase (a time, a place). */
function nounPhrase(rest: Word[]): Word[] {
  let end = 0;
  while (end < rest.length) {
    const w = rest[end];
    const named = (w.lower === "named" || w.lower === "called") && rest[end + 1]?.pos === "PROPN";
    const attributive = w.pos === "VERB" && rest[end - 1]?.pos === "DET"; // "a used car"
    if (TIME_WORDS.has(w.lower) || !(["DET", "ADJ", "NOUN", "PROPN", "NUM", "PART", "PRON"].includes(w.pos) || named || attributive)) break;
    end += named ? 2 : 1;
  }
  return end === 0 ? rest : rest.slice(0, end);
}
const TIME_WORDS = new Set(["last", "next", "every", "each", "this", "yesterday", "today", "tomorrow", "tonight"]);

/** "... and rides it to work": "it" (him, her as an object) is what the clause before was about. */
function resolveObjectPronoun(chunk: Word[], object: Word[]): Word[] {
  if (object.length === 0) return chunk;
  const at = chunk.findIndex((w, i) => {
    if (i === 0 || !isVerb(chunk, i - 1)) return false;
    if (w.lower === "it" || w.lower === "him") return true;
    // "paints watercolours and sells them": a plural object
    if (w.lower === "them" && /s$/.test(object[object.length - 1].lower) && object[object.length - 1].pos === "NOUN") return true;
    const next = chunk[i + 1];
    return w.lower === "her" && (next === undefined || !["NOUN", "ADJ", "PROPN"].includes(next.pos));
  });
  return at < 0 ? chunk : [...chunk.slice(0, at), ...object, ...chunk.slice(at + 1)];
}

/** Splits at coordinators and commas that start a new predicate or a new argument. */
function splitChunks(words: Word[]): Word[][] {
  const chunks: Word[][] = [[]];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const next = words[i + 1];
    const current = chunks[chunks.length - 1];
    const boundary =
      current.length > 0 &&
      next !== undefined &&
      ((COORDINATORS.has(w.lower) && (w.lower !== "while" || opensClause(words, i + 1))) ||
        // "... because coffee gave them headaches", "..., so the user walks": a clause of its own, with its own subject
        (CAUSALS.has(w.lower) && opensClause(words, i + 1)) ||
        (w.text === "," && !RELATIVES.has(next.lower) && !COORDINATORS.has(next.lower)));
    if (boundary) {
      chunks.push([]);
      continue;
    }
    current.push(w);
  }
  return chunks.filter((c) => c.length > 0);
}

/** "while her brother runs" opens a clause; "while cooking" is a circumstance of this one. */
function opensClause(words: Word[], at: number): boolean {
  const first = words[at];
  return first !== undefined && ["PRON", "PROPN", "DET", "NOUN"].includes(first.pos) && !first.lower.endsWith("ing");
}

/** verb-first: "loves almond butter" (subject shared); own-subject: "Ana plays football"; gapped: "a cat named Miso" (verb shared). */
function shapeOf(chunk: Word[]): "verb-first" | "own-subject" | "gapped" {
  let i = 0;
  while (i < chunk.length && chunk[i].pos === "ADV") i++;
  if (i < chunk.length && isVerb(chunk, i) && !chunk[i].lower.endsWith("ing")) return "verb-first";
  for (let j = i; j < chunk.length; j++) {
    if (isVerb(chunk, j))
      return j > i && chunk.slice(i, j).every((w, k) => SUBJECT_POS.has(w.pos) || w.text === "'s" || (k > 0 && w.pos === "ADV")) ? "own-subject" : "gapped";
    if (!SUBJECT_POS.has(chunk[j].pos) && chunk[j].text !== "'s" && !(j > i && chunk[j].pos === "ADV")) break;
  }
  return "gapped";
}

/**
 * A verb. The small tagger often takes a verb in -s for a plural noun ("User drinks tea",
 * "... and volunteers at"): right after the subject or a coordinator, a word in -s whose
 * base form WordNet knows as a verb is taken as one.
 */
function isVerb(chunk: Word[], i: number): boolean {
  const w = chunk[i];
  // "a used Subaru": a participle after an article describes the noun
  if (w.pos === "VERB" || w.pos === "AUX") return !isParticiple(chunk, i) && chunk[i - 1]?.pos !== "DET";
  if (w.pos !== "NOUN" || !/[a-z]s$/.test(w.lower) || i + 1 >= chunk.length) return false;
  const before = chunk.slice(0, i).filter((x) => x.pos !== "ADV");
  const last = before[before.length - 1];
  const afterSubject =
    before.length === 0 ||
    (before.length === 1 && (last.pos === "PROPN" || SUBJECT_PRONOUNS.has(last.lower))) ||
    (before.length === 2 && before[0].lower === "the" && /^users?$/.test(last.lower)) ||
    // "their wife drives", "her brother Tom runs"
    (before.length >= 2 &&
      before.length <= 3 &&
      ["their", "his", "her", "my", "our"].includes(before[0].lower) &&
      (last.pos === "NOUN" || last.pos === "PROPN") &&
      before.slice(1).every((x) => x.pos === "NOUN" || x.pos === "PROPN")) ||
    (before.length <= 4 &&
      before.some((x) => x.text === "'s") &&
      (last.pos === "NOUN" || last.pos === "PROPN") &&
      before.every((x) => SUBJECT_POS.has(x.pos) || x.text === "'s"));
  return afterSubject && baseForms(w.lower).some((f) => f.lemma !== w.lower && sharedWordNet().has(f.lemma, "v"));
}

/** "a cat named Miso", "a band called X": a participle describing a noun, not the clause's verb. */
function isParticiple(chunk: Word[], i: number): boolean {
  const w = chunk[i];
  const previous = chunk[i - 1];
  return (
    w.pos === "VERB" &&
    /(ed|en)$/.test(w.lower) &&
    previous !== undefined &&
    (previous.pos === "NOUN" || previous.pos === "PROPN") &&
    i >= 2 &&
    chunk[i - 2].pos !== "PRON"
  );
}

/** The last word of a verb group: auxiliaries, the verb, a particle, "to" and a second verb ("wants to learn"). */
function verbGroupEnd(chunk: Word[], verbAt: number): number {
  let end = verbAt;
  while (
    end + 1 < chunk.length &&
    (chunk[end + 1].pos === "AUX" || chunk[end + 1].pos === "VERB" || chunk[end + 1].pos === "PART" || chunk[end + 1].lower === "to")
  ) {
    if (chunk[end + 1].lower === "to" && !(chunk[end + 2] && chunk[end + 2].pos === "VERB")) break;
    end++;
  }
  return end;
}

const COPULA_WORDS = new Set(["is", "are", "was", "were", "am", "be", "been"]);

/** "are allergic to" (peanuts and shellfish): a copula's adjective and its preposition are shared with a gapped argument too. */
function predicateEnd(chunk: Word[], groupEnd: number): number {
  const [adjective, preposition] = [chunk[groupEnd + 1], chunk[groupEnd + 2]];
  if (COPULA_WORDS.has(chunk[groupEnd].lower) && adjective?.pos === "ADJ" && preposition?.pos === "ADP") return groupEnd + 2;
  return groupEnd;
}

/** "fond of snakes": an adjective with its preposition is a predicate of its own, not an argument. */
function opensPredicate(chunk: Word[]): boolean {
  return chunk[0]?.pos === "ADJ" && chunk[1]?.pos === "ADP";
}

/** "when they were a teenager": a time in the past, not a condition the fact holds under. */
function pastTime(chunk: Word[], at: number): boolean {
  return chunk[at].lower === "when" && chunk.slice(at + 1, at + 4).some((w) => w.lower === "was" || w.lower === "were");
}

function subjectOf(chunk: Word[]): Word[] {
  const verbAt = chunk.findIndex((w, i) => isVerb(chunk, i));
  return verbAt < 0 ? [] : chunk.slice(0, verbAt).filter((w) => w.pos !== "ADV");
}

function join(words: Word[]): string {
  return words
    .map((w) => w.text)
    .join(" ")
    .replace(/\s+('s|n't)\b/g, "$1");
}
