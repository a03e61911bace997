import stem from "wink-porter2-stemmer";

/** Words too common to tell memories apart (English function words). */
const STOPWORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below between both but by " +
    "can could did do does doing down during each few for from further had has have having he her here hers herself him " +
    "himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other " +
    "our ours ourselves out over own same she should so some such than that the their theirs them themselves then there " +
    "these they this those through to too under until up very was we were what when where which while who whom why will " +
    "with would you your yours yourself yourselves"
  ).split(" "),
);

const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Text -> index terms: words (letters and digits) lower-cased, code identifiers also split
 * at camelCase and snake_case boundaries, stopwords dropped, each word reduced to its
 * Porter2 stem (wink-porter2-stemmer), so "invalidates", "invalidated" and "invalidating"
 * meet. Order is kept: the targeted mode scores adjacent pairs.
 */
export function analyze(text: string): string[] {
  const terms: string[] = [];
  for (const raw of text.normalize("NFKC").split(/[^\p{L}\p{N}_]+/u)) {
    if (!raw) continue;
    const parts = splitIdentifier(raw);
    for (const part of parts) {
      const word = part.toLowerCase();
      if (word.length === 0 || STOPWORDS.has(word)) continue;
      terms.push(/^\p{N}+$/u.test(word) ? word : stem(word));
    }
  }
  return terms;
}

/** "useEffectHook" -> useeffecthook, use, effect, hook; "node_modules" -> node_modules, node, modules. */
function splitIdentifier(raw: string): string[] {
  const pieces = raw
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, "$1 $2")
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
    .split(/[\s_]+/u);
  const words = pieces.flatMap((p) => p.match(WORD) ?? []);
  if (words.length <= 1) return words.length === 1 ? words : [];
  return [raw, ...words];
}
