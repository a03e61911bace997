import type { Finding } from "./detector";
import { identifyLanguage } from "./language-id";
import { STEMMED_LANGUAGES, stemmerFor } from "./stemming";
import { matchesOf } from "./matches";
import { addTo } from "./multimap";
import { WordGlobIndex, wordsOf, type TextWord } from "./word-globs";

/**
 * The per-language phrase lexicons of the policy (issue 21 item 3): `data.memgate.forbidden.languages.<lang>`
 * (policies/memgate/forbidden/languages/<lang>/data.json) and the words that are the same in
 * every language, `data.memgate.forbidden.universal` (medication names). A policy author adds a
 * language by adding a folder; no TypeScript changes.
 *
 * A lexicon lists words, not regexes, so that they can be stemmed:
 *   "homosexuell"      matches any word of the text with the same stem (nlp.js Snowball stemmers)
 *   "gewerkschaft*"    matches any word that starts so ("Gewerkschaftsmitglied")
 *   "*krebs"           matches any word that ends so ("Brustkrebs")
 *   "zeuge jehovas"    matches the words in a row, each by its stem
 *   "=er"              matches the word exactly (function words, no stemming; every context word is matched so)
 *   "==è italiano"     in a phrase, "==word" is that word as written, accents kept ("è", not "e" "and"); the rest by stem
 * Accents are folded on both sides ("depresion" matches "depresión").
 *
 * The facts, as findings the policy reads (checks/forbidden/forbidden.rego):
 *   class `<forbidden class>`           a `terms` word: counts on its own, as an English pattern does
 *   class `topic:<forbidden class>`     a `topics` word: counts only in a statement about a person
 *   class `context:personal` / `context:software`   the language's person and software words
 *   class `language:<code>`             the language eld read the text as (always reported)
 * Labels say which lexicon (`lexicon:de:health`), never the matched text.
 */
export interface LanguageLexicon {
  name?: string;
  /** Words that count on their own, per forbidden class. */
  terms?: Record<string, string[]>;
  /** Words that count only about a person, per forbidden class. */
  topics?: Record<string, string[]>;
  /** Words that make a statement about a person (`personal`) or about software (`software`). */
  context?: Record<string, string[]>;
  /**
   * A language written without spaces between words (Japanese, Chinese): every entry is matched
   * as a substring of the text's runs of letters, as if written "*word*".
   */
  unspaced?: boolean;
}

/** data.memgate.forbidden.language_policy: what the detector does with a text's language. */
export interface LanguagePolicy {
  /**
   * A text in a language without a lexicon: "judge_with_all_lexicons" runs every language's
   * lexicon over it; "english_only" runs none (the English patterns still do). The policy may
   * also refuse such texts outright (forbidden.rego reads `refuse_uncovered`).
   */
  uncovered?: "judge_with_all_lexicons" | "english_only";
  /** How close to the best score another language must be to be judged too (default 0.9). */
  near?: number;
}

type Kind = "term" | "topic" | "context";
interface Hit {
  kind: Kind;
  cls: string;
}
interface Phrase extends Hit {
  stems: string[];
  /** Per word of the phrase, the word as written where the entry wrote it `==word` (Italian "==è italiano" is not "e italiano", "and Italian"). */
  written?: (string | undefined)[];
}
interface CompiledLanguage {
  lang: string;
  stem: (word: string) => string;
  /** Single words by folded stem (or exact folded word for `=word`). */
  stems: Map<string, Hit[]>;
  exact: Map<string, Hit[]>;
  /** `==word`: the word as written, accents kept (Spanish "él" is not the article "el"). */
  asWritten: Map<string, Hit[]>;
  /** Phrases of several words without stars, by the stem of their first word. */
  phrases: Map<string, Phrase[]>;
  /**
   * `context.opening`: verb forms that make a statement about a person when they open a sentence with
   * no subject, as pro-drop languages and terse notes write ("È evangelico", "Toma litio", "Nimmt Ritalin").
   */
  opening: Set<string>;
  /** Entries with stars, of one word or several, matched word by word (word-globs.ts). */
  affixes: WordGlobIndex<Hit>;
  /**
   * An unspaced language: one regex per kind and class, each tried on the folded text (a sentence
   * is one run of letters, so there are no words to index).
   */
  eachAffix?: { hit: Hit; pattern: RegExp }[];
}

const NON_ASCII = /[^ -~\t\n\r]/;
/** Accents and ł/ß/ı folded, quotes straightened; plain ASCII (most words) is returned as it is. */
export const fold = (text: string): string =>
  !NON_ASCII.test(text)
    ? text
    : text
        .normalize("NFD")
        .replace(/\p{M}/gu, "")
        .replace(/ł/g, "l")
        .replace(/ı/g, "i")
        .replace(/ß/g, "ss")
        .replace(/[\u2018\u2019]/g, "'");

const WORD = /[\p{L}\p{M}\p{N}]+/gu;
const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** An entry of an unspaced language as a regex source: found anywhere in the text, a star standing for letters. */
const unspacedSource = (word: string): string =>
  escape(fold(word.replace(/^[=*]+|\*+$/g, "")))
    .replace(/\\\*/g, "[\\p{L}\\p{N}]*")
    .replace(/ /g, "\\s+");

function compileLanguage(lang: string, lexicon: LanguageLexicon): CompiledLanguage {
  const stemOf = STEMMED_LANGUAGES.includes(lang) ? cachedStemmer(stemmerFor(lang)) : unstemmed;
  const out: CompiledLanguage = {
    lang,
    stem: stemOf,
    stems: new Map(),
    exact: new Map(),
    phrases: new Map(),
    opening: new Set(),
    asWritten: new Map(),
    affixes: new WordGlobIndex(),
  };
  for (const word of lexicon.context?.opening ?? []) out.opening.add(fold(word.trim().toLowerCase()));
  const unspacedGroups: { hit: Hit; source: string }[] = [];
  const groups: [Kind, Record<string, string[]> | undefined][] = [
    ["term", lexicon.terms],
    ["topic", lexicon.topics],
    ["context", lexicon.context ? Object.fromEntries(Object.entries(lexicon.context).filter(([name]) => name !== "opening")) : undefined],
  ];
  for (const [kind, byClass] of groups) {
    for (const [cls, words] of Object.entries(byClass ?? {})) {
      const hit = { kind, cls };
      const unspaced: string[] = [];
      for (const raw of words) {
        // "=word*" is a prefix like "word*": the "=" only matters for a whole word.
        const word = raw
          .trim()
          .toLowerCase()
          .replace(/^=(?=.*\*$)/, "");
        if (lexicon.unspaced) unspaced.push(unspacedSource(word));
        // Context words are function words and short nouns: matched as written, never by stem
        // (German "seite" and "seit" share a stem).
        else if (word.startsWith("==") && !/\s/.test(word)) addTo(out.asWritten, word.slice(2), hit);
        else if (/(^|\s)==/.test(word)) {
          // a phrase with words as written: "==è italiano", "==är svensk"; the other words by stem
          const tokens = word.split(/\s+/).flatMap((t) => (t.startsWith("==") ? [t] : (t.match(WORD) ?? [])));
          const stems = tokens.map((t) => stemOf(t.replace(/^==/, "")));
          const written = tokens.map((t) => (t.startsWith("==") ? t.slice(2) : undefined));
          addTo(out.phrases, stems[0], { ...hit, stems, written });
        } else if (kind === "context" && !word.includes("*") && !/[\s-]/.test(word)) addTo(out.exact, fold(word.replace(/^=/, "")), hit);
        else if (word.startsWith("=")) addTo(out.exact, fold(word.slice(1)), hit);
        else if (word.includes("*")) out.affixes.add(fold(word), hit);
        else if (/[\s-]/.test(word)) {
          const stems = (word.match(WORD) ?? []).map(stemOf);
          addTo(out.phrases, stems[0], { ...hit, stems });
        } else addTo(out.stems, stemOf(word), hit);
      }
      if (unspaced.length) unspacedGroups.push({ hit, source: unspaced.join("|") });
    }
  }
  if (lexicon.unspaced) out.eachAffix = unspacedGroups.map((g) => ({ hit: g.hit, pattern: new RegExp(g.source, "u") }));
  return out;
}

/** A language without a stemmer matches words as written, folded: nothing worth caching. */
const unstemmed = (word: string): string => fold(word.toLowerCase());
/** A word of digits only: every stemmer returns it unchanged (test/detectors/stemming.test.ts). */
const NUMBER = /^\p{N}+$/u;
/**
 * Stems of the words seen last, per language: the same words come back in text after text, and
 * stemming is not free. Numbers are never cached: ids and counts are new in almost every text, and
 * would push out the words that do come back.
 */
const STEM_CACHE_WORDS = 20_000;
function cachedStemmer(stem: (word: string) => string): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    if (NUMBER.test(word)) return fold(word);
    let stemmed = cache.get(word);
    if (stemmed === undefined) {
      if (cache.size >= STEM_CACHE_WORDS) cache.clear();
      stemmed = fold(stem(word.toLowerCase()));
      cache.set(word, stemmed);
    }
    return stemmed;
  };
}

export interface CompiledLanguageLexicons {
  languages: Map<string, CompiledLanguage>;
  universal?: CompiledLanguage;
  policy: LanguagePolicy;
}

export function compileLanguageLexicons(
  languages: Record<string, LanguageLexicon> | undefined,
  universal: LanguageLexicon | undefined,
  policy: LanguagePolicy | undefined,
): CompiledLanguageLexicons {
  const compiled = new Map<string, CompiledLanguage>();
  for (const [lang, lexicon] of Object.entries(languages ?? {})) compiled.set(lang, compileLanguage(lang, lexicon));
  return { languages: compiled, universal: universal ? compileLanguage("universal", universal) : undefined, policy: policy ?? {} };
}

function findingOf(field: string, lang: string, hit: Hit): Finding {
  if (hit.kind === "term") return { field, class: hit.cls, label: `lexicon:${lang}:${hit.cls}` };
  if (hit.kind === "topic") return { field, class: `topic:${hit.cls}`, label: `topic:${lang}:${hit.cls}` };
  return { field, class: `context:${hit.cls}`, label: `context:${lang}:${hit.cls}` };
}

// The first word of the text and of each sentence or clause after a colon or dash.
const OPENING_WORD = /(?:^|[.!?;:\n–—]\s*|\s-\s+)([\p{L}\p{M}]+)/gu;
const PERSONAL: Hit = { kind: "context", cls: "personal" };

/**
 * Context words that name a job ("gevangenisbewaarder", "funcionario de prisiones", "jurist på facket"):
 * their words name the job, not the person's record, health or union, and are not read as terms or topics.
 */
const JOB_CONTEXTS = new Set(["occupation", "union_staff"]);
const isJob = (hit: Hit): boolean => hit.kind === "context" && JOB_CONTEXTS.has(hit.cls);

function matchLanguage(field: string, language: CompiledLanguage, words: string[], folded: string, foldedWords: TextWord[], out: Map<string, Finding>): void {
  const add = (hit: Hit): void => {
    const f = findingOf(field, language.lang, hit);
    out.set(`${f.class} ${f.label}`, f);
  };
  if (language.opening.size > 0) {
    for (const m of matchesOf(OPENING_WORD, folded)) {
      if (language.opening.has(m[1])) {
        add(PERSONAL);
        break;
      }
    }
  }
  const stems = words.map(language.stem);
  // Each word's hits with the words they span, looked up once; the words of a job's name (exact, stem or
  // phrase lookups) still give their context, never a term or topic.
  const found: { hit: Hit; at: number[]; namesJob: boolean }[] = [];
  for (let i = 0; i < words.length; i++) {
    for (const hit of language.exact.get(fold(words[i])) ?? []) found.push({ hit, at: [i], namesJob: true });
    if (language.asWritten.size > 0) for (const hit of language.asWritten.get(words[i]) ?? []) found.push({ hit, at: [i], namesJob: false });
    for (const hit of language.stems.get(stems[i]) ?? []) found.push({ hit, at: [i], namesJob: true });
    for (const phrase of language.phrases.get(stems[i]) ?? []) {
      if (
        i + phrase.stems.length <= stems.length &&
        phrase.stems.every((s, k) => stems[i + k] === s && (phrase.written?.[k] === undefined || words[i + k] === phrase.written[k]))
      ) {
        found.push({ hit: phrase, at: phrase.stems.map((_, k) => i + k), namesJob: true });
      }
    }
  }
  const job = new Set<number>();
  if (!language.eachAffix) for (const { hit, at, namesJob } of found) if (namesJob && isJob(hit)) for (const i of at) job.add(i);
  for (const { hit, at } of found) if (hit.kind === "context" || !at.some((i) => job.has(i))) add(hit);
  if (language.eachAffix) {
    // an unspaced language: the job names found first, then blanked out for the terms and topics
    let rest = folded;
    for (const { hit, pattern } of language.eachAffix) {
      if (!isJob(hit) || !pattern.test(folded)) continue;
      add(hit);
      rest = rest.replace(new RegExp(pattern.source, "gu"), (m) => " ".repeat(m.length));
    }
    for (const { hit, pattern } of language.eachAffix) if (!isJob(hit) && pattern.test(hit.kind === "context" ? folded : rest)) add(hit);
  } else if (job.size === 0 || foldedWords.length !== words.length) {
    for (const hit of language.affixes.matches(folded, foldedWords)) add(hit);
  } else {
    for (const hit of language.affixes.matches(folded, foldedWords)) if (hit.kind === "context") add(hit);
    const unjobbed = foldedWords.map((w, i) => (job.has(i) ? { ...w, word: "" } : w));
    for (const hit of language.affixes.matches(folded, unjobbed)) if (hit.kind !== "context") add(hit);
  }
}

/** Fewer words than this are not worth identifying (a key, an id): eld cannot tell; "und". */
const MIN_WORDS = 3;
const UNDETERMINED = { lang: "und", candidates: [], reliable: false };
/**
 * The last texts' languages: a request's fields are read alone and then together ("key: value"),
 * and the text read together is judged in the language of its longest field.
 */
const recent = new Map<string, ReturnType<typeof identifyLanguage>>();
/**
 * A fast path before eld, for speed only: most texts are English, and a text whose words are at
 * least 20% English function words ("the", "and", "with", ...; two at least) is read as English.
 * Words also common in a covered language ("a", "i", "to", "do", "is", "in", "an", "as") are not in the list.
 */
const ENGLISH_FUNCTION_WORDS = new Set(
  "the are was were be been of and or for on with that this it its you he she we they my your his her our their not does did at by from have has had will would should can could there what which who when where how if than then them me him us".split(
    " ",
  ),
);
const ENGLISH = { lang: "en", candidates: ["en"], reliable: true };
export function looksEnglish(words: string[]): boolean {
  let hits = 0;
  for (const w of words) if (ENGLISH_FUNCTION_WORDS.has(w)) hits++;
  return hits >= 2 && hits / words.length >= 0.2;
}

/** Kana and CJK ideographs: a language written without spaces, where a sentence is one or two "words". */
const UNSPACED_SCRIPT = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/;

function guessOf(text: string, words: string[], near: number): ReturnType<typeof identifyLanguage> {
  if (words.length < MIN_WORDS && !(text.length >= 6 && UNSPACED_SCRIPT.test(text))) return UNDETERMINED;
  if (looksEnglish(words)) return ENGLISH;
  const known = recent.get(text);
  if (known) return known;
  const guess = identifyLanguage(text, near);
  if (recent.size >= 16) recent.delete(recent.keys().next().value as string);
  recent.set(text, guess);
  return guess;
}

/** The language of the longest of several texts already read alone (for the text read together). */
export function languageOfLongest(texts: string[]): ReturnType<typeof identifyLanguage> | undefined {
  const longest = texts.reduce((a, b) => (b.length > a.length ? b : a), "");
  return recent.get(longest);
}

/**
 * The findings of the per-language lexicons for one text (already normalised and lower-cased by
 * the lexicon detector): its language, and the terms, topics and context words of the lexicons
 * of that language (or of every language, for an uncovered one when the policy says so).
 */
export function matchLanguageLexicons(field: string, text: string, lexicons: CompiledLanguageLexicons, known?: ReturnType<typeof identifyLanguage>): Finding[] {
  const words = text.match(WORD) ?? [];
  if (words.length === 0) return [];
  const guess = known ?? guessOf(text, words, lexicons.policy.near ?? 0.9);
  const out = new Map<string, Finding>();
  const lang = guess.lang;
  out.set("language", { field, class: `language:${lang}`, label: "language-id" });
  const folded = fold(text);
  const foldedWords = wordsOf(folded);
  const judged = new Set(guess.candidates.filter((c) => lexicons.languages.has(c)).slice(0, 2));
  const covered = lang === "en" || lexicons.languages.has(lang);
  if (!covered && (lexicons.policy.uncovered ?? "judge_with_all_lexicons") === "judge_with_all_lexicons") {
    for (const l of lexicons.languages.keys()) judged.add(l);
  }
  for (const l of judged) matchLanguage(field, lexicons.languages.get(l)!, words, folded, foldedWords, out);
  if (lexicons.universal) matchLanguage(field, lexicons.universal, words, folded, foldedWords, out);
  return [...out.values()];
}
