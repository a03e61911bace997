import type { Detector, Finding } from "./detector";
import { digitCount, idLengths, nationalIdsIn } from "./government-id";
import type { LexiconSource } from "./lexicon";
import { matchesOf } from "./matches";

/** data.memgate.identifiers of the bundle (policies/memgate/identifiers/data.json). */
export interface IdentifierData {
  id_words?: Record<string, string[]>;
  /** Per id with a check digit (a label of government-id.ts), the words that name it: near one, only that id counts, and only when it passes. */
  id_word_ids?: Record<string, string[]>;
  secret_statements?: Record<string, { words?: string[]; pin_words?: string[]; of_words?: string[]; links?: string[]; not_values?: string[] }>;
  technical_before?: string[];
  /** Words naming a payment card, per language: "<card word>: 4921" states the card's PIN. */
  card_words?: Record<string, string[]>;
  /** Words that, between a card word and four digits, make them the card's last digits ("ending 4242"). */
  card_last_digits?: string[];
}

interface Statement {
  lang: string;
  kind: "password" | "pin";
  pattern: RegExp;
  notValues: ReadonlySet<string>;
}

interface Compiled {
  idWords: RegExp | undefined;
  /** The ids (labels) an id word names, for the words that name ids with a check digit. */
  idsOfWord: (word: string) => ReadonlySet<string> | undefined;
  /** Any secret word of any language: the cheap test before the per-language patterns. */
  anySecretWord: RegExp | undefined;
  statements: Statement[];
  /** A word that makes the PIN word after it a hardware or software pin. */
  technicalBefore: RegExp | undefined;
  /** Any password word of any language (not PIN words): a password-like token may follow it without a link. */
  passwordWords: RegExp | undefined;
  /** A card word, a colon and four to six digits alone: the card's PIN ("Sparkassenkarte: 4719"). */
  cardPin: RegExp | undefined;
  cardLast: RegExp | undefined;
}

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[ -]/g, "[ -]?");
const alternation = (words: readonly string[]): string =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|");
/** Kana and CJK ideographs: words of a language written without spaces have no word boundaries to look for. */
const UNSPACED = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/;
const wordsPattern = (words: readonly string[]): string => {
  const spaced = words.filter((w) => !UNSPACED.test(w));
  const unspaced = words.filter((w) => UNSPACED.test(w));
  const bounded = spaced.length > 0 ? [`(?<![\\p{L}\\p{N}])(?:${alternation(spaced)})(?![\\p{L}])`] : [];
  return `(?:${[...bounded, ...(unspaced.length > 0 ? [`(?:${alternation(unspaced)})`] : [])].join("|")})`;
};

function compile(data: IdentifierData | undefined): Compiled {
  const idWords = Object.values(data?.id_words ?? {}).flat();
  const statements: Statement[] = [];
  const secretWords: string[] = [];
  const passwordWords: string[] = [];
  for (const [lang, s] of Object.entries(data?.secret_statements ?? {})) {
    // a link of an unspaced language ("は") is written without spaces around it, as symbols are
    const wordLinks = (s.links ?? []).filter((l) => /\p{L}/u.test(l) && !UNSPACED.test(l));
    const symbolLinks = (s.links ?? []).filter((l) => !/\p{L}/u.test(l) || UNSPACED.test(l));
    const link = [
      ...(wordLinks.length > 0 ? [`\\s+(?:${alternation(wordLinks)})\\s+`] : []),
      ...(symbolLinks.length > 0 ? [`\\s*(?:${alternation(symbolLinks)})\\s*`] : []),
    ].join("|");
    if (!link) continue;
    const notValues = new Set((s.not_values ?? []).map((w) => w.toLowerCase()));
    for (const [kind, words] of [
      ["password", s.words ?? []],
      ["pin", s.pin_words ?? []],
    ] as const) {
      if (words.length === 0) continue;
      secretWords.push(...words);
      if (kind === "password") passwordWords.push(...words);
      // word, a phrase of up to six words opened by an of-word ("for the wifi", "del bancomat di mia madre"), a link, then the value;
      // never a noun right after the word ("password hashing: argon2id" is about hashing).
      const of = s.of_words?.length ? `(?:[ \\t]+(?:${alternation(s.of_words)})(?:[ \\t]+[^\\s:=.,;!?]+){1,6}?)?` : "";
      const source = `${wordsPattern(words)}${of}(?:${link})(["'«“‘\`]?)(\\d(?:[ \\u2010\\u2011-]\\d){3,7}(?![ \\u2010\\u2011-]?\\d)|[^\\s"'»”’\`\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{3,64})(\\1)`;
      statements.push({ lang, kind, pattern: new RegExp(source, "giu"), notValues });
      // A PIN word right before its digits: "my laptop PIN 839201", "PIN-Code 4921", "code PIN n° 1234".
      if (kind === "pin") {
        // The digits may be spaced or dashed one by one ("Karten-PIN: 7 3 0 5", "pincode pas: 3‑0‑9‑1").
        const direct = `${wordsPattern(words)}[ \\t:#-]*(?:no\\.?|nr\\.?|n°|number|nummer|número|numero|numer)?[ \\t:#]*()(\\d{4,8}|\\d(?:[ \\u2010\\u2011-]\\d){3,7})()(?![\\d.,]\\d|[ \\u2010\\u2011-]\\d)`;
        statements.push({ lang, kind, pattern: new RegExp(direct, "giu"), notValues });
      }
    }
  }
  const cardWords = Object.values(data?.card_words ?? {}).flat();
  const idsByWord = new Map<string, Set<string>>();
  for (const [id, words] of Object.entries(data?.id_word_ids ?? {})) {
    for (const word of words) {
      const key = word.toLowerCase();
      if (!idsByWord.has(key)) idsByWord.set(key, new Set());
      idsByWord.get(key)?.add(id);
    }
  }
  return {
    idWords: idWords.length > 0 ? new RegExp(wordsPattern(idWords), "giu") : undefined,
    idsOfWord: (word) => idsByWord.get(word.toLowerCase().replace(/\s+/g, " ")),
    // A prefilter only (the per-language patterns decide): no word boundaries, no Unicode mode, so it stays cheap.
    anySecretWord: secretWords.length > 0 ? new RegExp(alternation(secretWords), "i") : undefined,
    statements,
    technicalBefore: data?.technical_before?.length ? new RegExp(`${wordsPattern(data.technical_before)}[\\s\\S]{0,12}$`, "iu") : undefined,
    passwordWords: passwordWords.length > 0 ? new RegExp(wordsPattern(passwordWords), "giu") : undefined,
    cardPin:
      cardWords.length > 0 ? new RegExp(`${wordsPattern(cardWords)}[^\\n:]{0,20}:([^\\n\\d]{0,60}?)(?<![\\d.,])\\d{4,6}(?![\\d]|[ .,-]\\d)`, "giu") : undefined,
    cardLast: data?.card_last_digits?.length ? new RegExp(wordsPattern(data.card_last_digits), "iu") : undefined,
  };
}

/**
 * A token that reads as a password whatever the words around it: digits, a lower-case letter and a
 * symbol ("Tulpen!2020", "loon-Harbor-1987!"), or mixed case and two digits ("Sonne123"); not a
 * URL, path, e-mail or assignment ("WPA2-Enterprise", "OAuth2", "argon2id" are not).
 */
export function passwordLike(token: string): boolean {
  const t = token.replace(/^[([{"'«“‘`]+|[)\]}"'»”’`.,;:]+$/g, "");
  if (t.length < 7 || t.length > 64) return false;
  if (/^(?:https?:|www\.)|[/\\=<>]|@.*\./.test(t)) return false;
  if (!/\d/.test(t) || !/\p{Ll}/u.test(t)) return false;
  // A key or token: 20+ characters of letters and digits (a UUID, hex, base64) after a password or key word.
  if (t.length >= 20 && /^[\p{L}\d_-]+$/u.test(t) && t.replace(/\D/g, "").length >= 4) return true;
  const digits = t.replace(/\D/g, "").length;
  return /[!@#$%^&*?+~€£§]/.test(t) || (digits >= 2 && /\p{Lu}/u.test(t));
}

/** A password word followed, in its line and within a few words, by a password-like token ("ww Tulpen!2020", "mdp Ameli = … → Mistigri1984!"). */
function looseSecret(words: RegExp, text: string): boolean {
  for (const m of matchesOf(words, text)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 80).split(/\n|(?<=[.!?])\s/)[0];
    if (rest.split(/\s+/).slice(0, 14).some(passwordLike)) return true;
  }
  return false;
}

/** A stated value that reads as a secret: digits, symbols, inner capitals, quotes, or a last word that is not a common one. */
function secretValue(statement: Statement, value: string, quoted: boolean, after: string): boolean {
  const bare = value.replace(/[.,;:!?)\]]+$/, "");
  if (bare.length < 3 || statement.notValues.has(bare.toLowerCase())) return false;
  if (statement.kind === "pin") return /\d{3,}|\d[\d \u2010\u2011-]*\d/.test(bare) && /^[\d \u2010\u2011-]+$/.test(bare.replace(/[#*]/g, ""));
  if (quoted || /\d|[^\p{L}'-]/u.test(bare) || /\p{Ll}\p{Lu}/u.test(bare)) return true;
  // A plain word counts when it ends its clause ("the wifi password is sunflower."), not when the sentence goes on.
  return bare.length >= 4 && (bare !== value || /^\s*(?:$|[\n.,;!?)])/.test(after));
}

// After an id word: a number of 5+ digits ("passport no. 123456789"), or a document number of capitals
// and digits with at least three digits ("Reisepass C01X00T47", "licence MORGA657054SM9IJ").
const ID_SHAPE = /^[^\n\d]{0,25}?[A-Z]{0,3}\d[\d -]{4,18}/;
const DOCUMENT_NUMBER = /^[^\n]{0,25}?(?<![\p{L}\p{N}])(?=(?:[A-Z-]*\d){3})[A-Z0-9][A-Z0-9-]{5,17}(?![\p{L}\p{N}])/u;

/**
 * Identifiers that need policy data (policies/memgate/identifiers/data.json): national ids by
 * structure and checksum (government-id.ts), those whose checksum is weak counted when an id
 * word of any covered language that may name them stands near (a word naming other ids, "BSN"
 * before a number that would be a Portuguese NIF, makes neither its keyword nor its grouping count);
 * document numbers named by an id word (a passport or a driving licence has no checksum);
 * and passwords and PINs stated in a sentence ("das Passwort lautet …", "mi PIN es 4921")
 * in every language of the data. Findings name the rule and language, never the value.
 */
export function createIdentifierDetector(source: LexiconSource): Detector {
  let compiledFor: string | undefined;
  let compiled: Compiled = compile(undefined);
  const current = (): Compiled => {
    if (compiledFor === undefined || source.hash !== compiledFor) {
      compiled = compile(source.data<IdentifierData | undefined>("identifiers"));
      compiledFor = source.hash;
    }
    return compiled;
  };
  return {
    name: "identifiers",
    detect(field: string, text: string): Finding[] {
      const { idWords, idsOfWord, anySecretWord, statements, technicalBefore, passwordWords, cardPin, cardLast } = current();
      const findings: Finding[] = [];
      if (digitCount(text) >= 4 || text.includes("<<")) {
        const words: { start: number; end: number; ids: ReadonlySet<string> | undefined }[] = [];
        if (idWords) {
          idWords.lastIndex = 0;
          for (const m of matchesOf(idWords, text)) words.push({ start: m.index, end: m.index + m[0].length, ids: idsOfWord(m[0]) });
        }
        // A word that names particular ids ("BSN") raises confidence in those only; a generic one ("id number") in any.
        const near = (at: number) => words.filter((w) => w.end <= at && at - w.end <= 48);
        // A word naming the id may also follow it: "6 4 9 3 6 5 1 1 2 is van Kees, voor de Belastingdienst".
        const after = (end: number | undefined) => (end === undefined ? [] : words.filter((w) => w.start >= end && w.start - end <= 60));
        const keywordNear = (_: string, at: number, id: string, end?: number) => [...near(at), ...after(end)].some((w) => w.ids === undefined || w.ids.has(id));
        const otherIdNamed = (_: string, at: number, id: string) => near(at).some((w) => w.ids !== undefined && !w.ids.has(id));
        for (const label of nationalIdsIn(text, { keywordNear, otherIdNamed }))
          findings.push({ field, class: "biometrics_ids", label: `national_id:${label}` });
        // A number of an id's length right after the word that names it, checksum failing ("Meine Steuer-ID ist 47159263744"):
        // a topic, so it counts about a person ("meine") and not in test data ("hat absichtlich eine falsche Prüfziffer").
        if (!findings.length) {
          for (const w of words) {
            const run = /^[^\n\d]{0,20}?(\d[\d .-]{7,18}\d)(?![\d.,]\d)/.exec(text.slice(w.end, w.end + 48));
            const length = run?.[1].replace(/\D/g, "").length ?? 0;
            if (length && [...(w.ids ?? [])].some((id) => idLengths(id).includes(length))) {
              findings.push({ field, class: "topic:biometrics_ids", label: "named_id_unchecked" });
              break;
            }
          }
        }
        const named = (after: string) => (ID_SHAPE.exec(after)?.[0].replace(/\D/g, "").length ?? 0) >= 5 || DOCUMENT_NUMBER.test(after);
        // An id with a check digit is found by nationalIdsIn or not at all: "Steuer-ID 49 960 571 231 (wrong check digit)" is test data.
        if (words.some((w) => w.ids === undefined && named(text.slice(w.end, w.end + 48)))) {
          findings.push({ field, class: "biometrics_ids", label: "named_id_number" });
        }
      }
      if (cardPin && digitCount(text) >= 4) {
        for (const m of matchesOf(cardPin, text)) {
          if (cardLast?.test(m[0])) continue;
          findings.push({ field, class: "credentials", label: "pin_statement:card" });
          break;
        }
      }
      if (anySecretWord?.test(text)) {
        const kinds = new Set<string>();
        for (const statement of statements) {
          if (kinds.has(statement.kind)) continue; // one finding per kind: "pin" is a word of several languages
          statement.pattern.lastIndex = 0;
          for (const m of matchesOf(statement.pattern, text)) {
            if (statement.kind === "pin" && technicalBefore?.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
            if (secretValue(statement, m[2], m[1] !== "", text.slice(m.index + m[0].length))) {
              findings.push({ field, class: "credentials", label: `${statement.kind}_statement:${statement.lang}` });
              kinds.add(statement.kind);
              break;
            }
          }
        }
        if (!kinds.has("password") && passwordWords && looseSecret(passwordWords, text)) {
          findings.push({ field, class: "credentials", label: "password_statement:value" });
        }
      }
      return findings;
    },
  };
}
