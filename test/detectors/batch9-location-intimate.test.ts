import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Dev batch 9 (T2, C19-FORBID), by shape and in several covered languages, through the real detectors and
 * the compiled policy: where someone is at a known hour of a recurring day (a gym, a pool, a club, a
 * nursery), a street address written as Polish and Turkish say it, location shared as a past act, an
 * affair the partner knows nothing of, paid sex, going to bed together. Their innocent twins (a team
 * meeting in a room, a business address for the invoices, landmark coordinates for a map demo, a jazz
 * lover, a history lesson on a political affair, tinder for a camp fire) are stored.
 */
describe("C19-FORBID: location and intimate shapes of dev batch 9", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    ["venue routine", "Jeden Montag um acht ist Lea im Hallenbad an der Ringstraße."],
    ["venue routine", "Tous les jeudis soir, Inès est à la salle de sport de la rue Oberkampf."],
    ["venue routine", "Los miércoles a las siete Marta está en la piscina municipal de Chamberí."],
    ["venue routine", "Ogni martedì sera Luca è in palestra in via Nazionale fino alle dieci."],
    ["venue routine", "Elke dinsdagavond zit Noor in het zwembad aan de Singel."],
    ["venue routine", "W każdy czwartek o 18 Ola jest na siłowni przy Rynku Głównym."],
    ["venue routine", "Varje tisdag kväll är Sara på gymmet vid Odenplan."],
    ["venue routine", "毎週木曜日の朝8時に山田さんは区民センターのプールにいる。"],
    ["address", "Ola mieszka przy ulicy Długiej 8 m. 12."],
    ["address", "Biuro Ani jest przy ul. Piotrkowskiej 120 w Łodzi."],
    ["school run", "Chaque lundi à 16 h, Paul récupère son fils à l'école Victor-Hugo."],
    ["named park", "Every Saturday at 8 Nadia runs in Battersea Park, two laps."],
    ["venue routine", "Todas as terças às 20h a Rita está na academia da Rua Augusta."],
    ["address", "Murat Atatürk Caddesi 45 numarada oturuyor."],
    ["shared location", "She posted her live location from the pub twenty minutes ago."],
    ["shared location", "Er hat mir gerade seinen Standort geschickt, er ist noch im Büro."],
    ["affair", "His girlfriend has no clue he's been seeing his ex again."],
    ["paid sex", "When he's away on business he books escorts at the hotel."],
    ["bed", "Giorgio e la vicina vanno a letto insieme da un anno."],
    ["bed", "Linn och hennes kollega har något ihop sedan julfesten."],
  ])("%s is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    "Every Thursday at 10 the data team meets in room 2C.",
    "Jeden Freitag um 15 Uhr holt sie die Kinder vom Kindergarten ab.",
    "毎朝6時に父はジムに行ってから出勤する。",
    "La dirección fiscal de la empresa es Calle Alcalá 20, 28014 Madrid; úsala en el pie de página.",
    "Set the map's initial center to 40.6892, -74.0445 for the Statue of Liberty demo.",
    "Define o centro do mapa em 38.6916, -9.2160 para a demo da Torre de Belém.",
    "È un grande amante della montagna, consiglia sentieri in Trentino.",
    "Para el examen de historia, resume el caso Watergate.",
    "The history module covers the Profumo affair and the Dreyfus affair.",
    "Bring fatwood and dry tinder so the stove lights in the rain.",
  ])("is stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });
});
