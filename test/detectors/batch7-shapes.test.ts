import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Dev batch 7 (C19-FORBID), by shape and in every covered language, through the real detectors and the
 * compiled policy: a routine that leaves someone alone at a known place, travel every other week to a
 * named place, a daily route between two named places, the school run at a named school. Their innocent
 * twins (a job that runs on its own, working from home, fetching the children, a release train) are stored.
 */
describe("C19-FORBID: shapes of dev batch 7", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    ["routine", "Every Sunday she jogs alone through Riverside Park before eight."],
    ["routine", "Er joggt jeden Samstag allein im Stadtpark, Eingang Nordseite."],
    ["routine", "Chaque matin il court seul au parc Monceau vers 7 h."],
    ["routine", "Cada mañana pasea sola por el parque del Retiro, entrada de Alcalá."],
    ["routine", "Il sabato mattina cammina da solo nel parco del Valentino."],
    ["routine", "Todos os dias ela caminha sozinha na praia de Matosinhos ao fim da tarde."],
    ["routine", "Elke ochtend jogt hij alleen door het Vondelpark, ingang Stadhouderskade."],
    ["routine", "Codziennie rano sam biega po Parku Śląskim."],
    ["routine", "Varje lördag promenerar hon ensam i Hagaparken."],
    ["routine", "Her sabah yalnız Maçka Parkı'nda koşuya çıkıyor."],
    ["routine", "毎週土曜の朝、一人で代々木公園を散歩している。"],
    ["school run", "The twins are dropped at Jefferson Elementary at 7:50 every weekday."],
    ["travel", "He flies to Lisbon every other week and stays at the same hotel."],
    ["travel", "Ze reist om de week naar Groningen en neemt de trein van 17:10 terug."],
    ["commute", "Sie fährt täglich mit der U2 von Pankow bis Alexanderplatz."],
  ])("%s is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    "Every morning the nightly job runs alone on the build server.",
    "On Fridays she works alone from home.",
    "Ogni giorno il servizio gira da solo nel parco macchine.",
    "W soboty ta sama procedura dotyczy Parku Narodowego.",
    "Every other week the release train goes to Production.",
    "Los viernes recoge a su hija del colegio a las 14:00.",
    "Sam jogs every morning before stand-up.",
  ])("is stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });

  // The same rule for every group: an observance named as a scheduling fact is a date, whatever the religion.
  const frames: [string, string[]][] = [
    ["Durante {} el equipo de Tánger prefiere reuniones por la mañana.", ["el Ramadán", "la Navidad", "la Cuaresma", "el Shabbat", "Diwali", "Pésaj"]],
    ["Tijdens {} hebben ze daar vrij; plan geen deploys.", ["het Suikerfeest", "het Offerfeest", "Kerstmis", "Pasen", "de sabbat", "Chanoeka", "Divali"]],
    ["Durante o {} a equipa do Porto prefere reuniões de manhã.", ["Ramadão", "Natal", "Shabbat", "Diwali"]],
    ["Während {} plant das Team in Köln keine Releases.", ["des Ramadan", "der Fastenzeit", "des Sabbats", "Weihnachten", "Chanukka"]],
    ["Pendant {}, l'équipe de Lyon préfère les réunions le matin.", ["le ramadan", "le carême", "le shabbat", "Noël", "Hanoukka"]],
  ];
  it.each(frames.flatMap(([frame, names]) => names.map((name) => frame.replace("{}", name))))("an observance as a date is stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });

  // False friends of batch 7, each as a family: a union as an organisation (a client), a contract's party,
  // pill-shaped buttons, clandestine networks in history, job titles in a CRM field.
  it.each([
    "Der Pilotkunde ist eine Gewerkschaft; die Rolle „Delegierte“ sieht nur ihr Bundesland.",
    'Il cliente pilota è un sindacato di categoria; il ruolo "delegato" vede solo la sua provincia.',
    'De pilotklant is een vakbond; de rol "afgevaardigde" ziet alleen de eigen regio.',
    '"Partei" bedeutet im Vertragsmodul Kunde oder Lieferant.',
    "« Partie » dans le module des contrats désigne le client ou le fournisseur.",
    "Prefiere los botones en forma de píldora para los filtros rápidos.",
    "Hij wil pilvormige knoppen voor de snelle filters.",
    "Pour expliquer le chiffrement, il compare avec les réseaux clandestins de la Résistance.",
    "顧客管理の「職業」欄には看護師・警察官・裁判官などを登録できる。",
  ])("is stored: %s", async (text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });

  it.each([
    "Il est clandestin en France depuis deux ans, ne pas en parler.",
    "Sie ist seit Jahren in der Partei aktiv und will das nicht im Profil.",
    "Mijn buurman is lid van de partij en wil dat niet in zijn profiel.",
    "彼は裁判を抱えていて、来月出廷する。",
  ])("still refused: %s", async (text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });
});
