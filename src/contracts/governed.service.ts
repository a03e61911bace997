import { randomUUID } from "node:crypto";
import type { Principal } from "../auth/principal";
import type { DetectorSuite } from "../detectors/detector";
import { newSalt, saltedDigest } from "../store/canonical";
import { memoryDocId } from "../store/ids";
import type { MemoryRecord, MemoryRepository } from "../store/memory-repository";
import type { DecisionRequest, Governor } from "./governor";
import type { CallContext, Outcome } from "./outcome";

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

const CONTRACT = "governed";
export const DEFAULT_LIST_LIMIT = 20;

/** The subject an operation is about: the argument if given, else the token's first subject. */
export function subjectOf(principal: Principal, requested: string | null | undefined): string {
  return requested ?? principal.subjects[0] ?? "";
}

/**
 * The Phase 19 contract (seed 000): STORE, READ, LIST of governed items.
 * detectors -> policy -> store + event. The policy alone decides.
 */
export class GovernedMemoryService {
  constructor(
    private readonly governor: Governor,
    private readonly memories: MemoryRepository,
    private readonly detectors: DetectorSuite,
  ) {}

  async store(principal: Principal, request: StoreRequest, ctx: CallContext): Promise<Outcome<MemoryRecord>> {
    const base = { operation: "STORE", contract: CONTRACT, principal, subjectId: subjectOf(principal, request.subjectId) };
    try {
      const item = {
        category: request.category,
        key: request.key,
        value: request.value,
        source_kind: request.sourceKind,
        ttl_class: request.ttlClass,
        source_ref: request.sourceRef ?? null,
        origin: request.origin ?? "USER",
        consent: { explicit: request.consent?.explicit ?? false, evidence_ref: request.consent?.evidenceRef ?? null },
      };
      const texts = { key: item.key, value: item.value, source_ref: item.source_ref ?? "" };
      const facts = await this.detectors.run(texts);
      const decisionRequest: DecisionRequest = { ...base, input: { item, texts, facts } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) {
        await this.governor.record(decisionRequest, decided, ctx, "refuse", { metadata: this.refusalMetadata(item) });
        return this.governor.outcome(decided);
      }
      const now = this.governor.clock.now();
      const ttlSeconds = this.governor.policy.contract.ttl_classes[item.ttl_class].seconds;
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
        expires_at: new Date(now.getTime() + ttlSeconds * 1000),
        created_by: { id: principal.id, roles: principal.roles },
        content_salt: newSalt(),
      };
      await this.memories.insert(record);
      try {
        await this.governor.record(decisionRequest, decided, ctx, "create", {
          memory_id: memoryId,
          content_digest: saltedDigest(record.content_salt, { key: record.key, value: record.value }),
          metadata: { category: item.category, ttl_class: item.ttl_class, source_kind: item.source_kind, version: 1 },
        });
      } catch (error) {
        // No item without its event: the item was never acknowledged, so it is rolled back.
        await this.memories.rollback(record).catch(() => undefined);
        throw error;
      }
      return this.governor.outcome(decided, record);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async read(principal: Principal, request: ReadRequest, ctx: CallContext): Promise<Outcome<MemoryRecord>> {
    const base = { operation: "READ", contract: CONTRACT, principal, subjectId: subjectOf(principal, request.subjectId) };
    try {
      const record = await this.memories.get(principal.tenant, base.subjectId, request.memoryId);
      const decisionRequest: DecisionRequest = {
        ...base,
        input: { item: { memory_id: request.memoryId }, target: targetOf(record) },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) {
        await this.governor.record(decisionRequest, decided, ctx, "refuse", {
          metadata: { memory_id_length: request.memoryId.length },
        });
        return this.governor.outcome(decided);
      }
      return this.governor.outcome(decided, record!);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async list(principal: Principal, request: ListRequest, ctx: CallContext): Promise<Outcome<MemoryPage>> {
    const base = { operation: "LIST", contract: CONTRACT, principal, subjectId: subjectOf(principal, request.subjectId) };
    try {
      const after = request.after ? decodeCursor(request.after) : undefined;
      const limit = request.limit ?? DEFAULT_LIST_LIMIT;
      const decisionRequest: DecisionRequest = {
        ...base,
        input: {
          list: { limit, category: request.category ?? null, cursor_valid: after !== null },
        },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) {
        await this.governor.record(decisionRequest, decided, ctx, "refuse", { metadata: { limit } });
        return this.governor.outcome(decided);
      }
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

  /** SPEC D4: a refused write keeps metadata only. A category off the allowlist is itself content. */
  private refusalMetadata(item: { category: string; key: string; value: string; source_ref: string | null; ttl_class: string; source_kind: string; origin: string }) {
    const contract = this.governor.policy.contract;
    return {
      category: item.category in contract.categories ? item.category : null,
      lengths: { category: item.category.length, key: item.key.length, value: item.value.length, source_ref: item.source_ref?.length ?? 0 },
      ttl_class: item.ttl_class in contract.ttl_classes ? item.ttl_class : null,
      source_kind: contract.source_kinds.includes(item.source_kind) ? item.source_kind : null,
      origin: item.origin,
    };
  }
}

/** What the policy learns about a targeted item: whether it is there and live, never its content (SPEC D7). */
export function targetOf(record: { status: string; expires_at?: Date | null } | null): Record<string, unknown> {
  if (!record) return { found: false };
  return { found: true, status: record.status, expires_at_ms: record.expires_at ? record.expires_at.getTime() : null };
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
