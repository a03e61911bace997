import { electronicFormatIBAN, isValidIBAN } from "ibantools";
import type { Detector, Finding } from "./detector";

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

// 13-19 digits, optionally grouped by single spaces or dashes (4-4-4-4, 4-6-5, ...).
const CARD = /(?<![\d.])(?:\d[ -]?){12,18}\d(?![\d.])/g;
// Issuer prefixes of the card networks (Visa, Mastercard, Amex, Discover, JCB, Diners, UnionPay, Maestro).
const ISSUER = /^(?:4|5[1-5]|2[2-7]|3[47]|6(?:011|5|4[4-9]|2)|35|30[0-5]|36|38|39|5[06-9]|6[37])/;
// Country code, check digits, then 11-30 alphanumerics, optionally in groups of four.
const IBAN = /\b[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}\b/gi;

/**
 * seed 000 §4.7 financial account numbers: payment card numbers (issuer prefix and Luhn
 * check, so version strings and ids rarely pass) and IBANs (ISO 13616 mod-97 checksum).
 */
export const financialDetector: Detector = {
  name: "financial",
  detect(field: string, text: string): Finding[] {
    const findings: Finding[] = [];
    for (const match of text.matchAll(CARD)) {
      const digits = match[0].replace(/[ -]/g, "");
      const grouped = /[ -]/.test(match[0]);
      // Ungrouped digit runs must look like a card; grouped ones (1234 5678 ...) are cards by form.
      if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits) && (ISSUER.test(digits) || grouped) && !/^(\d)\1+$/.test(digits)) {
        findings.push({ field, class: "biometrics_ids", label: "card_number_luhn" });
        break;
      }
    }
    for (const match of text.matchAll(IBAN)) {
      const iban = electronicFormatIBAN(match[0]);
      if (iban && isValidIBAN(iban)) {
        findings.push({ field, class: "biometrics_ids", label: "iban_checksum" });
        break;
      }
    }
    return findings;
  },
};
