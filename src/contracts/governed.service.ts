import { randomUUID } from "node:crypto";
import { subjectOf, type Principal } from "../auth/principal";
import type { DetectorSuite } from "../detectors/detector";
import type { Logger } from "../logger";
import { newSalt, saltedDigest } from "../store/canonical";
import { MemoryCounters } from "../store/memory-counters";
import { memoryDocId } from "../store/ids";
import type { MemoryRecord, MemoryRepository } from "../store/memory-repository";
import { settingsDocId, settingsInput, type MemorySettingsRecord, type MemorySettingsRepository } from "../store/memory-settings";
import type { Decided, DecisionRequest, Governor } from "./governor";
import type { CallContext, Outcome } from "../kernel/outcome";

/** A STORE request of seed 000, as the edge parsed it; nothing here is trusted yet. */
export interface StoreRequest {
  subjectId?: string | null;
  category: string;
  key: string;
  value: string;
  sourceKind: string;
  ttlClass: string;
  sourceRef?: string | null;
  consent?: { explicit: boolean; evidenceRef?: string | null } | null;
  origin?: string | null;
}

/** UPDATE (SPEC D2): the whole new content of a live item, judged like a STORE. */
export interface UpdateRequest extends StoreRequest {
  memoryId: string;
  /** Optimistic concurrency: the version the caller read; a newer live version answers NOT_FOUND. */
  expectedVersion?: number | null;
}

/** DELETE (SPEC D1): logical; the reason is kept in the event. */
export interface DeleteRequest {
  memoryId: string;
  subjectId?: string | null;
  reason?: string | null;
  expectedVersion?: number | null;
}

export interface ReadRequest {
  memoryId: string;
  subjectId?: string | null;
}

export interface ListRequest {
  subjectId?: string | null;
  category?: string | null;
  limit?: number | null;
  after?: string | null;
}

export interface MemoryPage {
  items: MemoryRecord[];
  nextCursor: string | null;
}

/** setMemorySettings: subjectId absent means the whole tenant; absent values stay as they are. */
export interface SettingsRequest {
  subjectId?: string | null;
  enabled?: boolean | null;
  maxItemsPerSubject?: number | null;
  maxWritesPerWindow?: number | null;
}

/** The policy input of an item write (STORE, UPDATE): snake_case, as the Rego reads it. */
export type ItemInput = Pick<MemoryRecord, "category" | "key" | "value" | "source_kind" | "ttl_class" | "source_ref" | "origin" | "consent">;

const CONTRACT = "governed";
export const DEFAULT_LIST_LIMIT = 20;

interface EntitlementData {
  defaults: { window_seconds: number };
}

/**
 * The Phase 19 contract (seed 000): STORE, UPDATE, DELETE, READ, LIST of governed items,
 * and the settings behind POLICY_DISABLED and ENTITLEMENT_CAP.
 * Every operation: gather facts (detectors, target, settings, counts) -> policy -> store +
 * event. The policy alone decides; a refusal writes a metadata-only `refuse` event (SPEC D4);
 * any exception answers INTERNAL_INCONSISTENCY (INV-8) and undoes what it wrote.
 */
export class GovernedMemoryService {
  constructor(
    private readonly governor: Governor,
    private readonly memories: MemoryRepository,
    private readonly detectors: DetectorSuite,
    private readonly settings: MemorySettingsRepository,
    private readonly counters: MemoryCounters,
    private readonly logger: Logger,
  ) {}

  async store(principal: Principal, request: StoreRequest, ctx: CallContext): Promise<Outcome<MemoryRecord>> {
    const base = this.base("STORE", principal, subjectOf(principal, request.subjectId));
    try {
      const item = itemOf(request);
      const [content, quota] = await Promise.all([this.content(item), this.quota(principal.tenant, base.subjectId)]);
      const decisionRequest: DecisionRequest = { ...base, input: { item, ...content, ...quota.input } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return await this.refuse(decisionRequest, decided, ctx, this.itemMetadata(item));

      const now = this.governor.clock.now();
      const memoryId = `mem_${randomUUID()}`;
      const record: MemoryRecord = {
        _id: memoryDocId(principal.tenant, base.subjectId, memoryId),
        tenant_id: principal.tenant,
        subject_id: base.subjectId,
        memory_id: memoryId,
        version: 1,
        ...item,
        status: "active",
        created_at: now,
        updated_at: now,
        expires_at: this.expiry(item.ttl_class, now),
        created_by: { id: principal.id, roles: principal.roles },
        content_salt: newSalt(),
      };
      await this.memories.insert(record);
      await this.recordOrUndo(decisionRequest, decided, ctx, "create", record, () => this.memories.rollback(record));
      await this.count(quota, { items: 1, writes: 1 });
      return this.governor.outcome(decided, record);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async update(principal: Principal, request: UpdateRequest, ctx: CallContext): Promise<Outcome<MemoryRecord>> {
    const base = this.base("UPDATE", principal, subjectOf(principal, request.subjectId));
    try {
      const item = itemOf(request);
      const [current, content, quota] = await Promise.all([
        this.memories.get(principal.tenant, base.subjectId, request.memoryId),
        this.content(item),
        this.quota(principal.tenant, base.subjectId),
      ]);
      const input = {
        item: { ...item, memory_id: request.memoryId, expected_version: request.expectedVersion ?? null },
        ...content,
        ...quota.input,
      };
      const decisionRequest: DecisionRequest = { ...base, input: { ...input, target: targetOf(current) } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return await this.refuse(decisionRequest, decided, ctx, this.itemMetadata(item));

      const live = current!;
      const now = this.governor.clock.now();
      const next: MemoryRecord = {
        ...live,
        ...item,
        version: live.version + 1,
        supersedes: live.version,
        updated_at: now,
        expires_at: this.expiry(item.ttl_class, now),
        updated_by: { id: principal.id, roles: principal.roles },
        content_salt: newSalt(),
      };
      if (!(await this.memories.supersede(live, next, now))) {
        // Another write got there first: the policy judges the item as it is now (SPEC D2).
        return await this.raced(base, input, live.version, ctx, this.itemMetadata(item));
      }
      await this.recordOrUndo(decisionRequest, decided, ctx, "update", next, () => this.memories.unsupersede(live, next), {
        supersedes: live.version,
      });
      await this.count(quota, { items: 0, writes: 1 });
      return this.governor.outcome(decided, next);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async delete(principal: Principal, request: DeleteRequest, ctx: CallContext): Promise<Outcome<MemoryRecord>> {
    const base = this.base("DELETE", principal, subjectOf(principal, request.subjectId));
    try {
      const reason = request.reason ?? null;
      const texts = { reason: reason ?? "" };
      const [current, facts, quota] = await Promise.all([
        this.memories.get(principal.tenant, base.subjectId, request.memoryId),
        this.detectors.run(texts),
        this.quota(principal.tenant, base.subjectId),
      ]);
      const input = {
        item: { memory_id: request.memoryId, expected_version: request.expectedVersion ?? null },
        reason: reason ?? "",
        texts,
        facts,
        ...quota.input,
      };
      const metadata = { memory_id_length: request.memoryId.length, reason_length: reason?.length ?? 0 };
      const decisionRequest: DecisionRequest = { ...base, input: { ...input, target: targetOf(current) } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return await this.refuse(decisionRequest, decided, ctx, metadata);

      const live = current!;
      const now = this.governor.clock.now();
      if (!(await this.memories.markDeleted(live, now, reason))) {
        return await this.raced(base, input, live.version, ctx, metadata);
      }
      const deleted: MemoryRecord = { ...live, status: "deleted", deleted_at: now, delete_reason: reason, updated_at: now };
      await this.recordOrUndo(decisionRequest, decided, ctx, "delete", deleted, () => this.memories.undelete(live), {}, reason);
      await this.count(quota, { items: -1, writes: 0 });
      return this.governor.outcome(decided);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async read(principal: Principal, request: ReadRequest, ctx: CallContext): Promise<Outcome<MemoryRecord>> {
    const base = this.base("READ", principal, subjectOf(principal, request.subjectId));
    try {
      const [record, settings] = await Promise.all([
        this.memories.get(principal.tenant, base.subjectId, request.memoryId),
        this.settingsInput(principal.tenant, base.subjectId),
      ]);
      const decisionRequest: DecisionRequest = {
        ...base,
        input: { item: { memory_id: request.memoryId }, target: targetOf(record), settings },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) {
        return await this.refuse(decisionRequest, decided, ctx, { memory_id_length: request.memoryId.length });
      }
      return this.governor.outcome(decided, record!);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async list(principal: Principal, request: ListRequest, ctx: CallContext): Promise<Outcome<MemoryPage>> {
    const base = this.base("LIST", principal, subjectOf(principal, request.subjectId));
    try {
      const after = request.after ? decodeCursor(request.after) : undefined;
      const limit = request.limit ?? DEFAULT_LIST_LIMIT;
      const settings = await this.settingsInput(principal.tenant, base.subjectId);
      const decisionRequest: DecisionRequest = {
        ...base,
        input: {
          list: { limit, category: request.category ?? null, cursor_valid: after !== null },
          settings,
        },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return await this.refuse(decisionRequest, decided, ctx, { limit });
      const items = await this.memories.list({
        tenantId: principal.tenant,
        subjectId: base.subjectId,
        category: request.category ?? undefined,
        now: this.governor.clock.now(),
        limit: limit + 1,
        after: after ?? undefined,
      });
      const page = items.slice(0, limit);
      const nextCursor = items.length > limit ? encodeCursor(page[page.length - 1]) : null;
      return this.governor.outcome(decided, { items: page, nextCursor });
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** C19-POLICY / C19-CAP: an admin turns memory on or off and sets quotas, for the tenant or one subject. */
  async setSettings(principal: Principal, request: SettingsRequest, ctx: CallContext): Promise<Outcome<MemorySettingsRecord>> {
    const subjectId = request.subjectId ?? null;
    const base = this.base("SET_SETTINGS", principal, subjectId ?? "");
    try {
      const change = {
        scope: subjectId ? "subject" : "tenant",
        enabled: request.enabled ?? null,
        max_items_per_subject: request.maxItemsPerSubject ?? null,
        max_writes_per_window: request.maxWritesPerWindow ?? null,
      };
      const decisionRequest: DecisionRequest = { ...base, input: { settings_change: change } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return await this.refuse(decisionRequest, decided, ctx, { scope: change.scope });

      const previous = await this.settings.get(principal.tenant, subjectId);
      const given = Object.fromEntries(Object.entries(change).filter(([k, v]) => k !== "scope" && v !== null));
      const record: MemorySettingsRecord = {
        ...previous,
        ...given,
        _id: settingsDocId(principal.tenant, subjectId),
        tenant_id: principal.tenant,
        subject_id: subjectId,
        updated_at: this.governor.clock.now(),
        updated_by: { id: principal.id, roles: principal.roles },
      };
      await this.settings.put(record);
      try {
        await this.governor.record(decisionRequest, decided, ctx, "settings_change", {
          metadata: { scope: change.scope, changed: given, previous: settingsInput(previous) },
        });
      } catch (error) {
        await this.settings.restore(record._id, previous).catch(() => undefined);
        throw error;
      }
      return this.governor.outcome(decided, record);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  private base(operation: string, principal: Principal, subjectId: string): Omit<DecisionRequest, "input"> {
    return { operation, contract: CONTRACT, principal, subjectId };
  }

  /** The brief's convention for every write: free text in `texts`, detector facts in `facts`. */
  private async content(item: ItemInput): Promise<{ texts: Record<string, string>; facts: unknown }> {
    const texts: Record<string, string> = { key: item.key, value: item.value };
    if (item.source_ref) texts.source_ref = item.source_ref;
    return { texts, facts: await this.detectors.run(texts) };
  }

  private async settingsInput(tenantId: string, subjectId: string) {
    const found = await this.settings.forSubject(tenantId, subjectId);
    return { tenant: settingsInput(found.tenant), subject: settingsInput(found.subject) };
  }

  /** Settings and counts for C19-POLICY and C19-CAP, all read by `_id`. */
  private async quota(tenantId: string, subjectId: string) {
    const windowSeconds = this.governor.policy.data<EntitlementData>("entitlements").defaults.window_seconds;
    const windowStart = MemoryCounters.windowStart(this.governor.clock.now().getTime(), windowSeconds);
    const [settings, counts] = await Promise.all([
      this.settingsInput(tenantId, subjectId),
      this.counters.read(tenantId, subjectId, windowStart),
    ]);
    return { tenantId, subjectId, windowStart, input: { settings, counts } };
  }

  private async count(quota: { tenantId: string; subjectId: string; windowStart: number }, by: { items: number; writes: number }) {
    try {
      await this.counters.add([
        { id: MemoryCounters.itemsId(quota.tenantId, quota.subjectId), by: by.items },
        { id: MemoryCounters.writesId(quota.tenantId, quota.subjectId, quota.windowStart), by: by.writes },
      ]);
    } catch (error) {
      // The item and its event are committed; a counter is a cache of them (see MemoryCounters).
      this.logger.warn({ err: error }, "quota counter not updated");
    }
  }

  private expiry(ttlClass: string, now: Date): Date {
    const ttlSeconds = this.governor.policy.contract.ttl_classes[ttlClass].seconds;
    return new Date(now.getTime() + ttlSeconds * 1000);
  }

  private async refuse<T>(request: DecisionRequest, decided: Decided, ctx: CallContext, metadata: Record<string, unknown>): Promise<Outcome<T>> {
    await this.governor.record(request, decided, ctx, "refuse", { metadata });
    return this.governor.outcome(decided);
  }

  /** The event of a committed write; if it cannot be written, the write is undone (no item without its event). */
  private async recordOrUndo(
    request: DecisionRequest,
    decided: Decided,
    ctx: CallContext,
    eventType: "create" | "update" | "delete",
    record: MemoryRecord,
    undo: () => Promise<void>,
    metadata: Record<string, unknown> = {},
    reason: string | null = null,
  ): Promise<void> {
    try {
      await this.governor.record(request, decided, ctx, eventType, {
        memory_id: record.memory_id,
        content_digest: saltedDigest(record.content_salt, { key: record.key, value: record.value }),
        reason,
        metadata: { category: record.category, ttl_class: record.ttl_class, source_kind: record.source_kind, version: record.version, ...metadata },
      });
    } catch (error) {
      await undo().catch(() => undefined);
      throw error;
    }
  }

  /** A conditional write lost to a concurrent one: decide again on the item as it is now. */
  private async raced<T>(
    base: Omit<DecisionRequest, "input">,
    input: Record<string, unknown> & { item: Record<string, unknown> },
    seenVersion: number,
    ctx: CallContext,
    metadata: Record<string, unknown>,
  ): Promise<Outcome<T>> {
    const now = await this.memories.get(base.principal.tenant, base.subjectId, String(input.item.memory_id));
    // The version we saw was claimed by the other write: it is superseded even if that write is still in flight.
    const target = { ...targetOf(now), version: Math.max(now?.version ?? 0, seenVersion + 1) };
    const request: DecisionRequest = {
      ...base,
      input: { ...input, item: { ...input.item, expected_version: input.item.expected_version ?? seenVersion }, target },
    };
    const decided = this.governor.decide(request);
    if (decided.succeeded) throw new Error("a conditional write failed but the policy still allows it");
    return this.refuse(request, decided, ctx, metadata);
  }

  /** SPEC D4: a refused write keeps metadata only. A category off the allowlist is itself content. */
  private itemMetadata(item: ItemInput) {
    const contract = this.governor.policy.contract;
    const known = (value: unknown, allowed: (v: string) => boolean) => (typeof value === "string" && allowed(value) ? value : null);
    const length = (value: unknown) => (typeof value === "string" ? value.length : 0);
    return {
      category: known(item.category, (v) => Object.hasOwn(contract.categories, v)),
      lengths: { category: length(item.category), key: length(item.key), value: length(item.value), source_ref: length(item.source_ref) },
      ttl_class: known(item.ttl_class, (v) => Object.hasOwn(contract.ttl_classes, v)),
      source_kind: known(item.source_kind, (v) => contract.source_kinds.includes(v)),
      origin: known(item.origin, (v) => ["USER", "SYSTEM", "TOOL_OUTPUT"].includes(v)),
    };
  }
}

function itemOf(request: StoreRequest): ItemInput {
  return {
    category: request.category,
    key: request.key,
    value: request.value,
    source_kind: request.sourceKind,
    ttl_class: request.ttlClass,
    source_ref: request.sourceRef ?? null,
    origin: request.origin ?? "USER",
    consent: { explicit: request.consent?.explicit ?? false, evidence_ref: request.consent?.evidenceRef ?? null },
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

function encodeCursor(record: MemoryRecord): string {
  return Buffer.from(JSON.stringify([record.created_at.toISOString(), record._id]), "utf8").toString("base64url");
}

/** null when the cursor is not one memgate issued; the policy answers SCHEMA_INVALID. */
function decodeCursor(cursor: string): { createdAt: Date; id: string } | null {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as [string, string];
    const date = new Date(createdAt);
    if (typeof id !== "string" || Number.isNaN(date.getTime())) return null;
    return { createdAt: date, id };
  } catch {
    return null;
  }
}
