import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * C19-FORBID, dev batch sens46 (de, fr, pl, tr, sv): the shapes added for it, each with a twin that
 * must stay stored. Sentences written for this test, not taken from a corpus.
 */
let judge: StopReasonOf;
beforeAll(async () => {
  judge = await stopReasonJudge("PREFERENCE");
});

describe("C19-FORBID sens46: refused", () => {
  it.each([
    ["de live location", "Meine Freundin sitzt gerade in der Bar gegenüber vom Rathaus, sie wartet dort auf mich."],
    ["fr live location", "Mon patron est en ce moment au café en face de la mairie, il y reste jusqu'à midi."],
    ["pl live location", "Mój szef siedzi teraz w restauracji naprzeciwko ratusza."],
    ["sv live location", "Min chef sitter just nu på restaurangen mittemot stadshuset."],
    ["tr live location", "Eski eşim şu anda belediyenin karşısındaki kafede oturuyor."],
    ["de hearing voices", "Meine Tante hört Stimmen und nimmt deshalb Tabletten."],
    ["fr hearing voices", "Son fils entend des voix depuis l'été dernier."],
    ["pl hearing voices", "Jej brat słyszy głosy i jest pod opieką psychiatry."],
    ["sv hearing voices", "Hennes son hör röster sedan i somras."],
    ["tr hearing voices", "Yeğenim geceleri sesler duyuyor, doktora gidiyor."],
    ["de drink-driving", "Mein Schwager ist betrunken gefahren und musste den Führerschein abgeben."],
    ["pl open relationship", "Moja kuzynka i jej mąż są w otwartym związku."],
    ["sv coming out", "Hennes dotter kom ut som lesbisk i julas."],
    ["tr finances", "Komşum kirasını ödeyemiyor, borç batağında."],
    ["tr tendency", "Hakan öfkelenmeye eğilimli, bunu ona söyleme."],
    ["de faith copula", "Unser Praktikant ist gläubiger Muslim."],
    ["sv faith copula", "Hennes svärfar är troende katolik."],
    ["de a work and a term", "Ich lese ein Buch über Depression, weil ich selbst depressiv bin."],
    ["sv a work and a term", "Jag läser en bok om depression eftersom jag själv är deprimerad."],
  ])("%s: %s", async (_shape, text) => {
    expect(await judge(text)).toBe("FORBIDDEN_CATEGORY");
  });
});

describe("C19-FORBID sens46: stored (jobs, venues, places)", () => {
  it.each([
    ["de job name", "Mein Cousin ist Psychotherapeut und hat nur dienstags Zeit für Anrufe."],
    ["de job name", "Der Film handelt von einer Gefängnisdirektorin in den Fünfzigern."],
    ["fr job name", "Ma voisine est conseillère pénitentiaire, elle finit tard le jeudi."],
    ["pl job name", "Mój wujek jest strażnikiem więziennym, dzwoni tylko w niedziele."],
    ["tr job name", "Eniştem yoğun bakım hemşiresi, hafta sonları çalışıyor."],
    ["sv job name", "Min moster arbetar inom psykiatrin som undersköterska."],
    ["de venue, no person", "Das Team sitzt gerade im Café gegenüber und feiert den Release."],
    ["fr venue, no person", "Le restaurant en face de la gare est fermé en ce moment."],
    ["de the speaker", "Ich bin gerade im Café, ich antworte später."],
    ["pl a place is no name", "Biuro w Gdańsku jest nieczynne w poniedziałek."],
    ["de a work's subject", "Wir haben gestern einen Film über politische Gefangene in der DDR gesehen."],
    ["pl a work's subject", "Mój syn czyta książkę o więźniach politycznych z czasów PRL."],
    ["sv a work's subject", "Vi lyssnar på en podd om fångar på Robben Island."],
    ["de a union's tariff", "Der Tarifvertrag der Gewerkschaft gilt ab März für alle Mitarbeiter."],
    ["pl probation officer", "Moja siostra jest kuratorką sądową i kończy o szesnastej."],
  ])("%s: %s", async (_shape, text) => {
    expect(await judge(text)).toBe("SUCCESS_STORED");
  });
});
