import { parseRegExpLiteral, type AST } from "@eslint-community/regexpp";

/**
 * Which of many regexes could match a text, from the literal strings each one needs: RE2's
 * prefilter and Hyperscan's literal factoring, for the lexicon's patterns. Each pattern is
 * parsed (regexpp, ESLint's regex parser) and reduced to a set of strings at least one of which
 * is in every text it matches ("diagnos", "prescri" for a health pattern); a pattern that needs
 * none (it may match anywhere) is always tried. For one text, the strings present are found in
 * one pass over its characters, and only the patterns with one of them present are tried.
 *
 * Why: the policy's English patterns are about 150 regexes, each of which V8 tried at every
 * position of every text (about 170 µs for 300 characters), although a text usually holds the
 * words of a few of them. The answer is the same: a pattern skipped could not have matched.
 *
 * Strings are compared as UTF-16 code units, as the regexes compare them (no `i` flag, no
 * folding; a pattern with the i or v flag is always tried).
 */

/** How many strings a part of a pattern may stand for before it is treated as "anything". */
const MAX_EXACT = 24;

interface Info {
  /** Every string the part can match, when few (`null`: too many or unbounded). */
  exact: Set<string> | null;
  /** Strings one of which is in every match (`null`: none known). */
  required: Set<string> | null;
}

const ANYTHING: Info = { exact: null, required: null };
const EMPTY: Info = { exact: new Set([""]), required: null };

const requiredOf = (info: Info): Set<string> | null => info.required ?? (info.exact && !info.exact.has("") ? info.exact : null);

/** The more selective of two requirements: the one whose shortest string is longer, then the smaller one. */
function better(a: Set<string> | null, b: Set<string> | null): Set<string> | null {
  if (!a) return b;
  if (!b) return a;
  const shortest = (s: Set<string>): number => {
    let min = Infinity;
    for (const x of s) min = Math.min(min, x.length);
    return min;
  };
  const [la, lb] = [shortest(a), shortest(b)];
  return la !== lb ? (la > lb ? a : b) : a.size <= b.size ? a : b;
}

function cross(a: Set<string>, b: Set<string>): Set<string> | null {
  if (a.size * b.size > MAX_EXACT) return null;
  const out = new Set<string>();
  for (const x of a) for (const y of b) out.add(x + y);
  return out;
}

function union(infos: Info[]): Info {
  let exact: Set<string> | null = new Set();
  let required: Set<string> | null = new Set();
  for (const info of infos) {
    if (exact && info.exact && exact.size + info.exact.size <= MAX_EXACT) for (const s of info.exact) exact.add(s);
    else exact = null;
    const r = requiredOf(info);
    if (required && r) for (const s of r) required.add(s);
    else required = null;
  }
  return { exact, required: exact ? null : required };
}

function sequence(elements: AST.Element[]): Info {
  let run: Set<string> | null = new Set([""]);
  let whole = true;
  let best: Set<string> | null = null;
  for (const element of elements) {
    const info = infoOf(element);
    const joined: Set<string> | null = run && info.exact ? cross(run, info.exact) : null;
    if (joined) {
      run = joined;
      continue;
    }
    // The run so far ends here: it is one candidate, the element's own requirement another.
    whole = false;
    if (run) best = better(best, requiredOf({ exact: run, required: null }));
    if (info.exact) run = info.exact;
    else {
      best = better(best, requiredOf(info));
      run = new Set([""]);
    }
  }
  if (whole) return { exact: run, required: null };
  if (run) best = better(best, requiredOf({ exact: run, required: null }));
  return { exact: null, required: best };
}

function classInfo(node: AST.CharacterClass): Info {
  if (node.negate) return ANYTHING;
  const chars = new Set<string>();
  for (const element of node.elements) {
    if (element.type === "Character") chars.add(String.fromCodePoint(element.value));
    else if (element.type === "CharacterClassRange" && element.max.value - element.min.value < MAX_EXACT) {
      for (let c = element.min.value; c <= element.max.value; c++) chars.add(String.fromCodePoint(c));
    } else return ANYTHING;
    if (chars.size > MAX_EXACT) return ANYTHING;
  }
  return { exact: chars, required: null };
}

function infoOf(node: AST.Element | AST.Alternative): Info {
  switch (node.type) {
    case "Alternative":
      return sequence(node.elements);
    case "Character":
      return { exact: new Set([String.fromCodePoint(node.value)]), required: null };
    case "CharacterClass":
      return classInfo(node);
    case "Group":
    case "CapturingGroup":
      return union(node.alternatives.map(infoOf));
    case "Assertion":
      // ^, $, \b and lookarounds consume nothing (what a lookahead needs is not needed by the match).
      return EMPTY;
    case "Quantifier": {
      const inner = infoOf(node.element);
      if (node.max === 0) return EMPTY;
      if (node.min === 0) return node.max === 1 && inner.exact ? { exact: new Set([...inner.exact, ""]), required: null } : ANYTHING;
      let exact: Set<string> | null = node.min === node.max ? inner.exact : null;
      for (let k = 1; exact && k < node.min; k++) exact = cross(exact, inner.exact!);
      return { exact, required: exact ? null : requiredOf(inner) };
    }
    default:
      return ANYTHING;
  }
}

/**
 * The literals of the patterns seen last, by source and flags: the injection detector builds a
 * prefilter for each set of languages a text is read in, and most of its patterns (one language's
 * rules) recur in every set; parsing them again cost a third of a judged text's CPU in the eval.
 */
const LITERALS_KEPT = 20_000;
const literalsOf = new Map<string, string[] | undefined>();

/** Strings one of which every match of `re` contains, or `undefined` when the pattern may match without any. */
export function requiredLiterals(re: RegExp): string[] | undefined {
  const key = `${re.flags}/${re.source}`;
  if (!literalsOf.has(key)) {
    if (literalsOf.size >= LITERALS_KEPT) literalsOf.clear();
    literalsOf.set(key, literalsOfPattern(re));
  }
  const literals = literalsOf.get(key);
  return literals && [...literals];
}

function literalsOfPattern(re: RegExp): string[] | undefined {
  if (/[^gmsuy]/.test(re.flags)) return undefined;
  let pattern: AST.Pattern;
  try {
    pattern = parseRegExpLiteral(re).pattern;
  } catch {
    return undefined;
  }
  const required = requiredOf(union(pattern.alternatives.map(infoOf)));
  return required && ![...required].some((s) => s === "") ? [...required] : undefined;
}

/** Literals shorter than this (few: "-", "ki") are looked for one by one. */
const KEY_LENGTH = 3;
/** The size of the bitmap of literals' openings (a power of two). */
const OPENING_BITS = 1 << 16;
/** Literals this long or longer are indexed by this many characters, the others by KEY_LENGTH. */
const LONG_KEY_LENGTH = 6;
/**
 * The low 10 bits of each of three characters: a small integer. Characters beyond U+03FF may share
 * a key, so each slot also holds the prefix it stands for, compared with the text where needed.
 */
const keyAt = (text: string, at: number): number =>
  ((text.charCodeAt(at) & 0x3ff) << 20) | ((text.charCodeAt(at + 1) & 0x3ff) << 10) | (text.charCodeAt(at + 2) & 0x3ff);

const EMPTY_SLOT = -1;
/** A power of two at least twice `count`: the table stays under half full, so probes stay short. */
const tableSize = (count: number): number => 1 << Math.max(4, Math.ceil(Math.log2(2 * count + 1)));
/**
 * A key's home slot: murmur3's finaliser over both halves, so that every bit of the key moves the
 * low bits the mask keeps (a bare multiply left them to the last character alone, and probes ran
 * through clusters of dozens of slots).
 */
const slotOf = (key: number, key2: number, mask: number): number => {
  let h = Math.imul(key, 0x9e3779b1) ^ Math.imul(key2 + 1, 0x27d4eb2d);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) & mask;
};
const hasWide = (s: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) > 0x3ff) return true;
  return false;
};

/**
 * Literals in buckets by their first `length` characters (3 or 6): an open-addressing table of
 * prefixes, and per bucket the literals, each compared with the text where its prefix occurs.
 */
class PrefixTable {
  private readonly key: Int32Array;
  private readonly key2: Int32Array;
  private readonly bucket: Int32Array;
  private readonly prefix: string[];
  /** Whether a prefix has a character above U+03FF (its keys may then stand for others too). */
  private readonly wide: Uint8Array;
  /** Per bucket, its literals: `literals[start[b] .. start[b + 1])`. */
  private readonly start: Int32Array;
  readonly literals: Int32Array;

  constructor(
    readonly length: number,
    buckets: Map<string, number[]>,
  ) {
    [this.start, this.literals] = packed([...buckets.values()]);
    const slots = tableSize(buckets.size);
    this.key = new Int32Array(slots);
    this.key2 = new Int32Array(slots);
    this.bucket = new Int32Array(slots).fill(EMPTY_SLOT);
    this.prefix = new Array<string>(slots).fill("");
    this.wide = new Uint8Array(slots);
    let bucket = 0;
    for (const prefix of buckets.keys()) {
      const [key, key2] = [keyAt(prefix, 0), this.key2At(prefix, 0)];
      let slot = slotOf(key, key2, slots - 1);
      while (this.bucket[slot] !== EMPTY_SLOT) slot = (slot + 1) & (slots - 1);
      [this.key[slot], this.key2[slot], this.bucket[slot], this.prefix[slot]] = [key, key2, bucket++, prefix];
      this.wide[slot] = hasWide(prefix, 0, prefix.length) ? 1 : 0;
    }
  }

  /** The key of a prefix's characters after the first three (none for a three-character table). */
  private key2At(text: string, at: number): number {
    return this.length > KEY_LENGTH ? keyAt(text, at + KEY_LENGTH) : 0;
  }

  /** The bucket of the prefix at `at` (whose first three characters' key is `key`), or EMPTY_SLOT. */
  bucketAt(text: string, at: number, key: number): number {
    if (at + this.length > text.length) return EMPTY_SLOT;
    const key2 = this.key2At(text, at);
    const mask = this.bucket.length - 1;
    for (let slot = slotOf(key, key2, mask); this.bucket[slot] !== EMPTY_SLOT; slot = (slot + 1) & mask) {
      if (this.key[slot] !== key || this.key2[slot] !== key2) continue;
      // Keys stand for one prefix only while all its characters are below U+0400.
      if ((this.wide[slot] === 1 || hasWide(text, at, at + this.length)) && !text.startsWith(this.prefix[slot], at)) continue;
      return this.bucket[slot];
    }
    return EMPTY_SLOT;
  }

  /** The first of a bucket's literals in `literals`, and (for bucket + 1) the end of its range. */
  firstOf(bucket: number): number {
    return this.start[bucket];
  }
}

/**
 * Many regexes' required literals, in buckets by their first characters (six for most, three for
 * shorter ones). For each position of a text, the bucket of the prefix there is looked up in a small
 * open-addressing table, and its few literals are compared with the text (`startsWith`). A trie of
 * every literal's characters (its edges in a table of 131,072 slots) walked the same text in more
 * time, most of it waiting for memory once a request's other work had pushed the table out of the
 * CPU's caches.
 */
export class RegexPrefilter<T> {
  private readonly always: T[] = [];
  private readonly values: T[] = [];
  /** Per literal, the values (indexes into `values`) that need it: `literalValues[valueStart[i] .. valueStart[i + 1])`. */
  private readonly valueStart: Int32Array;
  private readonly literalValues: Int32Array;
  /** Literals shorter than a key (few: "-", "ki"), looked for one by one. */
  private readonly short: { literal: string; index: number }[] = [];
  private readonly tables: PrefixTable[];
  private readonly literals: string[] = [];
  /**
   * One bit per hash of a literal's first three characters (8 KB, so it stays in the CPU's nearest
   * cache): most positions of a text open no literal, and this rules them out before any table is read.
   */
  private readonly opens = new Uint32Array(OPENING_BITS >>> 5);
  /** Per literal, the last call that found it (a stamp, so nothing is cleared between calls). */
  private readonly foundIn: Uint32Array;
  private call = 0;

  constructor(entries: Iterable<{ regex: RegExp; value: T }>) {
    const indexOf = new Map<string, number>();
    const needs: number[][] = [];
    const buckets = [new Map<string, number[]>(), new Map<string, number[]>()];
    for (const { regex, value } of entries) {
      const required = requiredLiterals(regex);
      if (!required) {
        this.always.push(value);
        continue;
      }
      const valueIndex = this.values.push(value) - 1;
      for (const literal of required) {
        let index = indexOf.get(literal);
        if (index === undefined) {
          index = needs.push([]) - 1;
          this.literals.push(literal);
          indexOf.set(literal, index);
          if (literal.length < KEY_LENGTH) this.short.push({ literal, index });
          else {
            const length = literal.length >= LONG_KEY_LENGTH ? LONG_KEY_LENGTH : KEY_LENGTH;
            const byPrefix = buckets[length === KEY_LENGTH ? 0 : 1];
            const prefix = literal.slice(0, length);
            const bit = slotOf(keyAt(literal, 0), 0, OPENING_BITS - 1);
            this.opens[bit >>> 5] |= 1 << (bit & 31);
            const bucket = byPrefix.get(prefix);
            if (bucket) bucket.push(index);
            else byPrefix.set(prefix, [index]);
          }
        }
        needs[index].push(valueIndex);
      }
    }
    [this.valueStart, this.literalValues] = packed(needs);
    this.tables = [new PrefixTable(KEY_LENGTH, buckets[0]), new PrefixTable(LONG_KEY_LENGTH, buckets[1])];
    this.foundIn = new Uint32Array(needs.length);
  }

  /** The values whose regex could match `text`: those always tried, then those with a literal present. */
  candidates(text: string): Set<T> {
    const out = new Set<T>(this.always);
    const call = (this.call = (this.call + 1) >>> 0 || 1);
    const found = (index: number): void => {
      if (this.foundIn[index] === call) return;
      this.foundIn[index] = call;
      for (let v = this.valueStart[index]; v < this.valueStart[index + 1]; v++) out.add(this.values[this.literalValues[v]]);
    };
    for (const { literal, index } of this.short) if (text.includes(literal)) found(index);
    for (let at = 0; at + KEY_LENGTH <= text.length; at++) {
      const key = keyAt(text, at);
      const bit = slotOf(key, 0, OPENING_BITS - 1);
      if ((this.opens[bit >>> 5] & (1 << (bit & 31))) === 0) continue;
      for (const table of this.tables) {
        const bucket = table.bucketAt(text, at, key);
        if (bucket === EMPTY_SLOT) continue;
        for (let b = table.firstOf(bucket), end = table.firstOf(bucket + 1); b < end; b++) {
          const index = table.literals[b];
          const literal = this.literals[index];
          if (literal.length === table.length || text.startsWith(literal, at)) found(index);
        }
      }
    }
    return out;
  }

  /** How many patterns need no literal (always tried), for the bench and tests. */
  get alwaysTried(): number {
    return this.always.length;
  }
}

/** Lists of numbers as one array and the offset where each list starts (CSR): `flat[start[i] .. start[i + 1])`. */
function packed(lists: number[][]): [Int32Array, Int32Array] {
  const start = new Int32Array(lists.length + 1);
  lists.forEach((list, i) => (start[i + 1] = start[i] + list.length));
  const flat = new Int32Array(start[lists.length]);
  lists.forEach((list, i) => flat.set(list, start[i]));
  return [start, flat];
}
