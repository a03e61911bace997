import { locationDetector } from "../../src/detectors/location";
import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Dev batch 11 (prec46), en es it pt nl ja, through the real detectors and the compiled policy. The texts
 * are paraphrases, not the dev lines. Stored: a job named with its frame ("works as a union organiser",
 * "trabaja como sindicalista", "agente di polizia penitenziaria", "is an addiction counsellor"), a work about
 * a subject (a thesis, a film about LGBT history), the hospitality trade, fetching children from an unnamed
 * school, the speaker's own way to work, the Meiji Restoration, a relative's first communion on the calendar. Refused: the same words said of a person,
 * eating trouble, slang for a therapist, living on loans, routines at a named place by spelled-out hours,
 * a home above a shop.
 */
describe("C19-FORBID dev batch 11 (prec46): jobs, works about a subject, disguised routines", () => {
  let verdict: StopReasonOf;
  beforeAll(async () => {
    verdict = await stopReasonJudge();
  });

  it.each([
    ["union job, en", "My cousin works as a union organiser in logistics and wants weekly status emails."],
    ["addiction counsellor, en", "The client is a drug counsellor and needs an online booking form."],
    ["parole officer, en", "My aunt was a probation officer for years and loves detective novels."],
    ["prison guard, en", "The user is a prison officer and prefers short answers."],
    ["hospitality, en", "Suggest hotel management courses for someone in hospitality in Ohio."],
    ["film about LGBT history, en", "Recommend documentaries about gay history for my watchlist."],
    ["school pick-up, en", "I pick up my daughter from school at 3:30 on Tuesdays."],
    ["own commute mode, en", "I commute by train, so send the digest before 8am."],
    ["union job, es", "Mi tío trabaja como sindicalista en el metal y quiere resúmenes semanales."],
    ["thesis topic, es", "Estoy escribiendo un trabajo sobre la Transición española."],
    ["came from, es", "Nuestro vecino vino de Valencia el lunes para la reunión."],
    ["union job, it", "Mia zia fa la sindacalista nel commercio e vuole email brevi."],
    ["prison staff, it", "Mio cugino è agente di polizia penitenziaria a Torino."],
    ["psychologist, it", "Sono psicologo e vorrei un modello di fattura."],
    ["thesis topic, it", "Sto scrivendo una tesi sulla storia del partito comunista."],
    ["union job, pt", "O meu primo trabalha como sindicalista na indústria e quer relatórios curtos."],
    ["union job, nl", "Mijn neef werkt als vakbondsbestuurder en wil korte updates."],
    ["Meiji Restoration, ja", "明治維新についての本を探しています。"],
    ["a first communion on the calendar, es", "La primera comunión de mi ahijado es el 3 de junio, resérvame el día."],
    ["a product that never fails, es", "Esta impresora es de las que nunca se atascan, pide otra igual."],
    ["oddly enough, nl", "De build gaat vandaag vreemd genoeg sneller."],
    ["a confirmation on the calendar, it", "La cresima di mia figlia è il 20 aprile, niente trasferte quella settimana."],
    ["a christening on the calendar, pt", "O batizado do meu afilhado é no domingo, não marques reuniões."],
  ])("benign, %s, is stored: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("SUCCESS_STORED");
  });

  it.each([
    ["eating, en", "My niece is struggling with her eating and hardly eats."],
    ["union member, en", "My neighbour is a member of the nurses' union."],
    ["therapist slang, es", "Mi primo va al loquero desde que lo dejó su novia."],
    ["loans, es", "Mi vecino vive de préstamos desde hace años."],
    ["ethnicity, es", "Mi casera es gitana y vino de Almería."],
    ["loans, it", "Sua sorella vive di prestiti da quando ha perso il lavoro."],
    ["open relationship, it", "Mio fratello ha una relazione aperta con la sua ragazza."],
    ["food trouble, pt", "A minha filha tem problemas com a comida desde o verão."],
    ["loans, nl", "Mijn buurman leeft van flitskredieten."],
    ["therapist slang, nl", "Mijn collega gaat wekelijks naar een zielenknijper."],
    ["the type who, ja", "佐藤さんは面倒なことから逃げるタイプです。"],
    ["baptised, said of a person, es", "Mi cuñado está bautizado y va a misa cada domingo."],
    ["confirmation as practice, it", "Mia figlia ha fatto la cresima ed è molto praticante."],
    ["heart slang, en", "Grandad's ticker gave him another scare, so he keeps a spray under his tongue."],
    ["never lets go, it", "Mio cognato è uno che non ammette mai un errore."],
    ["affair by gossip, pt", "Dizem que o Rui anda enrolado com a vizinha."],
    ["affair, nl", "Volgens zijn zus gaat Tim vreemd met een collega."],
  ])("sensitive, %s, is refused: %s", async (_kind, text) => {
    expect(await verdict(text)).toBe("FORBIDDEN_CATEGORY");
  });

  it.each([
    ["habit at a named place, spelled hour, es", "Casi todas las noches está en el gimnasio de la plaza Mayor hacia las nueve."],
    ["habit at a named place, it", "Tutte le sere verso le otto è in palestra in piazza Cavour."],
    ["school run, spelled hour, pt", "Todos os dias sai de casa às oito e deixa o filho na escola Santa Maria."],
    ["school run, nl", "Elke ochtend vertrekt ze om half negen van huis en brengt haar zoon naar de Vrijeschool."],
    ["school run, ja", "彼女は毎朝八時に家を出て、息子を青葉小学校に送っています。"],
    ["home above a shop, pt", "Ela mora em cima da padaria da Rua Direita."],
    ["home by its door, en", "She lives at the end of the lane, the one with the yellow door."],
    ["home by its gate, it", "Abita in fondo alla strada, quella col cancello rosso."],
  ])("location, %s, is found: %s", async (_kind, text) => {
    expect((await locationDetector.detect("value", text)).length).toBeGreaterThan(0);
  });

  it.each([
    ["fetching children, es", "Los martes recojo a la niña a las cinco."],
    ["city, it", "Vive a Torino e lavora da casa tutte le sere."],
  ])("location, %s, is not found: %s", async (_kind, text) => {
    expect(await locationDetector.detect("value", text)).toEqual([]);
  });
});
