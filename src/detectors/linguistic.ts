import winkNLP, { type ItemEntity, type WinkMethods } from "wink-nlp";
import model from "wink-eng-lite-web-model";

/**
 * Linguistic facts about one word of a text, from wink-nlp and its English model (shipped in
 * the npm package, no network): part of speech, lemma, sentence, and who is around the word.
 * The facts decide nothing: a lexicon match that covers a word named by a sense of the policy
 * (policies/memgate/forbidden/data.json `senses`) carries the word's facts, and the policy
 * says which facts make that reading innocent or guilty (docs/JUDGEMENT.md).
 *
 * The vocabulary of facts (stable, documented, read by the policy):
 *   pos:<UPOS>            the word's part of speech (NOUN, VERB, ADJ, ADV, PROPN, ...)
 *   negated               wink's negation flag is set on the word
 *   no_person             no person (pronoun, person noun or capitalised name) elsewhere in the word's sentence
 *   person_after          a person is named after the word in its sentence
 *   first_person_only     the only people in the sentence are the speaker: "I've noticed I overthink"
 *   possessed_by_person   the word's noun phrase is owned by a person: "our first date", "my diagnosis"
 *   determined            the word's noun phrase opens with a determiner: "a date", "the diagnosis"
 *   bare_singular         a singular noun with no determiner or owner: "match on date"
 *   modifies_noun         the word qualifies the noun after it: "date field", "surrogate pairs" (not "date tonight", "surrogate mother")
 *   object_person         a verb whose object is a person: "diagnosed him", "prescribed me"
 *   object_thing          a verb whose object is a thing: "diagnosing flaky tests"
 *   object_clause         a verb whose object is a clause: "diagnose why the build fails"
 *   patient_person        a passive verb whose subject is a person: "I was diagnosed"
 *   in_relative_clause    the word sits in a relative clause about a thing: "examples that clearly show"
 *   predicate_noun        the word's noun phrase is what someone is or works as: "she is a nurse", "works as a doctor"
 *   object_of:<lemma>     the word's noun phrase is the object of that verb: "takes a tablet" (object_of:take)
 *   about_animal          the nearest noun before the word in its sentence is an animal: "my dog is diabetic"
 */
export interface WordFacts {
  facts: string[];
}

interface Token {
  value: string;
  lower: string;
  pos: string;
  lemma: string;
  negated: boolean;
  start: number;
  end: number;
  sentence: number;
  /** Inside a DATE, TIME or DURATION entity ("tonight", "next week"). */
  temporal: boolean;
}

// Grammar, not policy: which pronouns refer to people, and which of them own what follows.
const PERSON_PRONOUNS = new Set([
  // The tokenizer keeps some contractions whole ("I'm"): they are the pronoun they start with.
  "i'm",
  "i've",
  "i'd",
  "i'll",
  "you're",
  "you've",
  "you'd",
  "you'll",
  "he's",
  "he'd",
  "he'll",
  "she's",
  "she'd",
  "she'll",
  "we're",
  "we've",
  "we'd",
  "we'll",
  "they're",
  "they've",
  "they'd",
  "they'll",
  "i",
  "me",
  "my",
  "mine",
  "myself",
  "we",
  "us",
  "our",
  "ours",
  "ourselves",
  "you",
  "your",
  "yours",
  "yourself",
  "he",
  "him",
  "his",
  "himself",
  "she",
  "her",
  "hers",
  "herself",
  "they",
  "them",
  "their",
  "theirs",
  "themselves",
  "someone",
  "somebody",
  "everyone",
  "everybody",
  "anyone",
  "anybody",
]);
const FIRST_PERSON_SINGULAR = new Set(["i", "i'm", "i've", "i'd", "i'll", "me", "my", "mine", "myself"]);
const POSSESSIVES = new Set(["my", "our", "your", "his", "her", "their"]);
// Nouns that name people (lemmas). A person noun owning a word ("user's diagnosis") counts too.
const PERSON_NOUNS = new Set([
  "user",
  "person",
  "people",
  "wife",
  "husband",
  "partner",
  "boyfriend",
  "girlfriend",
  "fiance",
  "fiancee",
  "son",
  "daughter",
  "mom",
  "mum",
  "dad",
  "mother",
  "father",
  "brother",
  "sister",
  "parent",
  "grandmother",
  "grandfather",
  "grandma",
  "grandpa",
  "aunt",
  "uncle",
  "cousin",
  "friend",
  "family",
  "kid",
  "child",
  "children",
  "baby",
  "colleague",
  "coworker",
  "boss",
  "manager",
  "patient",
  "customer",
  "client",
  "man",
  "woman",
  "men",
  "women",
  "guy",
  "girl",
  "boy",
  "teenager",
  "neighbour",
  "neighbor",
  "ex",
]);
// Nouns that name animals (lemmas): a condition said of them is not a person's health.
const ANIMAL_NOUNS = new Set([
  "dog",
  "puppy",
  "cat",
  "kitten",
  "pet",
  "horse",
  "pony",
  "rabbit",
  "bunny",
  "hamster",
  "guinea",
  "parrot",
  "bird",
  "budgie",
  "fish",
  "goldfish",
  "tortoise",
  "turtle",
  "ferret",
  "lizard",
  "snake",
  "cow",
  "goat",
  "sheep",
  "pig",
  "chicken",
  "labrador",
  "retriever",
  "terrier",
  "spaniel",
  "poodle",
  "beagle",
]);
const NOUNISH = new Set(["NOUN", "PROPN"]);
// Verbs whose complement says what the subject is: "is a nurse", "became a doctor".
const COPULAS = new Set(["be", "become"]);
// Tokens that may stand inside a noun phrase between its opening and its head.
const INSIDE_NOUN_PHRASE = new Set(["ADJ", "NUM", "NOUN", "PROPN", "ADV", "X"]);
const SKIP_BEFORE_OBJECT = new Set(["DET", "ADJ", "ADV", "NUM", "PART"]);
const CLAUSE_OPENERS = new Set(["how", "why", "what", "when", "where", "whether", "which", "who", "that", "if"]);
const RELATIVE_PRONOUNS = new Set(["that", "which", "who"]);

let shared: WinkMethods | undefined;
/**
 * The model loads once per process, on the first text that needs it. Only the steps whose facts
 * are read here (sentences, negation, parts of speech, date and time entities): wink's default
 * pipe also scores sentiment and runs custom entities, which cost a third of a text's reading.
 */
const nlp = (): WinkMethods => (shared ??= winkNLP(model, ["sbd", "negation", "pos", "ner"]));

const isPerson = (t: Token): boolean => PERSON_PRONOUNS.has(t.lower) || (NOUNISH.has(t.pos) && PERSON_NOUNS.has(t.lemma));
/**
 * A capitalised proper noun inside a sentence ("with Sarah") may be a person: the lite model has
 * no person entities, so for `no_person` it counts as one (product names make this cautious).
 */
const mayBeNamedPerson = (t: Token, first: boolean): boolean => !first && t.pos === "PROPN" && /^[A-Z][a-z]+$/.test(t.value);

/**
 * One text read once: its tokens with character offsets into the text as given, so a lexicon
 * match (offsets into the same text) finds its word. Facts about a word are derived on demand.
 */
export class LinguisticAnalysis {
  private readonly tokens: Token[] = [];

  constructor(readonly text: string) {
    const { its } = nlp();
    const doc = nlp().readDoc(text);
    // Each property of every token in one call: reading them token by token through wink's item
    // objects cost as much again as reading the text.
    const tokens = doc.tokens();
    const values = tokens.out() as string[];
    const spaces = tokens.out(its.precedingSpaces) as string[];
    const pos = tokens.out(its.pos) as string[];
    // wink's typings declare its.lemma with a parameter list `out` does not accept; it returns strings.
    const lemmas = tokens.out(its.lemma as unknown as typeof its.value) as string[];
    const negated = tokens.out(its.negationFlag) as unknown as boolean[];
    const sentenceOf = new Int32Array(values.length);
    doc.sentences().each((sentence, index) => {
      const [from, to] = sentence.out(its.span) as unknown as [number, number];
      sentenceOf.fill(index, from, to + 1);
    });
    let cursor = 0;
    for (let i = 0; i < values.length; i++) {
      const value = values[i];
      cursor += spaces[i].length;
      // wink keeps the text's characters; if a token ever differs, find it from the cursor.
      let start = cursor;
      if (text.slice(start, start + value.length) !== value) {
        const found = text.indexOf(value, Math.max(0, cursor - 2));
        if (found >= 0) start = found;
      }
      cursor = start + value.length;
      this.tokens.push({
        value,
        lower: value.toLowerCase().replace(/[\u2018\u2019]/g, "'"),
        pos: pos[i],
        lemma: String(lemmas[i]).toLowerCase(),
        negated: negated[i] === true,
        start,
        end: cursor,
        sentence: sentenceOf[i],
        temporal: false,
      });
    }
    doc.entities().each((entity: ItemEntity) => {
      if (!["DATE", "TIME", "DURATION"].includes(entity.out(its.type))) return;
      const [from, to] = entity.out(its.span) as unknown as [number, number];
      for (let k = from; k <= to && k < this.tokens.length; k++) this.tokens[k].temporal = true;
    });
  }

  /** The facts of the word at character `offset` (none if no token starts or covers it). */
  factsAt(offset: number): string[] {
    const i = this.tokens.findIndex((t) => offset >= t.start && offset < t.end);
    return i < 0 ? [] : this.factsOf(i);
  }

  private factsOf(i: number): string[] {
    const tokens = this.tokens;
    const word = tokens[i];
    const facts = new Set<string>([`pos:${word.pos}`]);
    if (word.negated) facts.add("negated");
    const inSentence = (j: number): boolean => j >= 0 && j < tokens.length && tokens[j].sentence === word.sentence;

    let personElsewhere = false;
    let onlyFirstPerson = true;
    for (let j = 0; j < tokens.length; j++) {
      if (j === i || !inSentence(j)) continue;
      if (!isPerson(tokens[j])) {
        if (mayBeNamedPerson(tokens[j], !inSentence(j - 1))) {
          personElsewhere = true;
          onlyFirstPerson = false;
        }
        continue;
      }
      personElsewhere = true;
      if (!FIRST_PERSON_SINGULAR.has(tokens[j].lower)) onlyFirstPerson = false;
      if (j > i) facts.add("person_after");
    }
    if (!personElsewhere) facts.add("no_person");
    else if (onlyFirstPerson) facts.add("first_person_only");

    // The noun phrase the word heads or sits in: walk left over modifiers to its opening.
    if (NOUNISH.has(word.pos) || word.pos === "ADJ") {
      let j = i - 1;
      while (inSentence(j) && (INSIDE_NOUN_PHRASE.has(tokens[j].pos) || tokens[j].lower === "'s") && !isPerson(tokens[j])) j--;
      const opener = inSentence(j) ? tokens[j] : undefined;
      if (opener && (POSSESSIVES.has(opener.lower) || (isPerson(opener) && tokens[j + 1]?.lower === "'s"))) facts.add("possessed_by_person");
      else if (opener?.pos === "DET" || (opener?.pos === "PRON" && ["this", "that", "these", "those", "each", "every", "any", "some"].includes(opener.lower))) {
        facts.add("determined");
      } else if (j === i - 1 && word.pos === "NOUN" && word.lower === word.lemma) facts.add("bare_singular");
      const next = tokens[i + 1];
      if (next && inSentence(i + 1) && NOUNISH.has(next.pos) && !next.temporal && !isPerson(next)) facts.add("modifies_noun");
      // What governs the noun phrase: a copula or "as" ("is a nurse", "works as a nurse"), or a verb.
      let g = j;
      if (inSentence(g) && (tokens[g].pos === "DET" || POSSESSIVES.has(tokens[g].lower))) g--;
      const governor = inSentence(g) ? tokens[g] : undefined;
      if (governor && (((governor.pos === "AUX" || governor.pos === "VERB") && COPULAS.has(governor.lemma)) || governor.lower === "as"))
        facts.add("predicate_noun");
      else if (governor?.pos === "VERB") facts.add(`object_of:${governor.lemma}`);
    }

    // The nearest noun before the word in its sentence names an animal: "our cat is diabetic".
    for (let j = i - 1; inSentence(j); j--) {
      if (NOUNISH.has(tokens[j].pos) || tokens[j].pos === "PRON") {
        if (NOUNISH.has(tokens[j].pos) && ANIMAL_NOUNS.has(tokens[j].lemma)) facts.add("about_animal");
        break;
      }
    }

    if (word.pos === "VERB") {
      // Passive: a form of "be" or "get" before the participle, skipping adverbs ("was recently diagnosed").
      let j = i - 1;
      while (inSentence(j) && (tokens[j].pos === "ADV" || tokens[j].pos === "PART")) j--;
      const auxiliary = inSentence(j) && (tokens[j].pos === "AUX" || tokens[j].lemma === "get") && ["be", "get", "been", "being"].includes(tokens[j].lemma);
      const passive = auxiliary && word.lower !== word.lemma;
      if (passive) {
        let k = j - 1;
        while (inSentence(k) && !["PRON", "NOUN", "PROPN"].includes(tokens[k].pos)) k--;
        if (inSentence(k) && isPerson(tokens[k])) facts.add("patient_person");
      }
      // The object: the first noun or pronoun after the verb, past determiners and modifiers.
      let k = i + 1;
      // A participle after a determiner is a modifier too: "diagnose a broken local setup", "the failing tests".
      const modifier = (t: number): boolean =>
        (SKIP_BEFORE_OBJECT.has(tokens[t].pos) && !CLAUSE_OPENERS.has(tokens[t].lower)) ||
        (tokens[t].pos === "VERB" && t > i + 1 && (tokens[t - 1].pos === "DET" || tokens[t - 1].pos === "ADJ") && tokens[t].lower !== tokens[t].lemma);
      while (inSentence(k) && modifier(k)) k++;
      // A time ("evicted last month") is not what the verb acts on.
      const object = inSentence(k) && !tokens[k].temporal ? tokens[k] : undefined;
      if (object && CLAUSE_OPENERS.has(object.lower)) facts.add("object_clause");
      else if (object && isPerson(object)) facts.add("object_person");
      else if (object && ["NOUN", "PROPN", "PRON", "X"].includes(object.pos)) facts.add("object_thing");
    }

    // "examples that clearly show": the word follows a relative pronoun that follows a thing.
    for (let j = i - 1; j >= i - 2 && inSentence(j); j--) {
      if (RELATIVE_PRONOUNS.has(tokens[j].lower) && inSentence(j - 1) && NOUNISH.has(tokens[j - 1].pos) && !isPerson(tokens[j - 1])) {
        facts.add("in_relative_clause");
        break;
      }
      if (tokens[j].pos !== "ADV") break;
    }
    return [...facts].sort();
  }
}

/** Reads a text (case kept, for the tagger) once; cheap to skip when no sense is in play. */
export function analyse(text: string): LinguisticAnalysis {
  return new LinguisticAnalysis(text);
}
