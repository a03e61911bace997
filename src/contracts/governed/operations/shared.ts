import { subjectOf, type Principal } from "../../../auth/principal";
import { storedContent } from "../../../kernel/declaration";
import { KernelError } from "../../../kernel/execute";
import { TENANT_SCOPE, type OperationContext } from "../../../kernel/operation";
import type { PolicyEngine } from "../../../policy/policy-engine";
import { STORE_FIELDS } from "../fields";
import type { MemoryRecord } from "../store";
import type { SubjectCounts } from "../store-counters";
import type { SettingsInput } from "../store-settings";
import type { ItemRequest, SettingsRequest } from "./requests";

export const CONTRACT = "governed";
export const DEFAULT_LIST_LIMIT = 20;

/** What STORE needs to decide: settings (C19-POLICY) and counts (C19-CAP). */
export interface Quota {
  settings: SettingsInput;
  counters: SubjectCounts;
}

/** A targeted item, and the version a lost conditional write saw claimed by another write. */
export interface Target {
  record: MemoryRecord | null;
  /** Set on the second gather after a lost race: the version the other write took. */
  claimed: number | null;
  settings: SettingsInput;
}

export const NO_SETTINGS: SettingsInput = { tenant: null, subject: null };
export const NO_COUNTS = { items: 0, writes_in_window: 0 };

/** The subject an operation is about: the argument if it is one, else the token's first subject (SPEC D5: the policy judges it). */
export function subjectArg(raw: unknown, { principal }: Pick<OperationContext, "principal">): string {
  const requested = raw !== null && typeof raw === "object" ? (raw as { subject_id?: unknown }).subject_id : undefined;
  return typeof requested === "string" ? requested : subjectOf(principal);
}

/** The subject a settings change is for; null: the whole tenant. */
export function scopedSubject(ctx: OperationContext): string | null {
  return ctx.subjectId === TENANT_SCOPE ? null : ctx.subjectId;
}

export function given(req: SettingsRequest) {
  return {
    enabled: req.enabled ?? null,
    max_items_per_subject: req.max_items_per_subject ?? null,
    max_writes_per_window: req.max_writes_per_window ?? null,
  };
}

/** The policy input of an item write (STORE, UPDATE): snake_case, as the Rego reads it. */
export function itemOf(req: ItemRequest) {
  return {
    category: req.category ?? null,
    key: req.key ?? null,
    value: req.value ?? null,
    source_kind: req.source_kind ?? null,
    ttl_class: req.ttl_class ?? null,
    source_ref: req.source_ref ?? null,
    origin: req.origin ?? "USER",
    consent: { explicit: req.consent?.explicit ?? false, evidence_ref: req.consent?.evidence_ref ?? null },
  };
}

type ItemContent = Pick<MemoryRecord, "category" | "key" | "value" | "source_kind" | "ttl_class" | "source_ref" | "origin" | "consent">;

/**
 * The stored content of an allowed write (STORE, UPDATE): every field ITEM declares stored
 * (key, value, source_ref, and any text field added there: fields.ts), then the values the
 * policy checked. The policy allowed it, so every required field is a string.
 */
export function content(req: ItemRequest): ItemContent {
  const item = itemOf(req);
  const str = (value: unknown, name: string): string => {
    if (typeof value !== "string") throw new KernelError(`governed: the policy allowed an item without ${name}`);
    return value;
  };
  const stored = storedContent(STORE_FIELDS, req);
  for (const [name, field] of Object.entries(STORE_FIELDS)) if (field.stored && field.required) str(stored[field.storedAs ?? name], name);
  return {
    ...(stored as Pick<ItemContent, "key" | "value" | "source_ref">),
    category: str(item.category, "category"),
    source_kind: str(item.source_kind, "source_kind"),
    ttl_class: str(item.ttl_class, "ttl_class"),
    origin: item.origin,
    consent: item.consent,
  };
}

export function required(record: MemoryRecord | null | undefined): MemoryRecord {
  if (!record) throw new KernelError("governed: the policy allowed an operation on an item that was not gathered");
  return record;
}

export function expiry(ctx: OperationContext, ttlClass: string | null): Date {
  const ttl = ttlClass === null ? undefined : ctx.policy.contract.ttl_classes[ttlClass];
  if (!ttl) throw new KernelError("governed: the policy allowed an unknown TTL class");
  return new Date(ctx.now.getTime() + ttl.seconds * 1000);
}

export const actor = (principal: Principal) => ({ id: principal.id, roles: [...principal.roles] });

/** Metadata of an item's event: known values and the version, never content (SPEC D4). */
export function eventMetadata(record: MemoryRecord): Record<string, unknown> {
  return { category: record.category, ttl_class: record.ttl_class, source_kind: record.source_kind, version: record.version };
}

/** The origins STORE declares (fields.ts), the one list the doors and this metadata read. */
const ORIGINS: readonly string[] = STORE_FIELDS.origin.choices ?? [];

/** SPEC D4: a refused write keeps metadata only (the kernel adds field lengths). A category off the allowlist is itself content. */
export function itemMetadata(req: ItemRequest, policy: PolicyEngine): Record<string, unknown> {
  const contract = policy.contract;
  const known = (value: unknown, allowed: (v: string) => boolean) => (typeof value === "string" && allowed(value) ? value : null);
  return {
    category: known(req.category, (v) => Object.hasOwn(contract.categories, v)),
    ttl_class: known(req.ttl_class, (v) => Object.hasOwn(contract.ttl_classes, v)),
    source_kind: known(req.source_kind, (v) => contract.source_kinds.includes(v)),
    origin: known(req.origin ?? "USER", (v) => ORIGINS.includes(v)),
  };
}

/** What the policy learns about a targeted item: whether it is there and live, never its content (SPEC D7). */
export function targetOf(record: { status: string; version?: number; expires_at?: Date | null } | null): Record<string, unknown> {
  if (!record) return { found: false };
  return {
    found: true,
    status: record.status,
    version: record.version ?? null,
    expires_at_ms: record.expires_at ? record.expires_at.getTime() : null,
  };
}

export function encodeCursor(record: MemoryRecord): string {
  return Buffer.from(JSON.stringify([record.created_at.toISOString(), record._id]), "utf8").toString("base64url");
}

/** null when the cursor is not one memgate issued; the policy answers SCHEMA_INVALID. */
export function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const date = new Date(createdAt);
    if (typeof id !== "string" || Number.isNaN(date.getTime())) return null;
    return { createdAt: date, id };
  } catch {
    return null;
  }
}
