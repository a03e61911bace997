import { addTo } from "./multimap";

/**
 * Lexicon entries with stars ("gewerkschaft*", "*krebs", "orientacj* seksualn*", "jest* adwentystą"),
 * matched word by word through an index instead of as one alternation regex over the text.
 *
 * Why: a language's entries of several words were one regex of every entry, tried at every
 * position of the text. With 567 such entries (Polish) one 300-character text took about 70 ms
 * of CPU, and every text read as Polish, or with Polish as its runner-up language, paid it.
 * Here each word of the text is looked up by its first (or last) three letters, and only the
 * entries that start (or end) so are tried: the cost follows the text's words, not the lexicon's size.
 *
 * The meaning is the regex's: a star stands for letters and digits inside one word; an entry's
 * words are consecutive words of the text, with whitespace where the entry has a space and the
 * same characters where it has others ("covid-19", "d'origine"); an entry that starts with a star
 * may start inside a word, one that ends with a star may end inside one.
 */

/** One word of an entry: its literal parts in order, and whether the word must start and end with them. */
interface WordGlob {
  parts: string[];
  anchoredStart: boolean;
  anchoredEnd: boolean;
}

interface GlobEntry<T> {
  value: T;
  words: WordGlob[];
  /** What stands between consecutive words of the entry, whitespace runs written as one space. */
  separators: string[];
}

/** A word of a text and where it is (offsets into the text it came from). */
export interface TextWord {
  word: string;
  start: number;
  end: number;
}

const KEY = 3;
const ENTRY_WORD = /[\p{L}\p{M}\p{N}*]+/gu;
const TEXT_WORD = /[\p{L}\p{M}\p{N}]+/gu;
const oneSpace = (text: string): string => text.replace(/\s+/g, " ");

function globOf(written: string): WordGlob {
  const parts = written.split("*").filter((part) => part !== "");
  return { parts, anchoredStart: !written.startsWith("*"), anchoredEnd: !written.endsWith("*") };
}

export function globMatches(glob: WordGlob, word: string): boolean {
  const { parts, anchoredStart, anchoredEnd } = glob;
  let at = 0;
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k];
    if (k === 0 && anchoredStart) {
      if (!word.startsWith(part)) return false;
      at = part.length;
    } else if (k === parts.length - 1 && anchoredEnd) {
      return word.length - part.length >= at && word.endsWith(part);
    } else {
      const found = word.indexOf(part, at);
      if (found < 0) return false;
      at = found + part.length;
    }
  }
  return !anchoredEnd || at === word.length;
}

/** The words of a text with their offsets. */
export function wordsOf(text: string): TextWord[] {
  const out: TextWord[] = [];
  TEXT_WORD.lastIndex = 0;
  for (let m = TEXT_WORD.exec(text); m !== null; m = TEXT_WORD.exec(text)) out.push({ word: m[0], start: m.index, end: m.index + m[0].length });
  return out;
}

/** Entries with stars, indexed by the first (or, for "*word", the last) letters of their first word. */
export class WordGlobIndex<T> {
  private readonly byHead = new Map<string, GlobEntry<T>[]>();
  private readonly byTail = new Map<string, GlobEntry<T>[]>();
  /** "*word*": tried on every word (few of them). */
  private readonly loose: GlobEntry<T>[] = [];
  size = 0;

  /** `entry` already folded and lower-cased, as the text will be. */
  add(entry: string, value: T): void {
    const words: WordGlob[] = [];
    const separators: string[] = [];
    let previousEnd = -1;
    ENTRY_WORD.lastIndex = 0;
    for (let m = ENTRY_WORD.exec(entry); m !== null; m = ENTRY_WORD.exec(entry)) {
      if (previousEnd >= 0) separators.push(oneSpace(entry.slice(previousEnd, m.index)));
      words.push(globOf(m[0]));
      previousEnd = m.index + m[0].length;
    }
    const first = words[0];
    if (!first || first.parts.length === 0) return;
    const compiled = { value, words, separators };
    if (first.anchoredStart) addTo(this.byHead, first.parts[0].slice(0, KEY), compiled);
    else if (first.anchoredEnd) addTo(this.byTail, first.parts[first.parts.length - 1].slice(-KEY), compiled);
    else this.loose.push(compiled);
    this.size++;
  }

  /** Every entry that matches somewhere in the text whose words (from wordsOf) are given; once each. */
  matches(text: string, words: readonly TextWord[]): T[] {
    const found = new Set<GlobEntry<T>>();
    const tryAt = (entry: GlobEntry<T>, i: number): void => {
      if (found.has(entry) || i + entry.words.length > words.length) return;
      for (let k = 0; k < entry.words.length; k++) {
        if (k > 0) {
          const gap = text.slice(words[i + k - 1].end, words[i + k].start);
          if (oneSpace(gap) !== entry.separators[k - 1]) return;
        }
        if (!globMatches(entry.words[k], words[i + k].word)) return;
      }
      found.add(entry);
    };
    for (let i = 0; i < words.length; i++) {
      const word = words[i].word;
      for (let length = 1; length <= KEY && length <= word.length; length++) {
        for (const entry of this.byHead.get(word.slice(0, length)) ?? []) tryAt(entry, i);
      }
      for (let length = 1; length <= KEY && length <= word.length; length++) {
        for (const entry of this.byTail.get(word.slice(-length)) ?? []) tryAt(entry, i);
      }
      for (const entry of this.loose) tryAt(entry, i);
    }
    return [...found].map((entry) => entry.value);
  }
}
