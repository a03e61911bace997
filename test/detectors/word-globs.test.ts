import { WordGlobIndex, wordsOf } from "../../src/detectors/word-globs";

/** C19-FORBID (issue 21 item 8): lexicon entries with stars, matched word by word. */
describe("lexicon entries with stars (C19-FORBID)", () => {
  const index = new WordGlobIndex<string>();
  for (const [entry, value] of [
    ["gewerkschaft*", "prefix"],
    ["*krebs", "suffix"],
    ["*diabet*", "infix"],
    ["depr*sion", "inner star"],
    ["orientacj* seksualn*", "two words"],
    ["covid-19*", "hyphen"],
    ["d'origine*", "apostrophe"],
    ["sjukskriv*", "health term"],
    ["sjukskriven", "health topic"],
  ] as const)
    index.add(entry, value);
  const found = (text: string): string[] => index.matches(text, wordsOf(text)).sort();

  it("matches a prefix, a suffix, a star inside a word and a star on both sides", () => {
    expect(found("er ist gewerkschaftsmitglied")).toEqual(["prefix"]);
    expect(found("sie hatte brustkrebs")).toEqual(["suffix"]);
    expect(found("the cat is prediabetic")).toEqual(["infix"]);
    expect(found("depresion and depression")).toEqual(["inner star"]);
    expect(found("gewerkschaft")).toEqual(["prefix"]);
  });

  it("does not match inside a word where the entry has no star", () => {
    expect(found("krebsgang")).toEqual([]);
    expect(found("degewerkschaft")).toEqual([]);
    expect(found("depressions")).toEqual([]);
  });

  it("matches the words of an entry only as consecutive words, with whitespace where the entry has a space", () => {
    expect(found("ma orientacje  seksualne inną")).toEqual(["two words"]);
    expect(found("orientacja. seksualna")).toEqual([]);
    expect(found("orientacja polityczna, seksualna")).toEqual([]);
    expect(found("had covid-19 twice")).toEqual(["hyphen"]);
    expect(found("had covid 19 twice")).toEqual([]);
    expect(found("il est d'origine marocaine")).toEqual(["apostrophe"]);
  });

  it("reports every entry a word matches, not only the first", () => {
    expect(found("han är sjukskriven")).toEqual(["health term", "health topic"]);
  });
});
