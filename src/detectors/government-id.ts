import type { Detector, Finding } from "./detector";

// US SSN: area 001-899 except 666, group 01-99, serial 0001-9999; dashed or spaced.
const SSN = /\b(?!000|666|9\d\d)\d{3}([- ])(?!00)\d{2}\1(?!0000)\d{4}\b/;
// UK National Insurance number: two prefix letters (not D, F, I, Q, U, V; second not O), six digits, A-D.
const NINO = /\b(?!BG|GB|KN|NK|NT|TN|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/i;
// A word that names a government or health id, then (case-sensitively) a document-number shape.
const ID_WORD =
  /\b(?:passport|driver'?s licen[cs]e|driving licen[cs]e|licen[cs]e (?:no|number)|national id|id card|identity card|tax id|itin|nhs|medicare|medicaid|aadhaa?r|ssn|social security|nino|national insurance|sin|social insurance|dl (?:number|no)|personnummer|bsn|steuer-?id|codice fiscale|cpf|curp|residence permit|green card|alien registration)\b/gi;
const ID_SHAPE = /^[^\n\d]{0,25}?[A-Z]{0,3}\d[\d -]{4,18}/;
// India Aadhaar: 12 digits in 4-4-4 groups, first digit 2-9.
const AADHAAR = /\b[2-9]\d{3} \d{4} \d{4}\b/;

/** seed 000 §4.7 government ids by their shapes: SSN, UK NINO, Aadhaar, and numbers named as ids. */
export const governmentIdDetector: Detector = {
  name: "government_id",
  detect(field: string, text: string): Finding[] {
    const findings: Finding[] = [];
    if (SSN.test(text)) findings.push({ field, class: "biometrics_ids", label: "ssn_shape" });
    if (NINO.test(text)) findings.push({ field, class: "biometrics_ids", label: "nino_shape" });
    if (AADHAAR.test(text)) findings.push({ field, class: "biometrics_ids", label: "aadhaar_shape" });
    for (const match of text.matchAll(ID_WORD)) {
      const shape = ID_SHAPE.exec(text.slice(match.index + match[0].length, match.index + match[0].length + 48));
      if (shape && shape[0].replace(/\D/g, "").length >= 5) {
        findings.push({ field, class: "biometrics_ids", label: "named_id_number" });
        break;
      }
    }
    return findings;
  },
};
