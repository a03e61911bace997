import { RegexPrefilter, requiredLiterals } from "../../src/detectors/prefilter";

/** C19-FORBID (issue 21 item 8): a pattern is skipped only when it could not have matched. */
describe("the lexicon's regex prefilter (C19-FORBID)", () => {
  it("finds the strings a pattern needs", () => {
    expect(requiredLiterals(/\bdiagnos(?:ed|is)\b/)).toEqual(["diagnosed", "diagnosis"]);
    // Of two parts that each must be there, the longer strings are kept (fewer texts hold them).
    expect(requiredLiterals(/\b(?:hiv|aids)\s+(?:positive|status)/)?.sort()).toEqual(["positive", "status"]);
    expect(requiredLiterals(/\d{3}-\d{2}-\d{4}/)).toEqual(["-"]);
    expect(requiredLiterals(/password\s*[:=]\s*\S+/)).toEqual(["password"]);
    expect(requiredLiterals(/(?:my|his) (?:wife|husband)/)?.sort()).toEqual(["his husband", "his wife", "my husband", "my wife"]);
    expect(requiredLiterals(/\bcolou?r\b/)?.sort()).toEqual(["color", "colour"]);
  });

  it("needs nothing of a pattern that can match without a fixed string", () => {
    expect(requiredLiterals(/\d{4}/)).toBeUndefined();
    expect(requiredLiterals(/(?:foo)?bar|\w+/)).toBeUndefined();
    expect(requiredLiterals(/x*/)).toBeUndefined();
    // Case-insensitive patterns compare other code units than the literals: always tried.
    expect(requiredLiterals(/diagnosis/i)).toBeUndefined();
  });

  it("keeps every pattern that matches, and only drops ones that cannot", () => {
    const patterns = [/\bdiagnos(?:ed|is)\b/, /\b(?:hiv|aids)\s+positive/, /\d{9}/, /(?<!not )pregnan(?:t|cy)/, /lives? (?:at|on) \d+/];
    const prefilter = new RegexPrefilter(patterns.map((regex, i) => ({ regex, value: i })));
    const texts = [
      "she was diagnosed last week",
      "hiv   positive since 2019",
      "ssn 123456789",
      "not pregnant",
      "he lives at 12 main st",
      "nothing to see here",
      "aids positive",
      "diagnostics dashboard",
    ];
    for (const text of texts) {
      const possible = prefilter.candidates(text);
      for (const [i, re] of patterns.entries()) if (re.test(text)) expect(possible).toContain(i);
    }
    expect([...prefilter.candidates("nothing to see here")]).toEqual([2]);
    expect(prefilter.candidates("diagnostics dashboard").has(0)).toBe(false);
    expect(prefilter.alwaysTried).toBe(1);
  });

  it("tells apart literals whose characters share their low bits (keys are 10 bits a character)", () => {
    // U+0436 "ж" and "6" (U+0036) have the same low 10 bits, so "жжж" and "666" share a key.
    const prefilter = new RegexPrefilter([
      { regex: /жжжа/, value: "cyrillic" },
      { regex: /666a/, value: "digits" },
      { regex: /6жж/, value: "mixed" },
    ]);
    expect([...prefilter.candidates("x жжжа y")]).toEqual(["cyrillic"]);
    expect([...prefilter.candidates("x 666a y")]).toEqual(["digits"]);
    expect([...prefilter.candidates("x 6жжа 666")]).toEqual(["mixed"]);
    expect(prefilter.candidates("x 66ж y").size).toBe(0);
  });

  it("finds every literal of three to twelve characters, sharing prefixes or not, as a search of each one would", () => {
    // Many literals that share their first three and first six characters (the buckets of both tables), and long ones.
    const words = [
      "the",
      "them",
      "there",
      "therapy",
      "therapist",
      "therapeutic",
      "thereafter",
      "the user",
      "the user is",
      "theme park",
      "sobriety",
      "sober",
      "gewerkschaft",
      "жжжжжжa",
      "666666a",
    ];
    const prefilter = new RegexPrefilter(words.map((word, i) => ({ regex: new RegExp(word.replace(/ /g, "\\s")), value: i })));
    const texts = ["the therapist said", "thereafter the user is fine", "a theme park", "gewerkschaftsmitglied", "жжжжжжa 666666a", "th them", "sobe sober"];
    for (const text of texts) {
      const expected = words.flatMap((word, i) => (new RegExp(word.replace(/ /g, "\\s")).test(text) ? [i] : []));
      expect([...prefilter.candidates(text)].sort((a, b) => a - b)).toEqual(expected);
    }
  });
});
