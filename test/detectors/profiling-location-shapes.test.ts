import { locationDetector } from "../../src/detectors/location";
import { traitStatements } from "../../src/detectors/trait-statements";
import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Issue 21 §3, profiling and precise location by shape in every covered language (dev batch prof45),
 * through the real detectors and the compiled policy. The texts here are paraphrases, not the dev lines:
 * a tendency said of a person ("tends to", "neigt dazu", "tiende a"), "the type who", a hedge beside a
 * person's means ("probably earns", "vermutlich Schulden", "chyba ma długi"); a home told by its floor or
 * a landmark, a habit at a named place and hour, a commute on foot or by a numbered bus. Their innocent
 * twins (the speaker's own preference, software that tends to fail, a city or a time zone, a shop's hours,
 * a team's stand-up) are stored.
 */
describe("C19-FORBID profiling and location shapes (issue 21 §3)", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    ["tendency, en", "My sister tends to blow up at people over small things."],
    ["tendency, name with a pronoun", "Sam tends to agree with whoever spoke last, so he is easy to sway."],
    ["tendency, de", "Mein Kollege neigt dazu, Fehler anderen in die Schuhe zu schieben."],
    ["tendency, fr", "Ma voisine a tendance à tout exagérer."],
    ["tendency, es", "Mi jefa tiende a desconfiar de todo el mundo."],
    ["habit that judges, es", "Andrés suele mentir cuando algo sale mal."],
    ["tendency, it", "Il mio capo tende a urlare quando è sotto pressione."],
    ["tendency, nl", "Mijn schoonmoeder heeft de neiging zich overal mee te bemoeien."],
    ["tendency, sv", "Min kollega tenderar att skjuta upp allt till sista minuten."],
    ["the type who, de", "Frau Keller ist der Typ, der nie zugibt, wenn sie falsch liegt."],
    ["the type who, pl", "Kasia to typ, który zawsze się spóźnia."],
    ["hedged means, en", "The user probably earns very little, judging by the questions about payday loans."],
    ["hedged means, de", "Die Nachbarin hat wahrscheinlich hohe Schulden."],
    ["hedged means, fr", "Mon beau-frère doit être criblé de dettes."],
    ["hedged means, it", "Probabilmente la cliente ha un reddito molto basso."],
    ["hedged means, pt", "A vizinha provavelmente tem dívidas."],
    ["hedged means, nl", "Hij heeft volgens mij flinke schulden."],
    ["hedged means, pl", "Sąsiad prawdopodobnie ma długi."],
    ["hedged means, sv", "Grannen har troligen stora skulder."],
    ["hedged means, tr", "Komşum muhtemelen borçlu."],
    ["the type who, ja", "あの人はすぐ怒るタイプだ。"],
  ])("profiling, %s, is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    ["home by floor, en", "He lives on the fourth floor of the building opposite the library."],
    ["home by landmark, de", "Sie wohnt direkt über der Apotheke am Marktplatz."],
    ["home by floor, fr", "Il habite au cinquième étage, juste en face de la poste."],
    ["home by floor, es", "Mi suegra vive en el segundo piso, encima de la panadería."],
    ["home by floor, it", "Vive al terzo piano, accanto alla farmacia."],
    ["home by floor, pt", "O meu colega mora no quinto andar, em frente ao mercado."],
    ["home by floor, nl", "Ze woont op de derde verdieping tegenover het station."],
    ["home by floor, pl", "Mieszka na drugim piętrze, naprzeciwko szkoły."],
    ["home by floor, sv", "Han bor på andra våningen mittemot kyrkan."],
    ["home by floor, tr", "Fırının karşısındaki binanın ikinci katında oturuyor."],
    ["home by floor, ja", "彼は駅の向かいのマンションの五階に住んでいる。"],
    ["habit at a named place, en", "Every Sunday at ten she is at the café on Church Street."],
    ["habit near home, fr", "Chaque soir vers 21 h, elle promène le chien en bas de chez elle."],
    ["commute on foot, nl", "Elke ochtend om half negen loopt hij lopend naar zijn werk."],
    ["commute on foot, pt", "Todas as manhãs às 8h ela vai a pé para o trabalho."],
  ])("location, %s, is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    "I'm the type who wants every commit message spelled out, so please do that.",
    "The importer tends to time out on large CSV files; split them first.",
    "Jira tends to freeze on big boards; use the filter view.",
    "Das Plugin neigt dazu, bei großen Dateien abzustürzen.",
    "Questa libreria tende a consumare troppa memoria.",
    "The build probably fails because of the stale cache.",
    "I live in Porto, so use the Europe/Lisbon time zone.",
    "Ich wohne in Köln, bitte Termine in Europe/Berlin.",
    "Billing country: Spain; invoices in EUR.",
    "La boulangerie de la rue Lepic ouvre chaque matin à 7 h.",
    "The farmers' market is on Elm Street every Saturday from 8 to noon.",
    "The team stand-up is every morning at 9:30 in the Zoom room.",
    "Our office is on the third floor, opposite the station.",
    "This library seems to be slow with big files, so cache the results.",
    "I probably can't afford the premium plan, so show me the free tier.",
    "Ich verdiene vermutlich bald mehr, plane das Budget neu.",
    "Sie verdient ihr Geld als Grafikerin.",
    "My parents live next to the sea in Portugal.",
    "おばあちゃんは手紙を書くタイプだ。",
    "El cliente probablemente quiere su dinero de vuelta.",
    "De klant wil waarschijnlijk zijn geld terug.",
  ])("is stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });

  it("reads a tendency as a frame, and a name as a person's only with a pronoun after it", () => {
    const facts = (text: string): string[][] => traitStatements(text).map((s) => s.facts);
    expect(facts("Her brother tends to overspend.")[0]).toEqual(expect.arrayContaining(["subject:relation", "frame:tendency"]));
    expect(facts("Tom tends to cave, so he is easy to talk round.")[0]).toEqual(expect.arrayContaining(["subject:name", "frame:tendency", "pronoun_follows"]));
    expect(facts("Jira tends to freeze on big boards.")[0]).not.toContain("pronoun_follows");
  });

  it("reads a home by its floor and a habit at a named place as location", async () => {
    const labels = async (text: string): Promise<string[]> => (await locationDetector.detect("value", text)).map((f) => f.label);
    expect(await labels("She lives on the second floor above the bakery.")).toContain("home");
    expect(await labels("Every Friday at 7 he is at the bakery on Mill Lane.")).toContain("routine");
    expect(await labels("I live in Denver, so show Mountain Time.")).toEqual([]);
  });
});
