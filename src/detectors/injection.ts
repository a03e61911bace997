import type { Detector, Finding } from "./detector";
import { identifyLanguage } from "./language-id";
import { looksEnglish } from "./language-lexicon";
import type { LexiconSource } from "./lexicon";
import { matchesOf } from "./matches";
import { RegexPrefilter } from "./prefilter";
import { HIDDEN_MARK } from "./normalise";

/**
 * Injection by intent (issue 21 item 4, C19-TOOL / INV-4): what a text asks a future agent
 * to do, in every language of the policy's data (policies/memgate/injection/data.json,
 * `intent`). Each sentence of a field is read once and described by facts; the policy
 * (checks/injection/injection.rego) decides which combinations are an injection:
 *
 * - `intent:addressee` — the sentence speaks to the assistant or its future conversations
 *   ("from now on", "whenever", "the assistant should", "in your reply"); `intent:you` — it
 *   speaks to someone in the second person; `intent:imperative` — it opens with a command
 *   verb. Documentation speaks to its reader in the last two ways too, so the policy lets
 *   them address the agent only for the strongest actions.
 * - `action:<kind>` — a dangerous action (pipe-to-shell, remote code, exfiltration to an
 *   address, reading credentials, disabling safety, secrecy and denial); `action:<kind>:negated`
 *   when a negation governs it ("never pipe curl to sh"); `action:<kind>:quoted` when every
 *   occurrence is inside quotes (named, not used).
 * - `override` / `override:quoted` — "ignore all previous instructions" and its kin.
 * - `role:assistant|system|user` — a turn line ("Assistant: …"); `role:template` — a
 *   chat-template token (<|im_start|>, [INST], <<SYS>>), `role:template:quoted` when quoted.
 * - `frame:defensive` — the sentence talks about the technique to defend against or test it
 *   (words of refusal, detection, attack, tests), the matched spans themselves left out;
 *   `frame:descriptive` — it describes what something can do, as documentation does ("you can
 *   override …", "this module supports …").
 * - `tool:shape` (label `text`) — the whole field is shaped like tool or web output (a JSON
 *   tool result, a list of search results), whatever label it carries.
 * - `disguised` — the sentence was hidden from a reader: the normaliser's `hidden` view (an
 *   opened carrier, a letter-spaced phrase, look-alike letters), which opens with HIDDEN_MARK.
 *
 * Text is folded before matching (lower case, accents removed, ł→l, ß→ss, Turkish ı→i), so the lexicons
 * are written without diacritics and `\b` works in every language. The normaliser of the
 * detector suite hands this detector the plain text of disguised or encoded content; this
 * detector reads what it is given. Findings never carry the matched text.
 */

/** One rule: a regex, or every regex of `all` in the same sentence (the first one locates it). */
type Entry = string | { all: string[] };

interface LanguageBlock {
  addressee?: string[];
  you?: string[];
  imperative?: string[];
  override?: string[];
  negation?: string;
  /** A negation that follows what it negates, in the same clause (Turkish "-maz", Japanese "しない"). */
  negation_after?: string;
  /**
   * Verbs that turn a negation before them into licence ("don't hesitate to", "never fail to",
   * "zögere nicht"): a negation followed by one of these does not govern the action or override.
   */
  negation_cancel?: string;
  defensive?: string[];
  /** Frame words that also name what an instruction switches off ("the content filter", "the test suite"): a frame only when the sentence gives no command. */
  defensive_weak?: string[];
  descriptive?: string[];
  /**
   * A report of what a fetched or read source says ("Fetched README says:", "Según el correo que
   * leí:"): a quote after it is that source's text, the tool output itself, not a mention.
   */
  reported?: string[];
  actions?: Record<string, Entry[]>;
  /**
   * Word classes of the language (regex alternatives: verbs in their inflections, nouns,
   * markers), named in `templates` as `{name}`: the structure of an instruction is written once,
   * its words per language.
   */
  words?: Record<string, string[]>;
  /** Written without spaces between words (Japanese): no \b around its words. */
  unspaced?: boolean;
  /**
   * A narrow, harmless scope of a waived safeguard ("skips the confirmation only for read-only
   * commands", "nur bei Dry-Runs"): a rule, or every part of one, in the same sentence.
   */
  scope?: Entry[];
  /** Words that widen a scope again ("not only", "including", "every command"): no scope then. */
  scope_guard?: string[];
}

/** data.memgate.injection.intent of the bundle. */
export interface IntentLexicon {
  action_kinds: string[];
  negatable_actions?: string[];
  /**
   * Kinds whose rules carry their own negation ("an AI with no rules", "refuses nothing", "bez
   * żadnych zasad"): a negation inside a match is the rule's; only one before it (or, in Turkish
   * and Japanese, after it in its clause) governs it ("the assistant must never act as an AI without rules").
   */
  own_negation_actions?: string[];
  /**
   * Kinds that a harmless scope of the language's `scope` narrows to a convention ("the assistant
   * skips the confirmation only for dry runs"): `action:<kind>:scoped`, which the policy stores.
   */
  scopable_actions?: string[];
  shared: {
    role_turn?: Record<string, string>;
    template_tokens?: string[];
    tool_shape?: string[];
    /** A label saying the text is a tool's or command's output, in the covered languages ("Tool result:", "Ausgabe von ls:"). */
    tool_label?: string[];
    actions?: Record<string, Entry[]>;
    quotes?: string;
    /** Language-free members of word classes (addresses, product names), joined to each language's class of that name. */
    words?: Record<string, string[]>;
  };
  languages: Record<string, LanguageBlock>;
  /**
   * Rules written over word classes, per action kind: each `{name}` of an entry is replaced by
   * the language's class of that name (with `shared.words` of that name, if any), so every part
   * comes from one language; a language without one of the classes gets no such rule.
   */
  templates?: Record<string, Entry[]>;
}

interface Rule {
  /** located with the g flag (every occurrence) */
  first: RegExp;
  rest: RegExp[];
  /** `rest` with the g flag: every occurrence of a part stays out of the frame check, not only the first */
  restAll: RegExp[];
}

/**
 * The rules of one shape (n parts, the k-th such rule of each language). Every part of a
 * member comes from one language (or from the shared, language-free data): an English verb
 * and a German object never make a match. `prefilter` is the members merged part by part
 * across languages, a necessary condition read first so that a sentence costs one regex per
 * part, as one rule would; the members are read only when it passes (rare).
 */
interface RuleGroup {
  prefilter?: Rule;
  members: Rule[];
}

/** A verb of a rule with several parts may be split around its negation ("schakel hem nooit uit"). */
const splitVerb = (rule: Rule): boolean => rule.rest.length > 0;

interface Compiled {
  addressee?: RegExp;
  you?: RegExp;
  imperative?: RegExp;
  /** one regex each: an alternation of them all defeats the regex engine's literal prefilters (20x slower) */
  override: RegExp[];
  negation?: RegExp;
  negationAfter?: RegExp;
  negationCancel?: RegExp;
  /**
   * The verbs that set rules aside (the `defy` and `defied` word classes, their guards against a
   * negation removed, g): an override is negatable only around one of them ("never ignore your
   * guidelines"), not where its negation is its meaning ("you have no restrictions").
   */
  defyVerb?: RegExp;
  defensive?: RegExp;
  defensiveWeak?: RegExp;
  descriptive?: RegExp;
  reported?: RegExp;
  actions: { kind: string; negatable: boolean; ownNegation: boolean; scopable: boolean; groups: RuleGroup[] }[];
  /** the languages' harmless scopes (rules) and what widens them again */
  scope: Rule[];
  scopeGuard?: RegExp;
  roles: { name: string; re: RegExp }[];
  template?: RegExp;
  toolShape?: RegExp;
  toolLabel?: RegExp;
  quotes?: RegExp;
  /** Every regex above read on the sentence (or a part of it), by the literals it needs (prefilter.ts). */
  prefilter: RegexPrefilter<RegExp>;
}

/**
 * A lexicon regex as the text is folded: combining marks removed (the Japanese voicing marks too,
 * so a lexicon may write "ば"); no lower-casing, which would turn \S into \s.
 */
const foldSource = (source: string): string => (/[^ -~\t\n\r]/.test(source) ? source.normalize("NFD").replace(/\p{M}+/gu, "") : source);

const union = (sources: readonly string[] | undefined, flags = ""): RegExp | undefined =>
  sources && sources.length > 0 ? new RegExp(sources.map((s) => `(?:${foldSource(s)})`).join("|"), flags) : undefined;

const toRule = (entry: Entry | string[]): Rule => {
  const parts = typeof entry === "string" ? [entry] : Array.isArray(entry) ? entry : entry.all;
  return {
    first: new RegExp(foldSource(parts[0]), "g"),
    rest: parts.slice(1).map((p) => new RegExp(foldSource(p))),
    restAll: parts.slice(1).map((p) => new RegExp(foldSource(p), "g")),
  };
};

const alternation = (sources: string[]): string => (sources.length === 1 ? sources[0] : sources.map((x) => `(?:${x})`).join("|"));

/**
 * The rules of one action kind, grouped by shape: the plain regexes of every language become
 * one alternation (each alternative a whole rule of one language), and the n-th rule of n
 * parts of each language joins a group whose prefilter merges them part by part.
 */
function groupAcrossLanguages(blocks: readonly Entry[][]): RuleGroup[] {
  const plain: string[] = [];
  const shaped = new Map<string, string[][]>();
  for (const block of blocks) {
    const seen = new Map<number, number>();
    for (const entry of block) {
      if (typeof entry === "string") {
        plain.push(entry);
        continue;
      }
      const ordinal = seen.get(entry.all.length) ?? 0;
      seen.set(entry.all.length, ordinal + 1);
      const key = `${entry.all.length}#${ordinal}`;
      shaped.set(key, [...(shaped.get(key) ?? []), entry.all]);
    }
  }
  const groups: RuleGroup[] = [...shaped.values()].map((members) => {
    const rules = members.map(toRule);
    if (rules.length === 1) return { members: rules };
    const parts = members[0].map((_, i) => alternation([...new Set(members.map((m) => m[i]))]));
    return { prefilter: toRule(parts), members: rules };
  });
  if (plain.length > 0) groups.push({ members: [toRule(alternation(plain))] });
  return groups;
}

const PLACEHOLDER = /\{([a-z_]+)\}/g;
/** A class's guard against a negation next to the verb ("(?<!\\bnever )", Turkish "(?!me|mi)"): the negation is what the override check looks for. */
const NEGATION_GUARD = /\(\?<?![^()]*\)/g;

/**
 * A language's rules of one kind: its own, and the templates of that kind with its word
 * classes filled in (`\b` around a class is the template's to write).
 */
function rulesOfLanguage(lexicon: IntentLexicon, block: LanguageBlock, kind: string): Entry[] {
  const own: Entry[] = (kind === "override" ? block.override : block.actions?.[kind]) ?? [];
  const templates = lexicon.templates?.[kind];
  if (!templates || !block.words) return own;
  // a language's words are whole words (\b around them, except in an unspaced script); the shared
  // members (addresses, paths) carry their own boundaries, and a class may be shared only
  const edge = block.unspaced ? "" : "\\b";
  const classOf = (name: string): string | undefined => {
    const own = block.words?.[name] ?? [];
    const shared = lexicon.shared.words?.[name] ?? [];
    if (own.length + shared.length === 0) return undefined;
    return `(?:${[...(own.length > 0 ? [`${edge}(?:${own.join("|")})${edge}`] : []), ...shared].join("|")})`;
  };
  const fill = (part: string): string | undefined => {
    let missing = false;
    const out = part.replace(PLACEHOLDER, (_, name: string) => classOf(name) ?? ((missing = true), ""));
    return missing ? undefined : out;
  };
  const filled: Entry[] = [];
  for (const template of templates) {
    if (typeof template === "string") {
      const one = fill(template);
      if (one !== undefined) filled.push(one);
      continue;
    }
    const parts = template.all.map(fill);
    if (parts.every((x): x is string => x !== undefined)) filled.push({ all: parts });
  }
  return [...own, ...filled];
}

/** The rules of the shared data and of the named languages (every language when `only` is undefined). */
function compile(lexicon: IntentLexicon, only?: readonly string[]): Compiled {
  const langs = Object.entries(lexicon.languages ?? {})
    .filter(([lang]) => only === undefined || only.includes(lang))
    .map(([, block]) => block);
  const collect = (pick: (l: LanguageBlock) => string[] | string | undefined): string[] =>
    langs.flatMap((l) => {
      const v = pick(l);
      return v === undefined ? [] : Array.isArray(v) ? v : [v];
    });
  const negatable = new Set(lexicon.negatable_actions ?? []);
  const ownNegation = new Set(lexicon.own_negation_actions ?? []);
  const scopable = new Set(lexicon.scopable_actions ?? []);
  const actions = lexicon.action_kinds.map((kind) => ({
    kind,
    negatable: negatable.has(kind),
    ownNegation: ownNegation.has(kind),
    scopable: scopable.has(kind),
    groups: groupAcrossLanguages([lexicon.shared.actions?.[kind] ?? [], ...langs.map((l) => rulesOfLanguage(lexicon, l, kind))]),
  }));
  const rules: Omit<Compiled, "prefilter"> = {
    addressee: union(collect((l) => l.addressee)),
    you: union(collect((l) => l.you)),
    imperative: union(collect((l) => l.imperative)),
    // templates of kind "override" are plain regexes: each is tested on its own, as the language's own
    override: langs
      .flatMap((l) => rulesOfLanguage(lexicon, l, "override"))
      .filter((e): e is string => typeof e === "string")
      .map((source) => new RegExp(foldSource(source), "g")),
    negation: union(
      collect((l) => l.negation),
      "g",
    ),
    negationAfter: union(collect((l) => l.negation_after)),
    negationCancel: union(collect((l) => l.negation_cancel)),
    defyVerb: union(
      langs.flatMap((l) => {
        const verbs = [...(l.words?.defy ?? []), ...(l.words?.defied ?? [])].map((v) => v.replace(NEGATION_GUARD, ""));
        // whole words: English "ignore" is not the verb of Swedish "ignorera aldrig"
        const edge = l.unspaced ? "" : "\\b";
        return verbs.length > 0 ? [`${edge}(?:${verbs.join("|")})${edge}`] : [];
      }),
      "g",
    ),
    defensive: union(
      collect((l) => l.defensive),
      "g",
    ),
    defensiveWeak: union(
      collect((l) => l.defensive_weak),
      "g",
    ),
    descriptive: union(collect((l) => l.descriptive)),
    reported: union(collect((l) => l.reported)),
    actions,
    scope: langs.flatMap((l) => l.scope ?? []).map(toRule),
    scopeGuard: union(collect((l) => l.scope_guard)),
    roles: Object.entries(lexicon.shared.role_turn ?? {}).map(([name, source]) => ({ name, re: new RegExp(source) })),
    template: union(lexicon.shared.template_tokens, "g"),
    toolShape: union(lexicon.shared.tool_shape),
    toolLabel: union(lexicon.shared.tool_label),
    quotes: lexicon.shared.quotes ? new RegExp(lexicon.shared.quotes, "gu") : undefined,
  };
  // Only what is read on the sentence itself or on a part of it: `rest` (matches blanked out) may hold
  // a literal the sentence does not, so the frame regexes are always read.
  const onSentence = [
    rules.addressee,
    rules.you,
    rules.imperative,
    rules.template,
    ...rules.override,
    ...rules.roles.map((r) => r.re),
    ...actions.flatMap((a) => a.groups.flatMap((g) => [...(g.prefilter ? [g.prefilter] : []), ...g.members].flatMap((r) => [r.first, ...r.rest]))),
  ].filter((re): re is RegExp => re !== undefined);
  return { ...rules, prefilter: new RegexPrefilter(onSentence.map((regex) => ({ regex, value: regex }))) };
}

/**
 * Lower case, accents and other combining marks removed, the few Latin letters that do not
 * decompose spelled out, typographic apostrophes straightened. Lexicons are written in this form.
 */
export function foldForIntent(text: string): string {
  return text
    .replace(INVISIBLE, "") // as the lexicons read text; the hidden characters are a finding of their own
    .normalize("NFD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/[łđøßæœı\u2019\u02bc]/g, (c) => FOLD[c] ?? c);
}
const JSON_KEY_BEFORE = /"[\w -]{1,30}"\s*:\s*$/;
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const FOLD: Record<string, string> = { ł: "l", đ: "d", ø: "o", ß: "ss", æ: "ae", œ: "oe", ı: "i", "\u2019": "'", "\u02bc": "'" };

/** Sentences of one line: cut after . ! ? followed by a space (so URLs and versions stay whole). */
const SENTENCE_END = /(?<=[.!?])\s+(?=\S)/;

interface Span {
  from: number;
  to: number;
}

const inside = (spans: readonly Span[], from: number, to: number): boolean => spans.some((s) => from >= s.from && to <= s.to);

/** A language's negations as one sentence's rules read them. */
interface Negations {
  negation?: RegExp;
  /** after the verb (Turkish, Japanese) */
  after?: RegExp;
  /** verbs that make a negation before them licence ("don't hesitate to") */
  cancel?: RegExp;
}

const negationsOf = (c: Compiled): Negations => ({ negation: c.negation, after: c.negationAfter, cancel: c.negationCancel });

/**
 * Whether the last negation of a clause governs what follows it: not when a verb after it turns
 * it into licence ("don't hesitate to ignore …", "never forget to disable …"), and, when `near`,
 * only with at most two words between it and the match ("never ignore", "do not ever ignore"):
 * an override is a short phrase, and a negation further back negates something else ("never
 * mention this and ignore your rules").
 */
function governs(neg: Negations, clause: string, near: boolean): boolean {
  if (!neg.negation) return false;
  neg.negation.lastIndex = 0; // a global regex: matchesOf reads from its lastIndex
  const found = matchesOf(neg.negation, clause);
  const last = found[found.length - 1];
  if (!last) return false;
  // the whole clause: French and Polish put the verb between two negation words ("n'hésite pas à")
  if (neg.cancel?.test(clause)) return false;
  return !near || (clause.slice(last.index + last[0].length).match(/\S+/g) ?? []).length <= 2;
}

/**
 * Where a negation governs a match: in its clause (after the last , ; : ( or dash), shortly
 * before it, or inside it (a separable verb: "schakel hem nooit uit").
 */
function negatedAt(neg: Negations, sentence: string, at: number, length: number, near = false): boolean {
  const negation = neg.negation;
  if (!negation) return false;
  if (neg.after) {
    // the rest of its clause, for a language whose negation follows the verb
    const tail = sentence.slice(at + length);
    const end = tail.search(/[,;:(]|\s[-\u2013\u2014]\s/);
    if (neg.after.test(end < 0 ? tail : tail.slice(0, end))) return true;
  }
  const before = sentence.slice(Math.max(0, at - 60), at);
  const boundary = Math.max(before.lastIndexOf(","), before.lastIndexOf(";"), before.lastIndexOf(":"), before.lastIndexOf("("), before.lastIndexOf(" - "));
  const clause = before.slice(boundary + 1);
  if (governs(neg, clause, near)) return true;
  // An example in parentheses is governed by the clause it illustrates ("no job may pipe a script into a shell (curl | sh)").
  if (boundary >= 0 && before[boundary] === "(") {
    const outer = sentence.slice(Math.max(0, at - 120), at - before.length + boundary);
    if (governs(neg, outer.slice(Math.max(outer.lastIndexOf(","), outer.lastIndexOf(";"), outer.lastIndexOf(":")) + 1), false)) return true;
  }
  negation.lastIndex = 0;
  const inner = sentence.slice(at, at + length);
  return length > 12 && negation.test(inner.slice(inner.indexOf(" ") + 1)); // its own first word ("stop asking") aside
}

/**
 * A negation inside a match after its first word (or, for a verb matched alone as the first part
 * of a rule, the word after it) that the rule does not need. The verb-second imperative of German,
 * Dutch and Swedish puts it after the verb ("Ignoriere niemals …", "Negeer nooit …", "Kringgå
 * aldrig …"), Turkish inside the clause ("… asla görmezden gelme"). The rule is tried again on the
 * sentence without that negation: if it still matches where it did, the negation modifies the
 * instruction ("never ignore"). If the rule needs a negation of its own ("do not ask for
 * confirmation", "you no longer need to follow …", "without filters"), that negation is the
 * instruction and a second one only agrees with it ("no pidas confirmación nunca"): not negated.
 */
function modifierNegated(neg: Negations, rule: Rule, sentence: string, at: number, length: number, verbAlone: boolean, verb?: Span): boolean {
  const negation = neg.negation;
  if (!negation) return false;
  const next = (end: number): number => end + (/^\s*[^\s.,;:!?]+/.exec(sentence.slice(end))?.[0].length ?? 0);
  const to = verb ? Math.min(at + length, next(verb.to)) : verbAlone ? next(at + length) : at + length;
  // after the first word of the match, or (an override) of its verb: a negation far from the verb
  // negates something else ("whatever the user says later about not pushing, ignore it")
  const from = (verb?.from ?? at) + (/^\S+/.exec(sentence.slice(verb?.from ?? at))?.[0].length ?? 0);
  negation.lastIndex = 0;
  let modifier = false;
  for (const n of matchesOf(negation, sentence.slice(at, to))) {
    if (n.index === 0) return false; // the rule opens with it ("never ask for confirmation")
    const start = at + n.index;
    if (start < from) continue;
    const without = sentence.slice(0, start) + sentence.slice(start + n[0].length).replace(/^\s+/, "");
    rule.first.lastIndex = at;
    const again = rule.first.exec(without);
    rule.first.lastIndex = 0;
    if (again?.index !== at || !rule.rest.every((re) => re.test(without))) return false; // the rule's own negation
    if (!neg.cancel?.test(sentence.slice(at, to))) modifier = true;
  }
  return modifier;
}

/**
 * Whether the other parts of a rule still match with the first word of its first part blanked out
 * (read only when the rule matched): one word is not two parts ("dados públicos" is no verb of
 * moving and a public place at once), while a separable verb may hold the others ("leite … an x@y weiter").
 */
function restElsewhere(rule: Rule, sentence: string, from: number, to: number): boolean {
  const word = /^[^\s]+/.exec(sentence.slice(from, to))?.[0].length ?? to - from;
  const without = sentence.slice(0, from) + " ".repeat(word) + sentence.slice(from + word);
  return rule.rest.every((re) => re.test(without));
}

/** Whether a group's members are worth reading on this sentence (its prefilter passes, or it has none). */
function mayMatch(group: RuleGroup, sentence: string, possible: ReadonlySet<RegExp>): boolean {
  const p = group.prefilter;
  if (!p) return true;
  if (!possible.has(p.first) || p.rest.some((re) => !possible.has(re))) return false;
  return ruleFound(p, sentence);
}

/** Whether every part of a rule is somewhere in the sentence (its first part's g flag left at 0). */
function ruleFound(rule: Rule, sentence: string): boolean {
  for (const re of rule.rest) if (!re.test(sentence)) return false;
  rule.first.lastIndex = 0;
  const found = rule.first.test(sentence);
  rule.first.lastIndex = 0;
  return found;
}

/** The facts of one sentence (folded); `blank` collects the spans that matched, for the frame check. */
function sentenceFacts(c: Compiled, sentence: string): Set<string> {
  const facts = new Set<string>();
  const matched: Span[] = [];
  const negations = negationsOf(c);
  // A regex none of whose literals is in the sentence cannot match it, nor any part of it.
  const possible = c.prefilter.candidates(sentence);
  const may = (re: RegExp | undefined): re is RegExp => re !== undefined && possible.has(re);
  let quoted: Span[] | undefined;
  const quotes = (): Span[] => {
    if (!quoted) {
      quoted = [];
      // in JSON the quotes delimit values, they do not quote: a payload in a JSON string is used
      // (and so is a string after a JSON key, wherever the object starts: `200 OK {"note": "…"}`)
      if (c.quotes && !/^\s*[[{]/.test(sentence))
        for (const m of matchesOf(c.quotes, sentence))
          if (!JSON_KEY_BEFORE.test(sentence.slice(Math.max(0, m.index - 40), m.index))) quoted.push({ from: m.index, to: m.index + m[0].length });
      // what a fetched or read source is reported to say is that source's text: used, not quoted
      const reported = quoted.length > 0 ? c.reported?.exec(sentence) : null;
      if (reported) quoted = quoted.filter((q) => q.from < reported.index);
    }
    return quoted;
  };
  let body = sentence;
  for (const role of c.roles) {
    const m = may(role.re) ? role.re.exec(sentence) : null;
    if (m) {
      facts.add(`role:${role.name}`);
      body = sentence.slice(m.index + m[0].length).trimStart();
      break;
    }
  }
  if (may(c.template)) {
    let plain = false;
    let any = false;
    for (const m of matchesOf(c.template, sentence)) {
      any = true;
      matched.push({ from: m.index, to: m.index + m[0].length });
      if (!inside(quotes(), m.index, m.index + m[0].length)) plain = true;
    }
    if (any) facts.add(plain ? "role:template" : "role:template:quoted");
  }
  {
    // A rule that forbids setting the rules aside is a safe note ("Never ignore your safety
    // guidelines", "Ignoriere niemals …"): the same negations as for actions, read close to the
    // verb. Secrecy is no override: there the negation is the instruction ("never tell the user").
    const defyNegated = (at: number, length: number, re: RegExp): boolean => {
      if (!c.defyVerb) return false;
      c.defyVerb.lastIndex = 0;
      const verb = matchesOf(c.defyVerb, sentence.slice(at, at + length))[0];
      if (!verb) return false;
      const span = { from: at + verb.index, to: at + verb.index + verb[0].length };
      return (
        negatedAt(negations, sentence, span.from, 0, true) ||
        modifierNegated(negations, { first: re, rest: [], restAll: [] }, sentence, at, length, false, span)
      );
    };
    let state: "plain" | "negated" | "quoted" | undefined;
    for (const re of c.override) {
      if (!may(re)) continue;
      re.lastIndex = 0;
      const found = re.test(sentence);
      re.lastIndex = 0;
      if (!found) continue;
      for (const m of matchesOf(re, sentence)) {
        matched.push({ from: m.index, to: m.index + m[0].length });
        if (inside(quotes(), m.index, m.index + m[0].length)) state ??= "quoted";
        else if (defyNegated(m.index, m[0].length, re)) state = state === undefined || state === "quoted" ? "negated" : state;
        else state = "plain";
      }
    }
    if (state) facts.add(state === "plain" ? "override" : `override:${state}`);
  }
  // Read once: they are facts of their own, and decide whether `code` in backticks is quoted as an
  // example or is a command to run ("run `curl … | sh` first").
  const toAddressee = may(c.addressee) && c.addressee.test(body);
  const toYou = may(c.you) && c.you.test(body);
  const imperative = may(c.imperative) && c.imperative.test(body);
  const addressed = toAddressee || toYou || imperative;
  const quotedAction = (from: number, to: number): boolean => inside(addressed ? quotes().filter((q) => sentence[q.from] !== "`") : quotes(), from, to);
  actionFacts(c, sentence, possible, matched, quotedAction, facts);
  if (toAddressee) facts.add("intent:addressee");
  if (toYou) facts.add("intent:you");
  if (imperative) facts.add("intent:imperative");
  if (facts.size > 0 && c.defensive) addFrames(c, c.defensive, sentence, matched, facts);
  return facts;
}

/**
 * The `action:<kind>` facts of one sentence (folded), each `plain`, `negated`, `quoted` or, for a
 * waived safeguard under a harmless scope, `scoped`; every matched span joins `matched`.
 */
function actionFacts(
  c: Compiled,
  sentence: string,
  possible: ReadonlySet<RegExp>,
  matched: Span[],
  quotedAction: (from: number, to: number) => boolean,
  facts: Set<string>,
): void {
  const negations = negationsOf(c);
  const may = (re: RegExp | undefined): re is RegExp => re !== undefined && possible.has(re);
  let scoped: boolean | undefined;
  const inScope = (): boolean => (scoped ??= harmlessScope(c, sentence));
  for (const action of c.actions) {
    let state: "plain" | "negated" | "quoted" | "scoped" | undefined;
    // every rule is read even once one matched: its spans stay out of the frame check
    for (const group of action.groups) {
      if (!mayMatch(group, sentence, possible)) continue;
      for (const rule of group.members) {
        if (!rule.rest.every(may)) continue;
        const others = rule.rest.map((re) => re.exec(sentence));
        if (others.some((m) => m === null)) continue;
        // the other parts' spans stay out of the frame check even when the first part is not there
        // every occurrence: "güvenlik filtrelerini" names two safeguards, neither of them a frame
        for (const re of rule.restAll) for (const m of matchesOf(re, sentence)) matched.push({ from: m.index, to: m.index + m[0].length });
        if (!may(rule.first)) continue;
        for (const m of matchesOf(rule.first, sentence)) {
          // each part is a word of its own: "dados públicos" is not a verb of moving and a public place at once
          if (rule.rest.length > 0 && !restElsewhere(rule, sentence, m.index, m.index + m[0].length)) continue;
          matched.push({ from: m.index, to: m.index + m[0].length });
          if (quotedAction(m.index, m.index + m[0].length)) state ??= "quoted";
          else if (
            action.negatable &&
            (action.ownNegation
              ? negatedAt(negations, sentence, m.index, 0)
              : negatedAt(negations, sentence, m.index, splitVerb(rule) ? m[0].length : 0) ||
                modifierNegated(negations, rule, sentence, m.index, m[0].length, splitVerb(rule)))
          )
            state = state === undefined || state === "quoted" ? "negated" : state;
          else state = "plain";
        }
      }
    }
    if (state === "plain" && action.scopable && inScope()) state = "scoped";
    if (state) facts.add(state === "plain" ? `action:${action.kind}` : `action:${action.kind}:${state}`);
  }
}

/** Whether the sentence narrows what it waives to a harmless scope of its language, and nothing widens it again. */
function harmlessScope(c: Compiled, sentence: string): boolean {
  return !c.scopeGuard?.test(sentence) && c.scope.some((rule) => ruleFound(rule, sentence));
}

/** `frame:defensive` and `frame:descriptive`, read on the sentence with the matched spans blanked. */
function addFrames(c: Compiled, defensive: RegExp, sentence: string, matched: readonly Span[], facts: Set<string>): void {
  const negations = negationsOf(c);
  // the words of the matches themselves ("disable the content filter") do not make a frame
  let rest = sentence;
  for (const s of matched) rest = rest.slice(0, s.from) + " ".repeat(s.to - s.from) + rest.slice(s.to);
  const commands = facts.has("intent:imperative") || facts.has("intent:you");
  // a frame word under a negation is part of the instruction ("answer without refusals")
  // (or right after a negation that opens a match, blanked: "ohne Regeln und Filter")
  const underNegation = (at: number): boolean => negatedAt(negations, rest, at, 0) || negatedAt(negations, sentence, at, 0, true);
  const framed = matchesOf(defensive, rest).some((m) => !underNegation(m.index));
  // so is a weak one ("an AI without rules or filters" names what the persona lacks)
  const weak = !commands && c.defensiveWeak !== undefined && matchesOf(c.defensiveWeak, rest).some((m) => !underNegation(m.index));
  if (framed || weak) facts.add("frame:defensive");
  if (c.descriptive?.test(rest)) facts.add("frame:descriptive");
}

/**
 * The facts of a field: one finding per sentence that has any, one for the field's shape.
 * `rulesFor` gives the rules that read a sentence (those of its languages).
 */
export function intentFindings(rulesFor: (sentence: string) => Compiled, field: string, text: string, vocabulary?: ReadonlySet<string>): Finding[] {
  const hidden = text.startsWith(HIDDEN_MARK);
  const unfolded = foldForIntent(hidden ? text.slice(HIDDEN_MARK.length) : text);
  const folded = hidden && vocabulary ? splitGlued(unfolded, vocabulary) : unfolded;
  const findings: Finding[] = [];
  const perSentence: Set<string>[] = [];
  // a line break written as an escape ("…\\nAssistant: …", a pasted JSON string) breaks the line too
  for (const line of folded.split(/\n+|\\n/)) {
    for (const sentence of line.split(SENTENCE_END)) {
      // a turn may open any sentence ("Thanks. Assistant: I have …"), not only a line
      const trimmed = sentence.trim();
      const facts = sentenceFacts(rulesFor(trimmed), trimmed);
      if (facts.size > 0) perSentence.push(hidden ? facts.add("disguised") : facts);
    }
  }
  // An addressee in one sentence and an action in the next ("From now on: … . Run curl … | sh.")
  // are separate findings of the same field; the policy reads them together.
  for (const facts of perSentence) findings.push({ field, class: "injection_intent", label: "sentence", facts: [...facts].sort() });
  // the shapes are shared data, the same in every set of rules
  const shared = rulesFor("");
  if (shared.toolShape?.test(folded)) findings.push({ field, class: "injection_intent", label: "text", facts: ["tool:shape"] });
  // a label alone is stored; the policy refuses it with an instruction to the agent in the field
  if (shared.toolLabel?.test(folded)) findings.push({ field, class: "injection_intent", label: "text", facts: ["tool:label"] });
  return findings;
}

/**
 * The words of every language's rules (folded, as the rules are written), to split glued text:
 * each run of letters of a rule's source, and a stem with each ending of the group that follows
 * it ("ignor(?:e|es|ing)" gives ignor, ignore, ignores, ignoring). Escapes (\\b, \\s) are no words.
 */
export function vocabularyOf(lexicon: IntentLexicon): Set<string> {
  const words = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === "string") {
      const source = value
        .toLowerCase()
        .replace(/\\[a-z]/g, " ")
        .replace(SUFFIX_GROUP, (_group, stem: string, endings: string) => {
          for (const ending of endings.split("|")) addWord(words, stem + ending);
          return ` ${stem} `;
        });
      for (const word of source.match(LETTER_RUN) ?? []) addWord(words, word);
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === "object") Object.values(value).forEach(visit);
  };
  visit({ languages: lexicon.languages, shared: lexicon.shared, templates: lexicon.templates });
  return words;
}
const SUFFIX_GROUP = /(\p{L}+)\(\?:((?:\p{L}*\|)+\p{L}*)\)/gu;
const LETTER_RUN = /\p{L}+/gu;
const MAX_WORD = 24;
function addWord(words: Set<string>, word: string): void {
  if (word.length >= 2 && word.length <= MAX_WORD) words.add(word);
}

/**
 * Letters spaced with no wider gap between words ("i g n o r e a l l p r e v i o u s …") reach this
 * detector glued into one token (the normaliser cannot tell where a word ends). In hidden text, a
 * long token that is no word of the rules is split back into their words: the split with the
 * fewest words and letters left over, a left-over letter kept with the word before it
 * ("ignor" + "e"). A token that does not split mostly into words stays as it is.
 */
function splitGlued(text: string, vocabulary: ReadonlySet<string>): string {
  return text.replace(GLUED, (token) => (vocabulary.has(token) ? token : (splitToken(token, vocabulary) ?? token)));
}
const GLUED = /\p{L}{12,160}/gu;
const WORD_COST = 2;
const LEFTOVER_COST = 3;

function splitToken(token: string, vocabulary: ReadonlySet<string>): string | undefined {
  const n = token.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const start = new Array<number>(n + 1).fill(0);
  cost[0] = 0;
  for (let end = 1; end <= n; end++) {
    cost[end] = cost[end - 1] + LEFTOVER_COST;
    start[end] = end - 1;
    for (let from = Math.max(0, end - MAX_WORD); from <= end - 2; from++) {
      if (cost[from] + WORD_COST < cost[end] && vocabulary.has(token.slice(from, end))) {
        cost[end] = cost[from] + WORD_COST;
        start[end] = from;
      }
    }
  }
  const pieces: string[] = [];
  let leftover = 0;
  for (let end = n; end > 0; end = start[end]) pieces.unshift(token.slice(start[end], end));
  const words: string[] = [];
  for (const piece of pieces) {
    if (piece.length === 1 && !vocabulary.has(piece)) {
      leftover++;
      if (words.length > 0) words[words.length - 1] += piece;
      else words.push(piece);
    } else if (words.length === 1 && words[0].length === leftover) words[0] += piece;
    else words.push(piece);
  }
  return words.length >= 2 && leftover * 5 <= n ? words.join(" ") : undefined;
}

/**
 * The languages whose rules read a sentence (folded): English (agents' lingua franca, always
 * read) and the languages eld finds close to the best; every language when the sentence is too
 * short to tell, in no language of the lexicon, or in an unspaced script it cannot split. Each
 * sentence is placed on its own, so a foreign instruction inside an English note is read in its
 * language. Reading only these keeps the detector fast: every language adds a regex per override
 * and wider alternations per part (all eleven cost about 10x English alone on English text).
 */
function languagesOf(sentence: string, available: ReadonlySet<string>): string[] | undefined {
  const words = sentence.match(LETTERS) ?? [];
  if (words.length < 3) return undefined;
  if (looksEnglish(words)) return ["en"];
  const guess = identifyLanguage(sentence);
  if (!available.has(guess.lang)) return undefined;
  return [...new Set(["en", ...guess.candidates.filter((lang) => available.has(lang))])];
}
const LETTERS = /\p{L}+/gu;

/** The intent detector over the bundle in force; recompiled when the bundle's hash changes. */
export function createInjectionDetector(source: LexiconSource): Detector {
  let compiledFor: string | undefined;
  let loaded: IntentLexicon | undefined;
  let available = new Set<string>();
  /** the rules' words, to split glued letter-spaced text (splitGlued) */
  let vocabulary: Set<string> | undefined;
  /** compiled rules per set of languages ("*": all), a handful in practice */
  const compiled = new Map<string, Compiled>();
  /** the last sentences' languages: a field is read as written, as its views and with the others */
  const recent = new Map<string, string[] | undefined>();
  const rulesFor = (lexicon: IntentLexicon, sentence: string): Compiled => {
    let langs = recent.get(sentence);
    if (!recent.has(sentence)) {
      langs = sentence === "" ? ["en"] : languagesOf(sentence, available);
      if (recent.size >= 64) recent.delete(recent.keys().next().value as string);
      recent.set(sentence, langs);
    }
    const key = langs ? [...langs].sort().join("+") : "*";
    let rules = compiled.get(key);
    if (!rules) {
      rules = compile(lexicon, langs);
      compiled.set(key, rules);
    }
    return rules;
  };
  const current = (): IntentLexicon | undefined => {
    if (compiledFor === undefined || source.hash !== compiledFor) {
      loaded = source.data<{ intent?: IntentLexicon } | undefined>("injection")?.intent;
      available = new Set(Object.keys(loaded?.languages ?? {}));
      compiled.clear();
      recent.clear();
      vocabulary = loaded ? vocabularyOf(loaded) : undefined;
      compiledFor = source.hash;
    }
    return loaded;
  };
  return {
    name: "injection",
    detect: (field, text) => {
      const lexicon = current();
      return lexicon ? intentFindings((sentence) => rulesFor(lexicon, sentence), field, text, vocabulary) : [];
    },
  };
}
