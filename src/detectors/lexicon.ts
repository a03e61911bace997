import type { Detector, Finding } from "./detector";
import { matchesOf } from "./matches";
import {
  compileLanguageLexicons,
  languageOfLongest,
  matchLanguageLexicons,
  type CompiledLanguageLexicons,
  type LanguageLexicon,
  type LanguagePolicy,
} from "./language-lexicon";
import { analyse, type LinguisticAnalysis } from "./linguistic";
import { RegexPrefilter } from "./prefilter";

/** A lexicon entry in policy data: a regex, or a regex with an `unless` regex for known innocent readings. */
type Entry = string | { match: string; unless?: string };

/** data.memgate.forbidden of the bundle (policies/memgate/forbidden/data.json). */
export interface ForbiddenLexicon {
  patterns: Record<string, Entry[]>;
  /** Regexes whose matches become `context:<name>` findings (software talk, a person as subject). */
  context?: Record<string, string>;
  /** Like context, but matched against the raw text (case matters: a name opening a sentence). */
  context_raw?: Record<string, string>;
  /** Topic words per class; findings `topic:<class>`, which count only about a person (see the policy). */
  topics?: Record<string, Entry[]>;
  category_bans?: Record<string, { patterns: Record<string, Entry[]> }>;
  /** Words with an innocent and a guilty reading; the policy weighs the facts (see Sense). */
  senses?: Record<string, Sense>;
  /** Per-language word lexicons (policies/memgate/forbidden/languages/<lang>/), see language-lexicon.ts. */
  languages?: Record<string, LanguageLexicon>;
  /** Words the same in every language (medication names). */
  universal?: LanguageLexicon;
  language_policy?: LanguagePolicy;
}

/**
 * A word a lexicon pattern may match in an innocent reading ("the date field", "diagnosing
 * flaky tests"). `forms` (a regex) finds the word inside a match; the match's finding then
 * carries the sense's name and the word's linguistic facts, and the policy clears it when an
 * `innocent` fact is present and no `guilty` one (the lists are read by the policy only).
 */
export interface Sense {
  forms: string;
  innocent: string[];
  guilty?: string[];
}

/** data.memgate.injection of the bundle (policies/memgate/injection/data.json). */
export interface InjectionLexicon {
  /** One character class (RE2 syntax, `\x{HHHH}` escapes) of characters that hide text from a reviewer. */
  hidden_characters?: string;
}

/**
 * A contract's own lexicon (data.memgate.contracts.<contract>.lexicons.<name>): rules in groups,
 * matched only against the declared fields it names (`finalText`, `source.note`). A match is a
 * finding of class `<contract>:<name>` labelled `<group>:<rule id>`; the contract's rules decide.
 */
export interface ContractLexicon {
  fields: string[];
  groups: Record<string, { id: string; pattern: string; unless?: string; raw?: boolean }[]>;
  senses?: Record<string, Sense>;
}

/** Where the lexicons come from: the policy bundle in force (PolicyEngine satisfies this). */
export interface LexiconSource {
  readonly hash: string | undefined;
  data<T>(name: string): T;
}

interface Compiled {
  cls: string;
  label: string;
  match: RegExp;
  /** The same pattern with the g flag, to look at every match when senses are in play. */
  every: RegExp;
  unless?: RegExp;
  raw?: boolean;
  /** Only in one field's own text, never in the texts read together. */
  field?: boolean;
}

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** A rule of a contract lexicon; `raw` ones match the text as written (case matters). */
interface ScopedRule {
  cls: string;
  label: string;
  fields: ReadonlySet<string>;
  match: RegExp;
  every: RegExp;
  senses: CompiledSense[];
  unless?: RegExp;
  raw: boolean;
}

/**
 * The form every lexicon pattern is written against: lower case, invisible characters
 * dropped (the policy flags them on the raw text), `_` read as a space, curly quotes
 * straightened, whitespace collapsed.
 */
export function normalize(text: string): string {
  return normalizeKeepingCase(text).toLowerCase();
}

/** normalize() without lower-casing: what the part-of-speech tagger reads (case helps it). */
function normalizeKeepingCase(text: string): string {
  return text
    .replace(INVISIBLE, "")
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/_+/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Latin letters with diacritics folded to their base letter, one character for one (offsets
 * stay): what the English patterns of the forbidden classes read. Their `\b` is ASCII-only, so
 * without this "\bunions\b" would match inside French "réunions" and "\bmedic\w*" inside
 * a word of any language; "naïve" and "fiancé" are written with their ASCII twins.
 */
export function foldLatin(text: string): string {
  return text.replace(/[\u00C0-\u024F]/g, (c) => {
    const base = c.normalize("NFD")[0];
    return /[A-Za-z]/.test(base) ? base : c;
  });
}

/**
 * The form a contract lexicon's patterns are written against: lower case, typographic
 * apostrophes and the en dash folded; nothing else changes (patterns match runs of \s, `_`
 * and `{}` themselves).
 */
export function foldForContractLexicon(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/\u2013/g, "-");
}

/** A list element's path (`refs[2]`) under its declared name (`refs[]`). */
const declaredName = (path: string): string => path.replace(/\[\d+\]/g, "[]");

function compileContractLexicons(source: LexiconSource): ScopedRule[] {
  const contracts = source.data<Record<string, { lexicons?: Record<string, ContractLexicon> } | undefined> | undefined>("contracts");
  const out: ScopedRule[] = [];
  for (const [contract, data] of Object.entries(contracts ?? {})) {
    for (const [name, lexicon] of Object.entries(data?.lexicons ?? {})) {
      const fields = new Set(lexicon.fields);
      const senses = compileSenses(lexicon.senses);
      for (const [group, rules] of Object.entries(lexicon.groups)) {
        for (const rule of rules) {
          out.push({
            cls: `${contract}:${name}`,
            label: `${group}:${rule.id}`,
            fields,
            match: new RegExp(rule.pattern),
            every: new RegExp(rule.pattern, "g"),
            senses,
            unless: rule.unless ? new RegExp(rule.unless) : undefined,
            raw: rule.raw === true,
          });
        }
      }
    }
  }
  return out;
}

function compile(cls: string, label: string, entry: Entry): Compiled {
  const source = typeof entry === "string" ? entry : entry.match;
  const unless = typeof entry === "string" || !entry.unless ? undefined : new RegExp(entry.unless);
  return { cls, label, match: new RegExp(source), every: new RegExp(source, "g"), unless };
}

interface CompiledSense {
  name: string;
  forms: RegExp;
}

function compileSenses(senses: Record<string, Sense> | undefined): CompiledSense[] {
  return Object.entries(senses ?? {}).map(([name, sense]) => ({ name, forms: new RegExp(sense.forms, "g") }));
}

/**
 * Whether the policy reads a sense's facts on findings of this class: it does on the forbidden
 * classes and their topics (checks/forbidden/forbidden.rego, _innocent_reading), while a context
 * (`context:personal`) or a category ban (`ban:REMINDER:health`) counts by its class alone, so
 * reading the text for its words' facts there is work nobody uses.
 */
const readsSenses = (cls: string): boolean => !cls.startsWith("context:") && !cls.startsWith("ban:");

/** The first word of a sense inside a match, as the sense's name and the word's offset in the text. */
function senseIn(senses: readonly CompiledSense[], match: string, at: number): { name: string; offset: number } | undefined {
  for (const sense of senses) {
    sense.forms.lastIndex = 0;
    const found = sense.forms.exec(match);
    if (found) return { name: sense.name, offset: at + found.index };
  }
  return undefined;
}

/**
 * The findings of one pattern that matched `subject`: a plain one (the policy counts it) if
 * some match covers no word of a sense, else one per distinct sense reading, each carrying
 * the word's facts. `analysis` reads the text once, and only when a sense is in play.
 */
function findingsOfMatches(
  field: string,
  rule: { cls: string; label: string; every: RegExp },
  subject: string,
  senses: readonly CompiledSense[],
  analysis: () => LinguisticAnalysis,
): Finding[] {
  if (senses.length === 0) return [{ field, class: rule.cls, label: rule.label }];
  const out = new Map<string, Finding>();
  for (const match of matchesOf(rule.every, subject)) {
    const sense = senseIn(senses, match[0], match.index);
    if (!sense) return [{ field, class: rule.cls, label: rule.label }];
    const facts = analysis().factsAt(sense.offset);
    out.set(`${sense.name} ${facts.join(" ")}`, { field, class: rule.cls, label: rule.label, term: sense.name, facts });
  }
  return [...out.values()];
}

/** Reads `text` for the tagger with its case kept when that keeps every offset of `lowered`. */
function analysisFor(text: string, lowered: string): () => LinguisticAnalysis {
  let analysis: LinguisticAnalysis | undefined;
  return () => {
    if (!analysis) {
      const cased = text.length === lowered.length && text.toLowerCase() === lowered ? text : lowered;
      analysis = analyse(cased);
    }
    return analysis;
  };
}

/**
 * A character class written for RE2 (the policy's regex engine) as a JavaScript RegExp:
 * `\x{HHHH}` code point escapes become `\u{HHHH}`, matched by code point (flag u), so a
 * tag character (U+E0000..) is one character as it is in RE2.
 */
export function re2CharacterClass(pattern: string): RegExp {
  return new RegExp(pattern.replace(/\\x\{([0-9A-Fa-f]{1,6})\}/g, "\\u{$1}"), "u");
}

function compileAll(source: LexiconSource): Compiled[] {
  const forbidden = source.data<ForbiddenLexicon | undefined>("forbidden");
  const injection = source.data<InjectionLexicon | undefined>("injection");
  const out: Compiled[] = [];
  for (const [cls, entries] of Object.entries(forbidden?.patterns ?? {})) {
    entries.forEach((entry, i) => out.push(compile(cls, `lexicon:${cls}#${i}`, entry)));
  }
  for (const [category, ban] of Object.entries(forbidden?.category_bans ?? {})) {
    for (const [cls, entries] of Object.entries(ban.patterns)) {
      entries.forEach((entry, i) => out.push(compile(`ban:${category}:${cls}`, `lexicon:ban:${category}:${cls}#${i}`, entry)));
    }
  }
  for (const [name, pattern] of Object.entries(forbidden?.context ?? {})) {
    out.push(compile(`context:${name}`, `context:${name}`, pattern));
  }
  for (const [name, pattern] of Object.entries(forbidden?.context_raw ?? {})) {
    out.push({ ...compile(`context:${name}`, `context_raw:${name}`, pattern), raw: true });
  }
  for (const [cls, entries] of Object.entries(forbidden?.topics ?? {})) {
    entries.forEach((entry, i) => out.push(compile(`topic:${cls}`, `topic:${cls}#${i}`, entry)));
  }
  if (injection?.hidden_characters) {
    // Matched on the raw text: normalize() drops the very characters it looks for.
    const hidden = re2CharacterClass(injection.hidden_characters);
    out.push({ cls: "hidden_characters", label: "hidden_characters", match: hidden, every: hidden, raw: true, field: true });
  }
  return out;
}

/**
 * The phrase lexicons of the policy bundle (forbidden classes of seed 000 §4, category bans
 * of §3, injection phrasing, hidden characters, and each contract's own lexicons such as the
 * ledger's P54-C final-text validator), matched here because the wasm host recompiles every regex on
 * every evaluation. The patterns stay policy data: a policy author edits policies/ and
 * rebuilds, the new bundle's hash recompiles them. Each text is also read together with the
 * others ("key: value") so that a pattern can see a key and its value at once.
 */
export function createLexiconDetector(source: LexiconSource): Detector {
  let compiledFor: string | undefined;
  let compiled: Compiled[] = [];
  /** The patterns read on the folded text, by the literals they need (prefilter.ts). */
  let prefilter = new RegexPrefilter<Compiled>([]);
  let scoped: ScopedRule[] = [];
  let scopedPrefilter = new RegexPrefilter<ScopedRule>([]);
  let senses: CompiledSense[] = [];
  let languages: CompiledLanguageLexicons | undefined;
  const current = (): Compiled[] => {
    if (source.hash !== compiledFor || compiledFor === undefined) {
      compiled = compileAll(source);
      prefilter = new RegexPrefilter(compiled.filter((c) => !c.raw).map((c) => ({ regex: c.match, value: c })));
      scoped = compileContractLexicons(source);
      scopedPrefilter = new RegexPrefilter(scoped.filter((r) => !r.raw).map((r) => ({ regex: r.match, value: r })));
      const forbidden = source.data<ForbiddenLexicon | undefined>("forbidden");
      senses = compileSenses(forbidden?.senses);
      languages =
        forbidden?.languages || forbidden?.universal ? compileLanguageLexicons(forbidden.languages, forbidden.universal, forbidden.language_policy) : undefined;
      compiledFor = source.hash;
    }
    return compiled;
  };
  /** Every rule of a contract lexicon declared for this field that matches (each one names itself). */
  const scanScoped = (field: string, text: string): Finding[] => {
    const name = declaredName(field);
    const findings: Finding[] = [];
    const folded = foldForContractLexicon(text);
    const analysis = analysisFor(text, folded);
    let possible: Set<ScopedRule> | undefined;
    for (const rule of scoped) {
      if (!rule.fields.has(name) || (!rule.raw && !(possible ??= scopedPrefilter.candidates(folded)).has(rule))) continue;
      const subject = rule.raw ? text : folded;
      if (!rule.match.test(subject) || rule.unless?.test(subject)) continue;
      findings.push(...findingsOfMatches(field, rule, subject, rule.raw ? [] : rule.senses, analysis));
    }
    return findings;
  };
  const scan = (field: string, text: string, together = false, language?: ReturnType<typeof languageOfLongest>): Finding[] => {
    const normalized = normalize(text);
    // The forbidden classes' English patterns read Latin letters folded; the per-language
    // lexicons read the text (injection has its own detector, src/detectors/injection.ts).
    const latin = foldLatin(normalized);
    const analysis = analysisFor(foldLatin(normalizeKeepingCase(text)), latin);
    // A class with a plain finding is settled; one with only sense readings so far is not.
    const settled = new Set<string>();
    const findings: Finding[] = [];
    const patterns = current();
    const possible = prefilter.candidates(latin);
    for (const c of patterns) {
      if ((together && c.field) || (!c.raw && !possible.has(c))) continue;
      const subject = c.raw ? text : latin;
      if (settled.has(c.cls) || !c.match.test(subject)) continue;
      if (c.unless?.test(subject)) continue;
      const found = findingsOfMatches(field, c, subject, c.raw || !readsSenses(c.cls) ? [] : senses, analysis);
      if (found.some((f) => f.term === undefined)) settled.add(c.cls);
      findings.push(...found);
    }
    // The per-language lexicons: the text's language, then its words by stem.
    if (languages) findings.push(...matchLanguageLexicons(field, normalized, languages, language));
    return findings;
  };
  return {
    name: "lexicon",
    detect: (field, text) => {
      const findings = scan(field, text);
      return scoped.length > 0 ? [...findings, ...scanScoped(field, text)] : findings;
    },
    detectTogether(fields: Record<string, string>): Finding[] {
      const texts = Object.values(fields).filter(Boolean);
      // Read together, the texts are in the language of the longest one (already identified alone).
      return texts.length > 1 ? scan("entry", texts.join(": "), true, languageOfLongest(texts.map(normalize))) : [];
    },
  };
}
