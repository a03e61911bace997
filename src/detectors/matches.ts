/**
 * Every match of a global regex in `text`, as `text.matchAll(re)` gives them, without its cost:
 * matchAll clones the regex (RegExp[Symbol.species]), and a clone starts uncompiled, so each call
 * recompiled the large lexicon patterns (about 0.3 ms for one per-language affix pattern, over
 * 3 ms once a garbage collection has dropped V8's regexp cache: Turkish texts took 12 ms per
 * decision). This runs the regex itself, from its lastIndex, and puts lastIndex back.
 */
export function matchesOf(re: RegExp, text: string): RegExpExecArray[] {
  if (!re.global) throw new TypeError("matchesOf needs a global regex (as String.prototype.matchAll does)");
  const start = re.lastIndex;
  const unicode = re.unicode || re.flags.includes("v");
  const out: RegExpExecArray[] = [];
  try {
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      out.push(m);
      if (m[0] === "") re.lastIndex = advance(text, re.lastIndex, unicode);
    }
  } finally {
    re.lastIndex = start;
  }
  return out;
}

/** AdvanceStringIndex of ECMA-262: past an empty match by one code unit, or one code point in unicode mode. */
function advance(text: string, index: number, unicode: boolean): number {
  if (!unicode || index + 1 >= text.length) return index + 1;
  const first = text.charCodeAt(index);
  if (first < 0xd800 || first > 0xdbff) return index + 1;
  const second = text.charCodeAt(index + 1);
  return second >= 0xdc00 && second <= 0xdfff ? index + 2 : index + 1;
}

/**
 * A global regex whose every match opens with one of a few words (`openers`, a cheap regex of
 * those words without boundaries or Unicode mode), matched only where one of them stands: the
 * same matches as matchesOf(pattern, text), without trying a large alternation at every offset
 * of the text (a password statement's words in eleven languages cost most of the credential
 * rules' time so). Openers are looked for at every offset, overlapping, so none is skipped.
 */
export class AnchoredRegex {
  private readonly starts: RegExp;
  private readonly sticky: RegExp;

  constructor(
    readonly pattern: RegExp,
    openers: RegExp,
  ) {
    if (!pattern.global) throw new TypeError("AnchoredRegex needs a global regex");
    this.starts = new RegExp(openers.source, `${openers.flags.replace(/[gy]/g, "")}g`);
    this.sticky = new RegExp(pattern.source, `${pattern.flags.replace(/g/g, "")}y`);
  }

  matches(text: string): RegExpExecArray[] {
    const out: RegExpExecArray[] = [];
    // Matches do not overlap: the next one starts at or after the end of the last.
    let from = 0;
    this.starts.lastIndex = 0;
    let start: RegExpExecArray | null;
    while ((start = this.starts.exec(text)) !== null) {
      const at = start.index;
      this.starts.lastIndex = at + 1;
      if (at < from) continue;
      this.sticky.lastIndex = at;
      const m = this.sticky.exec(text);
      if (m) {
        out.push(m);
        from = m[0] === "" ? at + 1 : at + m[0].length;
      }
    }
    this.starts.lastIndex = 0;
    this.sticky.lastIndex = 0;
    return out;
  }
}
