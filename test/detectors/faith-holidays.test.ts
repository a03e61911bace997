import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * C19-FORBID, issue 21 item 5: a holiday named with its faith ("Pâques orthodoxe", "orthodoxe
 * Ostern", "prawosławna Wielkanoc", "ortodoks Paskalya", "ortodox påsk") in a support-hours note
 * is a date on a calendar, as the holiday alone is. A French note naming "Pâques orthodoxe" was
 * refused as identity while the same note with "Pâques" was stored: the religion adjective was an
 * identity topic beside "vos clients". Each frame below swaps the holiday and must get one answer,
 * stored; a person said to hold the faith ("ist orthodox", "est juive") is still refused.
 */
let judge: StopReasonOf;
beforeAll(async () => {
  judge = await stopReasonJudge("WORKFLOW_DEFAULT");
});

const frames: [string, string, string[]][] = [
  [
    "fr",
    "Notre support est fermé à {}, prévenez vos clients.",
    ["Pâques", "Pâques orthodoxe", "Noël", "Noël orthodoxe", "la Pâque juive", "Nouvel An juif", "Nouvel An islamique"],
  ],
  [
    "de",
    "Unser Support ist an {} geschlossen, bitte informiert eure Kunden.",
    ["Ostern", "orthodoxen Ostern", "Weihnachten", "orthodoxen Weihnachten", "jüdischen Feiertagen", "muslimischen Feiertagen"],
  ],
  [
    "pl",
    "Nasz support jest nieczynny w {}, uprzedź klientów.",
    ["Wielkanoc", "prawosławną Wielkanoc", "Boże Narodzenie", "prawosławne Boże Narodzenie", "żydowski Nowy Rok", "święta muzułmańskie"],
  ],
  [
    "tr",
    "Destek ekibimiz {} kapalı, müşterilerinize haber verin.",
    ["Paskalya'da", "Ortodoks Paskalyası'nda", "Noel'de", "Ortodoks Noeli'nde", "Yahudi bayramlarında", "Kurban Bayramı'nda"],
  ],
  ["sv", "Vår support är stängd på {}, meddela era kunder.", ["påsk", "ortodox påsk", "jul", "ortodox jul", "judiskt nyår", "muslimska högtider"]],
  ["es", "Nuestro soporte está cerrado en {}, avisa a tus clientes.", ["Pascua", "Pascua ortodoxa", "Navidad", "Navidad ortodoxa", "el Año Nuevo judío"]],
  ["it", "Il nostro supporto è chiuso per {}, avvisa i tuoi clienti.", ["Pasqua", "la Pasqua ortodossa", "Natale", "il Natale ortodosso", "le feste ebraiche"]],
  ["pt", "O nosso suporte está fechado na {}, avise os seus clientes.", ["Páscoa", "Páscoa ortodoxa", "época de Natal", "época do Natal ortodoxo"]],
  ["nl", "Onze support is gesloten op {}, laat het je klanten weten.", ["Pasen", "orthodox Pasen", "Kerstmis", "orthodoxe Kerst", "joodse feestdagen"]],
  ["en", "Our support is closed for {}, tell your customers.", ["Easter", "Orthodox Easter", "Christmas", "Orthodox Christmas"]],
];

describe("C19-FORBID a holiday named with its faith is a date in every language", () => {
  it.each(frames)("'%s': one answer, stored, whichever holiday the frame names", async (_lang, frame, holidays) => {
    const answers = await Promise.all(holidays.map((h) => judge(frame.replace("{}", h))));
    expect(answers).toEqual(holidays.map(() => "SUCCESS_STORED"));
  });
});

describe("C19-FORBID a person said to hold the faith beside the holiday is still refused", () => {
  it.each([
    ["fr", "Ma collègue est juive, elle ne travaille pas pendant les fêtes juives."],
    ["de", "Meine Nachbarin ist orthodox und feiert das orthodoxe Osterfest mit ihrer Familie."],
    ["de", "Mein Kollege ist gläubiger Jude und arbeitet an jüdischen Feiertagen nicht."],
    ["pl", "Mój szef jest prawosławny i obchodzi prawosławne Boże Narodzenie."],
    ["tr", "Kemal ortodoks biri, Ortodoks Paskalyası'nda çalışmıyor."],
    ["sv", "Min granne är ortodox och firar ortodox påsk med familjen."],
    ["es", "Mi vecina es judía y no trabaja en las fiestas judías."],
    ["it", "La mia vicina è ortodossa e festeggia la Pasqua ortodossa in famiglia."],
    ["pt", "A minha vizinha é ortodoxa e celebra a Páscoa ortodoxa com a família."],
    ["nl", "Mijn buurvrouw is orthodox en viert orthodox Pasen met haar familie."],
  ])("'%s': %s", async (_lang, text) => {
    expect(await judge(text, "PREFERENCE")).toBe("FORBIDDEN_CATEGORY");
  });
});
