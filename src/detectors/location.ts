import type { Detector, Finding } from "./detector";
import { matchesOf } from "./matches";

// Decimal degrees as a pair: 51.5074, -0.1278 (at least 3 decimals each: street-level precision).
// A full stop right after the pair ends its sentence ("… 41.38506, 2.17340."); a dot and a digit do not.
const DECIMAL_PAIR = /(?<![\d.])([-+]?\d{1,3}\.\d{4,})\s*[,; ]\s*([-+]?\d{1,3}\.\d{4,})(?!\d|\.\d)/g;

/** A latitude/longitude pair in range, not two small fractions (learning rates, thresholds). */
// Decimal commas, a slash between them (48,13743 / 11,57549), or hemisphere letters (43.2965 N, 5.3698 E).
const DECIMAL_COMMA_PAIR = /(?<![\d.,])([-+]?\d{1,3}[.,]\d{4,})\s*(?:°\s*)?[NS]?\s*[/;|]\s*([-+]?\d{1,3}[.,]\d{4,})(?!\d|[.,]\d)/g;
const HEMISPHERE_PAIR = /(?<![\d.])(\d{1,3}[.,]\d{3,})\s*°?\s*[NS]\b\s*[,;/ ]\s*(\d{1,3}[.,]\d{3,})\s*°?\s*[EWO]\b/g;

function coordinatePair(text: string): boolean {
  const pairs = [...matchesOf(DECIMAL_PAIR, text), ...matchesOf(DECIMAL_COMMA_PAIR, text), ...matchesOf(HEMISPHERE_PAIR, text)];
  for (const [, a, b] of pairs) {
    const lat = Number(a.replace(",", "."));
    const lon = Number(b.replace(",", "."));
    if (Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (Math.abs(lat) >= 1 || Math.abs(lon) >= 1)) return true;
  }
  return false;
}
// Degrees, minutes, seconds: 40°26'46"N 79°58'56"W, or with spaces.
const DMS = /\d{1,3}\s*°\s*\d{1,2}\s*['′]\s*(?:\d{1,2}(?:[.,]\d+)?\s*(?:["″]|′′|'')\s*)?[NSEWO]\b/i;

/**
 * A commute (seed 000 §4.5 "travel patterns, commute details"): a daily routine, a clock time and
 * a way of travelling, in one sentence, in the covered languages ("takes the S1 at 6:50 every
 * morning", "chaque matin … le RER B à 7 h 12", "codziennie o 6:40 jedzie SKM-ką"). A scheduled
 * job ("every day at 9:00 run the backup") has no way of travelling.
 */
const DAILY =
  /\b(?:every (?:day|morning|evening|weekday|night)|each (?:day|morning|weekday)|daily|weekdays|jeden (?:tag|morgen|abend)|täglich|werktags|chaque (?:jour|matin|soir)|tous les (?:jours|matins|soirs)|cada (?:día|dia|mañana|manhã)|todos los días|todas las mañanas|todos os dias|todas as manhãs|ogni (?:giorno|mattina|sera)|elke (?:dag|ochtend|avond|werkdag)|iedere (?:dag|ochtend)|codziennie|każdego (?:dnia|ranka|rana)|varje (?:dag|morgon|kväll)|her (?:gün|sabah|akşam))\b|毎朝|毎日|平日/iu;
const CLOCK =
  /(?<![\d.,:])(?:[01]?\d|2[0-3])\s?(?:[:.h]|\sh\s)\s?[0-5]\d(?![\d])|\d{1,2}時|\bkwart (?:over|voor) \p{L}+|(?<![\p{L}])(?:kl\.|om|at|um|à|a las|alle|às|o|vers|around|gegen|hacia las|verso le|por volta das|rond|około|runt|by|od|do|from|von|ab|dalle|desde las|das|van)\s+(?:[01]?\d|2[0-3])(?:[:.][0-5]\d|\s?h(?![\p{L}]))?(?![\d\p{L}])|(?<![\p{L}])(?:a las|alle|às|verso le|hacia las|por volta das|sobre as|om|rond) (?:una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|due|tre|quattro|cinque|sei|sette|otto|nove|dieci|undici|dodici|uma|duas|três|quatro|seis|sete|oito|nove|dez|onze|doze|zes|zeven|acht|negen|tien|elf|twaalf)(?! (?:días|dias|giorni|dagen|semanas|settimane|weken|meses|mesi|maanden|años|anni|anos|jaar)\b)(?![\p{L}])|(?:acht|negen|zeven) uur\b|[一二三四五六七八九十]{1,3}時|(?<![\p{L}])(?:(?:om|at|um|around|by) half (?:six|seven|eight|nine|zes|zeven|acht|negen)|half (?:six|seven|eight|nine)(?! (?:days?|weeks?|hours?|of))|halb (?:sieben|acht|neun)|kvart (?:i|över) (?:sju|åtta|nio|sex)|halv (?:sju|åtta|nio))(?![\p{L}])/iu;
const TRAVEL =
  /\b(?:train|bus|tram|metro|subway|tube|ferry|boat|bike|cycles?|drives?|commutes?|walks? to|rer|s-?bahn|u-?bahn|s\d{1,2}|u\d{1,2}|zug|bahn|radelt|fährt|pendelt|prend le|cercanías|frecciarossa|treno|regionale|trem|comboio|barco|barca|trein|fiets|fietst|rijdt|pociąg|skm|tramwaj|jedzie|pendeltåg\w*|tåg\w*|tvärbanan|tunnelbana\w*|cyklar|vapur|otobüs|metrobüs|電車|バス)\b|電車|通勤|歩いて|徒歩|自転車|(?:を|に)送って|(?<![\p{L}])(?:walks|walking|on foot|cuts through|to (?:the office|work)|zu fuß|läuft zu(?:r|m)|haltestelle|à pied|a pie|andando|caminando|a piedi|a pé|lopend|te voet|naar (?:haar|zijn|z'n) werk|pieszo|piechotą|till fots|till (?:jobbet|kontoret)|yürüyerek|işe|metrô|(?:coj[oe]|tom[ao]|prend[oe]|pega|apanha|nehme|nimmt|takes?|neemt?|biorę|bierze|tar) (?:el |il |o |den |die |the |de |lijn )?\d{1,3}(?![\d:.])|walks (?:the|his|her) dog|walks (?:his|her|their) (?:daughter|son|kids|children) to|(?:lleva|deja) a (?:la niña|el niño|los niños|su hija|su hijo|sus hijos)|accompagna (?:la bambina|il bambino|i bambini|la figlia|il figlio|i figli)|(?:leva|deixa) (?:a filha|o filho|os filhos|as crianças|a menina|o menino)|brengt (?:zijn|haar) (?:dochter|zoon|kinderen)|geht mit dem hund|gassi|sort (?:son|le) chien|saca al perro|porta (?:fuori )?il cane|passeia o cão|laat de hond uit|wychodzi z psem|rastar hunden|köpeğini gezdir\p{L}*)(?![\p{L}])/iu;
/** Leaving home at a time is a routine too ("sale de casa a las 7:30 y coge el cercanías"). */
const LEAVES_HOME =
  /家を出|\b(?:(?:is|are) out (?:of )?the door|leaves (?:the house|home|her flat|his flat|the flat|her apartment|his apartment)|verlässt(?: [^.]{1,20})? (?:das haus|die wohnung)|sets off from home|geht (?:um [^.]{1,12} )?aus dem haus|quitte (?:la maison|son domicile|chez (?:lui|elle))|part de chez (?:lui|elle)|sale de casa|salgo de casa|sai de casa|saio de casa|esce di casa|esco di casa|verlasse (?:das haus|die wohnung)|je quitte (?:la maison|mon domicile)|i leave (?:the house|home)|wychodzę z domu|gaat (?:de deur|van huis) uit|vertrekt (?:van|thuis)|vertrekt (?:[^.]{1,25} )?van huis|wychodzi z domu|lämnar (?:hemmet|huset)|går hemifrån|evden çıkıyor|evden çıkar)/iu;
/** A route from one named place to another ("von Oranienburg bis Friedrichstraße", "da Bologna a Firenze"): a commute without a clock time. */
const ROUTE =
  /(?<![\p{L}])(?:from|von|de|desde|da|do|van|z|ze|från)\s+\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?\s+(?:to|bis|nach|à|a|hasta|para|naar|tot|do|till)\s+(?:(?:der|die|den|la|le|el|o)\s+)?\p{Lu}/u;
/** Taking a named train or bus at a clock time is a routine too ("Prende il Frecciarossa delle 7:15 da Bologna"). */
const TAKES_TRANSPORT =
  /(?<![\p{L}])(?:(?:takes|catches) the (?:\d{1,2}[:.]\d{2} )?(?:train|bus|tram|ferry|metro|subway|tube)|nimmt (?:den|die|das) (?:zug|bahn|s-bahn|u-bahn|ice|bus|s\d|u\d)|prend (?:le|la) (?:train|tgv|ter|rer|bus|métro|tram|navette)|(?:coge|toma) el (?:tren|ave|cercanías|autobús|bus|metro)|prende (?:il|l'|la) ?(?:treno|frecciarossa|italo|regionale|bus|tram|metro|metropolitana)|(?:pega|apanha) o (?:comboio|trem|autocarro|ônibus|metro)|neemt de (?:trein|bus|tram|metro|intercity|sprinter)|bierze (?:pociąg|autobus|tramwaj)|łapie (?:pociąg|autobus|tramwaj)|tar (?:tåget|bussen|pendeltåget|tunnelbanan))/iu;
const commute = (text: string): boolean =>
  text
    .split(/(?<=[.!?。])\s+/)
    .some(
      (sentence) =>
        ((DAILY.test(sentence) || LEAVES_HOME.test(sentence)) && (CLOCK.test(sentence) || ROUTE.test(sentence)) && TRAVEL.test(sentence)) ||
        (TAKES_TRANSPORT.test(sentence) && CLOCK.test(sentence)),
    );

/** Whole words of any script (JavaScript's `\b` knows ASCII letters only), then words written without spaces. */
const words = (alternatives: string, unspaced = "", flags = "iu"): RegExp =>
  new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives})(?![\\p{L}\\p{N}_])${unspaced ? `|${unspaced}` : ""}`, flags);

/**
 * A routine that leaves someone alone at a known place (seed 000 §4.5, travel patterns): a recurring day
 * or time, a word for being alone and a place or an outing, in one sentence ("joggt jeden Morgen allein
 * durch den Volkspark", "le mercredi elle déjeune seule au parc", "los sábados está sola en la casa del
 * pueblo", "毎朝一人で駒沢公園を走っている"). Every covered language, both genders.
 */
const RECURRING = words(
  "every (?:day|morning|evening|weekday|night|weekend)|each (?:day|morning|weekday)|daily|weekdays|every (?:other )?(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|on (?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)|jeden (?:tag|morgen|abend|montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|jedes wochenende|täglich|werktags|montags|dienstags|mittwochs|donnerstags|freitags|samstags|sonntags|chaque (?:jour|matin|soir|lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|week-end)|tous les (?:jours|matins|soirs|lundis|mardis|mercredis|jeudis|vendredis|samedis|dimanches)|le (?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|week-end)|todas las (?:tardes|noches)|tutte le (?:sere|mattine)|todas as (?:noites|tardes)|cada (?:día|dia|mañana|manhã|lunes|martes|miércoles|jueves|viernes|sábado|domingo)|todos los días|todas las mañanas|los (?:lunes|martes|miércoles|jueves|viernes|sábados|domingos|fines de semana)|todos os dias|todas as manhãs|(?:aos|às) (?:segundas|terças|quartas|quintas|sextas|sábados|domingos)|toda (?:segunda|terça|quarta|quinta|sexta)(?:-feira)?|todas as (?:segundas|terças|quartas|quintas|sextas)(?:-feiras)?|todo (?:sábado|domingo)|todos os (?:sábados|domingos)|ogni (?:giorno|mattina|sera|lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica|fine settimana)|il (?:lunedì|martedì|mercoledì|giovedì|venerdì|sabato|domenica)|elke (?:dag|ochtend|avond|werkdag|(?:maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag)(?:ochtend|middag|avond)?)|iedere (?:dag|ochtend)|(?:maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag)(?:en|ochtend|middag|avond)|codziennie|każdego (?:dnia|ranka|rana)|w (?:poniedziałki|wtorki|środy|czwartki|piątki|soboty|niedziele)|(?:w każd[yą]|co) (?:poniedziałek|wtorek|środę|czwartek|piątek|sobotę|niedzielę)|varje (?:dag|morgon|kväll|måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag|helg)|(?:måndagar|tisdagar|onsdagar|torsdagar|fredagar|lördagar|söndagar)|her (?:gün|sabah|akşam|pazartesi|salı|çarşamba|perşembe|cuma|cumartesi|pazar|hafta sonu)",
  "毎朝|毎日|毎晩|毎週|週末",
);
// Case-sensitive: "Sam" is a name, Polish "sam" is "alone".
const ALONE = words(
  "alone|by (?:herself|himself|themselves)|on (?:her|his|their) own|allein|alleine|seule?|toute? seule?|sola|a solas|da sol[ao]|sozinh[ao]|(?:andando|caminando|corriendo|paseando|vuelve|regresa|camina|corre|pasea) solo|alleen|(?<!(?:ta|to|tą|tej|tak|ten|tym) )sam[aą]?|ensam|yalnız|tek başına",
  "一人で|ひとりで|単独で",
  "u",
);
const PLACE_OR_OUTING = words(
  "park(?! ?(?:servers?|fleet))\\p{L}*|caf[eé]|bar|pub|kneipe|bistro|caffè|kawiarni|kafé|kafét|kahve\\p{L}*|喫茶店|カフェ|parc(?! (?:informatique|machines?|serveurs?|automobile))|parque(?! (?:de servidores|informático|de máquinas|móvil|automovilístico))|parco(?! (?:macchine|auto|mezzi|veicoli|server))|parku|volkspark|forest|woods|trail|beach|lake|riverside|wald|strand|ufer|forêt|plage|bosque|playa|bosco|lungo|spiaggia|praia|bos|duinen|plaży|skog|stranden|runt|sahil|orman|jogs?|swims?|hikes?|goes running|runs (?:along|through|around|in the|by the)|joggt|spaziert|schwimmt|joggt|déjeune|fait son jogging|court|pasea|almuerza|sale a correr|corre|cammina|pranza|nuota|caminha|almoça|jogt|wandelt|zwemt|luncht|biega|spaceruje|pływa|springer|joggar|promenerar|simmar|koşu\\p{L}*|yürüyüş\\p{L}*|cabin|chalet|hütte|ferienhaus|sommerhaus|maison de campagne|casa del pueblo|casa de campo|casa di campagna|casa na praia|zomerhuis|domek|domku|stuga|stugan|sommarstuga|yazlık",
  "公園|走って|散歩|ジョギング|ランニング",
);
// A title's full stop ("Mr. Haddad", "Dr. Weber", "Sra. Ruiz") does not end a sentence.
const sentencesOf = (text: string): string[] => text.split(/(?<=(?<!\b(?:Mr|Mrs|Ms|Dr|Prof|St|Hr|Fr|Sr|Sra|Srta|Mme|Mlle|Jr))[.!?。])\s+/);
const aloneRoutine = (text: string, recurring: boolean): boolean =>
  recurring && ALONE.test(text) && sentencesOf(text).some((s) => RECURRING.test(s) && ALONE.test(s) && PLACE_OR_OUTING.test(s));

/**
 * Where someone is at a known hour of a recurring day (seed 000 §4.5, travel patterns): a recurring day, an
 * hour or a part of the day, and a place people go to on a schedule (a gym, a pool, a club) that the sentence
 * locates by a name ("Jeden Donnerstag um sieben ist Markus im Fitnessstudio am Bahnhof", "ogni venerdì sera
 * è al circolo del tennis di via Roma", "varje onsdag kväll är Johan på padelhallen i Hammarby",
 * "毎週火曜日の夜7時に駅前のジムにいる"). Going to an unnamed gym every morning, a team meeting in a room, a
 * market's opening hours and fetching the children from nursery (a scheduling fact) stay stored.
 */
/** Each alternative of `words` in lower case and opening with a capital (German nouns, a sentence's first word). */
const withCapitals = (words: string): string =>
  words
    .split("|")
    .map((w) => `${w}|${w.charAt(0).toUpperCase()}${w.slice(1)}`)
    .join("|");

const VENUE_WORDS =
  "gym|climbing gym|climbing wall|boulderhalle|salle d['’]escalade|rocódromo|palestra di arrampicata|klimhal|klätterhall\\p{L}*|ścianka wspinaczkowa|leisure centre|leisure center|swimming pool|pool|tennis club|golf club|running club|yoga studio|dojo|sports hall|padel club|fitnessstudio|fitness-studio|schwimmbad|hallenbad|kletterhalle|sporthalle|tennisclub|tennisplatz|salle de sport|salle de gym|piscine|club de tennis|gimnasio|piscina|club de tenis|polideportivo|palestra|circolo(?: del tennis)?|academia|ginásio|clube|sportschool|zwembad|hardloopclub|sporthal|siłowni|siłownia|basenie|basen|gymmet|simhallen|simhall|padelhallen|padelhall|tennishallen|spor salonu\\p{L}*|havuz\\p{L}*";
// The venue (in lower case or opening with a capital, as German nouns do), perhaps one lower-case word ("piscina
// municipal"), then a preposition and, within two lower-case words ("di via Roma"), a capitalised name.
const LOCATED_VENUE = new RegExp(
  `(?<![\\p{L}])(?:${withCapitals(VENUE_WORDS)})(?![\\p{L}])(?:\\s+\\p{Ll}+)?\\s+(?:on|in|at|near|by|am|an der|in der|im|beim|à|de|du|de la|del|de los|di|della|dello|da|do|da|na|no|bij|in het|aan de|i|på|vid|przy|na|w)\\s+(?:\\p{Ll}+\\s+){0,2}\\p{Lu}|(?<![\\p{L}])(?:Parco|Parc|Parque|Park|Parku|Parken)\\s+\\p{Lu}|\\p{Lu}\\p{Ll}+(?:park|parken)(?![\\p{L}])|\\p{Lu}\\p{Ll}+ Park(?![\\p{L}])|[\\p{Script=Han}\\p{Script=Katakana}ー]{2,}の(?:ジム|プール)`,
  "u",
);
const HOUR_OR_PART = words(
  "(?:at|after|until|till|um|ab|bis|à|a las|hasta las|alle|fino alle|dalle|às|até às|om|tot|o|po|kl\\.?|efter|saat) (?:\\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|eins|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|elf|zwölf|une|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|una|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez|once|doce|uno|due|tre|quattro|sei|sette|otto|nove|dieci|undici|dodici|duas|oito|dez|zeven|negen|tien|twaalf|sju|åtta|nio|tio|elva|tolv)|morning|evening|night|(?:maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag)(?:ochtend|middag|avond)|abends?|morgens?|soir|matin|noches?|tardes?|mañanas?|sera|sere|mattin[ae]|manhãs?|noites?|ochtend|avond|rano|wieczorem|kväll(?:en)?|morgon(?:en)?|akşam\\p{L}*|sabah\\p{L}*",
  "夜|朝|\\d{1,2}時",
);
const routineAtVenue = (text: string, recurring: boolean): boolean =>
  recurring && LOCATED_VENUE.test(text) && sentencesOf(text).some((s) => RECURRING.test(s) && LOCATED_VENUE.test(s) && (CLOCK.test(s) || HOUR_OR_PART.test(s)));

/**
 * A home told by its floor or by what is next to it (seed 000 §4.5, home addresses): a word for living
 * somewhere or a home, and in the same sentence a floor ("on the third floor", "im zweiten Stock",
 * "au 3e étage", "en el cuarto piso", "al secondo piano", "no terceiro andar", "op de tweede verdieping",
 * "na trzecim piętrze", "på tredje våningen", "üçüncü katında") or a landmark it is placed against ("right
 * above the launderette", "gegenüber vom Bahnhof", "juste au-dessus de la boulangerie", "enfrente de la
 * farmacia", "dietro la chiesa", "ao lado da padaria", "boven de snackbar", "naprzeciwko apteki",
 * "mittemot Ica", "eczanenin karşısındaki"). "I live in Lisbon" names a city only; an office or a shop
 * placed so is not a home.
 */
const DWELLING = words(
  "lives?|living|vivo|abito|moro|woon|mieszkam|oturuyorum|(?:her|his|their|my|the user's|user's) (?:house|flat|home|apartment|place)|(?:house|flat|apartment) is|wohnt|wohne|wohnen|(?:ihre|seine|deren) wohnung|habite|habitent|vit|(?:son|leur) (?:appartement|appart|logement)|vive|viven|(?:su|la) casa|abita|abitano|mora|moram|woont|wonen|mieszka|mieszkają|bor|oturuyor|oturur|yaşıyor",
  "に住ん|に住む",
);
const FLOOR_OR_LANDMARK = words(
  "(?:first|second|third|fourth|fifth|sixth|top|ground|\\d{1,2}(?:st|nd|rd|th)) floor|(?:erst|zweit|dritt|viert|fünft|sechst|oberst|letzt)\\p{L}* (?:stock|etage|obergeschoss)|\\d{1,2}\\. (?:stock|etage|og)|dachgeschoss|erdgeschoss|hinterhaus|eckhaus|(?:\\d{1,2}(?:e|er|ème)|premier|deuxième|troisième|quatrième|cinquième|sixième|dernier) étage|rez-de-chaussée|(?:primer|segundo|tercer|tercero|cuarto|quinto|sexto|último|\\d{1,2}º) piso|planta baja|(?:primo|secondo|terzo|quarto|quinto|sesto|ultimo) piano|piano terra|(?:primeiro|segundo|terceiro|quarto|quinto|sexto|último|\\d{1,2}º) andar|rés-do-chão|(?:eerste|tweede|derde|vierde|vijfde|bovenste) (?:verdieping|etage)|begane grond|(?:pierwszym|drugim|trzecim|czwartym|piątym|szóstym|ostatnim) piętrze|parterze|(?:första|andra|tredje|fjärde|femte|översta) våningen|bottenvåningen|(?:birinci|ikinci|üçüncü|dördüncü|beşinci|en üst|zemin) kat\\p{L}*|(?:right |just |directly )?(?:above|below|opposite|across (?:the street )?from|next door to|next to|behind) the(?! (?:sea|ocean|coast|beach|lake|river|mountains?|hills|countryside|border|woods|forest)(?![\\p{L}]))|(?:on|at) the corner of|the one with the (?:[\\p{L}-]+ )?(?:door|gate|fence|porch|balcony|hedge)|quella (?:col|con il|con la) (?:\\p{L}+ )?(?:cancello|porta|portone|balcone)|(?:el|la) de la (?:puerta|verja|valla|fachada|terraza)|(?:aquel[ea]|o|a) d[oa] (?:porta|portão|varanda|fachada)|met de (?:\\p{L}+ )?(?:deur|voordeur|poort|balkon)|around the corner from|gegenüber (?:vo[nm]|der|dem|des)|direkt (?:über|neben|hinter)|an der ecke|kreuzung|au-dessus d|en face d|à côté d|derrière (?:le|la|l'|chez)|à l'angle d|au coin d|encima del?|enfrente del?|frente al?|al lado del?|detrás del?|en la esquina|di fronte a(?:l|lla|llo|ll'|i|gli|lle)?|accanto a(?:l|lla|llo|ll'|i|gli|lle)?|sopra (?:il|la|lo|l')|dietro (?:il|la|lo|l')|sotto casa|all'angolo|ao lado d[oa]|em frente a|em frente d[oa]|por cima d[oa]|em cima d[oa]|por baixo d[oa]|debajo del?|atrás d[oa]|na esquina|boven de|tegenover|naast de|achter de|op de hoek|naprzeciwko|obok|na rogu|mittemot|mitt emot|bredvid|ovanför|bakom|på hörnet|karşısında\\p{L}*|yanında\\p{L}*|üstünde\\p{L}*|arkasında\\p{L}*|köşesinde\\p{L}*",
  "隣に|向かいに|真上|階の|階に|の裏",
);
const homeByLandmark = (text: string): boolean =>
  DWELLING.test(text) && FLOOR_OR_LANDMARK.test(text) && sentencesOf(text).some((s) => DWELLING.test(s) && FLOOR_OR_LANDMARK.test(s));

/**
 * Where someone is right now (seed 000 §4.5, real-time location), in de, fr, pl, sv and tr: a word for
 * now, a third person (a pronoun, "mein Ex", "mon ex", "mój były", "mitt ex", "eski sevgilim") and, in
 * the same sentence, a venue or a landmark it is placed against ("im Café gegenüber vom Hauptbahnhof",
 * "au bar en face de la gare", "w kawiarni naprzeciwko dworca", "på kaféet mittemot centralstationen",
 * "garın karşısındaki kafede"). The speaker's own whereabouts and a venue with no person are not read.
 */
const NOW = words(
  "gerade|grad|jetzt|momentan|im moment|en ce moment|actuellement|maintenant|teraz|w tej chwili|właśnie|just nu|nu|för tillfället|şu an|şu anda|şimdi",
);
const THIRD_PERSON = words(
  "er|sie|il|elle|on|ona|han|hon|(?:mein|meine|mon|ma|mój|moja|mitt|min) (?:ex|exfreund(?:in)?|freund(?:in)?|mann|frau|chef(?:in)?|mari|femme|copain|copine|patron(?:ne)?|były|była|mąż|żona|szef(?:owa)?|chłopak|dziewczyna|pojkvän|flickvän|man|fru|sambo)|eski (?:sevgilim|eşim|kocam|karım)|kocam|karım|patronum",
);
const VENUE_NOW = words(
  "café|cafe|kneipe|bar|restaurant|hotel|kawiarni|barze|pubie|restauracji|hotelu|kaféet|kafét|baren|puben|restaurangen|hotellet|kafede|barda|restoranda|otelde|gegenüber|en face de|en face du|en face des|naprzeciwko|mittemot|mitt emot|karşısında\\p{L}*",
);
const whereNow = (text: string): boolean =>
  NOW.test(text) && VENUE_NOW.test(text) && sentencesOf(text).some((s) => NOW.test(s) && THIRD_PERSON.test(s) && VENUE_NOW.test(s));

/**
 * Where someone is at a known hour of a habit (seed 000 §4.5, routines placing a person at a place and
 * time): a recurring day or a habit word, a clock time or a part of the day, and a place that is
 * named ("parks in the garage under Sainsbury's on Holloway Road around half eight every morning",
 * "au parking de la gare de Lyon vers 8 h", "bij de bakker in de Kerkstraat om negen uur") or placed
 * against their home ("derrière chez lui", "al parco sotto casa"). A team meeting in a room or a
 * service's opening hours name no such place.
 */
const HABITUAL = words(
  "usually|always|most (?:days|mornings|evenings|weekdays)|(?:casi )?todas las (?:tardes|noches|mañanas)|(?:quasi )?tutte le (?:sere|mattine)|(?:quase )?todas as (?:noites|tardes|manhãs)|bijna elke (?:avond|ochtend|dag)|meistens|immer|normalerweise|d'habitude|toujours|habituellement|normalmente|siempre|di solito|sempre|steevast|altijd|meestal|zawsze|zwykle|alltid|oftast|brukar|genellikle|hep|いつも",
);
const PLACE_NOUN =
  "park|parc|parque|parco|parken|gym|gimnasio|palestra|ginásio|sportschool|siłowni\\p{L}*|gymmet|garag\\p{L}*|car park|parking|parkhaus|tiefgarage|café|cafe|bakery|bäckerei|boulangerie|panadería|forno|panificio|padaria|bakker|piekarni\\p{L}*|bageri\\p{L}*|fırın\\p{L}*|aparcamiento|parcheggio|estacionamento|parkeergarage|parkeerplaats|parking\\p{L}*|parkering\\p{L}*|otopark\\p{L}*|kiosk|market|markt|marché|mercado|mercato|rynku|torget|pazar\\p{L}*|launderette|laundromat|waschsalon|laverie|lavandería|lavanderia|wasserette|pralni\\p{L}*|tvättstuga\\p{L}*|church|kirche|église|iglesia|chiesa|igreja|kerk|kości\\p{L}*|kyrka\\p{L}*|cami\\p{L}*|bar|pub|boteco|botequim|tasca|kneipe|stammkneipe|kawiarni\\p{L}*|kafé\\p{L}*|kahve\\p{L}*";
const NAMED_PLACE = new RegExp(
  `(?<![\\p{L}])(?:${withCapitals(PLACE_NOUN)})(?![\\p{L}])[^.!?;\\n]{0,40}?(?<=\\s)(?:\\p{Lu}\\p{Ll}+|[A-Z][a-z]*'s)|(?<![\\p{L}])(?:via|rue|calle|rua|ulica|ul\\.)\\s+\\p{Lu}\\p{Ll}+|\\p{Lu}\\p{Ll}+(?:\\s\\p{Lu}\\p{Ll}+)?\\s(?:Road|Street|Lane|Avenue)(?![\\p{L}])|\\p{Lu}\\p{Ll}+(?:straße|strasse|straat|laan|gracht|gatan|vägen)(?![\\p{L}])`,
  "u",
);
const NEAR_HOME = words(
  "(?:behind|outside|near|opposite) (?:his|her|their) (?:house|flat|building|place)|(?:esquina|perto|ao lado|à porta) de casa|esquina de su casa|vor (?:seinem|ihrem) haus|derrière chez (?:lui|elle)|en bas de chez (?:lui|elle)|sous (?:chez lui|chez elle)|debajo de su casa|cerca de su casa|sotto casa|vicino a casa sua|perto de casa|em frente (?:à|a) casa|bij (?:hem|haar) om de hoek|achter (?:zijn|haar) huis|pod (?:jego|jej) domem|pod domem|utanför (?:hans|hennes) hus|evinin (?:önünde|arkasında|yanında)",
  "家の近く|家の前",
);
/** A place's own hours ("the pharmacy on Main Street closes at 6", "le marché a lieu tous les samedis"): no one's routine. */
const OPENING_HOURS = words(
  "opens|closes|is open|are open|is closed|takes place|is held|are held|(?:market|markets|fair|sale) (?:is|are) on|öffnet|schließt|geöffnet|geschlossen|findet|ouvre|ferme|ouvert|fermé|a lieu|abre|cierra|abierto|cerrado|apre|chiude|aperto|chiuso|si tiene|aberto|fechado|fecha|opent|sluit|open|gesloten|otwiera|zamyka|otwarty|otwarta|zamknięty|öppnar|stänger|öppet|stängt|açılıyor|kapanıyor|açık|kapalı",
  "開店|閉店|営業",
);
const routineAtPlace = (text: string, recurring: boolean): boolean =>
  (recurring || HABITUAL.test(text)) &&
  (CLOCK.test(text) || HOUR_OR_PART.test(text)) &&
  (NEAR_HOME.test(text) || NAMED_PLACE.test(text)) &&
  sentencesOf(text).some(
    (s) =>
      (RECURRING.test(s) || HABITUAL.test(s)) &&
      !OPENING_HOURS.test(s) &&
      (CLOCK.test(s) || HOUR_OR_PART.test(s)) &&
      (NEAR_HOME.test(s) || NAMED_PLACE.test(s.replace(/^\s*\p{Lu}/u, (c) => c.toLowerCase()))),
  );

/**
 * The school run at a named school and a clock time ("Kids get dropped at Lincoln Elementary at 8:05"): which
 * school and when. Fetching the children from an unnamed school is a scheduling fact and stays stored.
 */
const CHILDREN = words(
  "kids?|children|twins|bambin[oa]|boys|girls|daughters?|sons?|dropped|drop-off|picked up|pick-up|kinder|tochter|sohn|enfants?|fille|fils|niños|hijos?|hijas?|bambini|figli[oa]?|filh[oa]s?|miúdos|crianças|kinderen|dochter|zoon|dzieci|córk\\p{L}*|syn\\p{L}*|barnen|dottern|sonen|çocu\\p{L}*",
  "子ども|子供|娘|息子",
);
const NAMED_SCHOOL =
  /(?<![\p{L}])(?!Basis|Hoge|Lagere|Middelbare)\p{Lu}\p{Ll}{3,}school(?![\p{L}])|\p{Lu}\p{Ll}+\s+(?:Elementary|Primary|Middle School|High School|School|Academy|Kindergarten|Montessori|Grundschule|Gymnasium|Schule|Basisschool|Skola|skolan)(?![\p{L}])|(?<![\p{L}])(?:school|schule|grundschule|kita|école|escuela|colegio|scuola|escola|szkoł\p{L}*|przedszkol\p{L}*|skolan|okul\p{L}*)\s+(?:(?:am|an der|de la|del|di|da|do|dos|nr\.?|n\.?º|na|przy|ul\.)\s+)?\p{Lu}\p{Ll}+/u;
const schoolRun = (text: string): boolean =>
  NAMED_SCHOOL.test(text) && sentencesOf(text).some((s) => NAMED_SCHOOL.test(s) && CHILDREN.test(s) && CLOCK.test(s));

/** Travel every other week to a named place ("cada dos semanas a Bilbao", "co drugi piątek jeździ do Gdańska", "every other weekend … in Boise"). */
const FORTNIGHTLY = words(
  "every (?:other|second) (?:week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|every two weeks|fortnightly|alle zwei wochen|jedes zweite wochenende|jeden zweiten (?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag)|toutes les deux semaines|un week-end sur deux|cada dos semanas|cada quince días|un fin de semana sí y otro no|ogni due settimane|un fine settimana sì e uno no|a cada duas semanas|de quinze em quinze dias|om de week|om het weekend|elke twee weken|co drugi (?:tydzień|weekend|poniedziałek|wtorek|piątek|sobotę|niedzielę)|co drug[aą] (?:środ[aę]|sobot[aę]|niedziel[aę])|co dwa tygodnie|varannan (?:vecka|helg|måndag|tisdag|onsdag|torsdag|fredag|lördag|söndag)|iki haftada bir",
  "隔週",
);
const TRIP = words(
  "flights?|flies|fly|by train|takes the train|(?:on|catches) the train|train (?:home|back)|hotel|drives? (?:up|down|to)|visits?|stays?|travels?|flug|fliegt|fährt|zug|vol|vole|viaja|vuelo|se aloja|tren|vola|volo|treno|viaggia|voo|comboio|vliegt|vlucht|trein|reist|jeździ|leci|pociąg\\p{L}*|wraca|flyger|åker|tåget|gidiyor|uçak\\p{L}*",
  "新幹線|飛行機",
);
const PLACE_NAME = /(?<![\p{L}])(?:to|in|at|a|à|nach|naar|do|till|para|en)\s+\p{Lu}\p{Ll}{2,}/u;
const fortnightlyTrip = (text: string): boolean => FORTNIGHTLY.test(text) && TRIP.test(text) && PLACE_NAME.test(text);
// Japanese addresses: prefecture or ward, then chōme and block numbers ("北沢2丁目14-7").
const JA_ADDRESS =
  /[市区町村郡].{0,12}?\d+\s*[-－‐ー]\s*\d+\s*[-－‐ー]\s*\d+|\d+\s*丁目\s*\d+\s*[-－‐ー番]\s*\d+|[都道府県].{0,12}[市区町村].{0,16}\d+\s*[-－‐]\s*\d+/u;
// Turkish: "Moda Caddesi No: 45", "Atatürk Bulvarı No 12", "Gül Sokak No:3".
const TR_STREET =
  /(?:caddesi|cad\.|sokak|sokağı|sk\.|bulvarı|mahallesi|mah\.)\s*,?\s*(?:no|numara)\s*[:.]?\s*\d{1,4}|(?:caddesi|cad\.|sokak|sokağı|sk\.|bulvarı)\s+\d{1,4}(?:\s*numara\p{L}*|\s*\/\s*\d{1,4})/iu;
// lat/lng named explicitly.
const NAMED = /\b(?:lat(?:itude)?(?:\s*[/,&]\s*(?:lng|lon|long|longitude))?|lng|lon(?:gitude)?)\s*[:=]\s*[-+]?\d{1,3}\.\d{2,}/i;
// Plus codes (Open Location Code): 8FVC9G8F+6X or 9G8F+6X City.
const PLUS_CODE = /\b[23456789CFGHJMPQRVWX]{4,8}\+[23456789CFGHJMPQRVWX]{2,3}\b/;

const SUFFIX =
  "street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|place|pl|terrace|ter|crescent|cres|close|way|parkway|pkwy|highway|hwy|square|sq|circle|cir|trail|trl|row|mews|gardens|grove|hill|walk|strasse|straße|str|rue|calle|via|avenida|weg|gasse|laan|straat|vej|gatan";
// 221B Baker Street; 1600 Pennsylvania Ave NW; 10 Downing St, London.
const SUFFIXES = `${SUFFIX}|${SUFFIX.replace(/(^|\|)(\p{L})/gu, (_m, bar: string, c: string) => bar + c.toUpperCase())}`;
const STREET = new RegExp(`\\b\\d{1,5}[A-Za-z]?,?\\s+(?:[A-Z][\\p{L}'.-]*\\s+){1,4}(?:${SUFFIXES})\\b\\.?`, "u");
// Bakerstreet 12, Hauptstr 5: a street word written as the end of the name (other languages' compounds:
// COMPOUND_STREET below). Not the abbreviations of SUFFIX, which end everyday words: "Inter 600" (a
// font weight), "Winter 2025", "Chapter 3", "Test 2" read as streets ("-ter", "-st").
const STREET_FIRST = /\b[A-Z][\p{L}'.-]*(?:street|str)\s+\d{1,5}[a-z]?\b/u;
// 14 Rue Lepic; 10 Calle Mayor: number first, then a street word that comes before the name.
const NUMBER_FIRST = /\b\d{1,5},?\s+(?:rue|calle|via|avenida|avenue|boulevard|place|allée|chemin|strada|rua|ulica|carrer|piazza|plaza)\s+[\p{L}'-]{2,}/iu;
// UK postcodes and US ZIP+4 (a bare five-digit number is too often something else).
const UK_POSTCODE = /\b(?:GIR 0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})\b/;
const ZIP4 = /\b\d{5}-\d{4}\b/;
// "apartment 4B", "apt. 12", "flat 3" followed by a street or building word.
const UNIT = /\b(?:apt\.?|apartment|flat|unit|suite)\s*#?\s*\d+[A-Za-z]?\b/i;

/*
 * Street addresses by each country's own shape (issue 21 item 2): a street word, a name and a
 * house number in the order the country writes them, or a postcode precise enough to name a
 * street (UK, NL, PT, PL, US ZIP+4) beside a place name. A city, a region or a time zone alone
 * is not precise location (SPEC §4.5 names addresses, coordinates and commutes): nothing here
 * matches "lives in Denver" or "Mountain Time".
 */
const NAME = "(?:\\p{Lu}[\\p{L}'’.-]*|d[eiu]|de la|del|della|dei|degli|delle|dos|das|do|da|van|von|der|den|am|an|im|la|le|les|du|des)";
const NAMES = `${NAME}(?:\\s+${NAME}){0,4}`;
/** Street words as written at a sentence's start or inside it ("Calle", "calle", "CALLE"); names stay case-sensitive. */
const streetWords = (words: string): string =>
  words
    .split("|")
    .map((w) => `(?:${w}|${w.charAt(0).toUpperCase()}${w.slice(1)}|${w.toUpperCase()})`)
    .join("|");
// de, nl: the street word is the end of the name ("Hauptstraße 5", "Keizersgracht 123", "Lindenallee 7a").
const COMPOUND_STREET = new RegExp(
  `(?<![\\p{L}])\\p{Lu}[\\p{L}-]*(?:straße|strasse|str\\.|weg|gasse|platz|allee|damm|ufer|chaussee|steig|pfad|straat|laan|gracht|plein|kade|dijk|singel|steeg|gatan|vägen|gränd|torget|stigen|backen|allén|gade|vej)\\s+\\d{1,4}(?:\\s?[a-zA-Z])?(?![\\p{L}\\d])`,
  "u",
);
// de: a street of two words ("Schönhauser Allee 112", "Frankfurter Straße 5", "Alter Markt 3").
const TWO_WORD_STREET =
  /(?<![\p{L}])\p{Lu}[\p{L}-]+\s+(?:Allee|Straße|Strasse|Str\.|Weg|Platz|Ring|Damm|Ufer|Chaussee|Gasse|Markt|Steig|Landstraße|Promenade|Tor)\s+\d{1,4}(?:\s?[a-zA-Z])?(?![\p{L}\d])/u;
// A house number, then within the line a comma and a postcode with its town: "8 impasse des Lilas, 31400 Toulouse",
// "Storgatan 12, 114 55 Stockholm" (de, fr, es, it, fi, tr five digits; sv 3 2).
const POSTCODE_TOWN =
  /(?:(?<![\d.,:])\d{1,4}[a-zA-Z]?(?!\d|[.,:]\d)[^\n\d]{0,40}\p{Lu}\p{L}+[^\n\d]{0,20}|\p{Lu}\p{L}+\s+\d{1,4}(?:\s?[a-zA-Z])?(?!\d|[.,:]\d)[^\n\d]{0,30}),\s*(?:(?!\d\d000)\d{5}|\d{3} \d{2})\s+\p{Lu}\p{Ll}{2,}(?:[ -](?:am|an der|sur|de|del|di|im|an|la|le)[ -]\p{Lu}\p{L}+)?(?=\s*(?:$|[,.;:)(\n/]|[-–—]\s|\s\p{Lu}|\s\d))/u;
// fr, es, it, pt, pl, de (two words): a street word before the name, the number after ("Calle Mayor 10",
// "Via Roma, 12", "ul. Marszałkowska 10/4", "Rua Augusta, n.º 100", "Avenida da Liberdade 45").
const STREET_WORD_FIRST = new RegExp(
  `(?<![\\p{L}])(?:${streetWords("calle|c/|avenida|avda\\.?|av\\.|paseo|plaza|carrer|camino|ronda|travesía|via|viale|piazza|piazzale|corso|largo|vicolo|rua|travessa|praça|praca|estrada|alameda|ul\\.|ulica|ulicy|ulicę|al\\.|aleja|alei|os\\.|osiedle|osiedlu|rue|avenue|boulevard|bd|place|allée|chemin|impasse|quai|cours")})\\s+${NAMES},?\\s+(?:n\\.?\\s?[º°o]\\.?\\s*|nr\\.?\\s*|no\\.?\\s*)?\\d{1,4}(?:\\s?[a-zA-Z])?(?:/\\d{1,4})?(?![\\p{L}\\d])(?=\\s*(?:$|[,.;:)\\n]|\\d|(?:m|lok|mieszk)\\.?\\s?\\d|(?:w|we|in|a|à|en|em|i)\\s+\\p{Lu}))`,
  "u",
);
// fr, en: the number first ("12 rue de Rivoli", "10 Downing Street" is STREET above).
const NUMBER_WORD_FIRST = new RegExp(
  `(?<![\\p{L}\\d])\\d{1,4}(?:\\s?(?:bis|ter|[a-zA-Z]))?,?\\s+(?:${streetWords("rue|avenue|av\\.|boulevard|bd|place|allée|chemin|impasse|quai|cours|route|calle|via|avenida|rua|ulica|carrer|piazza|plaza")})\\s+${NAMES}`,
  "u",
);
// Written in lower case and abbreviated, as people type their own address: a street word, a house number, a postcode
// ("lindenstr. 7a · 50674 köln", "c/ mallorca 401 4º 2ª 08013 bcn", "oudegracht 211bis 3511nh utrecht", "vasagatan 12b 411 24 gbg").
const TYPED_ADDRESS =
  /(?<![\p{L}])(?:\p{L}*(?:str\.|straße|strasse|weg|gasse|platz|allee|gracht|straat|laan|kade|singel|gatan|vägen)|c\/|v\.le|viale|via|r\.|rua|calle|avda?\.|av\.|blv\.?|bulvarı|cad\.|caddesi|sok\.|sokak|ul\.|rue)\s*[\p{L} .'-]{0,30}?\s?\d{1,4}[a-z]{0,3}(?:\/\d{1,4})?(?![\d])[^\n]{0,25}?(?<![\d-])(?:\d{5}|\d{4}-\d{3}|\d{4}\s?[a-z]{2}|\d{3} \d{2}|\d{2}-\d{3})(?![\d\p{L}])/iu;
// Postcodes that name a street or a few: NL 1234 AB, PT 1234-567, PL 12-345, BR 12345-678, followed by a place name.
const STREET_POSTCODE = /(?<![\p{L}\d-])(?:\d{4}\s?[A-Z]{2}|\d{4}-\d{3}|\d{2}-\d{3}|\d{5}-\d{3})\s+\p{Lu}\p{Ll}{2,}/u;
// A street with its five-digit postcode and town ("…, 28013 Madrid", "…, 10115 Berlin"): with a street word or a number before it.
const US_STATE_ZIP =
  /\b(?:A[KLRZ]|C[AOT]|D[CE]|FL|GA|HI|I[ADLN]|K[SY]|LA|M[ADEINOST]|N[CDEHJMVY]|O[HKR]|PA|RI|S[CD]|T[NX]|UT|V[AT]|W[AIVY]),?\s+\d{5}(?:-\d{4})?\b/;

/**
 * seed 000 §4.5 precise location: coordinates (decimal pairs, DMS, named lat/lng, plus
 * codes) and postal addresses (house number + street name + street type in each covered
 * country's order, and postcodes precise enough to name a street).
 */
export const locationDetector: Detector = {
  name: "location",
  detect(field: string, text: string): Finding[] {
    const findings: Finding[] = [];
    // A commute's time may be written in words ("om kwart over zeven").
    if (commute(text)) findings.push({ field, class: "location", label: "commute" });
    // A recurring day is read once: three routines ask for it.
    const recurring = RECURRING.test(text);
    if (aloneRoutine(text, recurring) || routineAtVenue(text, recurring) || routineAtPlace(text, recurring))
      findings.push({ field, class: "location", label: "routine" });
    if (homeByLandmark(text)) findings.push({ field, class: "location", label: "home" });
    if (whereNow(text)) findings.push({ field, class: "location", label: "live" });
    if (fortnightlyTrip(text)) findings.push({ field, class: "location", label: "travel_pattern" });
    // Every coordinate, house number and postcode has a digit; most texts have none.
    if (!/\d/.test(text)) return findings;
    if (schoolRun(text)) findings.push({ field, class: "location", label: "routine" });
    if (coordinatePair(text) || DMS.test(text) || NAMED.test(text) || PLUS_CODE.test(text)) {
      findings.push({ field, class: "location", label: "coordinates" });
    }
    if (
      STREET.test(text) ||
      STREET_FIRST.test(text) ||
      NUMBER_FIRST.test(text) ||
      COMPOUND_STREET.test(text) ||
      TWO_WORD_STREET.test(text) ||
      POSTCODE_TOWN.test(text) ||
      TYPED_ADDRESS.test(text) ||
      STREET_WORD_FIRST.test(text) ||
      NUMBER_WORD_FIRST.test(text) ||
      JA_ADDRESS.test(text) ||
      TR_STREET.test(text) ||
      (UNIT.test(text) && /\b(?:street|st|road|rd|avenue|ave|lane|drive|floor)\b/i.test(text))
    ) {
      findings.push({ field, class: "location", label: "street_address" });
    }
    if (UK_POSTCODE.test(text) || ZIP4.test(text) || STREET_POSTCODE.test(text) || US_STATE_ZIP.test(text))
      findings.push({ field, class: "location", label: "postcode" });
    return findings;
  },
};
