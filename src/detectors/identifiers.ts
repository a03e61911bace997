import type { Detector, Finding } from "./detector";
import { financialFindings } from "./financial";
import { digitCount, idLengths, nationalIdsIn } from "./government-id";
import { fold } from "./language-lexicon";
import type { LexiconSource } from "./lexicon";
import { AnchoredRegex, matchesOf } from "./matches";

/** data.memgate.identifiers of the bundle (policies/memgate/identifiers/data.json). */
export interface IdentifierData {
  id_words?: Record<string, string[]>;
  /** Per id with a check digit (a label of government-id.ts), the words that name it: near one, only that id counts, and only when it passes. */
  id_word_ids?: Record<string, string[]>;
  secret_statements?: Record<string, SecretWords>;
  technical_before?: string[];
  /** Words naming a payment card, per language: "<card word>: 4921" states the card's PIN. */
  card_words?: Record<string, string[]>;
  /** Words that, between a card word and four digits, make them the card's last digits ("ending 4242"). */
  card_last_digits?: string[];
}

/** The words of one language that state a secret (docs/JUDGEMENT.md "Normalisation and identifiers"). */
interface SecretWords {
  words?: string[];
  pin_words?: string[];
  /** Backup or recovery codes ("Kody zapasowe do 2FA: …"): the value holds a digit. */
  recovery_words?: string[];
  /** A security question or its usual subject ("mother's maiden name"): the value reads as a password's. */
  answer_words?: string[];
  /** A wallet's seed or recovery phrase: twelve words or more after a colon. */
  phrase_words?: string[];
  /** Doors, gates, alarms, keypads: with a keypad verb and a code in the same sentence, an entry code. */
  entry_words?: string[];
  keypad_verbs?: string[];
  /** Logging in ("loguję się …: Kowalczyk1957"): a password-like token after a colon in the same sentence. */
  login_words?: string[];
  /** Words that give what something is opened with ("with", "mit", "com", "ile"): after a login or unlock word, a secret with one of them or a keypad verb. */
  with_words?: string[];
  /** PIN words that end in a verb ("code to unlock", "código para entrar"): its object may stand between them and the link. */
  pin_object_words?: string[];
  /** Words that describe a PIN without naming it ("four digits", "die vier Ziffern", "4桁"): with its digits alone at the start of the next sentence, a PIN. */
  pin_hints?: string[];
  /** Password words that also name a motto or a keyword ("parola d'ordine", "合言葉"): their value counts only with a digit or a symbol. */
  weak_words?: string[];
  /** Words that give what a secret was just described as ("ou seja", "czyli", "cioè"): the value follows them. */
  reveal_words?: string[];
  /** The digits 0 to 9 written as words: four or more in a row are read as the digits ("cztery, dziewięć, jeden, sześć"). */
  digit_words?: string[];
  of_words?: string[];
  links?: string[];
  not_values?: string[];
}

interface Statement {
  lang: string;
  kind: "password" | "pin" | "recovery" | "answer";
  /** Its pattern, tried only where the first word of one of its entries stands: every match starts with one (most of 47 patterns, most texts, have none). */
  pattern: AnchoredRegex;
  notValues: ReadonlySet<string>;
  /** From a weak word (a motto's as much as a password's): the value needs a digit or a symbol. */
  weak?: boolean;
}

interface Compiled {
  idWords: RegExp | undefined;
  /** The ids (labels) an id word names, for the words that name ids with a check digit. */
  idsOfWord: (word: string) => ReadonlySet<string> | undefined;
  /** Any secret word of any language: the cheap test before the per-language patterns. */
  anySecretWord: RegExp | undefined;
  statements: Statement[];
  /** A word that makes the PIN word after it a hardware or software pin. */
  technicalBefore: RegExp | undefined;
  /** Any password word of any language (not PIN words): a password-like token may follow it without a link. */
  passwordWords: AnchoredRegex | undefined;
  /** A card word, a colon and four to six digits alone: the card's PIN ("Sparkassenkarte: 4719"). */
  cardPin: RegExp | undefined;
  cardLast: RegExp | undefined;
  /** Seed-phrase words of any language. */
  phraseWords: RegExp | undefined;
  entryWords: RegExp | undefined;
  keypadVerbs: RegExp | undefined;
  loginWords: RegExp | undefined;
  /** After a login or unlock word in its sentence, what it is opened with: a with-word or a keypad verb, then a value; or a value, then a with-word ("\"papatya42\" ile açılıyor"). */
  openedWith: RegExp | undefined;
  openedWithBefore: RegExp | undefined;
  /** A card word of any language (for a PIN given in the next sentence). */
  cardWords: AnchoredRegex | undefined;
  /** A PIN described without its word ("the four digits for his card"), for a PIN given in the next sentence. */
  pinHints: AnchoredRegex | undefined;
  /** The start of a sentence that gives a PIN or a password described in the sentence before ("Es sind 7304", "C'est 2468", "Het is 9021", "7720,"). */
  nextValue: RegExp | undefined;
  /** Any PIN or entry-code word of any language. */
  pinWords: AnchoredRegex | undefined;
  /** A cheap test before the reveal words: the first words of their entries (no boundaries, no Unicode mode). */
  revealFirst: RegExp | undefined;
  /** Any security-question word of any language. */
  answerWords: AnchoredRegex | undefined;
  /** After a word of description, a link, a colon, an arrow or a reveal word of any language, then a capitalised name that ends its clause; or a name set off by commas. */
  answerName: RegExp | undefined;
  /** A colon, an arrow or a dash, or a reveal word of any language, then the value ("…, ou seja, RuaAugusta217"). */
  reveal: RegExp | undefined;
  /** Every of-word of every language, lower case ("for", "do", "für"). */
  ofWords: ReadonlySet<string>;
  /** Every not-value of every language: a seed phrase has none of them ("on", "and", "the"). */
  anyNotValue: ReadonlySet<string>;
  /** Secret words without spaces, lower case: written letter-spaced ("p a s s p h r a s e"), a disguise. */
  spacedWords: ReadonlySet<string>;
  /** Each digit word of any language (lower case, without accents) and its digit. */
  digitOf: ReadonlyMap<string, string>;
}

const escape = (word: string): string => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/[ -]/g, "[ -]?");
const alternation = (words: readonly string[]): string =>
  [...words]
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join("|");
/** The first words of a list's entries as one cheap case-insensitive regex (no boundaries, no Unicode mode): a prefilter, and the openers of an AnchoredRegex. */
const firstWords = (words: readonly string[]): RegExp => new RegExp(alternation([...new Set(words.map((w) => w.split(/[ -]/)[0]).filter(Boolean))]), "i");
/** Kana and CJK ideographs: words of a language written without spaces have no word boundaries to look for. */
const UNSPACED = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/;
const wordsPattern = (words: readonly string[]): string => {
  const spaced = words.filter((w) => !UNSPACED.test(w));
  const unspaced = words.filter((w) => UNSPACED.test(w));
  const bounded = spaced.length > 0 ? [`(?<![\\p{L}\\p{N}])(?:${alternation(spaced)})(?![\\p{L}])`] : [];
  return `(?:${[...bounded, ...(unspaced.length > 0 ? [`(?:${alternation(unspaced)})`] : [])].join("|")})`;
};

/** Any of the words, tried only where the first word of one of them stands (AnchoredRegex). */
const anchoredWords = (words: readonly string[]): AnchoredRegex => new AnchoredRegex(new RegExp(wordsPattern(words), "giu"), firstWords(words));

/** A value in quotes (a pair or one mark twice): group 1. */
const QUOTED_VALUE = `["'«“„‘「『]([^"'»”“’」』\\n]{3,40})["'»”’」』]`;
/**
 * A value given for a secret: four to eight digits that end their clause (not a year: "in 2019."; group 2), a quoted
 * value (group 1) or a token (group 3); givenValue decides whether it reads as a secret.
 */
const GIVEN_VALUE = `(?:${QUOTED_VALUE}|(?!(?:19|20)\\d\\d(?!\\d))(\\d{4,8})(?=[ \\t]*(?:[,.;!?、。)]|$)|[\u3040-\u309f])|([^\\s,;]{4,64}))`;

/** Which ids each id word may name (`id_word_ids`: id to its words), by the word in lower case. */
function idsByWordOf(idWordIds: Record<string, string[]> | undefined): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [id, words] of Object.entries(idWordIds ?? {})) {
    for (const word of words) {
      const key = word.toLowerCase();
      if (!out.has(key)) out.set(key, new Set());
      out.get(key)?.add(id);
    }
  }
  return out;
}

/** The shapes of a secret given without a statement: what a login opens with, and a value alone at the start of the next sentence. */
function givenShapes(
  more: { with: string[]; verbs: string[]; hints: string[]; links: string[] },
  cardWords: string[],
): Pick<Compiled, "openedWith" | "openedWithBefore" | "cardWords" | "pinHints" | "nextValue"> {
  return {
    openedWith:
      more.with.length + more.verbs.length > 0
        ? new RegExp(`${wordsPattern([...more.with, ...more.verbs])}[ \\t]+(?:\\p{Ll}{1,4}[ \\t]+){0,2}${GIVEN_VALUE}`, "giu")
        : undefined,
    openedWithBefore:
      more.with.length > 0
        ? new RegExp(`(?:${QUOTED_VALUE}|(?<![\\p{L}\\p{N}])(?!(?:19|20)\\d\\d(?!\\d))(\\d{4,8}))[ \\t]*${wordsPattern(more.with)}`, "giu")
        : undefined,
    cardWords: cardWords.length > 0 ? anchoredWords(cardWords) : undefined,
    pinHints: more.hints.length > 0 ? anchoredWords(more.hints) : undefined,
    nextValue:
      more.links.length > 0
        ? new RegExp(
            `^\\s*(?:(?:\\p{L}{1,6}[ \\t]+)?(?:${alternation(more.links)})[ \\t]+(?:\\p{L}{1,3}[ \\t]+)?|\\p{L}{1,6}['’]s[ \\t]+)?${GIVEN_VALUE}`,
            "iu",
          )
        : undefined,
  };
}

function compile(data: IdentifierData | undefined): Compiled {
  const idWords = Object.values(data?.id_words ?? {}).flat();
  const statements: Statement[] = [];
  const secretWords: string[] = [];
  const passwordWords: string[] = [];
  const more = {
    phrase: [] as string[],
    entry: [] as string[],
    verbs: [] as string[],
    login: [] as string[],
    notValues: new Set<string>(),
    ofWords: new Set<string>(),
    pins: [] as string[],
    reveal: [] as string[],
    answers: [] as string[],
    links: [] as string[],
    with: [] as string[],
    hints: [] as string[],
  };
  const digitOf = new Map<string, string>();
  for (const [lang, s] of Object.entries(data?.secret_statements ?? {})) {
    more.phrase.push(...(s.phrase_words ?? []));
    more.entry.push(...(s.entry_words ?? []));
    more.verbs.push(...(s.keypad_verbs ?? []));
    more.login.push(...(s.login_words ?? []));
    more.with.push(...(s.with_words ?? []));
    more.hints.push(...(s.pin_hints ?? []));
    (s.not_values ?? []).forEach((w) => more.notValues.add(w.toLowerCase()));
    (s.of_words ?? []).forEach((w) => more.ofWords.add(w.toLowerCase()));
    more.pins.push(...(s.pin_words ?? []));
    more.reveal.push(...(s.reveal_words ?? []));
    more.answers.push(...(s.answer_words ?? []));
    more.links.push(...(s.links ?? []).filter((l) => /\p{L}/u.test(l) && !UNSPACED.test(l)));
    (s.digit_words ?? []).forEach((w, digit) => digitOf.set(digitKey(w), String(digit)));
    // a link of an unspaced language ("は") is written without spaces around it, as symbols are
    const wordLinks = (s.links ?? []).filter((l) => /\p{L}/u.test(l) && !UNSPACED.test(l));
    const symbolLinks = (s.links ?? []).filter((l) => !/\p{L}/u.test(l) || UNSPACED.test(l));
    const link = [
      // a comma may come before it ("le sésame pour la boîte mail de Julien, c'est « … »")
      ...(wordLinks.length > 0 ? [`,?\\s+(?:${alternation(wordLinks)})\\s+`] : []),
      ...(symbolLinks.length > 0 ? [`\\s*(?:${alternation(symbolLinks)})\\s*`] : []),
    ].join("|");
    if (!link) continue;
    const notValues = new Set((s.not_values ?? []).map((w) => w.toLowerCase()));
    for (const [kind, words, weak] of [
      ["password", s.words ?? [], false],
      ["password", s.weak_words ?? [], true],
      ["pin", s.pin_words ?? [], false],
      ["pin", s.pin_object_words ?? [], true],
      ["recovery", s.recovery_words ?? [], false],
      ["answer", s.answer_words ?? [], false],
    ] as const) {
      if (words.length === 0) continue;
      secretWords.push(...words);
      if (kind === "password") passwordWords.push(...words);
      // word, a phrase of up to six words opened by an of-word ("for the wifi", "del bancomat di mia madre"), a link, then the value;
      // never a noun right after the word ("password hashing: argon2id" is about hashing).
      const ofPhrase = s.of_words?.length ? `(?:[ \\t]+(?:${alternation(s.of_words)})(?:[ \\t]+[^\\s:=.,;!?]+){1,6}?)?` : "";
      // Recovery codes may be followed by the account they open, without an of-word ("Codes de secours Google : 1842 9931"): their value holds digits.
      // A PIN word that ends in a verb takes its object before the link ("the code to unlock Sam's phone is 7391"): the value holds digits.
      const of = kind === "recovery" || (kind === "pin" && weak) ? `(?:[ \\t]+[^\\s:=.,;!?]+){0,7}?` : ofPhrase;
      // Quoted with a pair ("«…»", "« … »", "「…」", "“…”") or one mark twice ('…', "…").
      const source = `${wordsPattern(words)}${of}(?:${link})(["'«“‘\`「『]?)(?:(?<=«)[ \u00a0\u202f])?(\\d(?:[ \\u2010\\u2011-]\\d){3,7}(?![ \\u2010\\u2011-]?\\d)|[^\\s"'»”’\`\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff]{3,64})(\\1|[ \u00a0\u202f]?[»”’」』])`;
      const first = firstWords(words);
      statements.push({
        lang,
        kind,
        pattern: new AnchoredRegex(new RegExp(source, "giu"), first),
        notValues,
        ...(weak && kind === "password" ? { weak } : {}),
      });
      // A PIN word right before its digits: "my laptop PIN 839201", "PIN-Code 4921", "code PIN n° 1234".
      if (kind === "pin") {
        // The digits may be spaced or dashed one by one ("Karten-PIN: 7 3 0 5", "pincode pas: 3‑0‑9‑1").
        const direct = `${wordsPattern(words)}[ \\t:#-]*(?:no\\.?|nr\\.?|n°|number|nummer|número|numero|numer)?[ \\t:#]*()(\\d{4,8}|\\d(?:[ \\u2010\\u2011-]\\d){3,7})()(?![\\d.,]\\d|[ \\u2010\\u2011-]\\d)`;
        statements.push({ lang, kind, pattern: new AnchoredRegex(new RegExp(direct, "giu"), first), notValues });
      }
    }
  }
  const cardWords = Object.values(data?.card_words ?? {}).flat();
  const idsByWord = idsByWordOf(data?.id_word_ids);
  return {
    idWords: idWords.length > 0 ? new RegExp(wordsPattern(idWords), "giu") : undefined,
    idsOfWord: (word) => idsByWord.get(word.toLowerCase().replace(/\s+/g, " ")),
    // A prefilter only (the per-language patterns decide): no word boundaries, no Unicode mode, and
    // only each entry's first word (every match of an entry starts with it), so it stays cheap:
    // the whole phrases of eleven languages made it half the detector's time.
    anySecretWord: secretWords.length > 0 ? firstWords(secretWords) : undefined,
    statements,
    technicalBefore: data?.technical_before?.length ? new RegExp(`${wordsPattern(data.technical_before)}[\\s\\S]{0,12}$`, "iu") : undefined,
    passwordWords: passwordWords.length > 0 ? anchoredWords(passwordWords) : undefined,
    cardPin:
      cardWords.length > 0 ? new RegExp(`${wordsPattern(cardWords)}[^\\n:]{0,20}:([^\\n\\d]{0,60}?)(?<![\\d.,])\\d{4,6}(?![\\d]|[ .,-]\\d)`, "giu") : undefined,
    cardLast: data?.card_last_digits?.length ? new RegExp(wordsPattern(data.card_last_digits), "iu") : undefined,
    phraseWords: more.phrase.length > 0 ? new RegExp(wordsPattern(more.phrase), "giu") : undefined,
    entryWords: more.entry.length > 0 ? new RegExp(wordsPattern(more.entry), "iu") : undefined,
    keypadVerbs: more.verbs.length > 0 ? new RegExp(wordsPattern(more.verbs), "giu") : undefined,
    loginWords: more.login.length > 0 ? new RegExp(wordsPattern(more.login), "giu") : undefined,
    ...givenShapes(more, cardWords),
    anyNotValue: more.notValues,
    ofWords: more.ofWords,
    answerWords: more.answers.length > 0 ? anchoredWords(more.answers) : undefined,
    answerName: new RegExp(
      `[\\p{L}"'»”’)\\uff09][^\\p{L}]*?(?:[:\\uff1a=\\u2192\\u2014\\u2013]|->|\\s${wordsPattern([...more.links, ...more.reveal])})\\s*["'«“„‘]?\\p{Lu}[\\p{Ll}'’-]{2,}["'»”’]?(?=\\s*(?:[.;!?)]|,|$))|\\p{L},\\s*\\p{Lu}[\\p{Ll}'’-]{2,},`,
      "gu",
    ),
    revealFirst: more.reveal.length > 0 ? firstWords(more.reveal) : undefined,
    pinWords: more.pins.length > 0 ? anchoredWords(more.pins) : undefined,
    reveal: new RegExp(
      `(?:[:\\uff1a=\\u2192\\u2014\\u2013]|->|,?\\s*${wordsPattern(more.reveal.length > 0 ? more.reveal : ["i.e."])}[,:]?)\\s*["'«“„‘\`]?([^\\s"'»”’\`]+)`,
      "giu",
    ),
    spacedWords: new Set([...secretWords, ...more.phrase].map((w) => w.toLowerCase()).filter((w) => !/\s/.test(w) && w.length >= 4)),
    digitOf,
  };
}

/**
 * A token that reads as a password whatever the words around it: digits, a lower-case letter and a
 * symbol ("Tulpen!2020", "loon-Harbor-1987!"), capitals, digits and a symbol ("B@REK2019"), or mixed case and two digits ("Sonne123"); not a
 * URL, path, e-mail or assignment ("WPA2-Enterprise", "OAuth2", "argon2id" are not).
 */
export function passwordLike(token: string): boolean {
  const t = token.replace(/^[([{"'«“‘`]+|[)\]}"'»”’`.,;:]+$/g, "");
  if (t.length < 7 || t.length > 64) return false;
  if (/^(?:https?:|www\.)|[/\\=<>]|@.*\./.test(t)) return false;
  if (!/\d/.test(t) || !/\p{L}/u.test(t)) return false;
  // Capitals and digits alone are a code or a part number ("SKU12345"); with a symbol, a password ("B@REK2019").
  if (!/\p{Ll}/u.test(t)) return t.length >= 8 && /\p{Lu}/u.test(t) && /[!@#$%^&*?+~€£§]/.test(t);
  // A key or token: 20+ characters of letters and digits (a UUID, hex, base64) after a password or key word.
  if (t.length >= 20 && /^[\p{L}\d_-]+$/u.test(t) && t.replace(/\D/g, "").length >= 4) return true;
  const digits = t.replace(/\D/g, "").length;
  // Capitals inside the word twice and a digit ("hYgCfrL1s"): typed, not a name ("JavaScript1").
  return /[!@#$%^&*?+~€£§]/.test(t) || (digits >= 2 && /\p{Lu}/u.test(t)) || (t.match(/\p{Ll}\p{Lu}/gu)?.length ?? 0) >= 2;
}

/** A password word followed, in its line and within a few words, by a password-like token ("ww Tulpen!2020", "mdp Ameli = … → Mistigri1984!"). */
function looseSecret(words: AnchoredRegex, ofWords: ReadonlySet<string>, text: string): boolean {
  for (const m of words.matches(text)) {
    const rest = text.slice(m.index + m[0].length, m.index + m[0].length + 80).split(/\n|(?<=[.!?])\s/)[0];
    const tokens = rest.trim().split(/\s+/).slice(0, 14);
    // The service a key is for is named right after it by an of-word ("Klucz API do Przelewy24", "password for Office365"): a name, not the value.
    if (tokens.some((t, i) => passwordLike(t) && !(i === 1 && ofWords.has(tokens[0].toLowerCase())))) return true;
    // A word and digits right after the word ("… hasłem kotek123").
    if (tokens.length > 0 && WORD_AND_DIGITS.test(tokens[0].replace(/[.,;!?)]+$/, ""))) return true;
  }
  return false;
}

/** An environment variable's or config key's name ("IYZICO_API_KEY", "DATABASE_PASSWORD", "$DB_PASS", "${TOKEN}"): where a value is read from, not a value. */
const KEY_NAME = /^(?:\$\{?)?[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\}?$|^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$|^(?:process\.env|os\.environ|env)[.[]/;

/** A word and two to four digits ("rex99", "toby22", "elif2015"): a password once a password was described and given after a colon or a reveal word. */
const WORD_AND_YEAR = /^\p{L}{3,}\d{2,4}$/u;
/** Capitals and digits, three letters or more and two digits or more ("PAMUK2020", "BUREK2019"): a password once a password was described. */
const CAPS_AND_DIGITS = /^(?=(?:[^\d]*\d){2})(?=(?:[^\p{Lu}]*\p{Lu}){3})[\p{Lu}\d@#$!%&*?+_-]{6,32}$/u;
/** Four to eight digits, or four to eight digits spaced or dashed one by one: a PIN once a PIN was described. */
const PIN_VALUE = /^(?:\d{4,8}|\d(?:[ \u2010-\u2013-]\d){3,7})$/;
/** Four to eight digits spaced one by one ("2 0 1 4"), nothing of digits around: keyed, not written as a number. */
const SPACED_PIN = /(?<!\d[ .,/:-]{0,2})\d(?: \d){3,7}(?! ?\d|[.,/:-] ?\d)/;

/**
 * A secret described, then given in the same sentence ("senha do wifi é o nome da rua + número do prédio, ou seja, …
 * RuaAugusta217", "Il codice del cancello è l'anno della mia nascita al contrario, cioè 7891", "wifi şifresi kedinin adı
 * büyük harfle ve doğum yılı: PAMUK2020", "Die Geheimzahl … ist das Geburtsjahr seiner Tochter, 2 0 1 4"): after the word,
 * a colon, an arrow or a reveal word and then a value that reads as one (a PIN's digits, a password's token); digits
 * keyed one by one after a PIN word count wherever they stand in its sentence.
 */
function describedSecret(c: Compiled, text: string): "password" | "pin" | "answer" | undefined {
  if (!c.reveal) return undefined;
  // A security question, then its answer: a name that ends its clause ("… nome do primeiro animal = Tobias.", "… son premier chat, Pistache,").
  if (c.answerWords && c.answerName) {
    for (const m of c.answerWords.matches(text)) {
      const end = m.index + m[0].length;
      // The link right after the word is the statement rule's ("Die Sicherheitsfrage ist Pflicht" names no answer): a description comes first.
      const sentence = text
        .slice(end, end + 200)
        .split(/\n|(?<=[.!?\u3002])\s/)[0]
        .replace(/^[\s:=\uff1a]*\p{L}*/u, "");
      c.answerName.lastIndex = 0;
      if (c.answerName.test(sentence) || QUOTED_ANSWER.test(sentence)) return "answer";
    }
  }
  // Nothing to give a value by (a colon, an arrow, a reveal word) and no digits keyed one by one: nothing described is given.
  if (!/[:=\u2192\u2014\u2013\uff1a]|->/.test(text) && !c.revealFirst?.test(text) && !SPACED_PIN.test(text)) return undefined;
  for (const [kind, words] of [
    ["pin", c.pinWords],
    ["password", c.passwordWords],
  ] as const) {
    for (const m of words?.matches(text) ?? []) {
      if (kind === "pin" && c.technicalBefore?.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
      const end = m.index + m[0].length;
      const sentence = text.slice(end, end + 200).split(/\n|(?<=[.!?\u3002])\s/)[0];
      if (kind === "pin" && SPACED_PIN.test(sentence)) return kind;
      for (const r of matchesOf(c.reveal, sentence)) {
        const value = r[1].replace(/[.,;:!?)\]]+$/, "");
        if (kind === "pin" ? PIN_VALUE.test(value) : passwordLike(value) || CAPS_AND_DIGITS.test(value) || WORD_AND_YEAR.test(value)) return kind;
      }
    }
  }
  return undefined;
}

/** A name in corner brackets after a link or a colon: an answer in a language without capitals ("秘密の質問（母親の旧姓）の答えは「高橋」"). */
const QUOTED_ANSWER = /(?:は|：|:|=)\s*[「『][^」』\n]{1,20}[」』]/u;

/** A digit or a symbol: what a motto or a keyword has not and a secret has ("girasole77", "gatito_2020"). */
const SECRET_MARK = /[\d!@#$%^&*?+~€£§_]/;

/** Whether a value matched by GIVEN_VALUE (quoted, digits, token) reads as a secret of this kind. */
function givenValue(m: RegExpExecArray, kind: "pin" | "password"): boolean {
  if (m[2] !== undefined) return true;
  if (m[1] !== undefined) return kind === "pin" ? PIN_VALUE.test(m[1]) : SECRET_MARK.test(m[1]) && !KEY_NAME.test(m[1]);
  if (kind === "pin" || m[3] === undefined) return false;
  const token = m[3].replace(/[.,;:!?)\]]+$/, "");
  return !KEY_NAME.test(token) && (passwordLike(token) || CAPS_AND_DIGITS.test(token));
}

/** The sentence of `text` around offsets `start` to `end` (a line, or between sentence ends). */
function sentenceAround(text: string, start: number, end: number): string {
  const from = Math.max(text.lastIndexOf("\n", start), ...[". ", "! ", "? ", "\u3002"].map((p) => text.lastIndexOf(p, start)));
  const to = text.slice(end).search(/\n|[.!?](?:\s|$)|\u3002/u);
  return text.slice(from + 1, to < 0 ? text.length : end + to);
}

/**
 * What a login or an unlock opens with, in its sentence: "Priya unlocks her phone with 8991, …", "O Rui entra no computador
 * com «saudade#2021»", "para entrar en el portátil … hay que poner «gatito_2020»", "laptopu \"papatya42\" ile açılıyor".
 */
function openedWithSecret(c: Compiled, text: string): boolean {
  if (!c.loginWords || !c.openedWith) return false;
  for (const m of matchesOf(c.loginWords, text)) {
    const sentence = sentenceAround(text, m.index, m.index + m[0].length);
    if (matchesOf(c.openedWith, sentence).some((v) => givenValue(v, "password"))) return true;
    if (c.openedWithBefore && matchesOf(c.openedWithBefore, sentence).some((v) => givenValue(v, "password"))) return true;
  }
  return false;
}

/**
 * A PIN or a password described in one sentence and given alone at the start of the next: "Mamie ne retient jamais les
 * chiffres de sa carte bleue. C'est 2468", "Babcia ciągle zapomina kodu do karty. To 4096", "キャッシュカードの4桁をよく忘れます。3917なので".
 */
function nextSentenceSecret(c: Compiled, text: string): "pin" | "password" | undefined {
  if (!c.nextValue || !/[.!?\u3002\n]/.test(text)) return undefined;
  for (const [kind, words] of [
    ["pin", c.pinWords],
    ["pin", c.cardWords],
    ["pin", c.pinHints],
    ["password", c.passwordWords],
  ] as const) {
    for (const m of words?.matches(text) ?? []) {
      if (kind === "pin" && c.technicalBefore?.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
      const end = m.index + m[0].length;
      const stop = text.slice(end).search(/\n|[.!?](?=\s)|\u3002/u);
      if (stop < 0) continue;
      const next = c.nextValue.exec(text.slice(end + stop + 1, end + stop + 120));
      if (next && givenValue(next, kind)) return kind;
    }
  }
  return undefined;
}

/** A stated value that reads as a secret: digits, symbols, inner capitals, quotes, or a last word that is not a common one. */
function secretValue(statement: Statement, value: string, quoted: boolean, after: string): boolean {
  const bare = value.replace(/[.,;:!?)\]]+$/, "");
  if (bare.length < 3 || statement.notValues.has(bare.toLowerCase()) || KEY_NAME.test(bare)) return false;
  if (statement.kind === "recovery") return /\d/.test(bare) && bare.length >= 4;
  if (statement.kind === "pin") return /\d{3,}|\d[\d \u2010\u2011-]*\d/.test(bare) && /^[\d \u2010\u2011-]+$/.test(bare.replace(/[#*]/g, ""));
  if (statement.weak) return SECRET_MARK.test(bare);
  if (quoted || /\d|[^\p{L}'-]/u.test(bare) || /\p{Ll}\p{Lu}/u.test(bare)) return true;
  // A plain word counts when it ends its clause ("the wifi password is sunflower."), not when the sentence goes on.
  return bare.length >= 4 && (bare !== value || /^\s*(?:$|[\n.,;!?)])/.test(after));
}

// After an id word: a number of 5+ digits ("passport no. 123456789"), or a document number of capitals
// and digits with at least three digits ("Reisepass C01X00T47", "licence MORGA657054SM9IJ").
const ID_SHAPE = /^[^\n\d]{0,40}?[A-Z]{0,3}\d[\d -]{4,18}/;
/** A NINO's shape, whatever its prefix letters, after the word that names it. */
const NINO_NAMED = /^[^\n\d]{0,40}?(?<![\p{L}\p{N}])[A-Z]{2} ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\p{L}\p{N}])/u;
const DOCUMENT_NUMBER = /^[^\n]{0,40}?(?<![\p{L}\p{N}])(?=(?:[A-Z-]*\d){3})[A-Z0-9][A-Z0-9-]{5,17}(?![\p{L}\p{N}])/u;

/**
 * A code keyed digit by digit with dashes ("4-7-1-9", "2-0-4-8"): four to eight single digits,
 * nothing else of digits, dots, slashes or colons around it (not a date, a range, a version, a
 * phone number or a part number). Nobody writes a number this way but to tell it to someone to
 * type: a door, gate, alarm or card code. No keyword needed (docs/JUDGEMENT.md).
 */
const DIGIT_BY_DIGIT = /(?<![\p{L}\p{N}\u2010-\u2013./:-])\d(?:[\u2010-\u2013-]\d){3,7}(?![\p{N}]|[\u2010-\u2013./:-]?\p{N})/u;

/** A run of consecutive digits up or down ("1-2-3-4") numbers steps or items; anything else keyed digit by digit is a code. */
function digitByDigit(text: string): boolean {
  const run = DIGIT_BY_DIGIT.exec(text)?.[0].replace(/\D/g, "");
  if (!run) return false;
  const steps = new Set([...run].slice(1).map((d, i) => Number(d) - Number(run[i])));
  return !(steps.size === 1 && (steps.has(1) || steps.has(-1)));
}

/**
 * Credentials stated in a text: a card's PIN after a card word, a code keyed digit by digit, a
 * password, PIN, recovery code or security answer stated with its word, an entry code keyed at a
 * door, a seed phrase, a password given after a login sentence, a secret word written letter-spaced.
 * Findings name the rule (and language), never the value.
 */
function credentialFindings(c: Compiled, field: string, text: string): Finding[] {
  const findings: Finding[] = [];
  const found = (label: string) => findings.push({ field, class: "credentials", label });
  // Counted once: five rules below ask how many digits the text holds.
  const digits = digitCount(text);
  if (c.cardPin && digits >= 4) {
    if (matchesOf(c.cardPin, text).some((m) => !c.cardLast?.test(m[0]))) found("pin_statement:card");
  }
  if (digitByDigit(text)) found("code_digit_by_digit");
  if (text.length >= 32 && hexApiKey(text)) found("api_key_hex");
  if (c.anySecretWord?.test(text)) {
    const kinds = new Set<string>();
    for (const statement of c.statements) {
      if (kinds.has(statement.kind)) continue; // one finding per kind: "pin" is a word of several languages
      for (const m of statement.pattern.matches(text)) {
        if (statement.kind === "pin" && c.technicalBefore?.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
        if (secretValue(statement, m[2], m[1] !== "", text.slice(m.index + m[0].length))) {
          found(`${statement.kind}_statement:${statement.lang}`);
          kinds.add(statement.kind);
          break;
        }
      }
    }
    if (!kinds.has("password") && c.passwordWords && looseSecret(c.passwordWords, c.ofWords, text)) found("password_statement:value");
    else if (!kinds.has("pin") && !kinds.has("password") && !kinds.has("answer")) {
      const described = describedSecret(c, text) ?? nextSentenceSecret(c, text);
      if (described) found(`${described}_statement:described`);
    }
  } else if ((c.cardWords || c.pinHints) && digits >= 4) {
    // A card or a PIN described without any secret word, its PIN in the next sentence ("… sa carte bleue. C'est 2468", "… die vier Ziffern. Es sind 7304").
    const next = nextSentenceSecret(c, text);
    if (next) found(`${next}_statement:next_sentence`);
  }
  // Cheap tests first: each rule below scans the text with a large alternation of every language's words.
  const colon = /[:=\uff1a]/.test(text);
  const colonOrDash = colon || /[\u2014\u2013\u2192]/.test(text);
  if (c.phraseWords && colon && seedPhrase(c.phraseWords, c.anyNotValue, text)) found("seed_phrase");
  if (c.keypadVerbs && c.entryWords && digits >= 3 && c.entryWords.test(text) && entryCode(c.keypadVerbs, c.entryWords, text)) found("entry_code");
  if (c.loginWords && colonOrDash && digits >= 1 && loginPassword(c.loginWords, text)) found("password_statement:login");
  else if (c.loginWords && digits >= 1 && openedWithSecret(c, text)) found("password_statement:opened_with");
  if (c.spacedWords.size > 0 && / \p{L} \p{L} /u.test(text) && spacedStatement(c, text)) found("password_statement:letter_spaced");
  return findings;
}

/** 32 to 64 hex digits of one case: an API key's common form (and a digest's). */
const HEX_KEY = /(?<![0-9A-Za-z])(?:[0-9a-f]{32,64}|[0-9A-F]{32,64})(?![0-9A-Za-z])/;
/** An API, a secret or a token named: "Wetter-API", "天気APIのあれ", "api key", "secret". */
const API_WORD = /(?<![\p{L}])(?:api|secret|token)|(?<![A-Za-z])API/iu;
/** A digest named: then the hex is a hash, a commit or an ETag, published rather than secret. */
const DIGEST_WORD =
  /(?<![\p{L}])(?:sha-?\d*|md5|hash\w*|checksums?|digest|commit|etag|uuid|fingerprint|integrity|hmac|signature)(?![\p{L}])|ハッシュ|コミット/iu;

/** An API key in hex named by its API in the same sentence ("Der Schlüssel für die Wetter-API ist 9f3c1ab7…"), no digest word in it. */
function hexApiKey(text: string): boolean {
  const hex = HEX_KEY.exec(text);
  if (!hex) return false;
  const from = Math.max(text.lastIndexOf("\n", hex.index), ...[". ", "! ", "? ", "\u3002"].map((p) => text.lastIndexOf(p, hex.index)));
  const sentence = text.slice(from + 1, hex.index + hex[0].length + 80);
  return API_WORD.test(sentence) && !DIGEST_WORD.test(sentence);
}

/** A word in lower case without accents ("één" → "een", "Três" → "tres"): how digit words are looked up. */
const digitKey = (word: string): string => fold(word.toLowerCase());
const WORD_AT = /\p{L}+/gu;
/** Between two digit words of one number: spaces, a comma or semicolon, or a dash ("vier-één-zeven-nul"). */
const DIGIT_GAP = /^[ \t]*(?:[,;\u2010-\u2013-][ \t]*)?$/;
const DASH = /[\u2010-\u2013-]/;

/**
 * Four or more digits written as words, read as the digits (docs/JUDGEMENT.md "Normalisation and
 * identifiers"): "four zero two one, zero six eight one, …" → "40210681…", "neun null sechs …" →
 * "906…". A number is what it is however it is spelled, so every identifier rule reads the text
 * with the digits in it. Words joined by dashes only ("nio-fyra-noll-två") are keyed digit by
 * digit and stay so ("9-4-0-2"); otherwise the digits are joined, pauses at commas included.
 */
export function spellDigits(digitOf: ReadonlyMap<string, string>, text: string): string {
  if (digitOf.size === 0) return text;
  const runs: { start: number; end: number; digits: string[]; dashed: boolean }[] = [];
  let run: (typeof runs)[number] | undefined;
  WORD_AT.lastIndex = 0;
  for (let m = WORD_AT.exec(text); m !== null; m = WORD_AT.exec(text)) {
    const digit = m[0].length >= 2 && m[0].length <= 9 ? digitOf.get(digitKey(m[0])) : undefined;
    if (digit !== undefined && run && DIGIT_GAP.test(text.slice(run.end, m.index))) {
      run.dashed &&= DASH.test(text.slice(run.end, m.index));
      run.digits.push(digit);
      run.end = m.index + m[0].length;
      continue;
    }
    if (run && run.digits.length >= 4) runs.push(run);
    run = digit === undefined ? undefined : { start: m.index, end: m.index + m[0].length, digits: [digit], dashed: true };
  }
  if (run && run.digits.length >= 4) runs.push(run);
  if (runs.length === 0) return text;
  let out = "";
  let from = 0;
  for (const r of runs) {
    out += text.slice(from, r.start) + r.digits.join(r.dashed ? "-" : "");
    from = r.end;
  }
  return out + text.slice(from);
}

/** Twelve to twenty-four words of three to eight small letters, none a common word, after a colon: a wallet's seed phrase. */
const SEED_RUN = /^[^\n]{0,60}?[:=\uff1a]\s*((?:\p{Ll}{3,8}[ \t,]+){11,23}\p{Ll}{3,8})(?![\p{L}\p{N}])/u;
function seedPhrase(words: RegExp, common: ReadonlySet<string>, text: string): boolean {
  for (const m of matchesOf(words, text)) {
    const run = SEED_RUN.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 320))?.[1].split(/[ \t,]+/);
    if (run && new Set(run).size === run.length && !run.some((w) => common.has(w))) return true;
  }
  return false;
}

/** A code to key: four to eight digits (not a year alone: "Type 2024 into the year field"; spaced or dashed one by one), or four to eight capitals and digits with three digits ("2B46A"). */
const CODE = String.raw`(?<![\p{L}\p{N}])(?:(?!(?:19|20)\d\d(?!\d))\d{4,8}|\d(?:[ \u2010-\u2013-]\d){3,7}|(?=(?:[A-Z]*\d){3})(?=\d*[A-Z])[A-Z0-9]{4,8})#?(?![\p{L}\p{N}]|[.,:/]\d)`;
const CODE_AFTER_VERB = new RegExp(`^[ \\t]+(?:\\p{Ll}{1,4}[ \\t]+){0,2}${CODE}`, "u");
const CODE_BEFORE_VERB = new RegExp(`${CODE}[ \\t]*(?:\\p{L}{1,2}[ \\t]*)?$`, "u");

/** A keypad verb with a code right after it ("on tape 2B46A", "toets je 9036") or right before it ("6281 tuşlanıyor"), a door or gate named in the same sentence. */
function entryCode(verbs: RegExp, entry: RegExp, text: string): boolean {
  for (const m of matchesOf(verbs, text)) {
    const end = m.index + m[0].length;
    if (!CODE_AFTER_VERB.test(text.slice(end, end + 24)) && !CODE_BEFORE_VERB.test(text.slice(Math.max(0, m.index - 24), m.index))) continue;
    const from = Math.max(text.lastIndexOf("\n", m.index), ...[". ", "! ", "? ", "\u3002"].map((p) => text.lastIndexOf(p, m.index)));
    const to = text.slice(end).search(/\n|[.!?](?:\s|$)|\u3002/u);
    if (entry.test(text.slice(from + 1, to < 0 ? text.length : end + to))) return true;
  }
  return false;
}

/** A word and a few digits, after a user name ("kanelbulle9", "tulpen2022"). */
const WORD_AND_DIGITS = /^\p{Ll}{4,}\d{1,4}$/u;

/**
 * A login sentence, then in the same sentence a password-like token after a colon, a dash or an arrow ("Do poczty loguję się …
 * urodzenia: Kowalczyk1957", "Use my uni login, same as my cat's name in leet — M1s0_th3_c4t — …"), or a word and digits after a user name.
 */
function loginPassword(words: RegExp, text: string): boolean {
  for (const m of matchesOf(words, text)) {
    const sentence = text.slice(m.index + m[0].length, m.index + m[0].length + 240).split(/\n|(?<=[.!?])\s/)[0];
    for (const value of sentence.matchAll(/[:\uff1a\u2014\u2013\u2192]\s*(?=([^\n]{1,80}))/gu)) {
      // a user name, then the password ("inloggning till jobbdatorn: erik.l och kanelbulle9"); not a version ("Python3.12")
      const tokens = value[1]
        .split(/[\s,;/]+/)
        .slice(0, 4)
        .map((t) => t.replace(/[.!?)]+$/, ""));
      if (tokens.some((t, i) => (passwordLike(t) || (i > 0 && WORD_AND_DIGITS.test(t))) && !/\d\.\d/.test(t))) return true;
    }
  }
  return false;
}

/** A secret word written letter-spaced ("p a s s p h r a s e"), then stated: a disguise, so any value that is not a not-value counts. */
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){3,}(?![\p{L}\p{N}])/gu;
function spacedStatement(c: Compiled, text: string): boolean {
  for (const m of matchesOf(SPACED, text)) {
    const word = m[0].replace(/ /g, "").toLowerCase();
    if (!c.spacedWords.has(word)) continue;
    const joined = word + text.slice(m.index + m[0].length, m.index + m[0].length + 160);
    for (const statement of c.statements) {
      const s = statement.pattern.matches(joined).find((x) => x.index === 0);
      const bare = s?.[2].replace(/[.,;:!?)\]]+$/, "").toLowerCase();
      if (s && bare && bare.length >= 3 && !statement.notValues.has(bare) && (statement.kind !== "pin" || /\d/.test(bare))) return true;
    }
  }
  return false;
}

/** Ids, documents and credentials in one text (see createIdentifierDetector). */
function identifierFindings(compiled: Compiled, field: string, text: string): Finding[] {
  const { idWords, idsOfWord } = compiled;
  const findings: Finding[] = [];
  if (digitCount(text) >= 4 || text.includes("<<")) {
    const words: { start: number; end: number; ids: ReadonlySet<string> | undefined }[] = [];
    if (idWords) {
      idWords.lastIndex = 0;
      for (const m of matchesOf(idWords, text)) words.push({ start: m.index, end: m.index + m[0].length, ids: idsOfWord(m[0]) });
    }
    // A word that names particular ids ("BSN") raises confidence in those only; a generic one ("id number") in any.
    const near = (at: number) => words.filter((w) => w.end <= at && at - w.end <= 48);
    // A word naming the id may also follow it: "6 4 9 3 6 5 1 1 2 is van Kees, voor de Belastingdienst".
    const after = (end: number | undefined) => (end === undefined ? [] : words.filter((w) => w.start >= end && w.start - end <= 60));
    const keywordNear = (_: string, at: number, id: string, end?: number) => [...near(at), ...after(end)].some((w) => w.ids === undefined || w.ids.has(id));
    const otherIdNamed = (_: string, at: number, id: string) => near(at).some((w) => w.ids !== undefined && !w.ids.has(id));
    for (const label of nationalIdsIn(text, { keywordNear, otherIdNamed })) findings.push({ field, class: "biometrics_ids", label: `national_id:${label}` });
    // A number of an id's length right after the word that names it, checksum failing ("Meine Steuer-ID ist 47159263744"):
    // a topic, so it counts about a person ("meine") and not in test data ("hat absichtlich eine falsche Prüfziffer").
    if (!findings.length) {
      for (const w of words) {
        const run = /^[^\n\d]{0,20}?(\d[\d .-]{7,18}\d)(?![\d.,]\d)/.exec(text.slice(w.end, w.end + 48));
        const length = run?.[1].replace(/\D/g, "").length ?? 0;
        if (length && [...(w.ids ?? [])].some((id) => idLengths(id).includes(length))) {
          findings.push({ field, class: "topic:biometrics_ids", label: "named_id_unchecked" });
          break;
        }
      }
    }
    const named = (after: string) => (ID_SHAPE.exec(after)?.[0].replace(/\D/g, "").length ?? 0) >= 5 || DOCUMENT_NUMBER.test(after);
    // An id with a check digit is found by nationalIdsIn or not at all: "Steuer-ID 49 960 571 231 (wrong check digit)" is test data.
    if (words.some((w) => w.ids === undefined && named(text.slice(w.end, w.end + 64)))) {
      findings.push({ field, class: "biometrics_ids", label: "named_id_number" });
    } else if (words.some((w) => w.ids?.has("gb_nino") && NINO_NAMED.test(text.slice(w.end, w.end + 64)))) {
      // A NINO's only check is its prefix letters: named ("NI no. QQ 12 34 56 C", "the number HMRC knows Ben by is …"), any prefix counts.
      findings.push({ field, class: "biometrics_ids", label: "named_id_number" });
    }
  }
  findings.push(...credentialFindings(compiled, field, text));
  return findings;
}

/**
 * Identifiers that need policy data (policies/memgate/identifiers/data.json): national ids by
 * structure and checksum (government-id.ts), those whose checksum is weak counted when an id
 * word of any covered language that may name them stands near (a word naming other ids, "BSN"
 * before a number that would be a Portuguese NIF, makes neither its keyword nor its grouping count);
 * document numbers named by an id word (a passport or a driving licence has no checksum);
 * and passwords and PINs stated in a sentence ("das Passwort lautet …", "mi PIN es 4921")
 * in every language of the data. Findings name the rule and language, never the value.
 */
export function createIdentifierDetector(source: LexiconSource): Detector {
  let compiledFor: string | undefined;
  let compiled: Compiled = compile(undefined);
  const current = (): Compiled => {
    if (compiledFor === undefined || source.hash !== compiledFor) {
      compiled = compile(source.data<IdentifierData | undefined>("identifiers"));
      compiledFor = source.hash;
    }
    return compiled;
  };
  return {
    name: "identifiers",
    detect(field: string, text: string): Finding[] {
      const compiled = current();
      const findings = identifierFindings(compiled, field, text);
      // Digits written as words: every rule once more on the text with the digits in it.
      const spelled = spellDigits(compiled.digitOf, text);
      if (spelled !== text) {
        const more = [...identifierFindings(compiled, field, spelled), ...financialFindings(field, spelled)];
        findings.push(...more.filter((f) => !findings.some((g) => g.label === f.label)));
      }
      return findings;
    },
  };
}
