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

/** Literals are indexed by this many characters; shorter ones (few: "-", "ki") are looked for one by one. */
const KEY_LENGTH = 3;
/**
 * The low 10 bits of each of three characters: a small integer, which a Map hashes far faster than
 * the 48-bit number of all three (a heap double). Characters beyond U+03FF may share a key, so each
 * key holds the prefixes it stands for, compared with the text.
 */
const keyAt = (text: string, at: number): number =>
  ((text.charCodeAt(at) & 0x3ff) << 20) | ((text.charCodeAt(at + 1) & 0x3ff) << 10) | (text.charCodeAt(at + 2) & 0x3ff);

/**
 * The literals as a trie of their characters after a three-character root, laid out in typed
 * arrays: a Map per node made each walk chase pointers across the heap, which cost about 200 µs
 * for a 300-character text once a request's other work had pushed the lexicon out of the CPU's
 * caches (35 µs when warm). Two open-addressing tables (roots by key, edges by node and
 * character) and the literals ending at each node, in a few contiguous arrays.
 */
interface BuildNode {
  ends: number[];
  next: Map<number, BuildNode> | undefined;
  id: number;
}

const EMPTY_SLOT = -1;
/** A power of two at least twice `count`: tables stay under half full, so probes stay short. */
const tableSize = (count: number): number => 1 << Math.max(4, Math.ceil(Math.log2(2 * count + 1)));
const mix = (a: number, b: number): number => (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 1, 0x85ebca77)) >>> 0;
const hasWide = (s: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) if (s.charCodeAt(i) > 0x3ff) return true;
  return false;
};

/** Many regexes' required literals, indexed by their first three characters. */
export class RegexPrefilter<T> {
  private readonly always: T[] = [];
  private readonly values: T[] = [];
  /** Per literal, the values (indexes into `values`) that need it: `literalValues[valueStart[i] .. valueStart[i + 1])`. */
  private readonly valueStart: Int32Array;
  private readonly literalValues: Int32Array;
  /** Literals shorter than a key (few: "-", "ki"), looked for one by one. */
  private readonly short: { literal: string; index: number }[] = [];
  /** Roots: a key (keyAt) → its trie node; several prefixes may share a key, each with its own slot. */
  private readonly rootKey: Int32Array;
  private readonly rootNode: Int32Array;
  private readonly rootPrefix: string[];
  /** Whether a root's prefix has a character above U+03FF (its key may then stand for others too). */
  private readonly rootWide: Uint8Array;
  /** Edges: (node, character) → child node. */
  private readonly edgeFrom: Int32Array;
  private readonly edgeCode: Uint16Array;
  private readonly edgeTo: Int32Array;
  /** Per node, the literals that end there: `endList[endStart[n] .. endStart[n + 1])`. */
  private readonly endStart: Int32Array;
  private readonly endList: Int32Array;
  /** Per literal, the last call that found it (a stamp, so nothing is cleared between calls). */
  private readonly foundIn: Uint32Array;
  private call = 0;

  constructor(entries: Iterable<{ regex: RegExp; value: T }>) {
    const indexOf = new Map<string, number>();
    const needs: number[][] = [];
    const nodes: BuildNode[] = [];
    const node = (): BuildNode => {
      const n: BuildNode = { ends: [], next: undefined, id: nodes.length };
      nodes.push(n);
      return n;
    };
    const roots = new Map<string, BuildNode>();
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
          indexOf.set(literal, index);
          if (literal.length < KEY_LENGTH) this.short.push({ literal, index });
          else {
            const prefix = literal.slice(0, KEY_LENGTH);
            let at = roots.get(prefix);
            if (!at) roots.set(prefix, (at = node()));
            for (let i = KEY_LENGTH; i < literal.length; i++) {
              const code = literal.charCodeAt(i);
              at.next ??= new Map();
              let child = at.next.get(code);
              if (!child) at.next.set(code, (child = node()));
              at = child;
            }
            at.ends.push(index);
          }
        }
        needs[index].push(valueIndex);
      }
    }
    [this.valueStart, this.literalValues] = packed(needs);
    [this.endStart, this.endList] = packed(nodes.map((n) => n.ends));
    const rootSlots = tableSize(roots.size);
    this.rootKey = new Int32Array(rootSlots);
    this.rootNode = new Int32Array(rootSlots).fill(EMPTY_SLOT);
    this.rootPrefix = new Array<string>(rootSlots).fill("");
    this.rootWide = new Uint8Array(rootSlots);
    for (const [prefix, root] of roots) {
      const key = keyAt(prefix, 0);
      let slot = mix(key, 0) & (rootSlots - 1);
      while (this.rootNode[slot] !== EMPTY_SLOT) slot = (slot + 1) & (rootSlots - 1);
      [this.rootKey[slot], this.rootNode[slot], this.rootPrefix[slot]] = [key, root.id, prefix];
      this.rootWide[slot] = hasWide(prefix, 0, KEY_LENGTH) ? 1 : 0;
    }
    const edges = nodes.reduce((sum, n) => sum + (n.next?.size ?? 0), 0);
    const edgeSlots = tableSize(edges);
    this.edgeFrom = new Int32Array(edgeSlots).fill(EMPTY_SLOT);
    this.edgeCode = new Uint16Array(edgeSlots);
    this.edgeTo = new Int32Array(edgeSlots);
    for (const from of nodes) {
      for (const [code, to] of from.next ?? []) {
        let slot = mix(from.id, code) & (edgeSlots - 1);
        while (this.edgeFrom[slot] !== EMPTY_SLOT) slot = (slot + 1) & (edgeSlots - 1);
        [this.edgeFrom[slot], this.edgeCode[slot], this.edgeTo[slot]] = [from.id, code, to.id];
      }
    }
    this.foundIn = new Uint32Array(needs.length);
  }

  private child(node: number, code: number): number {
    const mask = this.edgeFrom.length - 1;
    for (let slot = mix(node, code) & mask; this.edgeFrom[slot] !== EMPTY_SLOT; slot = (slot + 1) & mask) {
      if (this.edgeFrom[slot] === node && this.edgeCode[slot] === code) return this.edgeTo[slot];
    }
    return EMPTY_SLOT;
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
    const mask = this.rootNode.length - 1;
    for (let at = 0; at + KEY_LENGTH <= text.length; at++) {
      const key = keyAt(text, at);
      for (let slot = mix(key, 0) & mask; this.rootNode[slot] !== EMPTY_SLOT; slot = (slot + 1) & mask) {
        if (this.rootKey[slot] !== key) continue;
        // A key stands for one prefix only while all its characters are below U+0400.
        if ((this.rootWide[slot] === 1 || hasWide(text, at, at + KEY_LENGTH)) && !text.startsWith(this.rootPrefix[slot], at)) continue;
        let node = this.rootNode[slot];
        for (let next = at + KEY_LENGTH; node !== EMPTY_SLOT; next++) {
          for (let e = this.endStart[node]; e < this.endStart[node + 1]; e++) found(this.endList[e]);
          node = next < text.length ? this.child(node, text.charCodeAt(next)) : EMPTY_SLOT;
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
