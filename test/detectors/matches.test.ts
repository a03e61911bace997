import { AnchoredRegex, matchesOf } from "../../src/detectors/matches";

/** C19-FORBID (issue 21 item 8): a pattern tried only where its first words stand finds what a scan of every offset finds. */
describe("matches of a regex anchored at its openers (C19-FORBID)", () => {
  const pattern = /(?<![\p{L}\p{N}])(?:pin[ -]?code|pin|passwort|password)(?![\p{L}])[ \t:]*(\d{4,8}|\S{3,20})/giu;
  const anchored = new AnchoredRegex(pattern, /pin|passwort|password/i);

  it("gives the same matches, at the same offsets, as every offset tried", () => {
    const texts = [
      "my pin 4921 and PIN-Code 7305, Passwort: Tulpen!2020",
      "spinach opinion pinpoint pin",
      "password password password",
      "pinpin 1234 pin 99",
      "nothing here",
      "PIN:1234PIN:5678",
      "",
    ];
    for (const text of texts) {
      const expected = matchesOf(pattern, text).map((m) => [m.index, m[0], m[1]]);
      expect(anchored.matches(text).map((m) => [m.index, m[0], m[1]])).toEqual(expected);
    }
  });

  it("tries no offset where no opener stands, and leaves both regexes as it found them", () => {
    expect(anchored.matches("the build is green")).toEqual([]);
    expect(anchored.matches("Pinned")).toEqual([]);
    expect(pattern.lastIndex).toBe(0);
  });

  it("refuses a regex that is not global, as matchesOf does", () => {
    expect(() => new AnchoredRegex(/pin/u, /pin/)).toThrow(TypeError);
  });
});
