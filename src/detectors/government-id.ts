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
 * own grouping (SSN 3-2-4, SIN and TFN 3-3-3, Aadhaar 4-4-4, CPF 3.3.3-2, NIR 1 2 2 2 3 3 2).
 * A bare run of digits whose checksum is weak (one check digit: BSN, PT NIF, SIN, TFN,
 * Aadhaar, UTR, FR NIF; SSN has none) counts only when an id word is near (`keywordNear`,
 * policy data in identifiers.ts), since one random number in ten or eleven passes such a
 * check: keywords raise confidence, a structure is never made to depend on one. A bare run
 * labelled technical ("order", "build", "port", "id:") is not an id unless an id word is near.
 */
export interface IdOptions {
  /** Whether an id word (any language) that may name the id `id` stands near offset `at`. */
  keywordNear?: (text: string, at: number, id: string) => boolean;
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

// The first id a number validates as names it; a nine-digit number may be several (SSN has no checksum: last).
const DIGIT_IDS: DigitId[] = [
  { label: "nl_bsn", length: 9, validate: v(stdnum.NL.bsn), strong: false, groupings: [[4, 2, 3]] },
  { label: "pt_nif", length: 9, validate: v(stdnum.PT.nif), strong: false, groupings: [] },
  { label: "ca_sin", length: 9, validate: v(stdnum.CA.sin), strong: false, groupings: [[3, 3, 3]] },
  { label: "au_tfn", length: 9, validate: v(stdnum.AU.tfn), strong: false, groupings: [[3, 3, 3]] },
  { label: "us_ssn", length: 9, validate: v(stdnum.US.ssn), strong: false, groupings: [[3, 2, 4]] },
  { label: "gb_utr", length: 10, validate: v(stdnum.GB.utr), strong: false, groupings: [] },
  { label: "de_idnr", length: 11, validate: v(stdnum.DE.idnr), strong: true, groupings: [[2, 3, 3, 3]] },
  { label: "pl_pesel", length: 11, validate: v(stdnum.PL.pesel), strong: true, groupings: [] },
  { label: "br_cpf", length: 11, validate: v(stdnum.BR.cpf), strong: true, groupings: [[3, 3, 3, 2]] },
  { label: "tr_tckimlik", length: 11, validate: v(stdnum.TR.tckimlik), strong: false, groupings: [] },
  // stdnum reads a personnummer with its separator only
  {
    label: "se_personnummer",
    length: 10,
    validate: (d) => stdnum.SE.personnummer.validate(`${d.slice(0, 6)}-${d.slice(6)}`),
    strong: false,
    groupings: [[6, 4]],
  },
  {
    label: "se_personnummer",
    length: 12,
    validate: (d) => stdnum.SE.personnummer.validate(`${d.slice(0, 8)}-${d.slice(8)}`),
    strong: false,
    groupings: [[8, 4]],
  },
  { label: "in_aadhaar", length: 12, validate: v(stdnum.IN.aadhaar), strong: false, groupings: [[4, 4, 4]] },
  { label: "jp_my_number", length: 12, validate: (d) => ({ isValid: myNumberValid(d) }), strong: false, groupings: [] },
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

/** Shapes with letters in fixed places: distinctive without a keyword; stdnum checks the rest. */
const SHAPED_IDS: { label: string; digits: number; shape: RegExp; validate: Validate }[] = [
  { label: "es_dni", digits: 8, shape: /(?<![\p{L}\p{N}])\d{8}[ -]?[A-Z](?![\p{L}\p{N}])/gu, validate: v(stdnum.ES.dni) },
  { label: "es_nie", digits: 7, shape: /(?<![\p{L}\p{N}])[XYZ][ -]?\d{7}[ -]?[A-Z](?![\p{L}\p{N}])/gu, validate: v(stdnum.ES.nie) },
  {
    label: "it_codice_fiscale",
    digits: 7,
    shape: /(?<![\p{L}\p{N}])[A-Z]{6}[0-9LMNPQRSTUV]{2}[A-EHLMPR-T][0-9LMNPQRSTUV]{2}[A-Z][0-9LMNPQRSTUV]{3}[A-Z](?![\p{L}\p{N}])/giu,
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
const TECHNICAL_LABEL =
  /\b(?:id|uuid|trace|span|request|order|invoice|ticket|issue|pr|build|run|job|commit|version|seed|nonce|epoch|timestamp|ts|port|pid|tracking|shipment|sku|isbn|ean|upc|phone|tel|fax|mobile|offset|checksum|hash|count|total|size|bytes|ms)\b[\s:=#._-]*(?:no\.?|number|nr\.?)?[\s:=#]*$/i;

/** A quantity with thousands separators ("1.000.000.000", "12,345,678"), not an identifier. */
export const QUANTITY = /^\d{1,3}([.,])\d{3}(?:\1\d{3})+$/;

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
  const digits = digitCount(text);
  if (digits < 4) return [];
  if (digits >= 9) {
    for (const match of matchesOf(DIGIT_RUN, text)) {
      if (QUANTITY.test(match[0])) continue;
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
            const keyword = whole && (options.keywordNear?.(text, match.index, id.label) ?? false);
            const grouped = id.groupings.some((g) => sameGrouping(span, g)) && !(options.otherIdNamed?.(text, match.index, id.label) ?? false);
            const technical = bare && TECHNICAL_LABEL.test(text.slice(Math.max(0, match.index - 40), match.index));
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
      if (id.validate(match[0].replace(/[ -]/g, "")).isValid) {
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
