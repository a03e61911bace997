import { readFileSync } from "node:fs";
import path from "node:path";
import { ClauseGroundingScorer } from "../../src/contracts/companion/grounding/clause-scorer";
import { clausesOf } from "../../src/contracts/companion/grounding/clauses";
import { evaluate, loadTriples } from "../../src/contracts/companion/grounding/corpus";
import { LexicalGroundingScorer } from "../../src/contracts/companion/grounding/lexical-scorer";

const root = path.resolve(__dirname, "..", "..");
const threshold = (JSON.parse(readFileSync(path.join(root, "policies/memgate/contracts/companion/data.json"), "utf8")) as { grounding_min: number })
  .grounding_min;
const dev = loadTriples(path.join(root, "test/corpus/grounding/dev"));
const held = loadTriples(path.join(root, "test/corpus/grounding/test"));

describe("grounding corpus (SG-GROUND)", () => {
  const scorer = new ClauseGroundingScorer(new LexicalGroundingScorer());

  it("SG-GROUND: the dev split has >= 200 triples, close to half hallucinated, in every kind", () => {
    expect(dev.length).toBeGreaterThanOrEqual(200);
    const hallucinated = dev.filter((t) => !t.grounded);
    expect(hallucinated.length).toBeGreaterThanOrEqual(dev.length * 0.45);
    expect(new Set(hallucinated.map((t) => t.kind))).toEqual(
      // kinds.jsonl uses the blind split's names: invented, negated, changed_number
      new Set(["extrapolation", "invented_detail", "negation", "wrong_person", "mixed_clauses", "mixed_entities", "invented", "negated", "changed_number"]),
    );
  });

  it("SG-GROUND: dev split: no hallucinated candidate is accepted and >= 88% of grounded paraphrases are", async () => {
    const report = await evaluate(scorer, dev, threshold);
    const accepted = report.rows.filter((r) => !r.grounded && r.accepted).map((r) => `${r.kind}: ${r.candidate} <= ${r.summary}`);
    expect(accepted).toEqual([]);
    expect(report.groundedRecall).toBeGreaterThanOrEqual(0.88);
  });

  // Guards the numbers reached on the held-out split (docs/RETRIEVAL.md, "Grounding"): 0 of 45
  // hallucinations accepted, 60 of 61 restatements accepted. Never edit the split to pass.
  it("SG-GROUND: held-out test split: 0 hallucinations accepted and >= 90% of grounded candidates accepted", async () => {
    const report = await evaluate(scorer, held, threshold);
    expect(report.rows.filter((r) => !r.grounded && r.accepted).map((r) => r.candidate)).toEqual([]);
    expect(report.groundedRecall).toBeGreaterThanOrEqual(60 / 61);
  });

  it("SG-GROUND: the seed's examples: 'expert musician' rejected, 'loves fettuccini' and 'enjoys Italian food' accepted", async () => {
    const summary = "User mentioned they love fettuccini and work on FL Studio";
    expect((await scorer.score(summary, "User is an expert musician")).score).toBeLessThan(threshold);
    expect((await scorer.score(summary, "User loves fettuccini")).score).toBeGreaterThanOrEqual(threshold);
    expect((await scorer.score(summary, "User enjoys Italian food")).score).toBeGreaterThanOrEqual(threshold);
  });

  it.each([
    ["User has a cat named Rufus.", "User has a dog named Rufus and a cat named Miso.", false],
    ["User writes Python at work.", "User writes Go at work and uses Python for hobby projects.", false],
    ["User prefers coffee in the morning.", "User drinks tea in the morning and coffee after lunch.", false],
    ["User bakes sourdough bread on weekends.", "They said they bake sourdough bread on weekends.", true],
    ["User uses Neovim for most of their coding.", "User uses Neovim for most of their coding and VS Code for pairing.", true],
    // a fronted time, an apposition, a wider name for the same relative, a near-synonym verb or adjective
    ["Every December, the user visits their parents in Halifax.", "User works for a bank and visits their parents in Halifax every December.", true],
    ["Tom, the user's brother, lives in Denver.", "User's brother Tom lives in Denver, while the user lives in Austin.", true],
    ["User's spouse is vegan.", "User said their husband Mark is vegan.", true],
    ["User resides in Austin.", "User lives in Austin.", true],
    ["User is scared of flying.", "User is afraid of flying.", true],
    ["User is allergic to shellfish.", "User is allergic to peanuts and shellfish.", true],
    // never the other way round, another person, another language's negation
    ["User lives in Denver.", "User's brother Tom lives in Denver, while the user lives in Austin.", false],
    ["User's friend is vegan.", "User said their brother Mark is vegan.", false],
    ["User prefers coffee to green tea.", "User prefers green tea to coffee.", false],
    ["Die Nutzerin trinkt Kaffee.", "Die Nutzerin spielt Tennis und trinkt keinen Kaffee.", false],
    ["L'utilisateur a des chats.", "L'utilisateur n'a pas de chats.", false],
    // the clause aligner (entities.ts): what a summary states implicitly, each fact with its own entity
    ["Marco handles the finances.", "The user runs a bakery with her husband Marco, who handles the finances while she bakes the bread.", true],
    ["User handles the finances.", "The user runs a bakery with her husband Marco, who handles the finances while she bakes the bread.", false],
    ["User's spouse coaches a soccer team.", "User and his wife Elena volunteer at a food bank; Elena also coaches their son's soccer team.", true],
    ["User coaches their son's soccer team.", "User and his wife Elena volunteer at a food bank; Elena also coaches their son's soccer team.", false],
    ["Mochi and Tofu are the user's cats.", "User lives in Lisbon with two cats, Mochi and Tofu, and works from home as a translator.", true],
    ["User has two pets.", "User lives in Lisbon with two cats, Mochi and Tofu, and works from home as a translator.", true],
    ["User's dad is a retired pilot.", "User's father, a retired pilot, taught them to sail on Lake Michigan.", true],
    ["User is a retired pilot.", "User's father, a retired pilot, taught them to sail on Lake Michigan.", false],
    ["User designs video games in Toronto.", "User grew up in Osaka, moved to Toronto for university, and now designs video games there.", true],
    ["User designs video games in Osaka.", "User grew up in Osaka, moved to Toronto for university, and now designs video games there.", false],
    ["On their balcony, the user grows tomatoes and basil.", "User grows tomatoes and basil on their balcony.", true],
    ["Green tea gave the user headaches.", "User switched from coffee to green tea because coffee gave them headaches.", false],
    ["User is a nurse.", "User's roommate, a nurse named Keiko, works nights, so the user walks their dog every evening.", false],
    ["User bakes bread for the neighbours every Sunday.", "User bakes a loaf for her neighbours every Sunday.", true],
    ["User's neighbours bake bread every Sunday.", "User bakes a loaf for her neighbours every Sunday.", false],
    ["User adopted Pepper on a Sunday morning.", "User adopted a beagle named Pepper last year and takes her to the dog park on Sunday mornings.", false],
  ])("SG-GROUND: clause-level: %s <= %s grounded=%s", async (candidate, summary, grounded) => {
    expect((await scorer.score(summary, candidate)).score >= threshold).toBe(grounded);
  });

  it("SG-GROUND: clauses share a coordinated subject or verb, and 'it' names what the clause before was about", () => {
    expect(clausesOf("User has a dog named Rufus and a cat named Miso.").map((c) => c.text)).toEqual([
      "User has a dog named Rufus",
      "User has a cat named Miso",
    ]);
    expect(clausesOf("User is allergic to peanuts but loves almond butter.").map((c) => c.text)).toEqual([
      "User is allergic to peanuts",
      "User loves almond butter",
    ]);
    const conditional = clausesOf("User gets headaches when they skip breakfast.")[0];
    expect(conditional.condition).toBe("when they skip breakfast");
    expect(clausesOf("User bought a bike and rides it to work.")[1].text).toBe("User rides a bike to work");
    // a coordinated object after a reported verb shares the reported subject AND verb; "love" (tagged a noun) is a verb
    expect(clausesOf("User said they keep a pet iguana named Rex and a parrot named Pico and love fettuccini.").map((c) => c.text)).toEqual([
      "User said they keep a pet iguana named Rex",
      "User said they keep a parrot named Pico",
      "User said they love fettuccini",
    ]);
  });
});
