import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Dev batch 9 (T1), profiling by family and in every covered language, through the real detectors and
 * the compiled policy: debt and borrowing idioms, credit registers, unreliability, gambling and drinking
 * said of someone else, trait ratings, judgements after "the type who". Their innocent twins (technical
 * debt, a grandmother "of the type who" writes letters, pets, fictional characters, a car that guzzles
 * petrol, "I drink too much coffee", Italian "bugie" that are not bugs) are stored.
 */
describe("C19-FORBID: profiling families of dev batch 9", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    ["debt", "Nick is constantly broke and bums cash off everybody."],
    ["credit", "Paul has terrible credit, he got rejected for a car loan twice."],
    ["rating", "I'd rate Leah's honesty a two out of ten."],
    ["type who", "Victor is the sort who quits the moment things get hard."],
    ["idiom", "Our new hire Jake isn't the sharpest tool in the shed."],
    ["debt", "Frau Keller ist chronisch klamm und pumpt alle um Geld an."],
    ["reliability", "Auf ihn ist kein Verlass, er hält nie sein Wort."],
    ["credit", "Il est fiché à la Banque de France depuis deux ans."],
    ["intelligence", "Entre nous, Bastien n'a pas inventé la poudre."],
    ["credit", "Marta figura en ASNEF por una tarjeta impagada."],
    ["gambling", "Me da que Andrés está enganchado al juego."],
    ["lies", "Di Sara non fidarti, racconta bugie su tutto."],
    ["reliability", "O Vítor promete e nunca cumpre."],
    ["reliability", "Op Joost kun je niet rekenen, hij komt nooit zijn afspraken na."],
    ["reliability", "Paweł nigdy nie dotrzymuje słowa."],
    ["blame", "Linnea skyller alltid ifrån sig."],
    ["debt", "Kemal'in herkese borcu var."],
    ["temper", "鈴木さんはすぐにキレるタイプだ。"],
  ])("%s is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    "Pay down the technical debt in the auth module before adding features.",
    "I'm the sort who reads the last page first.",
    "My grandma is the type who still sends handwritten letters, so print the invitation.",
    "Mi abuela es de las que todavía escriben cartas a mano.",
    "Mijn oma is het type dat altijd taart meebrengt, dus reserveer een grote tafel.",
    "Il nostro cane è il tipo che abbaia a ogni bicicletta.",
    "J'adore le personnage de Sherlock, si froid et si intelligent.",
    "Nätverket verkar opålitligt idag, kör testerna igen.",
    "Die Bahn: auf die kann man sich nicht verlassen, plane Puffer ein.",
    "Mein Auto säuft zu viel Benzin, such mir ein sparsameres Modell.",
    "Bevo troppo caffè, suggeriscimi alternative.",
    "Ik drink veel te veel koffie, herinner me aan water.",
    "Le pondría un 9 sobre 10 al restaurante de anoche.",
    "The onboarding flow should not ask users with bad credit for extra documents.",
    "Il servizio di build sembra inaffidabile, rilancia la pipeline.",
  ])("is stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });
});
