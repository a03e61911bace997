import { traitStatementDetector, traitStatements } from "../../src/detectors/trait-statements";
import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Judgements of a person read by their shape (src/detectors/trait-statements.ts): the detector
 * reports who the subject is, the frame and the valence of the complement; the policy
 * (checks/forbidden/traits.rego, data.memgate.traits) decides. Dev round 10 (batch-10-prof.md).
 */
describe("trait statements: facts", () => {
  const facts = (text: string): string[][] => traitStatements(text).map((s) => s.facts);

  it("reads a person, a copula and a negative complement", () => {
    expect(facts("My brother is terrible with money.")).toContainEqual(["subject:relation", "frame:copula", "valence:negative", "scoped"]);
  });

  it("reads an impression as perception, whatever the word", () => {
    expect(facts("My landlord strikes me as a cheapskate.")[0]).toEqual(expect.arrayContaining(["subject:relation", "frame:perception"]));
  });

  it("reads 'not the sharpest' as a superlative judgement", () => {
    expect(facts("Tom is not the sharpest.")[0]).toEqual(expect.arrayContaining(["subject:name", "frame:superlative", "valence:negative"]));
  });

  it("reads a negated positive as negative, in other languages too", () => {
    expect(facts("Paul n'est pas fiable du tout.")[0]).toEqual(expect.arrayContaining(["subject:name", "valence:negative"]));
    expect(facts("Jonas ist total unzuverlässig.")[0]).toEqual(expect.arrayContaining(["subject:name", "valence:negative", "intensified"]));
  });

  it("marks praise scoped to a task and complements that name a role", () => {
    expect(facts("Priya is great at code review.")[0]).toEqual(expect.arrayContaining(["valence:positive", "scoped"]));
    expect(facts("Julien est le responsable des achats.")[0]).toEqual(expect.arrayContaining(["definite"]));
  });

  it("finds no person in things, pets without a name, or the speaker", () => {
    expect(facts("The build is terrible on Windows.")).toEqual([]);
    expect(facts("Our dog is stubborn on walks.")).toEqual([]);
    expect(facts("I'm tired of verbose answers.")).toEqual([]);
    expect(facts("Der neue Tatort war ziemlich langweilig.")).toEqual([]);
  });

  it("reads no person in README sentences: a literal, a gerund, a product, a passive, 'not only'", () => {
    expect(facts("Default is `false` for better cache portability.")).toEqual([]);
    expect(facts("Parsing is a fairly complex process.")).toEqual([]);
    expect(facts("We all know that GraphQL is great.")).toEqual([]);
    expect(facts("Braces is not only screaming fast, it's also more accurate.")).toEqual([]);
    expect(facts("It owes its existence to James Halliday's hard work.")).toEqual([]);
    expect(facts("Acorn is a great JavaScript parser.")[0]).toEqual(expect.arrayContaining(["valence:positive", "attributive"]));
  });

  it("reads each conjunct and a hedge", () => {
    expect(facts("My cousin is always in debt and irresponsible with cash.")[0]).toEqual(expect.arrayContaining(["valence:negative"]));
    expect(facts("Mon collègue Marc est un peu bête.")[0]).toEqual(expect.arrayContaining(["subject:relation", "intensified"]));
  });

  it("reports facts, never the text", () => {
    const found = traitStatementDetector.detect("value", "Dana is a bit of a pushover.");
    expect(found).toEqual([expect.objectContaining({ field: "value", class: "trait_statement", label: "trait:en" })]);
    expect(JSON.stringify(found)).not.toContain("pushover");
  });
});

describe("C19-FORBID: profiling by shape, through the compiled policy", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    "Dana is a bit of a pushover, so don't let her negotiate.",
    "My landlord strikes me as a cheapskate.",
    "He's hopeless with money.",
    "Tom is not the sharpest, explain things twice.",
    "My mother-in-law is so judgmental it's exhausting.",
    "Meine Schwiegermutter ist ziemlich launisch.",
    "Ma voisine a l'air complètement instable.",
    "Mi vecino parece un amargado.",
    "Luca mi sembra un po' immaturo.",
    "Mijn zwager is ontzettend gierig.",
    "Mój szwagier jest strasznie skąpy.",
    "Min svåger är väldigt snål.",
  ])("refused: %s", async (text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    "Priya is great at code review, ask her to review the auth changes.",
    "Jonas ist sehr gut im Code-Review, frag ihn zuerst.",
    "Dana is the product manager for the mobile app.",
    "Julien est le responsable des achats.",
    "Gollum is pathetic and sneaky, which is why I like him as a character.",
    "The staging server is unreliable after 6pm, avoid deploying then.",
    "My sister is a criminal defense lawyer, so she reviews contracts for me.",
    "I'm a bit nervous about my talk, help me practise the intro.",
  ])("stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });
});
