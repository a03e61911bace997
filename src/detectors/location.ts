import type { Detector, Finding } from "./detector";

// Decimal degrees as a pair: 51.5074, -0.1278 (at least 3 decimals each: street-level precision).
const DECIMAL_PAIR = /(?<![\d.])([-+]?\d{1,3}\.\d{4,})\s*[,; ]\s*([-+]?\d{1,3}\.\d{4,})(?![\d.])/g;

/** A latitude/longitude pair in range, not two small fractions (learning rates, thresholds). */
function coordinatePair(text: string): boolean {
  for (const [, a, b] of text.matchAll(DECIMAL_PAIR)) {
    const lat = Number(a);
    const lon = Number(b);
    if (Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && (Math.abs(lat) >= 1 || Math.abs(lon) >= 1)) return true;
  }
  return false;
}
// Degrees, minutes, seconds: 40°26'46"N 79°58'56"W, or with spaces.
const DMS = /\d{1,3}\s*°\s*\d{1,2}\s*['′]\s*(?:\d{1,2}(?:\.\d+)?\s*["″]\s*)?[NSEW]\b/i;
// lat/lng named explicitly.
const NAMED = /\b(?:lat(?:itude)?(?:\s*[/,&]\s*(?:lng|lon|long|longitude))?|lng|lon(?:gitude)?)\s*[:=]\s*[-+]?\d{1,3}\.\d{2,}/i;
// Plus codes (Open Location Code): 8FVC9G8F+6X or 9G8F+6X City.
const PLUS_CODE = /\b[23456789CFGHJMPQRVWX]{4,8}\+[23456789CFGHJMPQRVWX]{2,3}\b/;

const SUFFIX =
  "street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|place|pl|terrace|ter|crescent|cres|close|way|parkway|pkwy|highway|hwy|square|sq|circle|cir|trail|trl|row|mews|gardens|grove|hill|walk|strasse|straße|str|rue|calle|via|avenida|weg|gasse|laan|straat|vej|gatan";
// 221B Baker Street; 1600 Pennsylvania Ave NW; 10 Downing St, London.
const SUFFIXES = `${SUFFIX}|${SUFFIX.replace(/(^|\|)(\p{L})/gu, (_m, bar: string, c: string) => bar + c.toUpperCase())}`;
const STREET = new RegExp(`\\b\\d{1,5}[A-Za-z]?,?\\s+(?:[A-Z][\\p{L}'.-]*\\s+){1,4}(?:${SUFFIXES})\\b\\.?`, "u");
// Rue de Rivoli 12; Hauptstraße 5; Calle Mayor 10.
const STREET_FIRST = new RegExp(`\\b(?:[A-Z][\\p{L}'.-]*(?:${SUFFIX})|(?:rue|calle|via|avenida|avenue) [\\p{L}' -]{2,30})\\s+\\d{1,5}[a-z]?\\b`, "u");
// 14 Rue Lepic; 10 Calle Mayor: number first, then a street word that comes before the name.
const NUMBER_FIRST = /\b\d{1,5},?\s+(?:rue|calle|via|avenida|avenue|boulevard|place|allée|chemin|strada|rua|ulica|carrer|piazza|plaza)\s+[\p{L}'-]{2,}/iu;
// UK postcodes and US ZIP+4 (a bare five-digit number is too often something else).
const UK_POSTCODE = /\b(?:GIR 0AA|[A-PR-UWYZ][A-HK-Y]?\d[A-Z\d]? ?\d[ABD-HJLNP-UW-Z]{2})\b/;
const ZIP4 = /\b\d{5}-\d{4}\b/;
// "apartment 4B", "apt. 12", "flat 3" followed by a street or building word.
const UNIT = /\b(?:apt\.?|apartment|flat|unit|suite)\s*#?\s*\d+[A-Za-z]?\b/i;

/**
 * seed 000 §4.5 precise location: coordinates (decimal pairs, DMS, named lat/lng, plus
 * codes) and postal addresses (house number + street name + street type, postcodes).
 */
export const locationDetector: Detector = {
  name: "location",
  detect(field: string, text: string): Finding[] {
    const findings: Finding[] = [];
    if (coordinatePair(text) || DMS.test(text) || NAMED.test(text) || PLUS_CODE.test(text)) {
      findings.push({ field, class: "location", label: "coordinates" });
    }
    if (
      STREET.test(text) ||
      STREET_FIRST.test(text) ||
      NUMBER_FIRST.test(text) ||
      (UNIT.test(text) && /\b(?:street|st|road|rd|avenue|ave|lane|drive|floor)\b/i.test(text))
    ) {
      findings.push({ field, class: "location", label: "street_address" });
    }
    if (UK_POSTCODE.test(text) || ZIP4.test(text)) findings.push({ field, class: "location", label: "postcode" });
    return findings;
  },
};
