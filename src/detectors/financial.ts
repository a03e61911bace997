import { countrySpecs, validateIBAN, ValidationErrorsIBAN } from "ibantools";
import type { Detector, Finding } from "./detector";
import { digitCount, QUANTITY } from "./government-id";
import { matchesOf } from "./matches";

/** Luhn (ISO/IEC 7812) over a string of digits. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** Issuer ranges (IIN) of the card networks and the lengths each issues. */
const NETWORKS: { prefix: RegExp; lengths: readonly number[] }[] = [
  { prefix: /^4/, lengths: [13, 16, 19] }, // Visa
  { prefix: /^(?:5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/, lengths: [16] }, // Mastercard
  { prefix: /^3[47]/, lengths: [15] }, // American Express
  { prefix: /^(?:6011|64[4-9]|65)/, lengths: [16, 17, 18, 19] }, // Discover
  { prefix: /^35(?:2[89]|[3-8]\d)/, lengths: [16, 17, 18, 19] }, // JCB
  { prefix: /^3(?:0[0-5]|[689])/, lengths: [14, 15, 16, 17, 18, 19] }, // Diners Club
  { prefix: /^62/, lengths: [16, 17, 18, 19] }, // UnionPay
  { prefix: /^(?:50|5[6-9]|6[0-9])/, lengths: [13, 14, 15, 16, 17, 18, 19] }, // Maestro
];

/** Whether a digit string is a payment card number: an issuer's range and length, and the Luhn check. */
export function isCardNumber(digits: string): boolean {
  if (digits.length < 13 || digits.length > 19 || /^(\d)\1+$/.test(digits)) return false;
  if (!NETWORKS.some((n) => n.lengths.includes(digits.length) && n.prefix.test(digits))) return false;
  return luhnValid(digits);
}

// Groups of digits, each separated by one space, dot, dash or no-break space ("4111.1111.1111.1111",
// "3782 822463 10005", "4111111111111111"); not inside a word or a decimal number.
const DIGIT_RUN = /(?<![\p{L}\p{N}_]|\d[.,])\d+(?:[ .\-\u00A0\u202F]\d+)*(?![\p{L}_]|[.,]\d)/gu;
const SEPARATOR = /[ .\-\u00A0\u202F]/;
/**
 * An ungrouped run labelled as something technical just before it ("order 4111…", "trace id:",
 * "build #", "timestamp"): such a run is an identifier of a system, not a card, unless a card
 * word is near. A grouped run ("4111 1111 1111 1111") is written as a card and always counts.
 */
const TECHNICAL_LABEL =
  /\b(?:id|uuid|guid|trace|span|request|req|order|po|purchase order|invoice|ticket|issue|pr|build|run|job|commit|version|seed|nonce|epoch|timestamp|ts|port|pid|tracking|shipment|sku|isbn|ean|upc|gtin|phone|tel|fax|snowflake|offset|checksum|hash)\b[\s:=#._-]*(?:no\.?|number|nr\.?)?[\s:=#]*$/i;
const CARD_WORD =
  /\b(?:card|cards|visa|mastercard|master card|amex|american express|discover|maestro|jcb|diners|unionpay|cc|pan|karte|kreditkarte|bankkarte|tarjeta|carta|carte|cartão|cartao|kaart|creditcard|karta|kartę|kartu)\b/i;

function cardIn(text: string): boolean {
  for (const match of matchesOf(DIGIT_RUN, text)) {
    if (QUANTITY.test(match[0])) continue;
    const groups = match[0].split(SEPARATOR);
    const total = groups.reduce((n, g) => n + g.length, 0);
    if (total < 13) continue;
    // Every run of whole adjacent groups of 13-19 digits: "order 12 4111 1111 1111 1111" holds the card.
    for (let from = 0; from < groups.length; from++) {
      let digits = "";
      for (let to = from; to < groups.length && digits.length < 19; to++) {
        digits += groups[to];
        if (digits.length < 13 || digits.length > 19 || !isCardNumber(digits)) continue;
        // Only an ungrouped run right after a technical label is that system's number: a run grouped
        // as a card counts whatever label precedes it ("pr:4111 1111 1111 1111" must not pass).
        if (from === to && technicalLabel(text, match.index)) continue;
        return true;
      }
    }
  }
  return false;
}

function technicalLabel(text: string, at: number): boolean {
  const before = text.slice(Math.max(0, at - 40), at);
  return TECHNICAL_LABEL.test(before) && !CARD_WORD.test(before);
}

// Where an IBAN may start: a country code and two check digits, not inside a word.
const IBAN_START = /(?<![\p{L}\p{N}])([A-Za-z]{2})[ .-]?(\d{2})/gu;
const IBAN_CHAR = /[A-Za-z0-9]/;
/** Between groups: a space, dot, dash or slash, or a short run of them ("GB62 / NWBK / 6016"). */
const IBAN_SEPARATOR = /^[ .\-\u00A0/|]{1,3}/;

/**
 * An IBAN's own checks: the country's length and BBAN format (ibantools' registry) and mod 97. A national
 * check digit inside the BBAN (Spain's CCC, Poland's, Portugal's NIB …) is the bank's, not the IBAN's: a
 * number that passes mod 97 (one in 97 by chance) in its country's format is written as an IBAN and counts.
 */
export function ibanValid(iban: string): boolean {
  return validateIBAN(iban).errorCodes.every((e) => e === ValidationErrorsIBAN.WrongAccountBankBranchChecksum);
}

/** An IBAN in any spacing and case: the country's length (ibantools' registry) and the mod-97 check. */
function ibanIn(text: string): boolean {
  for (const match of matchesOf(IBAN_START, text)) {
    const country = match[1].toUpperCase();
    const length = countrySpecs[country]?.chars;
    if (!length) continue;
    let iban = country + match[2];
    for (let i = match.index + match[0].length; i < text.length && iban.length < length; i++) {
      const ch = text[i];
      if (IBAN_CHAR.test(ch)) {
        iban += ch.toUpperCase();
        continue;
      }
      const separator = IBAN_SEPARATOR.exec(text.slice(i, i + 3))?.[0];
      if (!separator || !IBAN_CHAR.test(text[i + separator.length] ?? "")) break;
      i += separator.length - 1;
    }
    if (iban.length === length && ibanValid(iban)) return true;
  }
  return false;
}

/** ABA routing number check (weights 3, 7, 1). */
function abaValid(d: string): boolean {
  if (!/^\d{9}$/.test(d) || /^0{9}$/.test(d)) return false;
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += Number(d[i]) * [3, 7, 1][i % 3];
  return sum % 10 === 0;
}

// Bank accounts written in a country's own shape, without an IBAN: a UK sort code beside an 8-digit
// account; a US routing number (ABA check) named as such; a Japanese account type and its 7 digits
// ("普通 7283015"); a Polish NRB (26 digits, the IBAN's mod-97 with "PL").
const SORT_CODE_ACCOUNT =
  /(?<![\d-])\d{2}-\d{2}-\d{2}(?![\d-])[^\n\d]{0,30}(?<!\d)\d{8}(?!\d)|(?<!\d)\d{8}(?!\d)[^\n\d]{0,30}(?<![\d-])\d{2}-\d{2}-\d{2}(?![\d-])/;
const ROUTING = /\b(?:routing|aba|rtn|ach)\b[^\n\d]{0,25}(\d{9})(?!\d)/gi;
const JP_ACCOUNT = /(?:普通|当座|貯蓄|総合)(?:預金)?(?:口座)?\s*[:：]?\s*\d{7}(?!\d)|口座番号\s*[:：]?\s*\d{7,8}(?!\d)/u;
const NRB = /(?<![\p{L}\p{N}])\d{2}(?:[ -]?\d{4}){6}(?![\p{N}])/gu;

function bankAccountIn(text: string): boolean {
  if (SORT_CODE_ACCOUNT.test(text) || JP_ACCOUNT.test(text)) return true;
  if (matchesOf(ROUTING, text).some((m) => abaValid(m[1]))) return true;
  return matchesOf(NRB, text).some((m) => ibanValid(`PL${m[0].replace(/\D/g, "")}`));
}

/**
 * seed 000 §4.7 financial account numbers, by what they are rather than by a keyword:
 * payment card numbers (issuer range, network length and Luhn, in any grouping) and IBANs
 * (ISO 13616 country length and mod-97, in any spacing). The detector reads each view of
 * the text (normalise.ts), so full-width or letter-spaced digits are read as digits.
 */
export const financialDetector: Detector = {
  name: "financial",
  detect: (field: string, text: string): Finding[] => financialFindings(field, text),
};

/** Cards, IBANs and bank accounts in one text (the identifier detector reads digits written as words with it). */
export function financialFindings(field: string, text: string): Finding[] {
  const findings: Finding[] = [];
  const digits = digitCount(text);
  if (digits >= 13 && cardIn(text)) findings.push({ field, class: "biometrics_ids", label: "card_number_luhn" });
  if (digits >= 2 && ibanIn(text)) findings.push({ field, class: "biometrics_ids", label: "iban_checksum" });
  if (digits >= 7 && bankAccountIn(text)) findings.push({ field, class: "biometrics_ids", label: "bank_account" });
  return findings;
}
