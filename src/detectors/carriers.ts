import { decodeHTML } from "entities";

/**
 * Carriers: places where a text can hide more text from a reader or a pattern (issue 21
 * item 1). Each is opened in place, so what it carried is judged as text of the same field
 * next to the words around it: HTML and Markdown comments, Markdown link titles, HTML
 * entities (`entities`, the parser htmlparser2 uses), URL-encoding, and base64 / base32 /
 * hex runs that decode to printable UTF-8. Opening repeats on what was opened (a base64 run
 * inside a comment, entities inside base64) up to MAX_DEPTH passes and MAX_DECODED
 * characters, so a crafted text cannot make judging expensive.
 */
const MAX_DEPTH = 3;
const MAX_DECODED = 16_384;
const MAX_RUNS = 64;

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
// [//]: # (hidden text)   [comment]: <> (hidden text)   [x]: # "hidden text"
const MARKDOWN_COMMENT = /^\s*\[[^\]\n]*\]:\s*(?:#|<>)\s*(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')/gm;
// [text](url "title") or [text](url 'title'): the title is shown only on hover.
const LINK = /\[([^\]\n]*)\]\(\s*<?([^)\s>]*)>?(?:\s+(?:"([^"\n]*)"|'([^'\n]*)'|\(([^)\n]*)\)))?\s*\)/g;
const ENTITY = /&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?/;
/** Entities in a row, with the letters and spaces between them: decoded together, so what they spell is one hidden text. */
const ENTITY_RUN = /(?:&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});?[\p{L}\p{N} ]{0,3})+/gu;
/** A token of a URL or query value holding %XX escapes, up to the next space, quote, or query delimiter. */
const PERCENT_TOKEN = /[^\s?&=#"'<>]*%[0-9A-Fa-f]{2}[^\s?&=#"'<>]*/g;
/** Hex bytes as written by hand or by tools: "48656c", "48 65 6c", "\\x48\\x65", "0x48, 0x65", "48:65:6c", "48-65-6c". */
const HEX_RUN = /(?<![A-Za-z0-9])(?:\\x|0x)?(?:[0-9A-Fa-f]{2}(?:\\x|0x|[ \t]*[:,;-][ \t]*(?:0x)?|\s+(?:0x)?)?){8,}(?![A-Za-z0-9])/g;
const HEX_SEPARATOR = /\\x|0x|[\s:,;-]/g;
const BASE64_RUN = /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{16,}={0,6}(?![A-Za-z0-9+/_=-])/g;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Decoded bytes count as text when they are UTF-8, mostly letters/digits/punctuation/spaces, with letters. */
function asText(bytes: Uint8Array): string | undefined {
  if (bytes.length < 4) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  const printable = text.match(/[\p{L}\p{N}\p{P}\p{S}\p{Zs}\n\t]/gu)?.length ?? 0;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return printable >= text.length * 0.95 && letters >= Math.min(3, text.length / 2) ? text : undefined;
}

function fromBase32(run: string): Uint8Array | undefined {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const body = run.replace(/=+$/, "");
  const out: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of body) {
    const index = alphabet.indexOf(ch);
    if (index < 0) return undefined;
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Uint8Array.from(out);
}

/** One pass: every carrier opened once. `budget` counts decoded characters across passes; `hidden` collects what was opened. */
function openOnce(text: string, budget: { left: number; runs: number }, hidden: string[]): string {
  const spend = (decoded: string | undefined): string | undefined => {
    if (decoded === undefined || budget.runs >= MAX_RUNS || decoded.length > budget.left) return undefined;
    budget.left -= decoded.length;
    budget.runs++;
    return decoded;
  };
  const reveal = (content: string): string => {
    hidden.push(content);
    return content;
  };
  let out = text;
  // Comments and titles: their content becomes a sentence of its own where they stood.
  if (out.includes("<!--")) out = out.replace(HTML_COMMENT, (_m, inner: string) => ` . ${reveal(inner.trim())} . `);
  if (out.includes("]:")) out = out.replace(MARKDOWN_COMMENT, (_m, a?: string, b?: string, c?: string) => ` . ${reveal((a ?? b ?? c ?? "").trim())} . `);
  if (out.includes("](")) {
    out = out.replace(LINK, (_m, label: string, url: string, t1?: string, t2?: string, t3?: string) => {
      const title = t1 ?? t2 ?? t3;
      return `${label} (${url})${title ? ` . ${reveal(title)} . ` : ""}`;
    });
  }
  if (ENTITY.test(out)) {
    out = out.replace(ENTITY_RUN, (run) => {
      const decoded = decodeHTML(run);
      return decoded !== run && spend(decoded) ? reveal(decoded) : run;
    });
  }
  if (out.includes("%")) {
    // A URL-encoded token ("Olvida%20las%20reglas", "?next=After%20each%20answer"): decoded whole.
    out = out.replace(PERCENT_TOKEN, (token) => {
      if ((token.match(/%[0-9A-Fa-f]{2}/g)?.length ?? 0) < 2) return token; // one escape ("100%25") is as likely a literal as a disguise
      try {
        const decoded = spend(asText(Buffer.from(decodeURIComponent(token.replace(/\+/g, " ")), "utf8")));
        return decoded === undefined ? token : ` ${reveal(decoded)} `;
      } catch {
        return token;
      }
    });
  }
  out = out.replace(HEX_RUN, (run) => {
    const decoded = spend(asText(Buffer.from(run.replace(HEX_SEPARATOR, ""), "hex")));
    return decoded === undefined ? run : ` ${reveal(decoded)} `;
  });
  out = out.replace(BASE64_RUN, (run) => {
    if (/^[0-9A-Fa-f]+$/.test(run) || !/[A-Za-z]/.test(run)) return run;
    const decoded = /={3,}$/.test(run) ? undefined : spend(asText(Buffer.from(run.replace(/-/g, "+").replace(/_/g, "/"), "base64")));
    if (decoded !== undefined) return ` ${reveal(decoded)} `;
    if (/^[A-Z2-7]+=*$/.test(run)) {
      const bytes = fromBase32(run);
      const text32 = bytes ? spend(asText(bytes)) : undefined;
      if (text32 !== undefined) return ` ${reveal(text32)} `;
    }
    return run;
  });
  return out;
}

/**
 * `text` with every carrier opened, repeatedly up to MAX_DEPTH; `normalise` is applied to
 * what each pass opened (decoded text may itself be full-width, confusable or invisible-laden).
 * `hidden`, when given, receives each carrier's content as opened (a reader of the page would
 * not have seen it).
 */
export function openCarriers(text: string, normalise: (text: string) => string = (t) => t, hidden: string[] = []): string {
  const budget = { left: MAX_DECODED, runs: 0 };
  let out = text;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    const next = openOnce(out, budget, hidden);
    if (next === out) break;
    out = normalise(next);
  }
  return out;
}
