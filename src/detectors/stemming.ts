import { StemmerDe } from "@nlpjs/lang-de";
import { StemmerEs } from "@nlpjs/lang-es";
import { StemmerFr } from "@nlpjs/lang-fr";
import { StemmerIt } from "@nlpjs/lang-it";
import { StemmerNl } from "@nlpjs/lang-nl";
import { StemmerPl } from "@nlpjs/lang-pl";
import { StemmerPt } from "@nlpjs/lang-pt";

/**
 * Word stems per language from nlp.js (MIT): the Snowball stemmers for de, fr, es, it, pt, nl and
 * nlp.js's own Polish stemmer (Snowball has none). A lexicon word and a word of the text match
 * when their stems do, so a policy author lists "homosexuell" once and "homosexueller",
 * "homosexuellen" match too. A language without a stemmer matches whole words.
 */
interface Stemmer {
  stemWord(word: string): string;
}

const STEMMERS: Record<string, () => Stemmer> = {
  de: () => new StemmerDe(),
  fr: () => new StemmerFr(),
  es: () => new StemmerEs(),
  it: () => new StemmerIt(),
  pt: () => new StemmerPt(),
  nl: () => new StemmerNl(),
  pl: () => new StemmerPl(),
};

const made = new Map<string, Stemmer | undefined>();

/** The stem function of a language (lower-case word in, stem out); the identity for others. */
export function stemmerFor(lang: string): (word: string) => string {
  if (!made.has(lang)) made.set(lang, STEMMERS[lang]?.());
  const stemmer = made.get(lang);
  return stemmer ? (word) => stemmer.stemWord(word) : (word) => word;
}

/** Languages with a stemmer here. */
export const STEMMED_LANGUAGES = Object.keys(STEMMERS);
