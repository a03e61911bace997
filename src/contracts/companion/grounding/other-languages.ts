import stopwordsIso from "stopwords-iso";
import { identifyLanguage } from "../../../detectors/language-id";
import { fold as foldAccents } from "../../../detectors/language-lexicon";
import { stemmerFor } from "../../../detectors/stemming";
import words from "./languages.json";

/**
 * SG-GROUND for a summary written in another language than English (issue 21 item 6): the
 * clause scorer's parser, WordNet and paraphrases are English, so on a German or Spanish summary
 * they supported nothing, and now and then accepted a fact mixed across clauses. Here a
 * candidate is supported when each of its clauses has one clause of the summary holding every
 * content word of it, by stem (nlp.js Snowball stemmers, stopwords-iso's function words), with
 * the same numbers (digits or words), the same negation, and no wish or plan the candidate drops
 * ("quiere adoptar un perro" does not support "adopta un perro"). That accepts restatements and reordered clauses, and refuses mixed clauses, mixed
 * entities, invented facts, changed numbers and negations; hypernyms and synonyms need a
 * language's own thesaurus, which memgate does not have (docs/JUDGEMENT.md, Grounding).
 */

interface LanguageWords {
  /** How the person the facts are about is named: a subject, not a claim. */
  subject: string[];
  negations: string[];
  /** Wishes, plans and hedges: a clause with one states no fact without it. */
  irrealis: string[];
  /** Words between two clauses of one sentence ("und", "y", "mais", "dass"); one ending in an apostrophe is elided ("qu'il"). */
  conjunctions: string[];
  /** Relatives and people around the user: a clause naming one is about that person. */
  relations: string[];
  /** Numbers written as words, read as their digits ("drei" is "3"; the ISO lists hold them as stop words). */
  numbers: Record<string, number>;
}

const LANGUAGES = words as Record<string, LanguageWords>;
/**
 * stopwords-iso's lists hold function words and also frequent content words ("trabaja", "bueno"):
 * only their words of five letters or fewer are taken (articles, prepositions, pronouns,
 * auxiliaries), so a verb the candidate claims is still a word to support.
 */
const FUNCTION_WORD_MAX = 5;
const WORD = /[\p{L}\p{N}]+/gu;
/** Lower case, accents folded, as the lexicons fold words. */
const fold = (word: string): string => foldAccents(word.toLowerCase());
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** One language's word lists as sets (accents folded, except the stop words, compared as written) and its clause boundary. */
interface Language {
  stem: (word: string) => string;
  subject: ReadonlySet<string>;
  negations: ReadonlySet<string>;
  irrealis: ReadonlySet<string>;
  /** As written, not by stem: "Madrid" and "madre" share one. */
  relations: ReadonlySet<string>;
  numbers: Readonly<Record<string, number>>;
  stopwords: ReadonlySet<string>;
  cut: RegExp;
}

const compiled = new Map<string, Language>();
function languageOf(lang: string): Language {
  let language = compiled.get(lang);
  if (!language) {
    const w = LANGUAGES[lang];
    const conjunctions = w.conjunctions.map((c) => escape(c) + (/['’]$/.test(c) ? "" : "\\s")).join("|");
    language = {
      stem: stemmerFor(lang),
      subject: new Set(w.subject.map(fold)),
      negations: new Set(w.negations.map(fold)),
      irrealis: new Set(w.irrealis.map(fold)),
      relations: new Set(w.relations.map(fold)),
      numbers: w.numbers,
      stopwords: new Set((stopwordsIso as Record<string, string[]>)[lang].filter((word) => word.length <= FUNCTION_WORD_MAX)),
      cut: new RegExp(`[.!?;:,]+(?:\\s|$)|\\s(?:${conjunctions})`, "iu"),
    };
    compiled.set(lang, language);
  }
  return language;
}

/** The language a summary is read in here, or undefined for English and languages without word lists here. */
export function otherLanguageOf(summary: string): string | undefined {
  const { lang, reliable } = identifyLanguage(summary);
  return reliable && lang !== "en" && LANGUAGES[lang] ? lang : undefined;
}

interface Reading {
  content: Set<string>;
  numbers: Set<string>;
  negated: boolean;
  irrealis: boolean;
  /** The relative the clause opens with ("dass ihr Sohn …"), as written: its subject, so the clause says nothing of the user. */
  people: Set<string>;
  /** Every word, accents folded. */
  words: Set<string>;
}

function readingOf(text: string, language: Language): Reading {
  const { stem, subject, negations, irrealis, relations, stopwords } = language;
  const reading: Reading = { content: new Set(), numbers: new Set(), negated: false, irrealis: false, people: new Set(), words: new Set() };
  for (const [raw] of text.matchAll(WORD)) {
    const word = raw.toLowerCase();
    const folded = fold(word);
    reading.words.add(folded);
    if (/^\d+$/.test(word)) reading.numbers.add(word);
    else if (language.numbers[word] !== undefined) reading.numbers.add(String(language.numbers[word]));
    else if (negations.has(folded)) reading.negated = true;
    else if (irrealis.has(folded)) reading.irrealis = true;
    else if (!subject.has(folded) && !stopwords.has(word)) {
      if (reading.content.size === 0 && relations.has(folded)) reading.people.add(folded);
      reading.content.add(fold(stem(word)));
    }
  }
  return reading;
}

/** A text's clauses, each read: its sentences cut at punctuation and the language's conjunctions. */
function clausesOf(text: string, language: Language): Reading[] {
  return text
    .split(language.cut)
    .map((clause) => clause.trim())
    .filter(Boolean)
    .map((clause) => readingOf(clause, language));
}

/** Whether one clause of the summary holds everything one clause of the candidate says. */
function supported(claim: Reading, sources: readonly Reading[]): boolean {
  if (claim.content.size === 0) return false;
  return sources.some(
    (source) =>
      source.negated === claim.negated &&
      (!source.irrealis || claim.irrealis) &&
      [...claim.numbers].every((n) => source.numbers.has(n)) &&
      // "dass ihr Sohn Medizin studiert" is the son's fact, not the user's: the candidate must be about him too
      [...source.people].every((p) => claim.words.has(p)) &&
      [...claim.content].every((w) => source.content.has(w)),
  );
}

/** 1 when every clause of the candidate is supported by a clause of the summary, else 0 (the policy's threshold decides). */
export function supportInLanguage(summary: string, candidate: string, lang: string): number {
  const language = languageOf(lang);
  const sources = clausesOf(summary, language);
  const claims = clausesOf(candidate, language);
  return claims.length > 0 && claims.every((claim) => supported(claim, sources)) ? 1 : 0;
}
