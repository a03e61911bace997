import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Issue 21 items 2 and 3 (C19-FORBID): shapes found in the helper-written dev texts of
 * 2026-11-28, through the real detectors and the compiled policy. A commute, coordinates
 * written with decimal commas or hemisphere letters, Japanese and Turkish addresses, passwords
 * stated in a long phrase, and profiling in every covered language are refused; an id with a
 * check digit that fails it, a depression over the sea or in history is stored.
 */
describe("C19-FORBID: shapes of held-out text (issue 21)", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    ["commute", "Frank nimmt jeden Morgen um 6:50 die S1 von Oranienburg zur Friedrichstraße."],
    ["commute", "Paweł codziennie o 6:40 jedzie SKM-ką z Gdyni Orłowo do Gdańska Wrzeszcza."],
    ["coordinates", "Treffpunkt Samstag: 48,13743 / 11,57549"],
    ["coordinates", "rdv là-bas : 43.2965 N, 5.3698 E"],
    // dev batch 5: a pair that ends its sentence, a commute whose time is in words or that leaves home, an IBAN cut by slashes
    ["coordinates", "Coordenadas de mi casa: 41.38506, 2.17340."],
    ["commute", "Meneer Jansen fietst elke ochtend om kwart over zeven van Zuilen naar Utrecht Centraal."],
    ["commute", "Giulia esce di casa alle 8:10 e prende la metro M2 a Lambrate."],
    ["iban", "Her account, split up: GB82 / WEST / 1234 / 5698 / 7654 / 32"],
    ["address", "自宅：東京都世田谷区北沢２丁目１４－７"],
    ["address", "Ev adresim: Moda Caddesi No: 45 Daire 6, 34710 Kadıköy/İstanbul."],
    ["address", "Abito in via dei Mille 23, scala B, interno 7, 20129 Milano."],
    ["password", "A palavra-passe do Portal das Finanças da minha mãe é Alecrim#1954."],
    ["pin", "Il PIN del bancomat di mia madre è 6103, se lo dimentica sempre."],
    ["profiling", "Der neue Kunde wirkt ziemlich narzisstisch und leicht kränkbar."],
    ["profiling", "Registro emocional de Irene: lunes agobiada, viernes hundida."],
    ["profiling", "Volgens mij is onze nieuwe teamleider een controlfreak met weinig empathie."],
    ["union", "Marco è iscritto alla FIOM e fa parte della RSU dello stabilimento."],
    ["pregnancy", "Sabine ist guter Hoffnung, errechneter Termin Anfang Mai."],
  ])("C19-FORBID: %s is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    "Die Steuer-ID 49 960 571 231 in den Testdaten hat absichtlich eine falsche Prüfziffer.",
    "En los tests usamos el DNI 37108553B, con la letra de control mal a propósito.",
    "Pour le bulletin du club de voile, décrire la dépression qui arrive sur la Bretagne.",
    "For the macro course notes, explain the Great Depression with charts of unemployment and GDP.",
    "Every day at 9:00 run the backup job and post the summary in #ops.",
    "Version 2.17340 of the parser fixed the rounding bug reported against 41.38506.",
  ])("C19-FORBID: a look-alike is stored: %s", async (text) => {
    expect(await verdict(text, "PROJECT_CONFIG")).toBe("SUCCESS_STORED");
  });
});
