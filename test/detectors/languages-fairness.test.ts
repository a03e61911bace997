import { stopReasonJudge, type StopReasonOf } from "../support/judge";

/**
 * Issue 21 items 3 and 5 through the real detectors (eld language identification, nlp.js stems,
 * the per-language lexicons of policies/memgate/forbidden/languages/) and the real compiled
 * policy: one STORE with explicit consent per text, as scripts/eval-detectors.ts makes it.
 */
let judge: StopReasonOf;
beforeAll(async () => {
  judge = await stopReasonJudge();
});

const all = async (texts: string[], category?: string): Promise<string[]> => {
  const out: string[] = [];
  for (const text of texts) out.push(await judge(text, category));
  return out;
};

describe("C19-FORBID §4 in eleven languages (issue 21 item 3)", () => {
  // The same six statements in en, de, fr, es, it, pt, nl, pl, sv, tr, ja: orientation, medication and
  // condition, religion, politics, union, prison. Written for this test, not taken from a corpus.
  const statements: Record<string, string[]> = {
    en: [
      "He is homosexual.",
      "She takes fluoxetine for depression.",
      "He is a Jehovah's Witness.",
      "He votes for the Greens.",
      "She is a union member.",
      "He was in prison.",
    ],
    de: [
      "Er ist homosexuell.",
      "Sie nimmt Fluoxetin gegen Depressionen.",
      "Er ist ein Zeuge Jehovas.",
      "Er wählt die Grünen.",
      "Sie ist Mitglied der Gewerkschaft.",
      "Er war im Gefängnis.",
    ],
    fr: [
      "Il est homosexuel.",
      "Elle prend de la fluoxétine contre la dépression.",
      "Il est témoin de Jéhovah.",
      "Il vote pour les écologistes du parti vert.",
      "Elle est syndiquée.",
      "Il était en prison.",
    ],
    es: [
      "Él es homosexual.",
      "Ella toma fluoxetina para la depresión.",
      "Él es testigo de Jehová.",
      "Él vota al partido verde.",
      "Ella está afiliada al sindicato.",
      "Él estuvo en la cárcel.",
    ],
    it: [
      "Lui è omosessuale.",
      "Lei prende la fluoxetina per la depressione.",
      "Lui è testimone di Geova.",
      "Lui vota per il partito dei Verdi.",
      "Lei è iscritta al sindacato.",
      "Lui è stato in prigione.",
    ],
    pt: [
      "Ele é homossexual.",
      "Ela toma fluoxetina para a depressão.",
      "Ele é testemunha de Jeová.",
      "Ele vota no partido verde e é militante.",
      "Ela é sindicalizada.",
      "Ele esteve na prisão.",
    ],
    nl: [
      "Hij is homoseksueel.",
      "Zij slikt fluoxetine tegen depressie.",
      "Hij is getuige van Jehova.",
      "Hij stemt op GroenLinks.",
      "Zij is lid van de vakbond.",
      "Hij heeft in de gevangenis gezeten.",
    ],
    pl: [
      "On jest homoseksualistą.",
      "Ona bierze fluoksetynę na depresję.",
      "On jest świadkiem Jehowy.",
      "On głosuje na partię Zielonych.",
      "Ona należy do związku zawodowego.",
      "On siedział w więzieniu.",
    ],
    sv: [
      "Han är homosexuell.",
      "Hon tar fluoxetin mot depression.",
      "Han är ett av Jehovas vittnen.",
      "Han röstar på Miljöpartiet.",
      "Hon är med i facket.",
      "Han satt i fängelse.",
    ],
    tr: [
      "O eşcinsel.",
      "Depresyon için fluoksetin kullanıyor.",
      "O bir Yehova Şahidi.",
      "Her seçimde CHP'ye oy veriyor.",
      "O bir sendika üyesi.",
      "Hapiste yattı.",
    ],
    ja: [
      "彼は同性愛者です。",
      "彼女はうつ病でフルオキセチンを飲んでいます。",
      "彼はエホバの証人です。",
      "彼は共産党に投票しています。",
      "彼女は労働組合の組合員です。",
      "彼は刑務所に入っていました。",
    ],
  };
  it.each(Object.keys(statements))("C19-FORBID: orientation, medication, religion, politics, union and prison are refused in %s", async (lang) => {
    expect(await all(statements[lang])).toEqual(statements[lang].map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: a medication name is refused whatever the language around it (sertraline, fluoxetine, clonazepam)", async () => {
    const texts = [
      "Mi tío toma sertralina.",
      "Mein Onkel nimmt Sertralin.",
      "Mój wujek bierze sertralinę.",
      "Min farbror tar sertralin.",
      "Dayım sertralin kullanıyor.",
    ];
    expect(await all(texts)).toEqual(texts.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: everyday texts in the eight languages are stored", async () => {
    const texts = [
      "I like my coffee black.",
      "Ich trinke meinen Tee ohne Zucker.",
      "Je préfère les réunions le matin.",
      "Prefiero las respuestas cortas.",
      "Preferisco le risposte brevi.",
      "Prefiro respostas curtas.",
      "Ik wil korte antwoorden.",
      "Wolę krótkie odpowiedzi.",
    ];
    expect(await all(texts)).toEqual(texts.map(() => "SUCCESS_STORED"));
  });

  it("C19-FORBID: an English word is not read inside another language's word (Portuguese 'sexta' is Friday, Swedish 'sex' six); Adventists and the Sabbath count in every language", async () => {
    const stored = [
      "Entregar o relatório até sexta.",
      "Prefiro reuniões à sexta-feira de manhã.",
      "El sexto punto del orden del día va al final.",
      "Han har spelat i ett band i sex år.",
    ];
    expect(await all(stored)).toEqual(stored.map(() => "SUCCESS_STORED"));
    const refused = [
      "He is a Seventh-day Adventist.",
      "Sou adventista do sétimo dia.",
      "Ella es adventista y guarda el shabat.",
      "Il est adventiste.",
      "Er ist Adventist und hält den Sabbat.",
      "Hij is adventist.",
      "Jest adwentystą.",
    ];
    expect(await all(refused)).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: an English context word that is an everyday word elsewhere does not clear a finding (French 'cache' hides, 'en tenant compte', German 'Job', Swedish 'vet' knows, Dutch 'vet' fat); 'the cache', 'the nightly job', 'the vet' still do", async () => {
    const refused = [
      "Il cache sa dépression depuis deux ans.",
      "On cache son homosexualité au travail.",
      "Elle se cache depuis sa condamnation pour fraude.",
      "Sie hat ihren Job verloren, weil sie an Depressionen leidet.",
      "Sie leidet an Depressionen, sagt ihr Job-Coach.",
      "On est en procès contre le constructeur pour vices cachés.",
      "En tenant compte de sa dépression, elle travaille à mi-temps.",
      "Han vet att han har depression.",
      "Hon vet att hon är hiv-positiv och tar medicin.",
      "Hij eet te vet en heeft diabetes.",
    ];
    expect(await all(refused)).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
    const stored = [
      "The religion field is read from the cache; clear the cache after the migration.",
      "The nightly job exports the depression screening form as CSV.",
      "Le cache Redis garde le formulaire de religion pendant une heure.",
      "Content moderation flags posts about religion for review.",
      "The vet says our dog has diabetes.",
      "Each tenant keeps its own religion field mapping.",
    ];
    expect(await all(stored)).toEqual(stored.map(() => "SUCCESS_STORED"));
  });
});

describe("C19-FORBID §4.8: a prediction about a named person's behaviour is profiling", () => {
  it("C19-FORBID: '<name> will probably hand in her notice' is refused as 'the user will probably quit' is; a build's prediction is stored", async () => {
    expect(await all(["Priyanka will probably hand in her notice before Q3.", "Marco is likely to resign after the reorg."])).toEqual([
      "FORBIDDEN_CATEGORY",
      "FORBIDDEN_CATEGORY",
    ]);
    expect(await all(["The nightly build will probably fail again on Windows."])).toEqual(["SUCCESS_STORED"]);
  });
});

describe("C19-FORBID: statements with no subject, and a person's job (issue 21 item 3)", () => {
  it("C19-FORBID §4.7: a criminal defence lawyer or a prison chaplain is a job; a record, a sentence or needing such a lawyer after an arrest is not", async () => {
    const jobs = ["User is a criminal defence lawyer; keep citations in OSCOLA style.", "I work as a prison chaplain and edit the newsletter."];
    expect(await all(jobs)).toEqual(jobs.map(() => "SUCCESS_STORED"));
    const records = ["He has a criminal record.", "She was in prison for two years.", "My brother needs a criminal defence lawyer after his arrest."];
    expect(await all(records)).toEqual(records.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: a verb opening a sentence with no subject makes it about a person (pro-drop, terse notes)", async () => {
    const texts = ["È evangelico pentecostale.", "É militante do PCP.", "Nimmt seit März Lithium.", "Vota Lega da sempre.", "Jest w ciąży, termin w czerwcu."];
    expect(await all(texts)).toEqual(texts.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: the same opening verb about software is stored", async () => {
    const texts = ["È un bug noto del modulo di login.", "Es un problema del servidor de pruebas.", "Ist das Feature schon deployed?"];
    expect(await all(texts)).toEqual(texts.map(() => "SUCCESS_STORED"));
  });

  it("C19-FORBID: a job word names the job, not the person's health or record; the institution still counts", async () => {
    const jobs = [
      "Es enfermera en urgencias, turnos rotativos, mejor mandarle las cosas por escrito.",
      "Fa il farmacista ospedaliero e vuole le tabelle ordinate.",
      "She's a police officer in the cyber unit, skip the basics on phishing.",
      "Elle est avocate fiscaliste, les avis toujours en PDF avec l'en-tête du cabinet.",
      "Sou advogado trabalhista e preciso de resumos curtos.",
      "Sie ist Anwältin beim Amtsgericht und braucht kurze Zusammenfassungen.",
      "Hon är fängelsedirektör och vill ha korta sammanfattningar.",
      "Jestem kapelanem w więzieniu i redaguję gazetkę, duża czcionka.",
      "Cezaevinde imamlık yapıyor, bülteni büyük puntoyla hazırla.",
      "彼女は弁護士で、報告書はいつもPDFで欲しいそうです。",
      "Miguel is in-house counsel for the teachers' union, so his drafts use the union's house style.",
      "Hij is jurist bij de vakbond en schrijft memo's in de huisstijl.",
      "Es abogada del sindicato y quiere resúmenes breves.",
    ];
    expect(await all(jobs)).toEqual(jobs.map(() => "SUCCESS_STORED"));
    expect(await judge("La policía detuvo a mi vecino ayer.")).toBe("FORBIDDEN_CATEGORY");
    const records = [
      "Mein Bruder muss nächste Woche wegen Körperverletzung vors Amtsgericht.",
      "Mio fratello è in carcere da due anni per furto.",
      "Min bror satt i fängelset i tre år.",
      "Kardeşi iki yıldır cezaevinde yatıyor.",
      "Zij zit bij de vakbond en doet mee aan de staking.",
      "Mi hermano está en el sindicato y va a la huelga.",
      "Miguel joined the teachers' union last year and goes to every strike meeting.",
    ];
    expect(await all(records)).toEqual(records.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: fiction, team jargon, catering, verbs and software faults are stored; the personal readings are refused", async () => {
    const stored = [
      "She loves crime novels and just binged a courtroom drama series.",
      "Läser gärna deckare av Camilla Läckberg, särskilt de om polisen i Fjällbacka.",
      "Polisiye romanları seviyor, en son bir mahkeme dizisi izledi.",
      "Wenn ich „Taufe“ sage, meine ich das Umbenennen eines Branches nach unserem Teamjargon.",
      'No nosso jargão, "missa" é a reunião de segunda com a equipe.',
      "Catering na konferencję: 60 obiadów, w tym 10 wege, 4 halal i 3 koszerne.",
      "Comprar presente de amigo secreto até sexta, limite de 50 reais.",
      "Mio padre è partito ieri per Milano in treno.",
      "Fiquei preso no trânsito e cheguei atrasado à reunião.",
      "Ich mag Fußball, besonders Elfmeter und Strafstöße in der Nachspielzeit.",
      "The symptoms of the memory leak show up after two hours of load",
      "Use the prescribed folder layout from the style guide",
      "The parser bails out on the first syntax error.",
      "My sister maintains the Homebrew formula; tag her on changes under Formula/.",
    ];
    const refused = [
      "Mi madre va a misa todos los domingos.",
      "Je mange uniquement halal, choisis des restaurants en conséquence.",
      "Mia sorella è atea e non va mai in chiesa.",
      "Marco vota sempre per il partito di Meloni.",
      "O Rui está preso há dois anos.",
      "Her symptoms got worse after the second dose.",
      "He is out on bail until the hearing.",
    ];
    expect(await all(stored)).toEqual(stored.map(() => "SUCCESS_STORED"));
    expect(await all(refused)).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
  });
});

describe("C19-FORBID: the same rule for every group (issue 21 item 5)", () => {
  const observances = [
    "Christmas",
    "Easter",
    "Good Friday",
    "Eid al-Fitr",
    "Eid al-Adha",
    "Diwali",
    "Holi",
    "Yom Kippur",
    "Rosh Hashanah",
    "Hanukkah",
    "Vesak",
    "Vaisakhi",
    "Guru Nanak Gurpurab",
    "Paryushana",
    "Naw-Ruz",
    "Nowruz",
    "Lunar New Year",
    "Obon",
    "Orthodox Christmas",
    "Kwanzaa",
  ];
  const nationalities = [
    "German",
    "French",
    "Nigerian",
    "Indian",
    "Pakistani",
    "Chinese",
    "Japanese",
    "Mexican",
    "Brazilian",
    "American",
    "British",
    "Polish",
    "Turkish",
    "Iranian",
    "Israeli",
    "Palestinian",
    "Egyptian",
    "Kenyan",
    "Vietnamese",
    "Ukrainian",
    "Russian",
    "Somali",
    "Ethiopian",
    "Moroccan",
  ];
  const languages = ["English", "Spanish", "Arabic", "Hindi", "Hebrew", "Urdu", "Mandarin", "Polish", "Turkish", "Farsi", "Swahili", "Yoruba"];

  /** Every frame, with each group in turn, must get one answer; neutral frames must be stored. */
  async function pairs(frames: [string, string][], groups: string[]): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const [category, frame] of frames)
      out[frame] = await all(
        groups.map((g) => frame.replace("{}", g)),
        category,
      );
    return out;
  }

  it("C19-FORBID: a scheduling note about any of 20 observances of 12 religions is stored alike (office closed, no meetings, a day off, a greeting)", async () => {
    const result = await pairs(
      [
        ["PROJECT_CONFIG", "The office is closed for {}; plan the release for the next working day."],
        ["WORKFLOW_DEFAULT", "No deploys on {}: support runs a skeleton crew."],
        ["PREFERENCE", "I'm off for {} next week, so move my reviews."],
        ["PROJECT_CONFIG", "Send customers a short {} greeting two days before."],
      ],
      observances,
    );
    for (const answers of Object.values(result)) expect(answers).toEqual(observances.map(() => "SUCCESS_STORED"));
  });

  it("C19-FORBID: practising an observance is refused for every religion alike, Christmas and Easter included", async () => {
    const result = await pairs(
      [
        ["PREFERENCE", "I fast during {} every year."],
        ["PREFERENCE", "My mother observes {} strictly."],
      ],
      observances,
    );
    for (const answers of Object.values(result)) expect(answers).toEqual(observances.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: a frame about any of 24 nationalities gets one answer for all (stored unless it states the person's national origin, §4.1)", async () => {
    const stored = await pairs(
      [
        ["PROJECT_CONFIG", "The client team is {}, so keep the weekly call in their morning."],
        ["PREFERENCE", "I like {} food for the team lunch."],
        ["PROJECT_CONFIG", "Our {} colleagues review the translations before release."],
      ],
      nationalities,
    );
    for (const answers of Object.values(stored)) expect(answers).toEqual(nationalities.map(() => "SUCCESS_STORED"));
    const origin = await pairs([["PREFERENCE", "The user is {} and prefers metric units."]], nationalities);
    for (const answers of Object.values(origin)) expect(new Set(answers).size).toBe(1);
  });

  // Each language's own frame with the groups that language's public talk singles out beside the others
  // (written for this test): blind split 9 found a Dutch invoice frame refused for "Marokkaanse" alone,
  // because words naming one group counted as identity topics beside any person word ("klanten").
  const nationalFrames: Record<string, [string, string[]]> = {
    nl: [
      "Facturen voor onze {} klanten gaan op de eerste van de maand de deur uit.",
      [
        "Duitse",
        "Franse",
        "Marokkaanse",
        "Turkse",
        "Surinaamse",
        "Antilliaanse",
        "Molukse",
        "Poolse",
        "Koerdische",
        "Syrische",
        "Kaapverdische",
        "Indonesische",
        "Amerikaanse",
        "Chinese",
      ],
    ],
    de: [
      "Rechnungen an unsere {} Kunden gehen am Monatsersten raus.",
      [
        "deutschen",
        "französischen",
        "türkischen",
        "kurdischen",
        "syrischen",
        "kosovarischen",
        "polnischen",
        "russischen",
        "rumänischen",
        "italienischen",
        "afghanischen",
        "griechischen",
        "amerikanischen",
        "chinesischen",
      ],
    ],
    fr: [
      "Les factures de nos clients {} partent le 1er du mois.",
      [
        "allemands",
        "français",
        "maghrébins",
        "marocains",
        "algériens",
        "tunisiens",
        "sénégalais",
        "maliens",
        "comoriens",
        "haïtiens",
        "turcs",
        "kurdes",
        "américains",
        "chinois",
      ],
    ],
    es: [
      "Las facturas de nuestros clientes {} salen el día 1.",
      [
        "alemanes",
        "franceses",
        "marroquíes",
        "rumanos",
        "ecuatorianos",
        "colombianos",
        "venezolanos",
        "argelinos",
        "chinos",
        "gitanos",
        "estadounidenses",
        "peruanos",
        "bolivianos",
        "dominicanos",
      ],
    ],
    it: [
      "Le fatture dei nostri clienti {} partono il primo del mese.",
      [
        "tedeschi",
        "francesi",
        "marocchini",
        "albanesi",
        "rumeni",
        "senegalesi",
        "bengalesi",
        "filippini",
        "cinesi",
        "arabi",
        "egiziani",
        "ucraini",
        "americani",
        "nigeriani",
      ],
    ],
    pt: [
      "As faturas dos nossos clientes {} saem no dia 1.",
      [
        "alemães",
        "franceses",
        "cabo-verdianos",
        "angolanos",
        "brasileiros",
        "ciganos",
        "moçambicanos",
        "guineenses",
        "romenos",
        "ucranianos",
        "chineses",
        "indianos",
        "americanos",
        "nepaleses",
      ],
    ],
    pl: [
      "Faktury dla naszych klientów {} wychodzą pierwszego dnia miesiąca.",
      [
        "niemieckich",
        "francuskich",
        "ukraińskich",
        "czeczeńskich",
        "białoruskich",
        "rosyjskich",
        "wietnamskich",
        "romskich",
        "litewskich",
        "gruzińskich",
        "tureckich",
        "arabskich",
        "amerykańskich",
        "chińskich",
      ],
    ],
    sv: [
      "Fakturor till våra {} kunder skickas den första i månaden.",
      [
        "tyska",
        "franska",
        "kurdiska",
        "syriska",
        "somaliska",
        "turkiska",
        "assyriska",
        "finska",
        "polska",
        "iranska",
        "irakiska",
        "eritreanska",
        "amerikanska",
        "kinesiska",
      ],
    ],
  };

  it.each(Object.keys(nationalFrames))("C19-FORBID: a neutral %s frame about 14 nationalities and ethnic groups gets one answer, stored", async (lang) => {
    const [frame, groups] = nationalFrames[lang];
    const answers = await all(
      groups.map((g) => frame.replace("{}", g)),
      "PROJECT_CONFIG",
    );
    expect(Object.fromEntries(groups.map((g, i) => [g, answers[i]]))).toEqual(Object.fromEntries(groups.map((g) => [g, "SUCCESS_STORED"])));
  });

  it("C19-FORBID §4.1: origin said of a person is judged alike whatever the group (roots, descent)", async () => {
    const sameAnswer: string[][] = [
      ["Sie hat türkische Wurzeln.", "Sie hat italienische Wurzeln.", "Sie hat kurdische Wurzeln."],
      ["Zij heeft Marokkaanse roots.", "Zij heeft Duitse roots.", "Zij heeft Surinaamse roots."],
      ["Hon har kurdiska rötter.", "Hon har norska rötter."],
      ["Ona ma ukraińskie korzenie.", "Ona ma niemieckie korzenie."],
      ["Jan jest Turkiem.", "Jan jest Szwedem.", "Jan jest Albańczykiem.", "Jan jest Niemcem."],
      ["Hij is Marokkaan.", "Hij is Duitser."],
      ["Er ist Kurde.", "Er ist Schwede."],
    ];
    for (const texts of sameAnswer) expect(new Set(await all(texts)).size).toBe(1);
  });

  it("C19-FORBID: a frame about any of 12 languages is stored alike", async () => {
    const result = await pairs(
      [
        ["PREFERENCE", "The user reads {} and wants replies in English."],
        ["PROJECT_CONFIG", "Translate the onboarding guide into {} next quarter."],
      ],
      languages,
    );
    for (const answers of Object.values(result)) expect(answers).toEqual(languages.map(() => "SUCCESS_STORED"));
  });

  it("C19-FORBID §4.5: a city or a time zone is not precise location; an address, a commute and whereabouts are", async () => {
    const stored = [
      "User lives in Denver, so show Mountain Time.",
      "The user is based in Lyon; schedule calls in CET.",
      "I live in Toronto and prefer metric units.",
    ];
    const refused = ["The user lives at 42 Elm Street.", "He commutes by train every morning at 7:40.", "The user is currently in Bali until Friday."];
    expect(await all(stored)).toEqual(stored.map(() => "SUCCESS_STORED"));
    expect(await all(refused)).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: a device, an occupation, a pet's condition, a marriage and a jailbreak talk are stored; the personal readings are refused", async () => {
    const stored = [
      "I prefer printed recipes over recipes on a tablet.",
      "The user works as a nurse on the night shift.",
      "My sister is a pharmacist.",
      "Our cat is diabetic, so remind me to buy the special cat food.",
      "The user is married and prefers meetings before 5pm.",
      "The talk covers jailbreak techniques against LLMs and how our filter blocks them.",
    ];
    const refused = [
      "She takes a tablet every morning for her heart.",
      "My doctor prescribed me Xanax.",
      "My husband is diabetic.",
      "He was jailed for fraud.",
    ];
    expect(await all(stored)).toEqual(stored.map(() => "SUCCESS_STORED"));
    expect(await all(refused)).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
  });
});

describe("C19-FORBID: the words of a job's name are not read as a record (dev batch 9, T4)", () => {
  it("C19-FORBID: a prison guard's job names a prison, not a sentence; the sentence beside it still counts", async () => {
    const jobs = [
      "Mijn buurman is gevangenisbewaarder en werkt in ploegen, dus de barbecue is op zondag.",
      "Mi vecino es funcionario de prisiones y trabaja por turnos.",
      "Min granne är kriminalvårdare och jobbar skift.",
    ];
    expect(await all(jobs)).toEqual(jobs.map(() => "SUCCESS_STORED"));
    const records = ["Mijn neef zit in de gevangenis en mijn broer is gevangenisbewaarder.", "Mijn buurman zat twee jaar in de gevangenis."];
    expect(await all(records)).toEqual(records.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: a pet's mood is the animal's, as its health is", async () => {
    expect(await judge("O cachorro tomou vacina ontem e está meio abatido; lembre-me de comprar ração leve.")).toBe("SUCCESS_STORED");
  });

  it("C19-FORBID: an office keeping short hours during a holiday is a schedule; a person keeping or fasting it is religion", async () => {
    expect(await judge("The Jakarta office keeps shorter hours during Ramadan, so plan the weekly sync for 9am their time.")).toBe("SUCCESS_STORED");
    const religion = ["She fasts during Ramadan every year.", "He keeps Ramadan strictly."];
    expect(await all(religion)).toEqual(religion.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: 'since 3.11' is no SIN; a SIN still is", async () => {
    expect(await judge("An exception to this rule is `z.enum` as is supported since 3.11.3 Relative JSON pointers.", "PROJECT_CONFIG")).toBe("SUCCESS_STORED");
    expect(await judge("My SIN: 046 454 286")).toBe("FORBIDDEN_CATEGORY");
  });
});

describe("C19-FORBID §4.1: a person said to be of a nationality or ethnic group, in seven languages, for every group alike", () => {
  // Written for this test: a person stated to be of the group (refused), and the same language's adjective said
  // of a thing (stored). The entries come from scripts/lexicon/demonyms.py, the same forms for every group.
  const frames: Record<string, { person: [string, string[]]; thing: [string, string[]] }> = {
    de: {
      person: [
        "Mein Kollege ist {} und möchte kurze Antworten.",
        [
          "Türke",
          "Schwede",
          "Kurde",
          "Marokkaner",
          "Pole",
          "Italiener",
          "Deutscher",
          "Amerikaner",
          "Syrer",
          "Rumäne",
          "Franzose",
          "Sinto",
          "Tamile",
          "Uigure",
          "Tatare",
          "Molukker",
        ],
      ],
      thing: [
        "Das Menü in der Kantine ist {} und kostet zehn Euro.",
        [
          "türkisch",
          "schwedisch",
          "kurdisch",
          "marokkanisch",
          "polnisch",
          "italienisch",
          "deutsch",
          "amerikanisch",
          "syrisch",
          "rumänisch",
          "französisch",
          "englisch",
          "chinesisch",
        ],
      ],
    },
    nl: {
      person: [
        "Mijn collega is {} en wil korte antwoorden.",
        [
          "Marokkaan",
          "Turk",
          "Duitser",
          "Zweed",
          "Koerd",
          "Surinamer",
          "Pool",
          "Molukker",
          "Italiaan",
          "Amerikaan",
          "Syriër",
          "Roemeen",
          "Fransman",
          "Engelsman",
        ],
      ],
      thing: [
        "De handleiding van de printer is {} en telt veertig pagina's.",
        ["Engels", "Duits", "Frans", "Marokkaans", "Turks", "Pools", "Zweeds", "Italiaans", "Spaans", "Chinees", "Arabisch", "Koerdisch"],
      ],
    },
    sv: {
      person: [
        "Min kollega är {} och vill ha korta svar.",
        ["marockan", "turk", "kurd", "svensk", "norrman", "finne", "polsk", "tysk", "somalier", "syrier", "irakier", "iranier", "eritrean", "amerikan", "same"],
      ],
      thing: [
        "Menyn på restaurangen är {} och kostar hundra kronor.",
        ["svensk", "turkisk", "kurdisk", "marockansk", "polsk", "tysk", "fransk", "italiensk", "kinesisk", "syrisk", "somalisk", "finsk"],
      ],
    },
    fr: {
      person: [
        "Mon collègue est {} et préfère les réponses courtes.",
        [
          "marocain",
          "algérien",
          "turc",
          "allemand",
          "suédois",
          "kurde",
          "polonais",
          "sénégalais",
          "français",
          "chinois",
          "rom",
          "tamoul",
          "berbère",
          "américain",
        ],
      ],
      thing: [
        "Le menu de la cantine est {} et coûte douze euros.",
        ["marocain", "algérien", "turc", "allemand", "suédois", "libanais", "français", "chinois", "italien", "japonais", "grec", "indien"],
      ],
    },
    es: {
      person: [
        "Mi compañero es {} y prefiere respuestas cortas.",
        ["marroquí", "argelino", "turco", "alemán", "sueco", "kurdo", "polaco", "rumano", "ecuatoriano", "chino", "gitano", "colombiano", "francés", "español"],
      ],
      thing: [
        "El vino de la carta es {} y cuesta doce euros.",
        ["francés", "italiano", "chileno", "argentino", "español", "alemán", "marroquí", "portugués", "griego", "turco", "libanés", "sudafricano"],
      ],
    },
    it: {
      person: [
        "Il mio collega è {} e preferisce risposte brevi.",
        [
          "marocchino",
          "albanese",
          "rumeno",
          "tedesco",
          "svedese",
          "curdo",
          "senegalese",
          "cinese",
          "italiano",
          "filippino",
          "egiziano",
          "ucraino",
          "rom",
          "sinto",
        ],
      ],
      thing: [
        "Il menù della mensa è {} e costa dieci euro.",
        ["italiano", "francese", "tedesco", "marocchino", "cinese", "giapponese", "greco", "turco", "libanese", "indiano", "messicano", "spagnolo"],
      ],
    },
    pt: {
      person: [
        "O meu colega é {} e prefere respostas curtas.",
        [
          "cabo-verdiano",
          "angolano",
          "brasileiro",
          "alemão",
          "sueco",
          "curdo",
          "cigano",
          "romeno",
          "ucraniano",
          "chinês",
          "indiano",
          "marroquino",
          "português",
          "francês",
        ],
      ],
      thing: [
        "O vinho da carta é {} e custa doze euros.",
        ["português", "francês", "italiano", "chileno", "argentino", "espanhol", "alemão", "sul-africano", "grego", "marroquino", "brasileiro", "australiano"],
      ],
    },
  };

  it.each(Object.keys(frames))(
    "C19-FORBID: in %s, '<person> is <group>' is refused for every group and a thing's adjective is stored for every group",
    async (lang) => {
      const { person, thing } = frames[lang];
      const refused = await all(person[1].map((g) => person[0].replace("{}", g)));
      expect(Object.fromEntries(person[1].map((g, i) => [g, refused[i]]))).toEqual(Object.fromEntries(person[1].map((g) => [g, "FORBIDDEN_CATEGORY"])));
      const stored = await all(
        thing[1].map((g) => thing[0].replace("{}", g)),
        "PROJECT_CONFIG",
      );
      expect(Object.fromEntries(thing[1].map((g, i) => [g, stored[i]]))).toEqual(Object.fromEntries(thing[1].map((g) => [g, "SUCCESS_STORED"])));
    },
  );

  it("C19-FORBID: stateless and minority groups are named in a neutral frame as any group is, and refused said of a person as any group is", async () => {
    const stored = [
      "Fakturor till våra samiska kunder skickas den första i månaden.",
      "Fakturor till våra romska kunder skickas den första i månaden.",
      "Die Rechnungen an unsere jenischen Kunden gehen am Ersten raus.",
      "Die Rechnungen an unsere afrodeutschen Kunden gehen am Ersten raus.",
      "De facturen voor onze Hindoestaanse klanten gaan op de eerste de deur uit.",
      "Les factures de nos clients manouches partent le premier du mois.",
      "Les factures de nos clients berbères partent le premier du mois.",
      "Le fatture dei nostri clienti zingari partono il primo del mese.",
    ];
    expect(await all(stored, "PROJECT_CONFIG")).toEqual(stored.map(() => "SUCCESS_STORED"));
    const refused = [
      "Min kollega är same och vill ha korta svar.",
      "Hon är rom.",
      "Mein Kollege ist Jenischer.",
      "Meine Kollegin ist Sintiza.",
      "Mijn collega is Hindoestaans.",
      "Il est manouche.",
      "Elle est berbère.",
      "Lui è zingaro.",
      "Han är tornedaling.",
    ];
    expect(await all(refused)).toEqual(refused.map(() => "FORBIDDEN_CATEGORY"));
  });

  it("C19-FORBID: a language named after a group, Italian/Portuguese 'e' (and), a team, a mother tongue and a dish are not a person's origin", async () => {
    const stored = [
      "Die Dokumentation des Druckers ist Englisch.",
      "De documentatie van de API is Engels.",
      "Le manuel est en français et en anglais.",
      "Il manuale della stampante esiste in francese e italiano.",
      "O manual da impressora existe em inglês e português.",
      "Gränssnittet finns på svenska och engelska.",
      "Notre équipe de Casablanca est marocaine, prévoir les appels le matin.",
      "Nuestro equipo de Quito es ecuatoriano, las llamadas por la mañana.",
      "Il nostro team di Tirana è albanese, fissare le call al mattino.",
      "A nossa equipa de Luanda é angolana, marcar as chamadas de manhã.",
      "Meine Muttersprache ist Türkisch, bitte antworte trotzdem auf Deutsch.",
      "Mijn lievelingseten is Marokkaans.",
    ];
    const answers = await all(stored, "PROJECT_CONFIG");
    expect(answers).toEqual(stored.map(() => "SUCCESS_STORED"));
  });
});
