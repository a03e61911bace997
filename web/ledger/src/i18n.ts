/**
 * The page's words, from policy data (policies/memgate/messages/<lang>/data.json, copied to
 * messages/<lang>.json by scripts/build-web.mjs): a policy author changes or translates them
 * without touching code. The page never shows a stop reason, clause id or internal id: a
 * refusal is matched to a sentence by its rule detail, then by its stop reason, then a default.
 */
export interface Messages {
  language_name: string;
  page: Record<string, string>;
  kinds: Record<string, string>;
  sources: Record<string, string>;
  status: Record<string, string>;
  refusals: { details: { match: string; text: string }[]; stop_reasons: Record<string, string> };
}

export interface Language {
  code: string;
  name: string;
}

const LANGUAGE_KEY = "memgate.ledger.language";

export async function loadLanguages(): Promise<Language[]> {
  const res = await fetch("./messages/index.json");
  if (!res.ok) throw new Error(`messages/index.json: HTTP ${res.status}`);
  return (await res.json()) as Language[];
}

export async function loadMessages(code: string): Promise<Messages> {
  const res = await fetch(`./messages/${encodeURIComponent(code)}.json`);
  if (!res.ok) throw new Error(`messages/${code}.json: HTTP ${res.status}`);
  return (await res.json()) as Messages;
}

/** The person's earlier choice, else the browser's first language we have (de-AT finds de), else English. */
export function preferredLanguage(available: readonly Language[], browser: readonly string[] = navigator.languages): string {
  const codes = available.map((l) => l.code);
  const chosen = localStorage.getItem(LANGUAGE_KEY);
  if (chosen && codes.includes(chosen)) return chosen;
  for (const tag of browser) {
    const lower = tag.toLowerCase();
    const hit = codes.find((c) => c === lower) ?? codes.find((c) => c === lower.split("-")[0]);
    if (hit) return hit;
  }
  return codes.includes("en") ? "en" : (codes[0] ?? "en");
}

export function rememberLanguage(code: string): void {
  localStorage.setItem(LANGUAGE_KEY, code);
}

/** A page sentence with its {placeholders} filled; a missing key shows the English fallback the caller passed, never the key. */
export function fill(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

export class Words {
  constructor(readonly messages: Messages) {}

  page(key: string, vars?: Record<string, string | number>): string {
    return fill(this.messages.page[key] ?? "", vars);
  }

  status(key: string): string {
    return this.messages.status[key] ?? this.messages.refusals.stop_reasons.default ?? "";
  }

  kind(kind: string): string {
    return this.messages.kinds[kind] ?? "";
  }

  source(sourceType: string): string {
    return this.messages.sources[sourceType] ?? "";
  }

  /** A refusal as one plain sentence: the first rule detail the messages know, else the stop reason's sentence. */
  refusal(decision: { stopReason: string; explanations: readonly string[] }): string {
    for (const explanation of decision.explanations) {
      const hit = this.messages.refusals.details.find((d) => explanation.includes(d.match));
      if (hit) return hit.text;
    }
    const reasons = this.messages.refusals.stop_reasons;
    return reasons[decision.stopReason] ?? reasons.default ?? "";
  }
}
