import { stdnum } from "stdnum";
import type { Detector, Finding } from "./detector";
import { matchesOf } from "./matches";

/**
 * seed 000 §4.7 national and tax identifiers by structure and check digits, validated by
 * `stdnum` (koblas/stdnum-js, MIT: a port of python-stdnum's validators) rather than by
 * hand: US SSN, UK NINO and UTR, CA SIN, DE IdNr and SVNR, FR NIR and NIF, ES DNI and NIE,
 * IT codice fiscale, NL BSN, PL PESEL, PT NIF and CC, BR CPF, IN Aadhaar and PAN, AU TFN.
 *
 * A number counts without any keyword when its shape is distinctive on its own (letters in
 * fixed places: DNI, NIE, codice fiscale, NINO, PAN, SVNR, CC) or its checksum is strong (NIR:
 * mod 97; IdNr, PESEL, CPF: structure plus check digits), or when it is written in the id's
 * own grouping (SSN 3-2-4, SIN and TFN 3-3-3, Aadhaar and My Number 4-4-4, CPF 3.3.3-2, NIR 1 2 2 2 3 3 2).
 * A bare run of digits whose checksum is weak (one check digit: BSN, PT NIF, SIN, TFN,
 * Aadhaar, UTR, FR NIF; SSN has none) counts only when an id word is near (`keywordNear`,
 * policy data in identifiers.ts), since one random number in ten or eleven passes such a
 * check: keywords raise confidence, a structure is never made to depend on one. A bare run
 * labelled technical ("order", "build", "port", "id:") is not an id unless an id word is near.
 */
export interface IdOptions {
  /** Whether an id word (any language) that may name the id `id` stands near the number at `at` (before it, or right after its `end`). */
  keywordNear?: (text: string, at: number, id: string, end?: number) => boolean;
  /** Whether an id word near offset `at` names other ids only ("NIF" before a number grouped like a TFN). */
  otherIdNamed?: (text: string, at: number, id: string) => boolean;
}

type Validate = (value: string) => { isValid: boolean };
interface DigitId {
  label: string;
  length: number;
  validate: Validate;
  /** Checksum strong enough (with structure) to count bare, without a keyword. */
  strong: boolean;
  /** The id's own grouping (group lengths); written so, it counts without a keyword. */
  groupings: number[][];
}

const v =
  (fn: { validate: Validate }): Validate =>
  (value) =>
    fn.validate(value);

/**
 * Japan's individual number (マイナンバー): 11 digits and a check digit (weights 2..7, 2..6 from
 * the right, mod 11); stdnum has no validator for it.
 */
function myNumberValid(digits: string): boolean {
  if (!/^\d{12}$/.test(digits)) return false;
  let sum = 0;
  for (let n = 1; n <= 11; n++) sum += Number(digits[11 - n]) * (n <= 6 ? n + 1 : n - 5);
  const remainder = sum % 11;
  return Number(digits[11]) === (remainder <= 1 ? 0 : 11 - remainder);
}

/** A Swedish personnummer of 12 digits whose century is 19 or 20 (a date and Luhn): strong enough to count bare. */
const sePersonnummer12: Validate = (d) => ({ isValid: /^(?:19|20)/.test(d) && stdnum.SE.personnummer.validate(`${d.slice(0, 8)}-${d.slice(8)}`).isValid });

// The first id a number validates as names it; a nine-digit number may be several (SSN has no checksum: last).
const DIGIT_IDS: DigitId[] = [
  { label: "nl_bsn", length: 9, validate: v(stdnum.NL.bsn), strong: false, groupings: [[4, 2, 3]] },
  { label: "pt_nif", length: 9, validate: v(stdnum.PT.nif), strong: false, groupings: [] },
  { label: "ca_sin", length: 9, validate: v(stdnum.CA.sin), strong: false, groupings: [[3, 3, 3]] },
  { label: "au_tfn", length: 9, validate: v(stdnum.AU.tfn), strong: false, groupings: [[3, 3, 3]] },
  { label: "us_ssn", length: 9, validate: v(stdnum.US.ssn), strong: false, groupings: [[3, 2, 4]] },
  { label: "gb_utr", length: 10, validate: v(stdnum.GB.utr), strong: false, groupings: [] },
  // Polish NIP: one check digit (mod 11); written in its own groupings (123-456-32-18, 123-45-67-819) it counts bare.
  {
    label: "pl_nip",
    length: 10,
    validate: v(stdnum.PL.nip),
    strong: false,
    groupings: [
      [3, 3, 2, 2],
      [3, 2, 2, 3],
    ],
  },
  { label: "de_idnr", length: 11, validate: v(stdnum.DE.idnr), strong: true, groupings: [[2, 3, 3, 3]] },
  { label: "pl_pesel", length: 11, validate: v(stdnum.PL.pesel), strong: true, groupings: [] },
  { label: "br_cpf", length: 11, validate: v(stdnum.BR.cpf), strong: true, groupings: [[3, 3, 3, 2]] },
  // Belgian national number (rijksregisternummer): a birth date and mod-97 check digits.
  {
    label: "be_nn",
    length: 11,
    validate: v(stdnum.BE.nn),
    strong: true,
    groupings: [
      [2, 2, 2, 3, 2],
      [6, 3, 2],
    ],
  },
  { label: "tr_tckimlik", length: 11, validate: v(stdnum.TR.tckimlik), strong: false, groupings: [] },
  // stdnum reads a personnummer with its separator only
  {
    label: "se_personnummer",
    length: 10,
    validate: (d) => stdnum.SE.personnummer.validate(`${d.slice(0, 6)}-${d.slice(6)}`),
    strong: false,
    groupings: [[6, 4]],
  },
  { label: "se_personnummer", length: 12, validate: sePersonnummer12, strong: true, groupings: [[8, 4]] },
  { label: "in_aadhaar", length: 12, validate: v(stdnum.IN.aadhaar), strong: false, groupings: [[4, 4, 4]] },
  // Written as on the card (4-4-4), it counts bare, as Aadhaar does.
  { label: "jp_my_number", length: 12, validate: (d) => ({ isValid: myNumberValid(d) }), strong: false, groupings: [[4, 4, 4]] },
  { label: "fr_nif", length: 13, validate: v(stdnum.FR.nif), strong: false, groupings: [[2, 2, 3, 3, 3]] },
  {
    label: "fr_nir",
    length: 15,
    validate: v(stdnum.FR.nir),
    strong: true,
    groupings: [
      [1, 2, 2, 2, 3, 3, 2],
      [13, 2],
    ],
  },
];

/** How many digits the id `label` has (its DIGIT_IDS entries), for a number named by its word whose checksum fails. */
export function idLengths(label: string): number[] {
  return DIGIT_IDS.filter((id) => id.label === label).map((id) => id.length);
}

/** Shapes with letters in fixed places: distinctive without a keyword; stdnum checks the rest. */
const SHAPED_IDS: { label: string; digits: number; shape: RegExp; validate: Validate }[] = [
  // Written whole or grouped as people write them: "65.068.735-X", "Y-641 7283-K", "BNC MRC 77T12 L219S".
  { label: "es_dni", digits: 8, shape: /(?<![\p{L}\p{N}]|\d[.,])\d{2}[ .]?\d{3}[ .]?\d{3}[ .-]?[A-Z](?![\p{L}\p{N}])/gu, validate: v(stdnum.ES.dni) },
  { label: "es_nie", digits: 7, shape: /(?<![\p{L}\p{N}])[XYZ][ .-]?\d(?:[ .-]?\d){6}[ .-]?[A-Z](?![\p{L}\p{N}])/gu, validate: v(stdnum.ES.nie) },
  {
    label: "it_codice_fiscale",
    digits: 7,
    shape: /(?<![\p{L}\p{N}])[A-Z]{3} ?[A-Z]{3} ?[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2} ?[A-Z][0-9LMNPQRSTUV]{3} ?[A-Z](?![\p{L}\p{N}])/giu,
    validate: (s) => stdnum.IT.codicefiscale.validate(s.toUpperCase()),
  },
  {
    label: "gb_nino",
    digits: 6,
    shape: /(?<![\p{L}\p{N}])(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?![\p{L}\p{N}])/giu,
    validate: (s) => stdnum.GB.nino.validate(s.toUpperCase()),
  },
  { label: "in_pan", digits: 4, shape: /(?<![\p{L}\p{N}])[A-Z]{3}[ABCFGHJLPT][A-Z]\d{4}[A-Z](?![\p{L}\p{N}])/gu, validate: v(stdnum.IN.pan) },
  { label: "de_svnr", digits: 11, shape: /(?<![\p{L}\p{N}])\d{2} ?\d{6} ?[A-Z] ?\d{3}(?![\p{L}\p{N}])/gu, validate: v(stdnum.DE.svnr) },
  { label: "pt_cc", digits: 9, shape: /(?<![\p{L}\p{N}])\d{8} ?\d ?[A-Z]{2}\d(?![\p{L}\p{N}])/gu, validate: v(stdnum.PT.cc) },
];

// Groups of digits separated by one space, dot, dash or slash; not inside a word or a decimal number.
const DIGIT_RUN = /(?<![\p{L}\p{N}_]|\d[.,])\d+(?:[ .\-/\u00A0\u202F]\d+)*(?![\p{L}_]|[.,]\d)/gu;
const SEPARATOR = /[ .\-/\u00A0\u202F]/;
// Also the words of the covered languages for an order, invoice, parcel or phone ("encomenda n.º 250 148 376").
const TECHNICAL_LABEL =
  /(?<![\p{L}\p{N}])(?:id|uuid|trace|span|request|order|invoice|ticket|issue|pr|build|run|job|commit|version|seed|nonce|epoch|timestamp|ts|port|pid|tracking|shipment|sku|isbn|ean|upc|phone|tel|fax|mobile|offset|checksum|hash|count|total|size|bytes|ms|po|bestellung|bestellnummer|auftrag|auftragsnummer|rechnung|rechnungsnummer|sendung|sendungsnummer|commande|facture|colis|pedido|factura|encomenda|fatura|ordine|fattura|spedizione|bestelling|factuur|zending|zamówienie|zamówienia|faktura|przesyłka|beställning|faktura|sipariş|fatura|kargo|telefon|telefone|teléfono|telefono|telefoonnummer|handy|móvil|celular|cellulare)(?![\p{L}\p{N}])[\s:=#._-]*(?:no\.?|n\.?\s?[ºo°]\.?|number|nummer|número|numero|numer|nr\.?)?[\s:=#]*$/iu;

/** A quantity with thousands separators ("1.000.000.000", "12,345,678"), not an identifier. */
export const QUANTITY = /^\d{1,3}([.,])\d{3}(?:\1\d{3})+$/;

/** ICAO 9303 check digit: weights 7, 3, 1 over digits, letters (A=10 … Z=35) and fillers (<=0). */
function mrzCheck(field: string, digit: string): boolean {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field.charCodeAt(i);
    const value = c >= 48 && c <= 57 ? c - 48 : c >= 65 && c <= 90 ? c - 55 : 0;
    sum += value * [7, 3, 1][i % 3];
  }
  return String(sum % 10) === digit;
}

// A passport's machine-readable zone: the name line ("P<UTOERIKSSON<<ANNA<MARIA<<<…") by its shape, the
// number line by its check digits (document number, birth date).
const MRZ_NAME = /(?<![A-Z0-9<])[PIAVC][A-Z<][A-Z]{3}[A-Z]+(?:<[A-Z]+)*<<[A-Z]+(?:<[A-Z]+)*<{3,}/;
const MRZ_NUMBER = /(?<![A-Z0-9<])([A-Z0-9<]{9})(\d)[A-Z<]{3}(\d{6})(\d)[MFX<](\d{6})(\d)/g;
function mrzIn(text: string): boolean {
  if (!text.includes("<<")) return false;
  if (MRZ_NAME.test(text)) return true;
  return matchesOf(MRZ_NUMBER, text).some((m) => mrzCheck(m[1], m[2]) && mrzCheck(m[3], m[4]) && mrzCheck(m[5], m[6]));
}

const sameGrouping = (groups: string[], grouping: number[]) => groups.length === grouping.length && groups.every((g, i) => g.length === grouping[i]);

/** The labels of the national ids found in `text`. */
/** How many ASCII digits a text holds: every id needs a few, most texts have none or few. */
export function digitCount(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) n++;
  }
  return n;
}

export function nationalIdsIn(text: string, options: IdOptions = {}): string[] {
  const found = new Set<string>();
  if (mrzIn(text)) found.add("mrz");
  const digits = digitCount(text);
  if (digits < 4) return [...found];
  if (digits >= 9) {
    for (const match of matchesOf(DIGIT_RUN, text)) {
      const end = match.index + match[0].length;
      // "346.136.504" is written like a quantity; after "contribuinte" it is a NIF.
      const quantity = QUANTITY.test(match[0]);
      const groups = match[0].split(SEPARATOR);
      const total = groups.reduce((n, g) => n + g.length, 0);
      if (total < 9) continue;
      for (let from = 0; from < groups.length; from++) {
        let digits = "";
        for (let to = from; to < groups.length && digits.length < 15; to++) {
          digits += groups[to];
          const ids = DIGIT_IDS.filter((id) => id.length === digits.length);
          if (ids.length === 0 || /^(\d)\1+$/.test(digits)) continue;
          const span = groups.slice(from, to + 1);
          const bare = span.length === 1;
          for (const id of ids) {
            if (found.has(id.label) || !id.validate(digits).isValid) continue;
            // A keyword names the number as written, not a part of it ("Steuer-ID 49 960 571 231" holds no BSN).
            const whole = from === 0 && to === groups.length - 1;
            const keyword = whole && (options.keywordNear?.(text, match.index, id.label, end) ?? false);
            if (quantity && !keyword) continue;
            // An id's own grouping counts for the number as written: "9817 4234 7636" inside a card's 4-4-4-4 is no Aadhaar.
            const labelled = TECHNICAL_LABEL.test(text.slice(Math.max(0, match.index - 40), match.index));
            const grouped =
              whole && !labelled && id.groupings.some((g) => sameGrouping(span, g)) && !(options.otherIdNamed?.(text, match.index, id.label) ?? false);
            const technical = bare && labelled;
            if (keyword || grouped || (id.strong && bare && !technical)) {
              found.add(id.label);
              break; // one label per number: the first id (in DIGIT_IDS order) it is
            }
          }
        }
      }
    }
  }
  for (const id of SHAPED_IDS) {
    if (digits < id.digits) continue;
    for (const match of matchesOf(id.shape, text)) {
      if (id.validate(match[0].replace(/[ .-]/g, "")).isValid) {
        found.add(id.label);
        break;
      }
    }
  }
  return [...found];
}

/** Structure and checksum only (no keywords): the detector that needs no policy data. */
export const governmentIdDetector: Detector = {
  name: "government_id",
  detect(field: string, text: string): Finding[] {
    return nationalIdsIn(text).map((label) => ({ field, class: "biometrics_ids", label: `national_id:${label}` }));
  },
};
