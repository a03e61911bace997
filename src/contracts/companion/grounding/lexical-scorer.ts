import { sharedWordNet, type Pos, type WordNet } from "./wordnet";
import origins from "./origins.json";
import paraphrases from "./paraphrases.json";
import { baseForms, lemmaCandidates } from "./morphy";
import type { GroundingScore, GroundingScorer } from "./scorer";

// eslint-disable-next-line @typescript-eslint/no-require-imports
const stem: (word: string) => string = require("wink-porter2-stemmer");

/**
 * Words that carry no claim of their own: function words, the person the facts are about
 * (every fact is about its subject), reporting verbs and fillers of extraction prompts.
 */
const STOPWORDS = new Set(
  `a an the and or of to in on at for from with by as about into onto over under than then so such this that these those it its
   is are was were be been being am do does did doing done have has had having will would shall should can could must
   user users person individual subject they them their theirs themselves he him his himself she her hers herself i me my mine myself
   we us our ours you your yours who whom whose which what there here also too very really quite just some both last next
   mention mentions mentioned say says said tell tells told state states stated note notes noted share shares shared describe describes described
   explain explains explained indicate indicates indicated express expresses expressed report reports reported talk talks talked
   conversation summary chat message discuss discusses discussed named called
   ein eine einen einem einer eines der dem des das und oder zu im zum zur vom beim le les un une des du et avec au aux el los las una uno unos unas y con del al`.split(
    /\s+/,
  ),
);

const HAVE = new Set(["have", "has", "had", "having"]);
const LIGHT_VERBS = new Set(["have", "has", "had", "having", "do", "does", "did", "doing", "done"]);
export const NEGATIONS = new Set([
  ...["not", "no", "never", "neither", "nor", "none", "nothing", "nobody", "cannot", "without", "nowhere"],
  // German, French (the "pas" of "ne ... pas"; "ne" itself is elided or paired), Spanish ("no" above)
  ...[
    "nicht",
    "kein",
    "keine",
    "keinen",
    "keinem",
    "keiner",
    "keines",
    "nie",
    "niemals",
    "pas",
    "jamais",
    "aucun",
    "aucune",
    "nunca",
    "ningún",
    "ninguna",
    "ninguno",
  ],
]);
/** Cues that make a clause hypothetical: a candidate stating it as fact needs a cue of its own. */
export const IRREALIS = new Set(
  `might may maybe perhaps possibly probably could would want wants wanted wish wishes wished hope hopes hoped plan plans planned planning
   consider considers considered considering thinking wonder wonders wondered whether if asked asks ask someday eventually unsure interested
   dream dreams dreamed rarely seldom hardly barely scarcely`.split(/\s+/),
);
/** Cues that put a clause in the past: "used to play" is not "plays". */
export const FORMER = new Set(`used formerly previously former ex quit stopped anymore ago once retired`.split(/\s+/));
/** Words that relate to the subject: a clause about one of them is about someone else. */
const RELATIONS = new Set(
  `sister brother mother father mom dad mum parent parents son daughter child children kid kids wife husband spouse partner boyfriend girlfriend
   fiance fiancee friend friends roommate neighbor neighbour boss manager colleague coworker cousin aunt uncle grandmother grandfather grandma grandpa
   niece nephew classmate teammate coach teacher doctor therapist family sibling siblings baby twin`.split(/\s+/),
);
const POSSESSIVES = new Set(["his", "her", "their", "my", "our", "your", "'s"]);
const SUBJECT_WORDS = new Set(["user", "users", "they", "he", "she", "i", "the", "person"]);

const HYPERNYM_DEPTH = 7;
/** A verb with this many senses or more ("take", "make", "get", "go", "run", "play") is too vague to support another. */
const VAGUE_VERB_SENSES = 30;
const SENSES = 5;

interface Token {
  word: string;
  raw: string;
  sentence: number;
  negated: boolean;
  irrealis: boolean;
  former: boolean;
  /** a person other than the subject is named earlier in the sentence (its word) */
  foreign: string | null;
  /** the word names another person ("their manager") */
  marker?: boolean;
  /** the word is what the subject is said to be ("User is a manager") */
  predicative?: boolean;
  /** after a determiner: a noun, so only noun senses count ("a pilot" is not "to fly") */
  noun?: boolean;
  /** the last word of what the subject is said to be ("User is an AWS Solutions Architect") */
  predicateHead?: boolean;
  /** a noun modifying the noun after it ("the Solutions Architect exam"): it says nothing of the subject */
  modifier?: boolean;
  /** an activity the subject is said to hate or avoid ("hates running"): not something they do */
  averted?: boolean;
}

interface Parsed {
  content: Token[];
  cues: { negationParity: boolean; irrealis: boolean; former: boolean; comparative: boolean };
  markers: Set<string>;
}

/**
 * The default grounding scorer (SG-GROUND): offline, lexical and semantic. A candidate is
 * scored by its weakest content word: each must be supported by a word of the summary
 * (same stem 1.0, WordNet synonym 0.95, pertainym 0.9, a more general word: hypernym
 * 0.9 down to 0.8 with distance, cultural origin 0.85), in a clause of the same polarity,
 * not hypothetical or past unless the candidate says so, and not about someone else.
 * It produces a number; the threshold and the decision are the policy's.
 */
export class LexicalGroundingScorer implements GroundingScorer {
  readonly name = "lexical-wordnet";
  private readonly originIndex: Map<string, string[]>;
  private readonly closureCache = new Map<string, Map<string, number>>();
  private readonly relationCache = new Map<string, boolean>();

  constructor(private readonly wordnet: WordNet = sharedWordNet()) {
    this.originIndex = new Map(Object.entries(origins.origins).map(([k, v]) => [k, v]));
  }

  async score(summary: string, candidate: string): Promise<GroundingScore> {
    return this.scoreSync(summary, candidate);
  }

  scoreSync(summary: string, candidate: string): GroundingScore {
    const source = this.parse(summary, "summary");
    const claim = this.parse(candidate, "claim");
    if (claim.content.length === 0) return { score: 0, unsupported: 0, scorer: this.name };
    // A conjunctive claim ("loves X and works on Y") is grounded when each conjunct is.
    let score = 1;
    let unsupported = 0;
    for (const part of new Set(claim.content.map((t) => t.sentence))) {
      const r = this.scoreConjunct({ ...claim, content: claim.content.filter((t) => t.sentence === part) }, source);
      score = Math.min(score, r.score);
      unsupported += r.unsupported;
    }
    return { score: round(score), unsupported, scorer: this.name };
  }

  private scoreConjunct(claim: Parsed, source: Parsed): { score: number; unsupported: number } {
    // Polarity is a property of the claim: try the summary region as affirmed and as negated.
    let bestScore = 0;
    let bestUnsupported = claim.content.length;
    const segments = [...new Set(source.content.map((t) => t.sentence))];
    const claimAverse = claim.cues.negationParity || claim.content.some((t) => AVERSIONS.has(t.word));
    for (const negatedRegion of [false, true])
      for (const segment of segments) {
        // per claim word: its best plain support and its best support by an antonym
        const plain: number[] = [];
        const opposite: number[] = [];
        const viaPertainym: boolean[] = [];
        const position: number[] = [];
        for (const token of claim.content) {
          let bestPlain = 0;
          let bestOpposite = 0;
          let pertainymMatch = false;
          let at = -1;
          for (const [si, s] of source.content.entries()) {
            if (!this.eligible(s, token, claim, segment, negatedRegion, claimAverse)) continue;
            const match = this.similarity(token.word, s.word, token.noun === true, s.noun === true);
            if (match.antonym) bestOpposite = Math.max(bestOpposite, match.score);
            else if (match.score > bestPlain) {
              bestPlain = match.score;
              pertainymMatch = match.pertainym === true;
              at = si;
            }
            if (bestPlain === 1) break;
          }
          // "dance lessons" (a compound WordNet knows) <- "ballet lessons": each of its words supported
          if (bestPlain < 0.8 && token.word.includes("_")) {
            const eligible = source.content.filter((s) => this.eligible(s, token, claim, segment, negatedRegion, claimAverse));
            const parts = token.word.split("_").map((part) => Math.max(0, ...eligible.map((s) => this.similarity(part, s.word).score)));
            bestPlain = Math.max(bestPlain, Math.min(...parts));
          }
          plain.push(bestPlain);
          opposite.push(bestOpposite);
          viaPertainym.push(pertainymMatch);
          position.push(at);
        }
        // "prefers tea over coffee" is not "prefers coffee over tea": a comparison keeps its order
        if (claim.cues.comparative) {
          const placed = position.filter((p) => p >= 0);
          if (placed.some((p, i) => i > 0 && p < placed[i - 1])) plain.fill(0);
        }
        // "has an allergy" <- "is allergic": possession of what a predicate adjective pertains to
        claim.content.forEach((t, i) => {
          if (HAVE.has(t.word) && plain[i] < 0.8 && viaPertainym.some((v, j) => v && j !== i)) plain[i] = 0.85;
        });
        // SG-GROUND negation: "doesn't like" supports "dislikes" (one antonym flips the polarity), never "likes"
        const scores = plain.slice();
        if (claim.cues.negationParity !== negatedRegion) {
          let flip = -1;
          opposite.forEach((v, i) => {
            if (v > 0 && (flip < 0 || v > opposite[flip])) flip = i;
          });
          if (flip < 0) scores.fill(0);
          else scores[flip] = opposite[flip];
        }
        let min = Math.min(...scores);
        const unsupported = scores.filter((v) => v < 0.8).length;
        // SG-GROUND contradiction: the supporting predicate says the opposite ("dislikes long explanations")
        if (!claim.cues.negationParity && !negatedRegion) {
          const local = source.content.filter((x) => x.sentence === segment && !x.negated);
          const contradicted = (t: Token) =>
            local.some((x) => this.similarity(t.word, x.word).antonym) && !local.some((x) => this.similarity(t.word, x.word).score >= 0.95);
          if (claim.content.some(contradicted)) min = 0;
        }
        if (min > bestScore || (min === bestScore && unsupported < bestUnsupported)) {
          bestScore = min;
          bestUnsupported = unsupported;
        }
      }
    return { score: bestScore, unsupported: bestUnsupported };
  }

  /** Whether summary token `s` may support claim token `token` at all: same predicate, polarity, person, mood and tense. */
  private eligible(s: Token, token: Token, claim: Parsed, segment: number, negatedRegion: boolean, claimAverse: boolean): boolean {
    if (s.negated !== negatedRegion || s.sentence !== segment) return false; // one predicate supports one claim
    // SG-GROUND wrong person: what the summary says of another person supports only what the
    // claim says of that same person, in the same role ("User's dad taught them" is not "User taught their dad")
    if (s.foreign !== token.foreign && !this.coversRelation(token.foreign, s.foreign)) return false;
    if (s.irrealis && !claim.cues.irrealis) return false; // extrapolation from a hypothetical
    if (s.former && !claim.cues.former) return false; // "used to" is not "does"
    if (s.averted && !claimAverse) return false; // "hates running" is not "runs"
    if (s.marker && token.predicative) return false; // "their manager" does not make the user a manager
    return !(s.modifier && token.predicateHead); // "studying for the Architect exam" does not make the user an architect
  }

  /** How well summary word `s` supports candidate word `c`. */
  similarity(c: string, s: string, cNoun = false, sNoun = false): { score: number; antonym: boolean; pertainym?: boolean } {
    if (c === s || stem(c) === stem(s)) return { score: 1, antonym: false };
    if (/^\d/.test(c) || /^\d/.test(s)) return { score: 0, antonym: false };
    const cLemmas = this.lemmas(c);
    const sLemmas = this.lemmas(s);
    if (cLemmas.some((l) => sLemmas.includes(l))) return { score: 1, antonym: false };
    // a word WordNet does not know ("Volvo") is looked up as written
    const supported = (sLemmas.length > 0 ? sLemmas : [s.toLowerCase()]).flatMap((l) => (paraphrases.supports as Record<string, string[]>)[l] ?? []);
    if ((cLemmas.length > 0 ? cLemmas : [c.toLowerCase()]).some((l) => supported.includes(l))) return { score: 0.9, antonym: false };
    const cSenses = this.senses(cLemmas, cNoun);
    // a vague verb ("take", "make", "get") supports no more specific one: "takes Pepper to the park" is not "adopted Pepper"
    if (sLemmas.some((l) => this.wordnet.lookup(l, "v").length >= VAGUE_VERB_SENSES) && !sNoun) return { score: 0, antonym: false };
    const sSenses = this.senses(sLemmas, sNoun);
    if (cSenses.length === 0 || sSenses.length === 0) return { score: 0, antonym: false };
    const cSet = new Set(cSenses);
    if (sSenses.some((k) => cSet.has(k))) return { score: 0.95, antonym: false };
    // what a paraphrase says of a word holds for the words below it: a golden retriever is a dog, so a pet
    const inherited = sSenses.flatMap((k) => [...this.closure(k).keys()].flatMap((a) => this.wordnet.synset(a).lemmas));
    if (inherited.some((l) => cLemmas.some((c) => (paraphrases.supports as Record<string, string[]>)[l]?.includes(c)))) return { score: 0.9, antonym: false };
    // "has coffee" <- "drinks coffee": every sense of "have" may generalise a summary verb (never a synonym)
    const hypernymOnly = new Set(cLemmas.includes("have") ? this.wordnet.lookup("have", "v") : []);
    let best = 0;
    let pertainym = false;
    for (const k of sSenses) {
      const synset = this.wordnet.synset(k);
      if (synset.antonyms.some((p) => cSet.has(p))) return { score: 0.85, antonym: true };
      // "allergic" supports "allergy"; not a place from its adjective ("Spanish" is not "from Spain")
      if (synset.pertainyms.some((p) => cSet.has(p) && !this.wordnet.synset(p).instance)) pertainym = true;
      for (const [ancestor, depth] of this.closure(k)) {
        if (cSet.has(ancestor) || hypernymOnly.has(ancestor)) best = Math.max(best, Math.max(0.8, 0.92 - 0.02 * depth));
      }
    }
    if (pertainym && best < 0.85) return { score: 0.85, antonym: false, pertainym: true };
    // an adjective satellite supports its head, the more general word ("afraid" <- "scared", "small" <- "tiny"), never the reverse
    if (best < 0.85 && sSenses.some((k) => this.wordnet.synset(k).satellite && this.wordnet.synset(k).similar.some((p) => cSet.has(p)))) best = 0.85;
    for (const k of cSenses) {
      if (this.wordnet.synset(k).antonyms.some((p) => sSenses.includes(p))) return { score: 0.85, antonym: true };
    }
    const roots = this.originIndex.get(cLemmas[0] ?? c);
    if (best < 0.85 && roots) {
      for (const k of sSenses) {
        const names = [k, ...this.closure(k).keys()].flatMap((a) => this.wordnet.synset(a).lemmas);
        if (names.some((n) => roots.includes(n))) best = Math.max(best, 0.85);
      }
    }
    return { score: best, antonym: false };
  }

  /** The same other person named more generally: "their spouse" for "their husband", "their child" for "their daughter". */
  private coversRelation(claim: string | null, source: string | null): boolean {
    if (claim === null || source === null) return false;
    const key = `${claim}|${source}`;
    let known = this.relationCache.get(key);
    if (known === undefined) {
      const sourceLemmas = this.lemmas(source);
      const supports = (paraphrases.supports as Record<string, string[]>) ?? {};
      const claimLemmas = this.lemmas(claim);
      // the relation's commonest sense only ("brother" is also "friend" in a rarer one)
      const first = sourceLemmas.flatMap((l) => this.wordnet.lookup(l, "n").slice(0, 1));
      const above = new Set(first.flatMap((k) => [...this.closure(k).keys()].filter((a) => (this.closure(k).get(a) ?? 9) <= 3)));
      known =
        claimLemmas.some((c) => this.wordnet.lookup(c, "n").some((k) => first.includes(k))) ||
        claimLemmas.some((c) => sourceLemmas.some((l) => supports[l]?.includes(c))) ||
        claimLemmas.some((c) => this.wordnet.lookup(c, "n").some((k) => above.has(k)));
      this.relationCache.set(key, known);
    }
    return known;
  }

  private lemmas(word: string): string[] {
    // "coworker" is WordNet's "co-worker"
    const own = this.lemmasOf(word);
    if (own.length > 0 || !/^co[a-z]{4,}$/.test(word)) return own;
    return baseForms(word)
      .map((f) => `co-${f.lemma.slice(2)}`)
      .filter((l) => this.wordnet.has(l));
  }

  private lemmasOf(word: string): string[] {
    return baseForms(word)
      .filter((f) => (f.adjectiveOnly ? this.wordnet.has(f.lemma, "a") : this.wordnet.has(f.lemma)))
      .map((f) => f.lemma);
  }

  /** A verb far more than anything else ("buy", "cook"; not "jazz", "walk"). */
  private verbDominant(word: string): boolean {
    return baseForms(word).some(
      (f) => !f.adjectiveOnly && this.wordnet.frequency(f.lemma, "v") > Math.max(this.wordnet.frequency(f.lemma, "n"), this.wordnet.frequency(f.lemma, "a")),
    );
  }

  private senses(lemmas: string[], nounOnly = false): string[] {
    const out: string[] = [];
    for (const lemma of lemmas) {
      for (const pos of (nounOnly ? ["n"] : ["n", "v", "a", "r"]) as Pos[]) out.push(...this.wordnet.lookup(lemma, pos).slice(0, SENSES));
    }
    return out;
  }

  /** Ancestors of a synset with their distance (hypernyms, breadth first). */
  private closure(key: string): Map<string, number> {
    const cached = this.closureCache.get(key);
    if (cached) return cached;
    const out = new Map<string, number>();
    let frontier = [key];
    for (let depth = 1; depth <= HYPERNYM_DEPTH && frontier.length > 0; depth++) {
      const next: string[] = [];
      for (const k of frontier) {
        for (const h of this.wordnet.synset(k).hypernyms) {
          if (!out.has(h)) {
            out.set(h, depth);
            next.push(h);
          }
        }
      }
      frontier = next;
    }
    this.closureCache.set(key, out);
    return out;
  }

  private parse(text: string, role: "summary" | "claim"): Parsed {
    const parsed: Parsed = { content: [], cues: { negationParity: false, irrealis: false, former: false, comparative: false }, markers: new Set<string>() };
    const sentences = text
      .replace(/[\u2018\u2019]/g, "'")
      .split(/(?<=[.!?;])\s+|\n+/)
      .filter((x) => x.trim() !== "");
    let segment = 0;
    for (const sentence of sentences) segment = this.parseSentence(sentence, role, parsed, segment + 1);
    return parsed;
  }

  /** One sentence's content words into `parsed`, numbered from segment `first` on (a new predicate opens the next); answers the last segment. */
  private parseSentence(sentence: string, role: "summary" | "claim", parsed: Parsed, first: number): number {
    const { content, cues, markers } = parsed;
    const raws = this.mergeCompounds(rawTokens(sentence));
    let segment = first;
    let negated = false;
    let irrealis = false;
    let former = false;
    let foreign: string | null = null;
    for (let i = 0; i < raws.length; i++) {
      const raw = raws[i];
      const word = raw.toLowerCase();
      const previous = (raws[i - 1] ?? "").toLowerCase();
      const next = raws[i + 1];
      if (word === "," || word === "and" || word === "but" || word === "while" || word === "whereas" || word === "or") {
        // a new predicate ("... and is learning French") starts a new segment with its own polarity
        if (word === "while" || word === "whereas") negated = false;
        else if (word === "but" || (next !== undefined && this.startsPredicate(next, raws[i + 2]))) {
          segment++;
          negated = false;
        }
        if (word === "but" || word === "while" || word === "whereas") {
          irrealis = false;
          former = false;
          foreign = null;
        }
        continue;
      }
      if (COMPARATIVES.has(word)) cues.comparative = true;
      // "prefers tea to coffee": a comparison by its verb
      if (/^prefer(s|red|ring)?$/.test(word)) cues.comparative = true;
      if (NEGATIONS.has(word)) {
        negated = !negated;
        cues.negationParity = !cues.negationParity;
        continue;
      }
      if (this.opensIrrealis(word, previous, next)) {
        irrealis = true; // "wants to ...", "saving money to buy ..."
        cues.irrealis = true;
        // the hedge itself is part of the claim, with whoever holds it ("User's boss asked them" is not "User asked")
        content.push({ word: IRREALIS_TOKEN, raw, sentence: segment, negated, irrealis, former, foreign });
        continue;
      }
      if (FORMER.has(word) && !(word === "used" && next?.toLowerCase() !== "to") /* "a used car" */) {
        former = true;
        cues.former = true;
        continue;
      }
      if (word === "user" || word === "users") {
        foreign = null; // the subject is named again
        // "a novel, which User finished": the antecedent of the relative clause is the user's too
        if (RELATIVES.has(previous) && content.length > 0 && content[content.length - 1].sentence === segment) content[content.length - 1].foreign = null;
      }
      if (role === "claim" && this.isPastTense(word)) cues.former = true;
      // "their laptop" (of the subject) says the subject has a laptop
      if (
        role === "summary" &&
        SUBJECT_POSSESSIVES.has(word) &&
        next !== undefined &&
        /^[a-z]+$/.test(next) &&
        !this.isOtherPerson(next, next, word, raws[i + 2], i + 1)
      ) {
        content.push({ word: "have", raw, sentence: segment, negated, irrealis, former, foreign });
      }
      // "User's brother" says the user has a brother
      if (word === "'s" && role === "summary" && (previous === "user" || previous === "users")) {
        content.push({ word: "have", raw, sentence: segment, negated, irrealis, former, foreign });
        continue;
      }
      // possession is a claim of its own ("has a cat"); "has been", "has visited" are auxiliaries
      const possessive = HAVE.has(word) && !(next !== undefined && (next === "been" || next === "got" || this.isPastTense(next.toLowerCase())));
      if (role === "claim" && possessive) {
        content.push({ word, raw, sentence: segment, negated, irrealis, former, foreign });
        continue;
      }
      // "their notes", "the reports": after a determiner a reporting verb is a noun, and content
      const reportingNoun = REPORTING_NOUNS.has(word) && (DETERMINERS.has(previous) || NOUN_DETERMINERS.has(previous));
      if (word === "'s" || (STOPWORDS.has(word) && !reportingNoun)) {
        // "has a dog" supports "owns a dog": light verbs stay in the summary
        if (role === "summary" && LIGHT_VERBS.has(word)) content.push({ word, raw, sentence: segment, negated, irrealis, former, foreign });
        continue;
      }
      const last = content[content.length - 1];
      if (last?.marker && last.sentence === segment && raws[i - 1]?.toLowerCase() === last.word && (RELATIONS.has(word) || this.isPersonNoun(word))) {
        // "twin brother", "friend Sarah": one person, named twice
        markers.add(word);
        content.push({ word, raw, sentence: segment, negated, irrealis, former, foreign: null, marker: true });
        continue;
      }
      if (
        last?.marker &&
        last.sentence === segment &&
        /^\p{Lu}\p{Ll}+$/u.test(raw) &&
        [last.word, "named", "called"].includes(raws[i - 1]?.toLowerCase() ?? "")
      ) {
        // "their daughter Lily", "a daughter named Lily": the relative's name, said of that relative
        if (!companion(raws, i - 1)) foreign ??= last.word;
        content.push({ word, raw, sentence: segment, negated, irrealis, former, foreign: last.word });
        continue;
      }
      // "has a son named Ben who is 10": what follows is about the son, as in "User's son Ben is 10"
      const hadRelation = DETERMINERS.has(previous) && HAVE.has((raws[i - 2] ?? "").toLowerCase()) && RELATIONS.has(word);
      if (hadRelation || this.isOtherPerson(raw, word, previous, next, i, raws[i + 2])) {
        markers.add(word);
        if (!companion(raws, i)) foreign ??= word;
        // the marker is itself content only where the text is about that person
        content.push({ word, raw, sentence: segment, negated, irrealis, former, foreign: null, marker: true });
        continue;
      }
      const predicative = COPULAS.has(previous) || (DETERMINERS.has(previous) && COPULAS.has((raws[i - 2] ?? "").toLowerCase()));
      const nextWord = next?.toLowerCase();
      const nounFollows = nextWord !== undefined && /^[a-z]+$/.test(nextWord) && !STOPWORDS.has(nextWord) && this.wordnet.has(nextWord, "n");
      const noun = (DETERMINERS.has(previous) || NOUN_DETERMINERS.has(previous)) && !(nounFollows && this.wordnet.has(word, "a")); // "a pilot", not "a used piano"
      const predicateHead = role === "claim" && !nounFollows && this.afterCopula(raws, i);
      const modifier = role === "summary" && nounFollows && !COMPARATIVES.has(nextWord);
      const before = content[content.length - 1];
      const averted = /ing$/.test(word) && before !== undefined && before.sentence === segment && AVERSIONS.has(before.word);
      content.push({ word, raw, sentence: segment, negated, irrealis, former, foreign, predicative, noun, predicateHead, modifier, averted });
    }
    return segment;
  }

  /** A hedge ("wants", "would") or an infinitive of purpose ("saving money to buy ..."): what follows is not a fact. */
  private opensIrrealis(word: string, previous: string, next: string | undefined): boolean {
    return (
      IRREALIS.has(word) ||
      (word === "to" &&
        !FORMER.has(previous) &&
        !this.isVerbForm(previous) &&
        next !== undefined &&
        /^[a-z]+$/.test(next) &&
        this.verbDominant(next) &&
        !/(s|ed|ing)$/.test(next))
    );
  }

  /** "is an AWS Solutions Architect": the word ends a run of words that follows a copula and an article. */
  private afterCopula(raws: string[], i: number): boolean {
    for (let j = i - 1; j >= 1; j--) {
      const w = raws[j].toLowerCase();
      if (DETERMINERS.has(w)) return COPULAS.has(raws[j - 1].toLowerCase());
      if (!/^[A-Za-z]+$/.test(raws[j]) || STOPWORDS.has(w)) return false;
    }
    return false;
  }

  /** "board game", "ice cream": two words WordNet knows as one lemma become one token. */
  private mergeCompounds(raws: string[]): string[] {
    const out: string[] = [];
    for (let i = 0; i < raws.length; i++) {
      const a = raws[i];
      const b = raws[i + 1];
      if (b !== undefined && /^[A-Za-z]+$/.test(a) && /^[A-Za-z]+$/.test(b)) {
        const joined = `${a.toLowerCase()}_${b.toLowerCase()}`;
        // "pet named" is not the noun "pet name": only a plural second word is inflected
        const forms = lemmaCandidates(joined).filter((l) => l === joined || /s$/.test(b));
        if (forms.some((l) => this.wordnet.has(l, "n"))) {
          out.push(joined);
          i++;
          continue;
        }
      }
      out.push(a);
    }
    return out;
  }

  private startsPredicate(raw: string, after: string | undefined): boolean {
    const w = raw.toLowerCase();
    // "... and dislikes long explanations": an inflected verb with an object of its own
    if (after !== undefined && OBJECT_PRONOUNS.has(after.toLowerCase())) return false; // "... and walks him": same object
    const hasObject = after !== undefined && /^[A-Za-z]/.test(after) && !["and", "or"].includes(after.toLowerCase());
    if (hasObject && /^[a-z]+$/.test(raw) && /(s|ed)$/.test(w) && baseForms(w).some((f) => f.lemma !== w && this.wordnet.has(f.lemma, "v"))) return true;
    if (["is", "are", "was", "were", "has", "have", "had", "does", "did", "will", "can", "user", "they", "he", "she", "also", "often"].includes(w)) return true;
    return /^[a-z]+$/.test(raw) && /(s|ed)$/.test(w) && this.verbDominant(w);
  }

  /** "learning", "likes", "started": a verb form, after which "to" is a complement, not a purpose. */
  private isVerbForm(word: string): boolean {
    if (!/^[a-z]+$/.test(word)) return false;
    if (/(ing|ed|s)$/.test(word)) return baseForms(word).some((f) => f.lemma !== word && this.wordnet.has(f.lemma, "v"));
    return this.verbDominant(word);
  }

  private isPastTense(word: string): boolean {
    if (!/^[a-z]+$/.test(word)) return false;
    if (lemmaCandidates(word).some((l) => l !== word && IRREGULAR_PAST.has(word))) return true;
    return word.endsWith("ed") && baseForms(word).some((f) => f.lemma !== word && this.wordnet.has(f.lemma, "v"));
  }

  /** A person other than the subject: a relation ("their sister") or a name acting as subject. */
  private isOtherPerson(raw: string, word: string, previous: string, following: string | undefined, index: number, after?: string): boolean {
    if (SUBJECT_WORDS.has(word)) return false;
    // "Elena also coaches": an adverb between a name and its verb
    const next = following !== undefined && SUBJECT_ADVERBS.has(following.toLowerCase()) ? after : following;
    // "their sister", "User's friend": a relation of the subject, not a modifier ("children's hospital")
    if (POSSESSIVES.has(previous) && next !== "'s" && (RELATIONS.has(word) || RELATIONS.has(word.replace(/s$/, "")) || this.isPersonNoun(word))) return true;
    // a name acting as the subject of an inflected verb: "Sarah loves hiking", "Tom said"
    const capitalised = /^[A-Z][a-z]+$/.test(raw) && previous !== "named" && previous !== "called"; // "a cat named Olive sleeps": the cat
    if (capitalised && next !== undefined && /^[a-z]+$/.test(next)) {
      const inflectedVerb =
        (/(s|ed)$/.test(next) && baseForms(next).some((f) => f.lemma !== next && !f.adjectiveOnly && this.wordnet.has(f.lemma, "v"))) ||
        IRREGULAR_PAST.has(next);
      const isCommon = index === 0 && (this.wordnet.has(word.toLowerCase(), "v") || this.wordnet.has(word.toLowerCase(), "a"));
      // "spicy Thai curries": a nationality after an adjective, before a noun, names no one
      const modifier = this.wordnet.has(previous, "a") && !this.wordnet.has(previous, "v") && !this.wordnet.has(previous, "n");
      const nationality = this.wordnet.lookup(word.toLowerCase(), "a").some((k) => this.wordnet.synset(k).pertainyms.length > 0);
      return inflectedVerb && !isCommon && !modifier && !nationality;
    }
    return false;
  }

  private isPersonNoun(word: string): boolean {
    for (const k of this.wordnet.lookup(word, "n").slice(0, 1)) {
      if (this.closure(k).has(PERSON)) return true;
    }
    return false;
  }
}

const PERSON = "n:00007846";
const SUBJECT_ADVERBS = new Set(["also", "now", "often", "still", "always", "usually", "sometimes", "regularly", "already"]);
const AVERSIONS = new Set(
  "hate hates hated dislike dislikes disliked detest detests detested loathe loathes loathed avoid avoids avoided fear fears feared dread dreads".split(" "),
);
const REPORTING_NOUNS = new Set(["note", "notes", "report", "reports", "talk", "talks", "share", "shares", "state", "states", "message", "messages"]);
const SUBJECT_POSSESSIVES = new Set(["their", "his", "her", "my"]);
const COMPARATIVES = new Set(["over", "than", "instead", "rather", "versus", "vs"]);
const NOUN_DETERMINERS = new Set(["this", "that", "these", "those", "every", "each", "another", "his", "her", "their", "my", "our", "your", "'s"]);
const IRREALIS_TOKEN = "<hypothetical>";
const COPULAS = new Set(["is", "am", "are", "was", "were", "be", "been", "being", "became", "becomes", "become"]);
const DETERMINERS = new Set(["a", "an", "the"]);
const OBJECT_PRONOUNS = new Set(["him", "her", "it", "them"]);
const RELATIVES = new Set(["which", "that", "who", "whom"]);
const IRREGULAR_PAST = new Set(
  `went ran ate bought made took saw told said felt thought brought taught wrote drove spoke began swam sang won lost left met kept found got
   gave came became grew knew flew drew paid built sent spent sold held stood understood fell broke chose forgot rode woke wore drank fought caught`.split(
    /\s+/,
  ),
);

/**
 * "goes kayaking with his cousin Piotr in Krakow", "bakes for her neighbours every Sunday": a
 * person after a preposition is who the subject acts with or for; what follows is still said of
 * the subject (the person's own words stay theirs: "with his cousin" is no fact of the cousin's).
 */
function companion(raws: string[], at: number): boolean {
  return COMPANION_PREPOSITIONS.has((raws[at - 2] ?? "").toLowerCase()) && SUBJECT_POSSESSIVES.has((raws[at - 1] ?? "").toLowerCase());
}
const COMPANION_PREPOSITIONS = new Set(["with", "for", "to", "from"]);

function rawTokens(sentence: string): string[] {
  const spaced = sentence
    .replace(/\b(would|'d)\s+(like|love)\b/gi, "want")
    .replace(/n't\b/gi, " not")
    .replace(/'s\b/gi, " 's")
    .replace(/,/g, " , ");
  const tokens = (spaced.match(/'s|,|[\p{L}0-9]+(?:[-'][\p{L}0-9]+)*/gu) ?? []).map((t) => NUMBER_WORDS.get(t.toLowerCase()) ?? t);
  // an age: "is 6 years old" says no more than "is 6"
  return tokens.filter((t, i) => {
    const lower = t.toLowerCase();
    if (/^\d+$/.test(tokens[i - 1] ?? "") && /^years?$/.test(lower) && (tokens[i + 1] ?? "").toLowerCase() === "old") return false;
    return !(lower === "old" && /^years?$/i.test(tokens[i - 1] ?? "") && /^\d+$/.test(tokens[i - 2] ?? ""));
  });
}

/** "three" and "3" are one number ("one" is left alone: "the blue one"); English, German, French, Spanish. */
const NUMBER_WORDS = new Map<string, string>(
  [
    "two three four five six seven eight nine ten eleven twelve",
    "zwei drei vier fünf sechs sieben acht neun zehn elf zwölf",
    "deux trois quatre cinq six sept huit neuf dix onze douze",
    "dos tres cuatro cinco seis siete ocho nueve diez once doce",
  ].flatMap((row) => row.split(" ").map((w, i) => [w, String(i + 2)] as [string, string])),
);

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
