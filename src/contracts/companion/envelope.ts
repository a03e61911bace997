import type { ActiveEntry } from "./records";

export const DAY_MS = 86_400_000;

export interface EnvelopeFact {
  memoryId: string;
  type: string;
  text: string;
  confidence: number;
  ageDays: number;
  addedAt: string;
  /** internal: when the decay window closes (never returned) */
  expiresAtMs: number;
  /** internal: when the fact was added (never returned) */
  createdAtMs: number;
}

export interface Envelope {
  subjectId: string;
  purpose: string;
  generatedAt: string;
  cached: boolean;
  facts: Record<string, EnvelopeFact[]>;
}

export interface EnvelopeSettings {
  memory_enabled: boolean;
  learn_patterns: boolean;
  anonymize_dates: boolean;
  delete_after_days: number | null;
}

export interface EnvelopeScope {
  tenant: string;
  subjectId: string;
  purpose: string;
  /** PERMISSION, PRICING, MODERATION, ESCALATION (policy data) */
  power: boolean;
  now: Date;
}

/**
 * SG-ENVELOPE: a subject's active facts grouped by type. What is left out is left out by
 * construction: other subjects' and tenants' records (reported to `onForeign`), expired and
 * retention-expired facts, patterns the subject opted out of, and SHARED_NARRATIVE for a
 * power purpose (SG-WARMTH: the group is absent, not empty). Opt-out leaves it empty.
 */
export function buildEnvelope(entries: ActiveEntry[], settings: EnvelopeSettings, scope: EnvelopeScope, onForeign: () => void): Envelope {
  const facts: Record<string, EnvelopeFact[]> = { USER_FACT: [], USER_PATTERN: [], SHARED_NARRATIVE: [] };
  if (settings.memory_enabled) {
    for (const entry of entries) {
      if (entry.tenant_id !== scope.tenant || entry.subject_id !== scope.subjectId) {
        onForeign(); // SG-ISOLATION: never returned
        continue;
      }
      if (scope.power && entry.type === "SHARED_NARRATIVE") continue;
      if (entry.type === "USER_PATTERN" && !settings.learn_patterns) continue;
      (facts[entry.type] ??= []).push({
        memoryId: entry.memory_id,
        type: entry.type,
        text: entry.text,
        confidence: entry.confidence,
        ageDays: 0,
        addedAt: settings.anonymize_dates ? entry.created_at.toISOString().slice(0, 10) : entry.created_at.toISOString(),
        expiresAtMs: entry.expires_at.getTime(),
        createdAtMs: entry.created_at.getTime(),
      });
    }
  }
  if (scope.power) delete facts.SHARED_NARRATIVE;
  return live({ subjectId: scope.subjectId, purpose: scope.purpose, generatedAt: scope.now.toISOString(), cached: false, facts }, settings, scope.now);
}

/**
 * What of an envelope (fresh or cached) is live now: facts past their decay window
 * (SG-DECAY) or past the subject's retention leave at once, by the injectable clock; ages
 * are those of now.
 */
export function live(envelope: Envelope, settings: Pick<EnvelopeSettings, "delete_after_days">, now: Date): Envelope {
  const t = now.getTime();
  const facts: Record<string, EnvelopeFact[]> = {};
  for (const [type, list] of Object.entries(envelope.facts)) {
    facts[type] = list
      .filter((f) => f.expiresAtMs > t)
      .filter((f) => !settings.delete_after_days || t - f.createdAtMs < settings.delete_after_days * DAY_MS)
      .map((f) => ({ ...f, ageDays: Math.floor((t - f.createdAtMs) / DAY_MS) }));
  }
  return { ...envelope, facts };
}
