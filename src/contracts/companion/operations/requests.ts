/** The companion operations' requests as the kernel parsed them: a value of the wrong type is null. */
export type Maybe<T> = T | null | undefined;

export interface AddFactRequest {
  subjectId?: Maybe<string>;
  type?: Maybe<string>;
  text?: Maybe<string>;
  confidence?: Maybe<number>;
  source?: Maybe<string>;
  summary?: Maybe<string>;
  origin?: Maybe<string>;
  supersedes?: Maybe<string>;
  sourceRefs?: Maybe<Maybe<string>[]>;
  validTo?: Maybe<string>;
}

export interface TargetRequest {
  subjectId?: Maybe<string>;
}

export interface ConfirmRequest extends TargetRequest {
  proposalId?: Maybe<string>;
}

export interface ForgetRequest extends TargetRequest {
  memoryId?: Maybe<string>;
}

export interface EnvelopeRequest extends TargetRequest {
  purpose?: Maybe<string>;
  skipCache?: Maybe<boolean>;
  includeNarrative?: Maybe<boolean>;
}

export interface PrivacyRequest extends TargetRequest {
  memoryEnabled?: Maybe<boolean>;
  learnPatterns?: Maybe<boolean>;
  shareWith?: Maybe<Maybe<string>[]>;
  anonymizeDates?: Maybe<boolean>;
  deleteAfterDays?: Maybe<number>;
}

export interface ConsolidateRequest extends TargetRequest {
  memoryIds?: Maybe<Maybe<string>[]>;
  text?: Maybe<string>;
  type?: Maybe<string>;
  justification?: Maybe<string>;
}

export const str = (v: Maybe<string>): string => (typeof v === "string" ? v : "");
export const strings = (v: Maybe<Maybe<string>[]>): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/** An ISO 8601 date or time with a zone, as a Date; null for anything else ("not a date", 2026-02-31). */
export function isoTime(value: Maybe<string>): Date | null {
  const m = typeof value === "string" ? ISO_TIME.exec(value) : null;
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return null;
  const t = Date.parse(value!);
  return Number.isNaN(t) ? null : new Date(t);
}
