import { readFileSync } from "node:fs";
import path from "node:path";
import type { Detector, Finding } from "../../src/detectors/detector";
import { financialDetector } from "../../src/detectors/financial";
import { createIdentifierDetector } from "../../src/detectors/identifiers";
import type { LexiconSource } from "../../src/detectors/lexicon";
import { locationDetector } from "../../src/detectors/location";
import { secretsDetector } from "../../src/detectors/secrets";
import { createDetectorSuite } from "../../src/detectors";

/**
 * Issue 21 item 2: identifiers by structure and checksum, without keywords (C19-FORBID,
 * seed 000 §4.5-§4.7). The identifier words are the policy data itself
 * (policies/memgate/identifiers/data.json), read as the bundle would hand them over.
 * Test numbers are public specimen numbers (Visa 4111…, the IBAN registry's DE89…, stdnum's
 * documented examples); every sentence is written here.
 */
const DATA = JSON.parse(readFileSync(path.resolve(__dirname, "../../policies/memgate/identifiers/data.json"), "utf8")) as unknown;
const source: LexiconSource = { hash: "identifiers-test", data: <T>(name: string) => (name === "identifiers" ? DATA : undefined) as T };
const DETECTORS: Detector[] = [financialDetector, locationDetector, createIdentifierDetector(source)];
const suite = createDetectorSuite(DETECTORS);

async function findings(text: string): Promise<Finding[]> {
  return (await suite.run({ value: text })).findings;
}
const classes = async (text: string): Promise<string[]> => [...new Set((await findings(text)).map((f) => f.class))].sort();

describe("identifiers by structure and checksum (C19-FORBID §4.7, issue 21 item 2)", () => {
  it.each([
    ["spaces", "4111 1111 1111 1111"],
    ["dots", "card 4111.1111.1111.1111 for the trip"],
    ["dashes", "5555-5555-5555-4444"],
    ["no separators, no keyword", "use 4012888888881881 next time"],
    ["Amex 4-6-5", "3782 822463 10005"],
    ["full-width digits", "４１１１ １１１１ １１１１ １１１１"],
    ["letter-spaced", "4 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"],
    ["Arabic-Indic digits", "٤١١١١١١١١١١١١١١١"],
    ["in German", "Meine Kreditkarte: 4111 1111 1111 1111"],
  ])("C19-FORBID: a payment card number by IIN and Luhn, %s", async (_how, text) => {
    expect((await findings(text)).map((f) => f.label)).toContain("card_number_luhn");
  });

  it.each([
    ["grouped", "DE89 3704 0044 0532 0130 00"],
    ["ungrouped, lower case, no keyword", "send it to de89370400440532013000 please"],
    ["dashes", "GB82-WEST-1234-5698-7654-32"],
    ["French", "mon RIB: FR14 2004 1010 0505 0001 3M02 606"],
  ])("C19-FORBID: an IBAN by country length and mod-97, %s", async (_how, text) => {
    expect((await findings(text)).map((f) => f.label)).toContain("iban_checksum");
  });

  it.each([
    ["US SSN, 3-2-4", "her number is 536-90-4399", "us_ssn"],
    ["UK NINO", "NI number AB 12 34 56 C", "gb_nino"],
    ["CA SIN, 3-3-3", "SIN 046 454 286", "ca_sin"],
    ["DE IdNr, long German word", "Meine Steuer-Identifikationsnummer ist 36574261809", "de_idnr"],
    ["DE IdNr, no keyword", "36574261809", "de_idnr"],
    ["FR NIR, grouped", "2 95 10 99 126 111 93", "fr_nir"],
    ["ES DNI, no keyword", "Mi documento es 54362315K", "es_dni"],
    ["ES NIE", "X2482300W", "es_nie"],
    ["IT codice fiscale", "il mio è RCCMNL83S18D969H", "it_codice_fiscale"],
    ["NL BSN with its word", "mijn BSN is 111222333", "nl_bsn"],
    ["PL PESEL, no keyword", "44051401359", "pl_pesel"],
    ["PT NIF with its word", "o meu NIF é 501964843", "pt_nif"],
    ["BR CPF, grouped", "390.533.447-05", "br_cpf"],
    ["IN Aadhaar, 4-4-4", "2341 2341 2346", "in_aadhaar"],
    ["IN PAN", "PAN ABCPD1234E", "in_pan"],
    ["AU TFN with its word (also a valid BSN: the word names the id)", "my tax file number is 123 456 782", "au_tfn"],
  ])("C19-FORBID: a national id with its check digits (stdnum), %s", async (_how, text, label) => {
    const labels = (await findings(text)).filter((f) => f.class === "biometrics_ids").map((f) => f.label);
    expect(labels).toContain(`national_id:${label}`);
  });

  it.each([
    ["a BSN that fails the elfproef is no Portuguese NIF", "Het BSN 243119526 in de testset voldoet bewust niet aan de elfproef."],
    ["a Portuguese NIF word makes a 3-3-3 number no Australian TFN", "O NIF 317 118 667 dos dados de teste falha o dígito de controlo."],
    ["a Steuer-ID with a wrong check digit holds no BSN", "Die Steuer-ID 49 960 571 231 hat absichtlich eine falsche Prüfziffer."],
  ])("C19-FORBID: an id word names its id: %s", async (_how, text) => {
    expect((await findings(text)).filter((f) => f.class === "biometrics_ids")).toEqual([]);
  });

  it.each([
    ["en", "the wifi password is Sunflower42"],
    ["en, plain word ending the sentence", "the wifi password is sunflower."],
    ["de", "das Passwort lautet Sommer2024!"],
    ["fr", "le mot de passe est soleil123"],
    ["es", "la contraseña es girasol."],
    ["it", "la password è girasole"],
    ["pt", "a senha é girassol"],
    ["nl", "het wachtwoord is zonnebloem"],
    ["pl", "hasło to Kwiatek7"],
    ["en, PIN right before its digits", "Remember my laptop PIN 839201"],
    ["es PIN", "mi PIN es 4921"],
    ["de PIN", "Die Geheimzahl ist 4921"],
  ])("C19-FORBID: a password or PIN stated in a sentence (%s)", async (_how, text) => {
    expect(await classes(text)).toContain("credentials");
  });

  it.each([
    ["en-US", "1600 Pennsylvania Ave NW, Washington, DC 20500"],
    ["en-UK", "10 Downing Street, London SW1A 2AA"],
    ["de", "Hauptstraße 5, 10115 Berlin"],
    ["en, a compound street name", "She lives at Bakerstreet 12 now."],
    ["fr", "12 rue de Rivoli, 75001 Paris"],
    ["es", "Calle Mayor 10, 28013 Madrid"],
    ["it", "Via Roma 12, 00184 Roma"],
    ["nl", "Keizersgracht 123, 1015 CJ Amsterdam"],
    ["pl", "ul. Marszałkowska 10/4, 00-001 Warszawa"],
    ["pt", "Rua Augusta 100, 1100-053 Lisboa"],
  ])("C19-FORBID §4.5: a street address in its country's shape (%s)", async (_how, text) => {
    expect(await classes(text)).toContain("location");
  });

  it.each([
    ["a city and a time zone", "User lives in Denver, so show Mountain Time"],
    ["a city", "The team meets in Lisbon every spring"],
    ["a version number", "upgrade to 4.11.1111.1111 next sprint"],
    ["an IP and a port", "the proxy listens on 10.0.0.12:8080"],
    ["a timestamp", "deployed at 2026-11-27T13:30:41Z, build 20261127133041"],
    ["a labelled order number, valid Luhn", "order 4111111111111111 shipped on Monday"],
    ["a card-shaped number failing Luhn", "4111 1111 1111 1112"],
    ["an IBAN failing mod-97", "DE89 3704 0044 0532 0130 01"],
    ["a DNI with the wrong letter", "54362315A"],
    ["a nine-digit number without its word", "Run 123456782 took 3 s"],
    ["a quantity with thousands separators", "the 1.000.000.000.000th bit"],
    ["a password sentence about policy", "the password is stored in the vault"],
    ["a password sentence that goes on", "Das Passwort ist abgelaufen."],
    ["a hardware pin", "GPIO pin 1234 is wired to the LED"],
    ["a tool sent via a service", "sent via Slack 3 times"],
    ["a phone number", "call the office on +49 30 1234567"],
    ["a font weight", "Titres en Inter 600, texte en 400."],
    ["a framework version", "App em Flutter 3 com Riverpod."],
    ["a season and a year", "Winter 2025 release notes are in the wiki."],
  ])("C19-FORBID: no identifier in %s", async (_how, text) => {
    expect(await classes(text)).toEqual([]);
  });

  it.each([
    ["ES DNI with dots", "Lo de mi padre para la notaría: 65.068.735.X", "national_id:es_dni"],
    ["ES NIE grouped", "mi nie es Y-641 7283-K", "national_id:es_nie"],
    ["IT codice fiscale with spaces", "CF → BNC MRC 77T12 L219S", "national_id:it_codice_fiscale"],
    ["BE national number, no keyword", "Pour le formulaire : 65011676431", "national_id:be_nn"],
    ["PL NIP after an invoice word", "do faktur męża: 5276141576", "national_id:pl_nip"],
    ["SE personnummer of 12 digits, bare", "Olles nummer: 198803092470", "national_id:se_personnummer"],
    ["TR kimlik after TC, grouped", "TC 384 157 290 32 — sigorta formu için", "national_id:tr_tckimlik"],
    ["PT NIF written like a quantity after its word", "contribuinte da D. Alice: 346.136.504", "national_id:pt_nif"],
    ["NL BSN with its word after it", "6 4 9 3 6 5 1 1 2 is van Kees, voor de Belastingdienst", "national_id:nl_bsn"],
    ["passport MRZ", "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "national_id:mrz"],
    ["Polish NRB without PL", "Konto: 61 1090 1014 0000 0712 1981 2874", "bank_account"],
    ["UK sort code and account", "sort code 20-00-00, account 55779911", "bank_account"],
    ["US routing number", "Routing 021000021, account 1234567890", "bank_account"],
    ["Japanese account type and number", "三井住友 渋谷支店 普通 ７２８３０１５", "bank_account"],
  ])("C19-FORBID: an identifier in its own shape, %s", async (_how, text, label) => {
    expect((await findings(text)).map((f) => f.label)).toContain(label);
  });

  it.each([
    ["nl, no link", "DigiD van oma: gebruikersnaam jbakker1946, ww Tulpen!2020"],
    ["fr, words between", "Mot de passe admin de la box SFR : Lavande-1987!"],
    ["en, no link", "cabin wifi: network Lakeside_5G, password loon-Harbor-1987!"],
    ["card PIN after a card word", "Sparkassenkarte: ４７１９"],
    ["card PIN, letter-spaced", "Barclays debit: 5 2 0 9"],
  ])("C19-FORBID: a password or PIN without a link word (%s)", async (_how, text) => {
    expect(await classes(text)).toContain("credentials");
  });

  it.each([
    ["a card's last digits", "The card ending 4242 was declined twice."],
    ["a card number inside a 4-4-4-4 test run is no Aadhaar", "Test fixture: 4221 9817 4234 7636 is the card number our validator must reject."],
    ["an order number grouped 3-3-3", "A encomenda n.º 250 148 376 da loja online ainda não chegou."],
    ["a PO number grouped like a card that fails Luhn", "PO number 6011 4420 7315 2289 covers the laptop batch."],
    ["a disabled password login", "il login con password è disabilitato."],
    ["a wifi standard", "The wifi uses WPA2-Enterprise, password rotation every 90 days."],
    ["a count and a capitalised word", "Version 3, 10000 Requests."],
  ])("C19-FORBID: no identifier or credential in %s", async (_how, text) => {
    expect((await classes(text)).filter((c) => c === "credentials" || c === "biometrics_ids" || c === "location")).toEqual([]);
  });

  it.each([
    ["a PR reference", "pr:4111 1111 1111 1111"],
    ["an order label", "order no. 4111 1111 1111 1111"],
  ])(
    "C19-FORBID D4: a number grouped as a card counts whatever technical label precedes it (%s): a label must not open a way around the check",
    async (_how, text) => {
      expect(await classes(text)).toContain("biometrics_ids");
    },
  );

  it.each([
    ["de, two-word street and postcode", "Wohnt in der Schönhauser Allee 112, Hinterhaus 3. OG, 10439 Berlin."],
    ["fr, letter-spaced street word and postcode", "Envoie le colis au 8 i m p a s s e des Lilas, 31400 Toulouse."],
    ["sv", "Bor på Storgatan 12, 114 55 Stockholm"],
    ["de, Am … and a town of two words", "Lieferadresse: Am Sonnenhang 4, 60311 Frankfurt am Main"],
  ])("C19-FORBID §4.5: a street address with its postcode and town (%s)", async (_how, text) => {
    expect(await classes(text)).toContain("location");
  });

  it("C19-FORBID: a finding names the rule, never the matched text", async () => {
    const text = "card 4111 1111 1111 1111, IBAN DE89 3704 0044 0532 0130 00, Passwort: Sommer2024!, Hauptstraße 5";
    const all = await findings(text);
    expect(all.length).toBeGreaterThanOrEqual(4);
    const serialised = JSON.stringify(all);
    for (const secret of ["4111", "DE89", "Sommer2024", "Hauptstraße"]) expect(serialised).not.toContain(secret);
  });
});

describe("secrets by entropy, no keyword (C19-FORBID §4.6, issue 21 item 2)", () => {
  // A made-up key of no vendor's format: secretlint does not know it, its randomness does.
  const KEY = "q7Rt2mXk9LbP4vZc8NwY3hJd6FsA1gUe";

  it("C19-FORBID: a random token of upper, lower and digits is a credentials finding, named by rule only", async () => {
    const findings = await secretsDetector.detect("value", `deploy with ${KEY} tonight`);
    expect(findings.map((f) => f.label)).toContain("high_entropy_token");
    expect(JSON.stringify(findings)).not.toContain(KEY);
  });

  it.each([
    ["an npm integrity hash", "integrity sha512-Q2xhc3NpY0F1dGhvcml0eTEyMzQ1Njc4OTBhYmNkZWY="],
    ["a git commit", "fixed in 4f2a9c1e0b7d3a5f6e8c9b0a1d2e3f4a5b6c7d8e"],
    ["a UUID", "request 123e4567-e89b-12d3-a456-426614174000 failed"],
    ["a camelCase name", "call getUserProfileSettingsForAccount2 first"],
    ["a path", "see src/components/UserProfile2Settings.tsx"],
  ])("C19-FORBID: %s is not a secret", async (_what, text) => {
    expect((await secretsDetector.detect("value", text)).map((f) => f.label)).not.toContain("high_entropy_token");
  });
});

describe("document numbers named by an id word in any covered language (C19-FORBID §4.7)", () => {
  it.each([
    ["de, compound word, letters and digits", "Reisepassnummer C01X00T47"],
    ["en, driving licence", "my driving licence is MORGA657054SM9IJ"],
    ["fr", "numéro de passeport 12AB34567"],
    ["nl", "mijn paspoortnummer is NW5K8RT31"],
  ])("C19-FORBID: %s", async (_how, text) => {
    expect((await findings(text)).map((f) => f.label)).toContain("named_id_number");
  });

  it.each([
    ["an office", "the passport office on Main St is closed"],
    ["guidelines", "passport photo guidelines v2 updated"],
    ["an expiry date", "mein Personalausweis ist abgelaufen, Termin am 12.03.2026"],
  ])("C19-FORBID: an id word without a document number is not one (%s)", async (_how, text) => {
    expect((await findings(text)).map((f) => f.label)).not.toContain("named_id_number");
  });
});

describe("credentials stated without the usual link, in every covered language (C19-FORBID §4.6)", () => {
  const labels = async (text: string): Promise<string[]> => (await findings(text)).filter((f) => f.class === "credentials").map((f) => f.label);

  it.each([
    ["en", "Back door: 8-2-7-1, then the star key."],
    ["de", "Fürs Gartentor 3-9-0-6 eingeben."],
    ["ja, full-width", "裏口は ３-９-０-６ です。"],
  ])("C19-FORBID: a code keyed digit by digit is a credential without a keyword (%s)", async (_how, text) => {
    expect(await labels(text)).toContain("code_digit_by_digit");
  });

  it("C19-FORBID: a password in capitals, digits and a symbol after a password word counts; capitals and digits alone do not", async () => {
    expect(await labels("hasło do wifi to imię psa wielkimi literami, czyli B@REK2019")).toContain("password_statement:value");
    expect(await labels("Password reset tickets go to queue SKU12345 and PRJ-20241.")).toEqual([]);
  });

  it.each([
    ["steps numbered in a row", "Steps 1-2-3-4 of the install guide are optional."],
    ["a date", "Released 2024-05-01, see the changelog."],
    ["a part number", "Order part A-1-2-3-9 from the catalogue."],
  ])("C19-FORBID: %s is not a code keyed digit by digit", async (_how, text) => {
    expect(await labels(text)).not.toContain("code_digit_by_digit");
  });

  it.each([
    ["en, verb first", "At the side gate you punch in 58213 and push."],
    ["fr, letters and digits", "Pour le portail du jardin, composez 44B71 puis validez."],
    ["nl, a word between", "Bij de poort toets je 5512 in."],
    ["tr, verb last", "Bahçe kapısı için 4482 tuşlanıyor."],
  ])("C19-FORBID: an entry code keyed at a door or gate (%s)", async (_how, text) => {
    expect(await labels(text)).toContain("entry_code");
  });

  it.each([
    ["a year", "Type 2024 into the year field of the gate form."],
    ["no door named", "Enter 1500 in the amount field and press submit."],
  ])("C19-FORBID: no entry code in %s", async (_how, text) => {
    expect(await labels(text)).not.toContain("entry_code");
  });

  it.each([
    ["en recovery codes", "Backup codes for my Google account: 3819-2277, 9920-1184", "recovery_statement:en"],
    ["fr recovery codes, no of-word", "Codes de secours Google : 1842 9931, 7721 0042", "recovery_statement:fr"],
    ["de security answer", "Sicherheitsfrage bei der Sparkasse (Mädchenname der Mutter): Brandtner.", "answer_statement:de"],
    ["es security answer", "Pregunta de seguridad del banco: Fernández.", "answer_statement:es"],
    ["en seed phrase", "Seed phrase for my Ledger: ocean drift lamp velvet harbor quiz tunnel melody brisk orphan canvas rival", "seed_phrase"],
    ["sv seed phrase", "Återställningsfras för plånboken: ocean drift lamp velvet harbor quiz tunnel melody brisk orphan canvas rival", "seed_phrase"],
    ["it password after a login sentence", "Per accedere alla posta uso il nome del gatto e l'anno: Micio2008", "password_statement:login"],
    ["de PIN as digit words", "Der PIN der Karte ist vier, sieben, eins, neun.", "pin_statement:de"],
    ["en letter-spaced word, a phrase as value", "p a s s p h r a s e for the backup disk: green lamp under a wet bridge", "password_statement:letter_spaced"],
    ["fr password after a colloquial link", "Le mot de passe wifi c'est maintenant girafe2031", "password_statement:fr"],
    ["es password, a changed value", "La contraseña del wifi se cambió a Tortuga-4471", "password_statement:es"],
    ["sv safe code", "Koden till kassaskåpet är 7719.", "pin_statement:sv"],
    ["pl bike-lock code", "Kod do kłódki to 4402.", "pin_statement:pl"],
  ])("C19-FORBID: %s", async (_how, text, label) => {
    expect(await labels(text)).toContain(label);
  });

  it.each([
    ["recovery codes without a value", "Recovery codes: generate them in Settings > Security."],
    ["seed phrase advice with common words", "Seed phrase: write down all twelve words on paper and keep them in a safe place at home."],
    ["seed phrase advice with commas", "Seed phrase: never share it with anyone, not even support staff who ask for it nicely."],
    ["a login sentence with a version", "To log in, run the CLI with: Python3.12 installed."],
    ["a security question removed", "The security question feature was removed in v2.3 of the app."],
    ["a word spelled out in docs", 'Letter-spaced text like "p a s s w o r d" is joined before classification.'],
    ["a French password managed elsewhere", "Le mot de passe est géré par le coffre de l'équipe."],
    ["a Dutch password that is required", "Het wachtwoord is vereist bij de eerste aanmelding."],
  ])("C19-FORBID: no credential in %s", async (_how, text) => {
    expect(await labels(text)).toEqual([]);
  });

  it("C19-FORBID: a credential finding names the rule, never the value", async () => {
    const all = await findings("Kody zapasowe do 2FA: 8f3k-29dl, q7mz-04xa. Na klatkę: 7-3-0-9.");
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) expect(JSON.stringify(f)).not.toMatch(/8f3k|q7mz|7-3-0-9|7309/);
  });
});

describe("numbers by their checksum whatever the spelling, secrets described then given (dev batch 7)", () => {
  const labels = async (text: string): Promise<string[]> => (await findings(text)).map((f) => f.label);

  it.each([
    ["a card, English words in groups", "Card: four one one one, one one one one, one one one one, one one one one. For the renewal.", "card_number_luhn"],
    ["a card, Spanish words", "Tarjeta: cuatro uno uno uno uno uno uno uno uno uno uno uno uno uno uno uno.", "card_number_luhn"],
    ["a Steuer-ID, German words", "Die Steuer-ID lautet vier sieben null drei sechs zwei eins acht eins neun null.", "national_id:de_idnr"],
    ["a code keyed word by word with dashes, Dutch", "De code van het hek is vier-één-zeven-nul.", "code_digit_by_digit"],
  ])("C19-FORBID: digits written as words are digits: %s", async (_how, text, label) => {
    expect(await labels(text)).toContain(label);
  });

  it("C19-FORBID: counting in words is no number", async () => {
    expect(await labels("The kids count one, two, three, four and then jump.")).toEqual([]);
    expect(await labels("Steps one-two-three-four of the tutorial.")).toEqual([]);
  });

  it.each([["an IBAN whose mod 97 passes and whose Spanish bank check digits do not", "Cuenta: ES70 5963 8441 9131 9217 2692."]])(
    "C19-FORBID: %s is an IBAN",
    async (_how, text) => {
      expect(await labels(text)).toContain("iban_checksum");
    },
  );

  it.each([
    ["an IBAN failing mod 97", "IBAN invalide pour les tests : FR2881699776566370570418966."],
    ["a card failing Luhn", "The fixture card number 4242 4242 4242 4241 is deliberately invalid."],
  ])("C19-FORBID: %s is no identifier", async (_how, text) => {
    expect((await findings(text)).filter((f) => f.class === "biometrics_ids")).toEqual([]);
  });

  it.each([
    [
      "pt, a password after 'ou seja' and a colon",
      'senha do wifi é o nome da rua + número do prédio, ou seja, "RuaAugusta2xx" mas com o nº certo: RuaAugusta217',
    ],
    ["tr, capitals and digits after a colon", "Evdeki wifi şifresi kedinin adı büyük harfle ve doğum yılı: PAMUK2020"],
    ["it, a PIN after 'cioè'", "Il codice del cancello è l'anno della mia nascita al contrario, cioè 7891."],
    ["de, a PIN keyed digit by digit later in its sentence", "Die Geheimzahl seiner EC-Karte ist das Geburtsjahr seiner Tochter, 2 0 1 4. Bitte merken."],
    ["es, a security answer after an arrow", "Pregunta de seguridad del banco: ciudad donde nací → Albacete."],
    ["fr, a security answer set off by commas", "Pour la banque, la réponse secrète c'est le nom de son premier chat, Pistache, et la ville de sa mère."],
    ["de, a hex API key named by its API", "Der Schlüssel für die Wetter-API ist 9f3c1ab7e24d58f0c6b2a91d7e3f4058, den brauchst du wieder."],
  ])("C19-FORBID: a secret described, then given: %s", async (_how, text) => {
    expect((await findings(text)).some((f) => f.class === "credentials")).toBe(true);
  });

  it.each([
    ["an environment variable's name", "iyzico API anahtarı IYZICO_API_KEY ortam değişkeninden okunur, koda yazılmaz."],
    ["a service named after the key word", "Klucz API do Przelewy24 jest wstrzykiwany przy starcie z sejfu."],
    ["a security question made mandatory", "Die Sicherheitsfrage ist Pflicht."],
    ["a PIN screen and a ticket", "The PIN entry screen was redesigned in release 2024: see ticket 4821."],
    ["a commit hash beside an API", "The API fix landed in commit 9f3c1ab7e24d58f0c6b2a91d7e3f4058."],
  ])("C19-FORBID: %s states no secret", async (_how, text) => {
    expect((await findings(text)).filter((f) => f.class === "credentials")).toEqual([]);
  });
});

describe("secrets opened with, given in the next sentence, named indirectly (dev batch 8)", () => {
  const labels = async (text: string): Promise<string[]> => (await findings(text)).map((f) => f.label);
  const credentials = async (text: string): Promise<string[]> => (await findings(text)).filter((f) => f.class === "credentials").map((f) => f.label);

  it.each([
    ["en, a PIN after 'with'", "He unlocks the tablet with 5830, the old house number."],
    ["pt, a quoted password after 'com'", "A Inês entra na conta do banco com «Mar#2020» quando viaja."],
    ["tr, a quoted password before 'ile'", 'Bilgisayarı "lale2019" ile açılıyor, o yokken kullanın.'],
    ["es, a keypad verb", "Para entrar en la tableta hay que poner «olivo_77» y esperar."],
  ])("C19-FORBID: what a login or an unlock opens with: %s", async (_how, text) => {
    expect(await credentials(text)).toContain("password_statement:opened_with");
  });

  it.each([
    ["fr, a card's code", "Papa oublie toujours le code de sa carte bleue. C'est 5907, rappelle-le-lui."],
    ["sv, a card named alone", "Mormor glömmer alltid vad bankkortet har. Det är 6610, säg det till henne."],
    ["pl, bare digits", "Dziadek zapomina kodu do karty. 3318, przypomnij mu."],
    ["ja, digits then kana", "父はキャッシュカードの4桁を忘れます。5172なので教えてあげて。"],
    ["it, the digits described without a card or PIN word", "Il nonno non ricorda mai le quattro cifre. Sono 6284, diglielo tu."],
    ["en, a code to unlock", "The code to unlock Sam's phone is 7391, he said so."],
  ])("C19-FORBID: a PIN described, then given alone in the next sentence: %s", async (_how, text) => {
    expect((await credentials(text)).some((l) => l.startsWith("pin_statement"))).toBe(true);
  });

  it.each([
    ["a year", "Mijn pasje is kwijt. Het is 2025, tijd voor een nieuwe."],
    ["a quantity with its unit", "Die Bankkarte kam per Post. Es sind 1500 Euro Limit."],
    ["a step, no link", "The PIN screen was redesigned. Step 4012 of the guide covers it."],
    ["a sign-in provider", "Log in with Google and open the dashboard from 2024 onwards."],
    ["a badge", "Unlock the door with the badge, not with the code."],
    ["a hashing scheme after the password word", "Password hashing argon2id is the default since v3."],
    ["a campaign slogan", "Hasło kampanii to „Razem szybciej”."],
  ])("C19-FORBID: no secret in %s", async (_how, text) => {
    expect(await credentials(text)).toEqual([]);
  });

  it("C19-FORBID: a motto's word counts only with a digit or a symbol in its value", async () => {
    expect(await credentials("La parola d'ordine del router è «tramonto88».")).toContain("password_statement:it");
    expect(await credentials("La parola d'ordine del trimestre è «meno riunioni»: più codice.")).toEqual([]);
    expect(await credentials("Wi-Fiの合言葉は「umi7731」です。")).toContain("password_statement:ja");
    expect(await credentials("部署の合言葉は「安全第一」です。")).toEqual([]);
  });

  it.each([
    ["fr, spaced guillemets after a comma", "Le sésame du coffre de Paul, c'est « tilleul42 », note-le."],
    ["fr, recovery codes with a long phrase", "Codes de secours du compte Google de ma sœur Anne : 5521 0093, 7719 4410"],
    ["en, a login then a dash", "My VPN login, the dog's name in leet — R0v3r_2x — for the laptop."],
    ["sv, a user name then a word and digits", "Inloggning till skrivaren: anna.k och solros7."],
    ["fr, a password with inner capitals", "Son mot de passe Gmail c'est pLaTaNe7x, à garder."],
    ["en, a word and digits after a described password", "Tom's password for everything is his dog's name plus 99: rex99."],
    ["pl, a word and digits right after the password word", "Loguje się do banku hasłem kotek123."],
    ["es, a PIN after a link with its article", "El PIN del móvil de Ana es el 2288."],
    ["sv, a code word taking its object", "Koden till hennes mobil är 8823."],
  ])("C19-FORBID: a password given: %s", async (_how, text) => {
    expect((await credentials(text)).length).toBeGreaterThan(0);
  });

  it.each([
    ["es, what she has to say", "Si le preguntan por el nombre de su primera mascota, tiene que decir «Canela»."],
    ["en, a quoted question", 'His answer to "where your parents met" is Tulsa, keep it.'],
    ["ja, an answer in corner brackets", "田中さんの秘密の質問（最初のペットの名前）の答えは「ポチ」です。"],
  ])("C19-FORBID: a security answer: %s", async (_how, text) => {
    expect(await credentials(text)).toContain("answer_statement:described");
  });

  it.each([
    ["pt NIF named by the tax office", "O número que as Finanças lhe deram é 153349387.", "national_id:pt_nif"],
    ["tr TCKN named by the id card, inflected", "Kimlikteki numarası 28746045208, randevu için lazım.", "national_id:tr_tckimlik"],
    ["jp My Number in its card grouping", "9694 1638 3260", "national_id:jp_my_number"],
    ["a NINO named by HMRC, specimen prefix", "The number HMRC knows her by is QQ 12 34 56 A.", "named_id_number"],
    ["pl id card, genitive", "Numer jego dowodu osobistego to CKW840271.", "named_id_number"],
  ])("C19-FORBID: an id named indirectly: %s", async (_how, text, label) => {
    expect(await labels(text)).toContain(label);
  });

  it.each([
    ["a TCKN failing its check digit", "Test dosyasındaki kimlik no 28746045209 reddedilmeli."],
    ["My Number failing its check digit", "9694 1638 3262"],
  ])("C19-FORBID: %s is no identifier", async (_how, text) => {
    expect((await findings(text)).filter((f) => f.class === "biometrics_ids" && f.label.startsWith("national_id"))).toEqual([]);
  });
});
