import { baseForms } from "./morphy";
import { sharedWordNet } from "./wordnet";

/** A token of a sentence with its part of speech (wink-nlp's tag). */
export interface Word {
  text: string;
  lower: string;
  pos: string;
}

/**
 * What a sentence says, written out so that each fact sits in one clause with its own entity
 * (SG-GROUND's clause aligner, before the clauses are cut):
 * - `sentences` are cut into clauses as usual: the sentence itself, a subject of two people
 *   written out for each ("User and his wife Elena volunteer" → "User volunteer", "his wife
 *   Elena volunteer"), a relative clause with its antecedent in place of the pronoun ("curries,
 *   which they cook at home" → "they cook curries at home"; "Marco, who handles the finances"
 *   → "User's husband Marco handles the finances");
 * - `whole` are single clauses, never cut: an apposition stated ("User's father, a retired
 *   pilot, taught ..." → "User's father is a retired pilot") and the names of a relation or a
 *   pet ("two daughters, Mia and Zoe" → "User has two daughters named Mia and Zoe").
 * "there" is the place named before it in the sentence. An apposition is taken out of the
 * sentence, so it is never a clause of its own about the user ("a retired pilot").
 * Each fact keeps the entity it is said of: nothing here moves a word from one entity to another.
 */
export function expandSentence(input: Word[], summary = true): { sentences: Word[][]; whole: Word[][] } {
  const whole: Word[][] = [];
  const [words, ...listed] = colonList(resolvePerson(resolveSame(resolveThere(userAsObject(input)))), whole);
  const main = takeAppositions(words, whole);
  const sentences: Word[][] = [];
  for (const s of [...splitSubjects(main), ...listed]) {
    // a relative clause is a clause of its own, not part of its antecedent's
    const { stripped, clauses } = relativeClauses(s);
    sentences.push(stripped, ...clauses, ...sharedModifier(stripped));
    // the same fact in other words, or less of it: more ways for a summary to support, never more for a candidate to prove
    if (summary) sentences.push(...occupation(stripped), ...withoutCompanion(stripped), ...bought(stripped));
  }
  whole.push(...namedRelations(main), ...[main, ...whole].flatMap(livesWith), ...learnedFrom(main));
  return { sentences, whole };
}

/** "works as a nurse" and "is a nurse" say the same of a person's occupation: each sentence also in the other wording. */
function occupation(words: Word[]): Word[][] {
  const at = words.findIndex((w, i) => i > 0 && ["a", "an"].includes(words[i + 1]?.lower ?? "") && /^(works|work|is|are)$/.test(w.lower));
  if (at < 0) return [];
  const as = words[at + 1]?.lower === "as";
  if (/^work/.test(words[at].lower) && words[at + 1]?.lower !== "as") return [];
  let head = at + (as ? 2 : 1) + 1;
  while (head + 1 < words.length && (words[head + 1].pos === "NOUN" || words[head + 1].pos === "ADJ" || words[head].pos === "ADJ")) head++;
  if (!isPersonNoun(words[head]?.lower ?? "")) return [];
  const verb = as ? [word("is", "AUX")] : [word("works", "VERB"), word("as", "ADP")];
  return [[...words.slice(0, at), ...verb, ...words.slice(at + (as ? 2 : 1))]];
}

/** The noun's commonest sense is a kind of person ("nurse", "pharmacist"; not "vegetarian diet"). */
function isPersonNoun(noun: string): boolean {
  const wn = sharedWordNet();
  let frontier = wn.lookup(noun.replace(/s$/, ""), "n").slice(0, 1).concat(wn.lookup(noun, "n").slice(0, 1));
  for (let depth = 0; depth < 10 && frontier.length > 0; depth++) {
    if (frontier.includes(PERSON)) return true;
    frontier = frontier.flatMap((k) => wn.synset(k).hypernyms);
  }
  return false;
}
const PERSON = "n:00007846";

/** "User's mother calls the user every Sunday": the user as an object is "them", as in "... calls them every Sunday". */
function userAsObject(words: Word[]): Word[] {
  return words.flatMap((w, i) => {
    const object = w.lower === "the" && words[i + 1]?.lower === "user" && words[i - 1]?.pos === "VERB" && words[i + 2]?.text !== "'s";
    if (object) return [word("them", "PRON")];
    return i > 0 && words[i - 1].lower === "the" && w.lower === "user" && words[i - 2]?.pos === "VERB" && words[i + 1]?.text !== "'s" ? [] : [w];
  });
}

/** "User bought a secondhand piano": the user has a secondhand piano. */
function bought(words: Word[]): Word[][] {
  const at = words.findIndex((w) => /^(bought|purchased|adopted)$/.test(w.lower));
  const subject = words.slice(0, at).map((w) => w.lower);
  if (!["user", "they", "she", "he", "the user"].includes(subject.join(" "))) return [];
  let end = at + 1;
  while (end < words.length && NP_POS.has(words[end].pos) && !TIME_WORDS.has(words[end].lower)) end++;
  return end > at + 1 ? [[USER, word("has", "VERB"), ...words.slice(at + 1, end)]] : [];
}
const TIME_WORDS = new Set(["last", "next", "this", "every", "each"]);

/** "User's father has diabetes, so the user cooks for him": "him" after a verb or preposition is the last man named ("their father"). */
function resolvePerson(words: Word[]): Word[] {
  const named: Record<string, Word | undefined> = {};
  return words
    .map((w, i) => {
      if (RELATION_NOUNS.has(w.lower) && GENDER[w.lower]) named[GENDER[w.lower]] = w;
      const object = ["VERB", "ADP"].includes(words[i - 1]?.pos ?? "") && !["NOUN", "ADJ", "PROPN"].includes(words[i + 1]?.pos ?? "") && userActs(words, i);
      const relation = w.lower === "him" ? named.m : w.lower === "her" ? named.f : undefined;
      return object && relation !== undefined ? [word("their", "PRON"), relation] : [w];
    })
    .flat();
}
/** The verb before `at` has the user as its subject ("the user cooks ... for him"; not "their grandmother taught her"). */
function userActs(words: Word[], at: number): boolean {
  const subject = words.slice(0, at).findLastIndex((w) => ["user", "they", "she", "he"].includes(w.lower));
  if (subject < 0) return false;
  let verb = subject + 1;
  while (words[verb]?.pos === "ADV") verb++;
  const v = words[verb];
  return verb < at && v !== undefined && (v.pos === "VERB" || v.pos === "AUX" || /^[a-z]+s$/.test(v.lower));
}
const GENDER: Record<string, string> = Object.fromEntries([
  ..."father dad brother son husband boyfriend nephew uncle grandfather grandpa".split(" ").map((r) => [r, "m"]),
  ..."mother mom mum sister daughter wife girlfriend niece aunt grandmother grandma".split(" ").map((r) => [r, "f"]),
]);

/** "goes kayaking with his cousin Piotr in Krakow": the user also goes kayaking in Krakow (a companion dropped, nothing else). */
function withoutCompanion(words: Word[]): Word[][] {
  const at = words.findIndex(
    (w, i) => w.lower === "with" && POSSESSIVE_PRONOUNS.has(words[i + 1]?.lower ?? "") && RELATION_NOUNS.has(words[i + 2]?.lower ?? ""),
  );
  if (at < 0 || !["user", "they", "she", "he"].includes(words[0]?.lower ?? "")) return [];
  const end = at + 3 + (words[at + 3]?.pos === "PROPN" ? 1 : 0);
  return [[...words.slice(0, at), ...words.slice(end)]];
}

/** "... in a jazz band, and their partner sings in the same band": the same band is the jazz band. */
function resolveSame(words: Word[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const head = words[i + 2];
    if (words[i].lower === "the" && words[i + 1]?.lower === "same" && head?.pos === "NOUN") {
      const earlier = out.findLastIndex((w) => w.lower === head.lower);
      if (earlier >= 0) {
        const start = phraseStart(out, earlier + 1);
        out.push(...out.slice(start, earlier + 1));
        i += 2;
        continue;
      }
    }
    out.push(words[i]);
  }
  return out;
}

/** "User has three children: two sons ... and a daughter ...": what follows the colon is had too. */
function colonList(words: Word[], whole: Word[][]): Word[][] {
  const colon = words.findIndex((w) => w.text === ":");
  const verb = words.findIndex((w) => /^(has|have|had)$/.test(w.lower));
  if (colon < 0 || verb < 0 || verb > colon || colon === words.length - 1) return [words];
  // "two brothers: Ethan, who ..., and Liam, who ...": a brother named Ethan, a brother named Liam
  const kind = words[colon - 1].lower.replace(/ren$/, "").replace(/s$/, "");
  if (RELATION_NOUNS.has(kind)) {
    const names = words.slice(colon + 1).filter((w, i, list) => w.pos === "PROPN" && [",", "and", undefined].includes(list[i - 1]?.lower));
    for (const name of names) whole.push([USER, word("has", "VERB"), word("a", "DET"), word(kind, "NOUN"), word("named", "VERB"), name]);
  }
  return [words.slice(0, colon), [...words.slice(0, verb + 1), ...words.slice(colon + 1)]];
}

/** "grows tomatoes and basil on their balcony": the place is where both grow ("grows tomatoes on their balcony"). */
function sharedModifier(words: Word[]): Word[][] {
  const and = words.findIndex((w, i) => w.lower === "and" && i > 1);
  if (and < 0) return [];
  let verb = and - 1;
  while (verb >= 0 && NP_POS.has(words[verb].pos)) verb--;
  if (verb < 0 || verb === and - 1 || words[verb].pos !== "VERB") return [];
  // "... and coaches the team": a verb the tagger called a noun opens a clause of its own
  const second = words[and + 1];
  if (second === undefined || (second.pos === "NOUN" && /s$/.test(second.lower) && sharedWordNet().has(second.lower.replace(/e?s$/, ""), "v"))) return [];
  let at = and + 1;
  while (at < words.length && NP_POS.has(words[at].pos)) at++;
  if (at === and + 1 || words[at]?.pos !== "ADP") return [];
  let end = at + 1;
  while (end < words.length && words[end].text !== "," && !["and", "but", "while", "or"].includes(words[end].lower) && words[end].pos !== "PUNCT") end++;
  return [[...words.slice(0, and), ...words.slice(at, end)]];
}

const DAY = /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|weekend|weekday|morning|evening|night)s?$/;
const POSSESSIVE_PRONOUNS = new Set(["their", "his", "her", "my"]);
const NP_POS = new Set(["NOUN", "PROPN", "ADJ", "NUM", "DET"]);
const USER: Word = { text: "User", lower: "user", pos: "PROPN" };
const GENITIVE: Word = { text: "'s", lower: "'s", pos: "PART" };
const word = (text: string, pos: string): Word => ({ text, lower: text.toLowerCase(), pos });

/**
 * "moved to Toronto ... and now designs video games there": "there" is Toronto; "goes climbing on
 * Saturdays because the gym is quiet then": "then" is on Saturdays.
 */
function resolveThere(words: Word[]): Word[] {
  let place: Word[] = [];
  let time: Word[] = [];
  const out: Word[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (["on", "every"].includes(w.lower) && DAY.test(words[i + 1]?.lower ?? "")) time = words.slice(i, i + 2);
    if (w.lower === "then" && time.length > 0 && i > 0 && words[i - 1].pos !== "CCONJ") {
      out.push(...time);
      continue;
    }
    if (["in", "to", "at"].includes(w.lower) && words[i + 1]?.pos === "PROPN") {
      let end = i + 1;
      while (words[end + 1]?.pos === "PROPN") end++;
      place = [word("in", "ADP"), ...words.slice(i + 1, end + 1)];
    } else if (["to", "at"].includes(w.lower) && ["a", "an", "the"].includes(words[i + 1]?.lower ?? "")) {
      // "volunteers at an animal shelter ... adopted a dog from there"
      let end = i + 2;
      while (["NOUN", "ADJ"].includes(words[end + 1]?.pos ?? "")) end++;
      if (words[end]?.pos === "NOUN") place = [w, ...words.slice(i + 1, end + 1)];
    }
    const existential = ["is", "are", "was", "were"].includes(words[i + 1]?.lower ?? "");
    if (w.lower === "there" && place.length > 0 && i > 0 && !existential) {
      out.push(...(words[i - 1].pos === "ADP" ? place.slice(1) : place)); // "from there": from the place
      continue;
    }
    out.push(w);
  }
  return out;
}

/** The end of the noun phrase that ends right before `end` (exclusive), walking back: its first index. */
function phraseStart(words: Word[], end: number): number {
  let i = end - 1;
  while (i >= 0) {
    const w = words[i];
    const named = (w.lower === "named" || w.lower === "called") && i > 0 && words[i - 1].pos === "NOUN";
    const misTagged = w.pos === "NOUN" && ["ADJ", "DET"].includes(words[i + 1]?.pos ?? "");
    if (misTagged) break; // "... but love spicy Thai curries": a verb the tagger called a noun
    if (NP_POS.has(w.pos) || w.text === "'s" || named || POSSESSIVE_PRONOUNS.has(w.lower)) {
      if (w.pos === "DET" || POSSESSIVE_PRONOUNS.has(w.lower)) return i;
      i--;
      continue;
    }
    break;
  }
  return i + 1;
}

/** "her husband Marco" as a subject of its own: "User 's husband Marco". */
function asSubject(phrase: Word[]): Word[] {
  if (phrase.length > 1 && POSSESSIVE_PRONOUNS.has(phrase[0].lower)) return [USER, GENITIVE, ...phrase.slice(1)];
  return phrase;
}

function isNameList(run: Word[]): boolean {
  return run.length > 0 && run.every((w) => w.pos === "PROPN" || w.lower === "and") && run[0].pos === "PROPN" && run[run.length - 1].pos === "PROPN";
}

/**
 * ", a retired pilot," / ", Priya," / ", Mochi and Tofu," after a noun: taken out of the sentence.
 * A description becomes "X is a retired pilot"; names become "X named Priya" in the sentence
 * when the phrase is its subject, else a clause "User has two cats named Mochi and Tofu".
 */
function takeAppositions(words: Word[], whole: Word[][]): Word[] {
  let out = words;
  for (let guard = 0; guard < 4; guard++) {
    const open = out.findIndex((w, i) => w.text === "," && i > 0 && (out[i - 1].pos === "NOUN" || out[i - 1].pos === "PROPN") && closeOf(out, i) > 0);
    if (open < 0) return out;
    const close = closeOf(out, open);
    const run = out.slice(open + 1, close);
    const start = phraseStart(out, open);
    const head = out.slice(start, open);
    const namedAt = run.findIndex((w) => w.lower === "named" || w.lower === "called");
    if (namedAt > 0) {
      // "User's roommate, a nurse named Keiko, works nights": "User's roommate Keiko works nights", "User's roommate is a nurse"
      whole.push([...asSubject(head), ...run.slice(namedAt + 1), word("is", "AUX"), ...run.slice(0, namedAt)]);
      out = [...out.slice(0, open), ...run.slice(namedAt + 1), ...out.slice(close + 1)];
    } else if (isNameList(run)) {
      // one name goes where it stands ("their dog, Bruno, every evening"); a list is a clause of its own
      if (start === 0 || run.length === 1) out = [...out.slice(0, open), ...run, ...out.slice(close + 1)];
      else {
        whole.push([...clausePrefix(out, start), ...head, word("named", "VERB"), ...run]);
        out = [...out.slice(0, open), ...out.slice(close)];
      }
    } else {
      whole.push([...asSubject(head), word("is", "AUX"), ...run]);
      out = [...out.slice(0, open), ...out.slice(close + 1)];
    }
  }
  return out;
}

/** The comma closing an apposition opened at `open`: a short run without a verb, followed by a verb or ", and". */
function closeOf(words: Word[], open: number): number {
  for (let j = open + 1; j < words.length && j <= open + 6; j++) {
    const w = words[j];
    if (w.text === ",") {
      if (j === open + 1) return -1;
      const run = words.slice(open + 1, j);
      if (!(run[0].pos === "DET" || isNameList(run))) return -1;
      const after = words[j + 1];
      const afterVerb = after !== undefined && (after.pos === "VERB" || after.pos === "AUX");
      const afterAnd = after !== undefined && after.lower === "and";
      return afterVerb || (afterAnd && isNameList(run)) || (run.length === 1 && after !== undefined && after.lower !== "and") ? j : -1;
    }
    const named = (w.lower === "named" || w.lower === "called") && words[j + 1]?.pos === "PROPN" && j > open + 1;
    if ((w.pos === "VERB" && !named) || w.pos === "AUX" || w.pos === "PUNCT" || ["who", "which", "that"].includes(w.lower)) return -1;
  }
  return -1;
}

/** The clause before a noun phrase at `start`: from the last coordinator or comma (or the sentence's start). */
function clausePrefix(words: Word[], start: number): Word[] {
  let from = 0;
  for (let i = start - 1; i >= 0; i--) {
    if (words[i].text === "," || ["and", "but", "while"].includes(words[i].lower)) {
      from = i + 1;
      break;
    }
  }
  const prefix = words.slice(from, start);
  return prefix.length > 0 && prefix.some((w) => w.pos === "VERB" || w.pos === "AUX" || w.pos === "NOUN") ? prefix : [];
}

/** "User and his wife Elena volunteer at ...": one sentence per subject. */
function splitSubjects(words: Word[]): Word[][] {
  const and = words.findIndex((w) => w.lower === "and");
  if (and < 1 || and > 2) return [words];
  const first = words.slice(0, and);
  if (!first.every((w) => w.pos === "PROPN" || w.pos === "NOUN" || w.pos === "DET") || first[first.length - 1].lower !== "user") return [words];
  let verb = and + 1;
  while (verb < words.length && verb <= and + 4 && (NP_POS.has(words[verb].pos) || POSSESSIVE_PRONOUNS.has(words[verb].lower))) {
    if (words[verb].pos === "NOUN" && verb > and + 1 && words[verb - 1].pos === "PROPN") break; // "Elena volunteer": a verb the tagger called a noun
    verb++;
  }
  const second = words.slice(and + 1, verb);
  const v = words[verb];
  if (second.length === 0 || v === undefined) return [words];
  const verbLike = v.pos === "VERB" || v.pos === "AUX" || sharedWordNet().has(v.lower, "v");
  if (!verbLike || !second.some((w) => w.pos === "PROPN" || w.pos === "NOUN")) return [words];
  const rest = [{ ...v, pos: "VERB" }, ...words.slice(verb + 1)];
  return [
    [...first, ...rest],
    [...asSubject(second), ...rest],
  ];
}

/** "X, which they cook at home" → "they cook X at home"; "Marco, who handles the finances" → "Marco handles the finances". */
function relativeClauses(words: Word[]): { stripped: Word[]; clauses: Word[][] } {
  const out: Word[][] = [];
  const taken = new Set<number>();
  words.forEach((w, r) => {
    if (!["who", "which"].includes(w.lower) || r === 0) return;
    const end = r - (words[r - 1].text === "," ? 1 : 0);
    const start = phraseStart(words, end);
    // "has a sibling who is a firefighter", "has three children: two sons who ...": the user's sibling, sons
    const lastVerb = words.slice(0, start).findLast((x, i) => !taken.has(i) && (x.pos === "VERB" || x.pos === "AUX"));
    const had = /^(has|have|had)$/.test(lastVerb?.lower ?? "") && (["a", "an"].includes(words[start]?.lower) || words[start]?.pos === "NUM");
    const antecedent = had ? [USER, GENITIVE, ...words.slice(start + 1, end)] : words.slice(start, end);
    if (antecedent.length === 0 || !["NOUN", "PROPN"].includes(antecedent[antecedent.length - 1].pos)) return;
    let stop = r + 1;
    const newPhrase = (i: number) => words[i].lower === "and" && ["DET", "NUM"].includes(words[i + 1]?.pos ?? "");
    while (stop < words.length && words[stop].text !== "," && !["while", "whereas", "but", ";"].includes(words[stop].lower) && !newPhrase(stop)) stop++;
    const body = words.slice(r + 1, stop);
    if (body.length === 0) return;
    // ", who is 5," goes with both its commas
    const commas = words[r - 1].text === "," && words[stop]?.text === ",";
    for (let i = words[r - 1].text === "," ? r - 1 : r; i < stop + (commas ? 1 : 0); i++) taken.add(i);
    const first = body[0];
    if (
      first.pos === "VERB" ||
      first.pos === "AUX" ||
      (first.pos === "NOUN" && /s$/.test(first.lower) && baseForms(first.lower).some((f) => f.lemma !== first.lower && sharedWordNet().has(f.lemma, "v")))
    ) {
      out.push([...asSubject(antecedent), { ...first, pos: "VERB" }, ...body.slice(1)]);
      return;
    }
    const verb = body.findIndex((x) => x.pos === "VERB" || x.pos === "AUX");
    if (verb < 1 || verb > 2 || !body.slice(0, verb).every((x) => x.pos === "PRON" || x.pos === "PROPN")) return;
    let after = verb;
    while (body[after + 1] && (body[after + 1].pos === "VERB" || body[after + 1].pos === "AUX" || body[after + 1].pos === "PART")) after++;
    out.push([...body.slice(0, after + 1), ...antecedent, ...body.slice(after + 1)]);
  });
  return { stripped: words.filter((_, i) => !taken.has(i)), clauses: out };
}

const RELATION_NOUNS = new Set(
  `sister brother mother father mom dad mum son daughter child kid wife husband spouse partner boyfriend girlfriend fiance fiancee friend
   roommate neighbor neighbour boss manager colleague coworker cousin aunt uncle grandmother grandfather grandma grandpa niece nephew
   dog cat puppy kitten pet parrot hamster rabbit horse`.split(/\s+/),
);
const PETS = new Set(["dog", "cat", "puppy", "kitten", "pet", "parrot", "hamster", "rabbit", "horse"]);

/** "User lives in Lisbon with two cats": the user has two cats (a person or an animal they live with). */
function livesWith(words: Word[]): Word[][] {
  const live = words.findIndex((w) => /^liv(e|es|ed|ing)$/.test(w.lower));
  if (live < 0 || !["user", "they", "she", "he"].includes(words[0]?.lower ?? "")) return [];
  for (let i = live + 1; i < words.length && words[i].text !== "," && words[i].lower !== "and"; i++) {
    if (words[i].lower !== "with") continue;
    let end = i + 1;
    const inPhrase = (w: Word) =>
      NP_POS.has(w.pos) || POSSESSIVE_PRONOUNS.has(w.lower) || w.lower === "named" || (w.lower === "and" && words[end + 1]?.pos === "PROPN");
    while (end < words.length && inPhrase(words[end])) end++;
    const phrase = words.slice(i + 1, end);
    if (phrase.some((w) => w.pos === "NOUN")) return [[USER, word("has", "VERB"), ...phrase]];
  }
  return [];
}

/** "User's daughter Lily", "their son Noah", "a cat named Miso": "User has a daughter named Lily". */
function namedRelations(words: Word[]): Word[][] {
  const out: Word[][] = [];
  words.forEach((w, i) => {
    if (!RELATION_NOUNS.has(w.lower) || i === 0) return;
    const owner = words[i - 1];
    const byUser = POSSESSIVE_PRONOUNS.has(owner.lower) || (owner.text === "'s" && words[i - 2]?.lower === "user");
    let at = i + 1;
    if (words[at]?.lower === "named" || words[at]?.lower === "called") at++;
    const name = words[at];
    if (!byUser || name === undefined || name.pos !== "PROPN" || name.lower === "user") return;
    out.push([USER, word("has", "VERB"), word("a", "DET"), w, word("named", "VERB"), name]);
  });
  return out;
}

/** "User's grandmother taught her to bake bread": the user learned to bake bread from their grandmother. */
function learnedFrom(words: Word[]): Word[][] {
  const at = words.findIndex((w) => /^(taught|teaches|teach)$/.test(w.lower));
  if (at < 1 || !["them", "her", "him", "me", "user"].includes(words[at + 1]?.lower ?? "")) return [];
  const teacher = words.slice(0, at);
  if (teacher[0].lower !== "user" || teacher[1]?.text !== "'s" || !teacher.slice(2).every((w) => w.pos === "NOUN" || w.pos === "PROPN")) return [];
  let end = at + 2;
  while (end < words.length && words[end].text !== "," && !["and", "but", "while", "when"].includes(words[end].lower)) end++;
  const learned = words[at].lower === "taught" ? "learned" : "learns";
  return [[USER, word(learned, "VERB"), ...words.slice(at + 2, end), word("from", "ADP"), word("their", "PRON"), ...teacher.slice(2)]];
}

/** Names of people in a text's implicit clauses ("User has a husband named Marco"), each with its relation ("Marco" → "husband"). */
export function aliasesOf(whole: Word[][]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of whole) {
    const named = c.length === 6 && c[0] === USER && c[4].lower === "named" && c[5].pos === "PROPN";
    if (named && RELATION_NOUNS.has(c[3].lower) && !PETS.has(c[3].lower)) out.set(c[5].text, c[3].lower);
  }
  return out;
}
