import { STEMMED_LANGUAGES, stemmerFor } from "../../src/detectors/stemming";

// The per-language lexicons skip stemming (and the stem cache) for a word of digits only
// (src/detectors/language-lexicon.ts): that is only the same judgement if no stemmer changes one.
describe("stemmers (C19-FORBID, issue 21 item 3)", () => {
  const numbers = ["0", "7", "12", "21", "80", "104", "2050", "4111111111111111", "١٢٣", "１２３"];
  test.each(STEMMED_LANGUAGES)("the %s stemmer leaves a number as it is", (lang) => {
    const stem = stemmerFor(lang);
    expect(numbers.map(stem)).toEqual(numbers);
  });
});
