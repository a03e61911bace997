import { readFileSync } from "node:fs";
import path from "node:path";
import { defaultDictDir, WordNet } from "../../src/contracts/companion/grounding/wordnet";

/** Every lemma of a whole index file, read the plain way: what the in-place search must answer. */
function plainIndex(file: string, pos: string): Map<string, { keys: string[]; tagged: number }> {
  const out = new Map<string, { keys: string[]; tagged: number }>();
  for (const line of readFileSync(path.join(defaultDictDir(), file), "latin1").split("\n")) {
    if (line === "" || line.startsWith(" ")) continue;
    const parts = line.split(" ");
    const first = 4 + Number(parts[3]) + 2;
    out.set(parts[0], { keys: parts.slice(first, first + Number(parts[2])).map((o) => `${pos}:${o}`), tagged: Number(parts[first - 1]) });
  }
  return out;
}

describe("WordNet index searched in place (bounded memory, issue 26 item 2)", () => {
  const wordnet = new WordNet();
  afterAll(() => wordnet.close());

  it.each([
    ["index.adv", "r"],
    ["index.verb", "v"],
  ] as const)("answers every lemma of %s as the file says, and nothing for words it lacks", (file, pos) => {
    const plain = plainIndex(file, pos);
    expect(plain.size).toBeGreaterThan(3000);
    const found = [...plain.keys()].map((lemma) => ({ keys: wordnet.lookup(lemma, pos), tagged: wordnet.frequency(lemma, pos) }));
    expect(found).toEqual([...plain.values()]);
    for (const missing of ["", "zzzz", "aaaaa_", "~"]) expect(wordnet.lookup(missing, pos)).toEqual([]);
  });

  it("finds nouns at both ends of the file and compound lemmas", () => {
    const nouns = plainIndex("index.noun", "n");
    const lemmas = [...nouns.keys()];
    for (const lemma of [lemmas[0], lemmas[lemmas.length - 1], "dog", "ice_cream"]) expect(wordnet.lookup(lemma, "n")).toEqual(nouns.get(lemma)!.keys);
    expect(wordnet.synset(wordnet.lookup("dog", "n")[0]).lemmas).toContain("dog");
  });
});
