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

/** Strings one of which every match of `re` contains, or `undefined` when the pattern may match without any. */
export function requiredLiterals(re: RegExp): string[] | undefined {
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
 * The literals sharing a three-character prefix, as a trie of their remaining characters: one walk
 * from a position meets every literal that starts there, however many share the prefix (up to 75
 * share one in the forbidden lexicon, which a list made the prefilter compare one by one).
 */
interface TrieNode {
  /** Literals that end here. */
  ends: number[];
  next: Map<number, TrieNode> | undefined;
}
const trieNode = (): TrieNode => ({ ends: [], next: undefined });

/** Many regexes' required literals, indexed by their first three characters. */
export class RegexPrefilter<T> {
  private readonly always: T[] = [];
  private readonly literals: { literal: string; values: T[] }[] = [];
  private readonly byKey = new Map<number, { prefix: string; node: TrieNode }[]>();
  private readonly short: number[] = [];
  /** Per literal, the last call that found it (a stamp, so nothing is cleared between calls). */
  private readonly foundIn: Uint32Array;
  private call = 0;

  constructor(entries: Iterable<{ regex: RegExp; value: T }>) {
    const indexOf = new Map<string, number>();
    for (const { regex, value } of entries) {
      const required = requiredLiterals(regex);
      if (!required) {
        this.always.push(value);
        continue;
      }
      for (const literal of required) {
        let index = indexOf.get(literal);
        if (index === undefined) {
          index = this.literals.push({ literal, values: [] }) - 1;
          indexOf.set(literal, index);
          if (literal.length < KEY_LENGTH) this.short.push(index);
          else this.insert(literal, index);
        }
        this.literals[index].values.push(value);
      }
    }
    this.foundIn = new Uint32Array(this.literals.length);
  }

  private insert(literal: string, index: number): void {
    const key = keyAt(literal, 0);
    const prefix = literal.slice(0, KEY_LENGTH);
    const roots = this.byKey.get(key) ?? [];
    if (roots.length === 0) this.byKey.set(key, roots);
    let node = roots.find((root) => root.prefix === prefix)?.node;
    if (!node) roots.push({ prefix, node: (node = trieNode()) });
    for (let at = KEY_LENGTH; at < literal.length; at++) {
      const code = literal.charCodeAt(at);
      node.next ??= new Map();
      let child = node.next.get(code);
      if (!child) node.next.set(code, (child = trieNode()));
      node = child;
    }
    node.ends.push(index);
  }

  /** The values whose regex could match `text`: those always tried, then those with a literal present. */
  candidates(text: string): Set<T> {
    const out = new Set<T>(this.always);
    const call = (this.call = (this.call + 1) >>> 0 || 1);
    const found = (index: number): void => {
      if (this.foundIn[index] === call) return;
      this.foundIn[index] = call;
      for (const value of this.literals[index].values) out.add(value);
    };
    for (const index of this.short) if (text.includes(this.literals[index].literal)) found(index);
    for (let at = 0; at + KEY_LENGTH <= text.length; at++) {
      const roots = this.byKey.get(keyAt(text, at));
      if (roots === undefined) continue;
      for (const root of roots) {
        if (roots.length > 1 || text.charCodeAt(at) > 0x3ff || text.charCodeAt(at + 1) > 0x3ff || text.charCodeAt(at + 2) > 0x3ff) {
          if (!text.startsWith(root.prefix, at)) continue;
        }
        let node: TrieNode | undefined = root.node;
        for (let next = at + KEY_LENGTH; node; next++) {
          for (const index of node.ends) found(index);
          node = next < text.length ? node.next?.get(text.charCodeAt(next)) : undefined;
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
