import { randomUUID } from "node:crypto";
import { subjectOf, type Principal } from "../../auth/principal";
import { KernelError } from "../../kernel/execute";
import { DELETE_FIELDS, LIST_FIELDS, READ_FIELDS, SET_SETTINGS_FIELDS, STORE_FIELDS, UPDATE_FIELDS } from "./fields";
import { operation, TENANT_SCOPE, type OperationContext } from "../../kernel/operation";
import type { PolicyEngine } from "../../policy/policy-engine";
import { newSalt, saltedDigest } from "../../store/canonical";
import { memoryDocId } from "../../store/ids";
import { contentDigest, type GovernedStore, type MemoryRecord } from "./store";
import { CounterStore, type SubjectCounts } from "./store-counters";
import type { SlotKind } from "./store-slots";
import type { Writes } from "../../kernel/write-set";
import { settingsDocId, settingsInput, type MemorySettingsRecord, type SettingsInput } from "./store-settings";

const CONTRACT = "governed";
export const DEFAULT_LIST_LIMIT = 20;

/**
 * The item fields of a write (seed 000 §2.1), named as the policy reads them (input.item,
 * input.texts). After the kernel parsed them a value of the wrong type is null; the policy
 * answers it, so nothing here trusts them before `allow`.
 */
export interface ItemRequest {
  subject_id?: string | null;
  category?: string | null;
  key?: string | null;
  value?: string | null;
  source_kind?: string | null;
  ttl_class?: string | null;
  source_ref?: string | null;
  origin?: string | null;
  consent?: { explicit?: boolean | null; evidence_ref?: string | null } | null;
}

export type StoreRequest = ItemRequest;

/** UPDATE (SPEC D2): the whole new content of a live item, judged like a STORE. */
export interface UpdateRequest extends ItemRequest {
  memory_id?: string | null;
  /** Optimistic concurrency: the version the caller read; a newer live version answers NOT_FOUND. */
  expected_version?: number | null;
}

/** DELETE (SPEC D1): logical; the reason is free text: the item keeps it (erasable), the event its salted digest. */
export interface DeleteRequest {
  subject_id?: string | null;
  memory_id?: string | null;
  reason?: string | null;
  expected_version?: number | null;
}

export interface ReadRequest {
  subject_id?: string | null;
  memory_id?: string | null;
}

export interface ListRequest {
  subject_id?: string | null;
  category?: string | null;
  /** Only the items stored under this key: a client's lookup by its own key in one round trip (LangGraph's get). */
  key?: string | null;
  limit?: number | null;
  after?: string | null;
}

/** setMemorySettings: no subject means the whole tenant; absent values stay as they are. */
export interface SettingsRequest {
  subject_id?: string | null;
  enabled?: boolean | null;
  max_items_per_subject?: number | null;
  max_writes_per_window?: number | null;
}

export interface MemoryPage {
  items: MemoryRecord[];
  nextCursor: string | null;
}

interface EntitlementData {
  defaults: { window_seconds: number };
}

/** What STORE needs to decide: settings (C19-POLICY) and counts (C19-CAP). */
interface Quota {
  settings: SettingsInput;
  counters: SubjectCounts;
}

/** A targeted item, and the version a lost conditional write saw claimed by another write. */
interface Target {
  record: MemoryRecord | null;
  /** Set on the second gather after a lost race: the version the other write took. */
  claimed: number | null;
  settings: SettingsInput;
}

interface UpdateGathered extends Target {
  counters: SubjectCounts;
}

const NO_SETTINGS: SettingsInput = { tenant: null, subject: null };
const NO_COUNTS = { items: 0, writes_in_window: 0 };

/** The subject an operation is about: the argument if it is one, else the token's first subject (SPEC D5: the policy judges it). */
function subjectArg(raw: unknown, { principal }: Pick<OperationContext, "principal">): string {
  const requested = raw !== null && typeof raw === "object" ? (raw as { subject_id?: unknown }).subject_id : undefined;
  return typeof requested === "string" ? requested : subjectOf(principal);
}

/**
 * The Phase 19 contract (seed 000) as declared operations: STORE, UPDATE, DELETE, READ,
 * LIST, and the settings behind POLICY_DISABLED and ENTITLEMENT_CAP. The kernel runs the
 * lifecycle; these say what to read, what the policy sees (never content: SPEC D7) and
 * what to write, each write with its undo and its event.
 */
export function governedOperations(store: GovernedStore) {
  /** Requests whose conditional write lost: the version the other write claimed (read by the second gather). */
  const lost = new WeakMap<object, number>();
  /**
   * Slots a request holds across judge-again rounds: when one of its two slots (item, write)
   * was taken, the one it got stays reserved for it, so no other write sees a number come
   * and go again (a refusal judged on it would leave the cap one short). Given back when the
   * request is refused or fails; kept by the write when it commits.
   */
  const held = new WeakMap<object, { item?: number; write?: number; windowStart: number; keep: boolean }>();

  const releaseHeld = (req: object, ctx: Pick<OperationContext, "tenantId" | "subjectId">): Promise<void> => {
    const h = held.get(req);
    held.delete(req);
    if (!h) return Promise.resolve();
    return Promise.all([
      h.item === undefined ? undefined : store.slots.release(ctx.tenantId, ctx.subjectId, { kind: "item" }, h.item),
      h.write === undefined ? undefined : store.slots.release(ctx.tenantId, ctx.subjectId, { kind: "write", windowStart: h.windowStart }, h.write),
    ]).then(() => undefined);
  };

  /**
   * The counts the policy judges. First: as the counter document has them (one `_id` read).
   * After a lost reservation: for a slot the request holds, the count it was allowed on;
   * for the other, the first free number from the counter's count up (store-slots.ts),
   * which counts the reservations of concurrent writes the counters do not hold yet.
   */
  const judged = async (req: object, counters: SubjectCounts, ctx: OperationContext): Promise<SubjectCounts> => {
    const h = held.get(req);
    if (!h) return counters;
    const { counts, windowStart: start } = counters;
    const [item, write] = await Promise.all([
      h.item ?? store.slots.firstFree(ctx.tenantId, ctx.subjectId, { kind: "item" }, counts.items + 1),
      h.write ?? store.slots.firstFree(ctx.tenantId, ctx.subjectId, { kind: "write", windowStart: start }, counts.writes_in_window + 1),
    ]);
    return { ...counters, counts: { items: item - 1, writes_in_window: write - 1 } };
  };

  /** A refusal after a lost round gives back what the request held (the refusal hook is synchronous; the release is not awaited). */
  const refusedAfterRace = (req: object, ctx: OperationContext): void => {
    void releaseHeld(req, ctx).catch(() => undefined);
  };

  /**
   * Reserves the numbered slots the policy's counts imply (store-slots.ts): the next item
   * number (STORE) and the next write number in the window. False: another write has one of
   * them; the one reserved is held for the next round and the kernel judges again.
   */
  const reserveSlots = async (req: object, counters: SubjectCounts, ctx: OperationContext, writes: Writes, item: boolean): Promise<boolean> => {
    const { counts, windowStart: start } = counters;
    const h = held.get(req) ?? { windowStart: start, keep: false };
    held.set(req, h);
    h.keep = false;
    const reserve = async (slot: SlotKind, n: number) => {
      // Taken by a write of this process since the gather: lost without asking the database.
      if (store.slots.highestInFlight(ctx.tenantId, ctx.subjectId, slot) >= n) return undefined;
      return (await store.slots.reserve(ctx.tenantId, ctx.subjectId, slot, n, ctx.now)) ? n : undefined;
    };
    const [gotItem, gotWrite] = await Promise.all([
      item && h.item === undefined ? reserve({ kind: "item" }, counts.items + 1) : h.item,
      h.write === undefined ? reserve({ kind: "write", windowStart: start }, counts.writes_in_window + 1) : h.write,
    ]);
    h.item = gotItem;
    h.write = gotWrite;
    // Undone with the write set when it fails; kept over a lost round.
    writes.onUndo(() => (h.keep ? Promise.resolve() : releaseHeld(req, ctx)));
    if ((gotItem !== undefined || !item) && gotWrite !== undefined) return true;
    h.keep = true;
    return false;
  };

  /** The slot numbers a committed write holds, for its settle. */
  const heldSlots = (req: object): { item?: number; write?: number; windowStart?: number } => {
    const h = held.get(req);
    return { item: h?.item, write: h?.write, windowStart: h?.windowStart };
  };

  const windowStart = (ctx: OperationContext): number =>
    CounterStore.windowStart(ctx.now.getTime(), ctx.policy.data<EntitlementData>("entitlements").defaults.window_seconds);

  const quota = async (ctx: OperationContext): Promise<Quota> => {
    const [settings, counters] = await Promise.all([
      store.settings.forSubject(ctx.tenantId, ctx.subjectId),
      store.counters.read(ctx.tenantId, ctx.subjectId, windowStart(ctx)),
    ]);
    // Numbers this process's unsettled writes hold are taken as surely as counted ones (store-slots.ts).
    const { counts, windowStart: start } = counters;
    const items = Math.max(counts.items, store.slots.highestInFlight(ctx.tenantId, ctx.subjectId, { kind: "item" }));
    const writesInWindow = Math.max(counts.writes_in_window, store.slots.highestInFlight(ctx.tenantId, ctx.subjectId, { kind: "write", windowStart: start }));
    return { settings, counters: { ...counters, counts: { items, writes_in_window: writesInWindow } } };
  };

  const target = async (req: { memory_id?: string | null }, ctx: OperationContext): Promise<Target> => {
    const [record, settings] = await Promise.all([
      typeof req.memory_id === "string" ? store.get(ctx.tenantId, ctx.subjectId, req.memory_id) : Promise.resolve(null),
      store.settings.forSubject(ctx.tenantId, ctx.subjectId),
    ]);
    return { record, claimed: lost.get(req) ?? null, settings };
  };

  /** The policy's view of the target and of the version the caller expects; after a lost race the claimed version is gone. */
  const targeted = (req: { memory_id?: string | null; expected_version?: number | null }, g: Target | undefined) => {
    const claimed = g?.claimed ?? null;
    const found = targetOf(g?.record ?? null);
    return {
      item: { memory_id: req.memory_id ?? null, expected_version: req.expected_version ?? claimed },
      target: claimed === null ? found : { ...found, version: Math.max(Number(found.version ?? 0), claimed + 1) },
    };
  };

  const storeItem = operation<StoreRequest, Quota, MemoryRecord>({
    contract: CONTRACT,
    name: "STORE",
    fields: STORE_FIELDS,
    subject: subjectArg,
    gather: async (req, ctx) => {
      const q = await quota(ctx);
      return { ...q, counters: await judged(req, q.counters, ctx) };
    },
    input: (req, g) => ({ item: itemOf(req), settings: g?.settings ?? NO_SETTINGS, counts: g?.counters.counts ?? NO_COUNTS }),
    refusal: (req, ctx) => {
      refusedAfterRace(req, ctx);
      return itemMetadata(req, ctx.policy);
    },
    async allow(req, g, ctx, writes) {
      await store.room();
      if (!(await reserveSlots(req, g.counters, ctx, writes, true))) return writes.lost();
      const item = itemOf(req);
      const memoryId = `mem_${randomUUID()}`;
      const record: MemoryRecord = {
        _id: memoryDocId(ctx.tenantId, ctx.subjectId, memoryId),
        tenant_id: ctx.tenantId,
        subject_id: ctx.subjectId,
        memory_id: memoryId,
        version: 1,
        ...content(item),
        status: "active",
        created_at: ctx.now,
        updated_at: ctx.now,
        expires_at: expiry(ctx, item.ttl_class),
        created_by: actor(ctx.principal),
        content_salt: newSalt(),
      };
      // A keyed retry after a crash finds the item by this id (src/kernel/idempotency.ts).
      await writes.creating([{ objectId: memoryId }], record);
      await writes.run(
        () => store.insert(record, ctx.now),
        () => store.rollback(record),
      );
      writes.event({
        event_type: "create",
        memory_id: memoryId,
        content_digest: contentDigest(record),
        metadata: eventMetadata(record),
        settle: () =>
          store.settleWrite(record, {
            delta: { items: 1, writes: 1, windowStart: g.counters.windowStart },
            staleWindows: g.counters.staleWindows,
            slots: heldSlots(req),
          }),
      });
      return record;
    },
  });

  const update = operation<UpdateRequest, UpdateGathered, MemoryRecord>({
    contract: CONTRACT,
    name: "UPDATE",
    fields: UPDATE_FIELDS,
    subject: subjectArg,
    gather: async (req, ctx) => {
      const [t, q] = await Promise.all([target(req, ctx), quota(ctx)]);
      return { ...t, counters: await judged(req, q.counters, ctx) };
    },
    input: (req, g) => {
      const { item, target: t } = targeted(req, g);
      return { item: { ...itemOf(req), ...item }, target: t, settings: g?.settings ?? NO_SETTINGS, counts: g?.counters.counts ?? NO_COUNTS };
    },
    refusal: (req, ctx) => {
      refusedAfterRace(req, ctx);
      return itemMetadata(req, ctx.policy);
    },
    async allow(req, g, ctx, writes) {
      await store.room();
      if (!(await reserveSlots(req, g.counters, ctx, writes, false))) return writes.lost();
      const live = required(g.record);
      const next: MemoryRecord = {
        ...live,
        ...content(itemOf(req)),
        version: live.version + 1,
        supersedes: live.version,
        updated_at: ctx.now,
        expires_at: expiry(ctx, itemOf(req).ttl_class),
        updated_by: actor(ctx.principal),
        content_salt: newSalt(),
      };
      const won = await writes.run(
        () => store.supersede(live, next, ctx.now),
        (done) => (done ? store.unsupersede(live, next) : Promise.resolve()),
      );
      if (!won) {
        // Another write took this version: the kernel gathers again and the policy judges the item as it is now (SPEC D2).
        lost.set(req, live.version);
        return writes.lost();
      }
      writes.event({
        event_type: "update",
        memory_id: next.memory_id,
        content_digest: contentDigest(next),
        metadata: { ...eventMetadata(next), supersedes: live.version },
        settle: () =>
          store.settleWrite(next, {
            delta: { items: 0, writes: 1, windowStart: g.counters.windowStart },
            staleWindows: g.counters.staleWindows,
            slots: heldSlots(req),
          }),
      });
      return next;
    },
  });

  const deleteItem = operation<DeleteRequest, Target, undefined>({
    contract: CONTRACT,
    name: "DELETE",
    fields: DELETE_FIELDS,
    subject: subjectArg,
    gather: (req, ctx) => target(req, ctx),
    input: (req, g) => ({ ...targeted(req, g), settings: g?.settings ?? NO_SETTINGS }),
    async allow(req, g, ctx, writes) {
      const live = required(g.record);
      const reason = req.reason ?? null;
      const won = await writes.run(
        () => store.markDeleted(live, ctx.now, reason),
        (done) => (done ? store.undelete(live) : Promise.resolve()),
      );
      if (!won) {
        lost.set(req, live.version);
        return writes.lost();
      }
      // The item's quota slot goes with it, so the cap counts live items (store-slots.ts).
      const { counts } = await store.counters.read(ctx.tenantId, ctx.subjectId, windowStart(ctx));
      await writes.run(
        () => store.slots.releaseItem(ctx.tenantId, ctx.subjectId, counts.items),
        (n) => (n === null ? Promise.resolve() : store.slots.restore(ctx.tenantId, ctx.subjectId, { kind: "item" }, n, ctx.now).then(() => undefined)),
      );
      writes.event({
        event_type: "delete",
        memory_id: live.memory_id,
        content_digest: contentDigest(live),
        // The person's reason is content: the chain commits to its salted digest, so an erasure reaches it.
        metadata: {
          ...eventMetadata(live),
          ...(reason === null ? {} : { reason: { digest: saltedDigest(live.content_salt, { reason }), length: reason.length } }),
        },
        // A deleted item no longer counts against the subject's cap (C19-CAP); its due mark (if any) stays the version's.
        settle: () => store.counters.add(ctx.tenantId, ctx.subjectId, { items: -1, writes: 0, windowStart: windowStart(ctx) }),
      });
      return undefined;
    },
  });

  const read = operation<ReadRequest, Target, MemoryRecord>({
    contract: CONTRACT,
    name: "READ",
    fields: READ_FIELDS,
    subject: subjectArg,
    gather: (req, ctx) => target(req, ctx),
    input: (req, g) => ({ item: { memory_id: req.memory_id ?? null }, target: targetOf(g?.record ?? null), settings: g?.settings ?? NO_SETTINGS }),
    allow: async (_req, g) => required(g.record),
  });

  const list = operation<ListRequest, SettingsInput, MemoryPage>({
    contract: CONTRACT,
    name: "LIST",
    fields: LIST_FIELDS,
    subject: subjectArg,
    gather: (_req, ctx) => store.settings.forSubject(ctx.tenantId, ctx.subjectId),
    input: (req, g) => ({
      list: { limit: req.limit ?? DEFAULT_LIST_LIMIT, category: req.category ?? null, cursor_valid: req.after ? decodeCursor(req.after) !== null : true },
      settings: g ?? NO_SETTINGS,
    }),
    refusal: (req) => ({ limit: req.limit ?? DEFAULT_LIST_LIMIT }),
    async allow(req, _g, ctx) {
      const limit = req.limit ?? DEFAULT_LIST_LIMIT;
      const items = await store.list({
        tenantId: ctx.tenantId,
        subjectId: ctx.subjectId,
        category: req.category ?? undefined,
        key: req.key ?? undefined,
        now: ctx.now,
        limit: limit + 1,
        after: (req.after && decodeCursor(req.after)) || undefined,
      });
      const page = items.slice(0, limit);
      return { items: page, nextCursor: items.length > limit ? encodeCursor(page[page.length - 1]) : null };
    },
  });

  /** C19-POLICY / C19-CAP: an admin turns memory on or off and sets quotas, for the tenant or one subject. */
  const setSettings = operation<SettingsRequest, MemorySettingsRecord | null, MemorySettingsRecord>({
    contract: CONTRACT,
    name: "SET_SETTINGS",
    fields: SET_SETTINGS_FIELDS,
    subject: (raw) => {
      const requested = raw !== null && typeof raw === "object" ? (raw as SettingsRequest).subject_id : undefined;
      return typeof requested === "string" ? requested : TENANT_SCOPE;
    },
    gather: (_req, ctx) => store.settings.get(ctx.tenantId, scopedSubject(ctx)),
    input: (req, _g, ctx) => ({ settings_change: { scope: scopedSubject(ctx) ? "subject" : "tenant", ...given(req) } }),
    refusal: (_req, ctx) => ({ scope: scopedSubject(ctx) ? "subject" : "tenant" }),
    async allow(req, previous, ctx, writes) {
      const subjectId = scopedSubject(ctx);
      const changed = Object.fromEntries(Object.entries(given(req)).filter(([, v]) => v !== null));
      const record: MemorySettingsRecord = {
        ...previous,
        ...changed,
        _id: settingsDocId(ctx.tenantId, subjectId),
        tenant_id: ctx.tenantId,
        subject_id: subjectId,
        updated_at: ctx.now,
        updated_by: actor(ctx.principal),
      };
      await writes.run(
        () => store.settings.put(record),
        () => store.settings.restore(record._id, previous),
      );
      const epoch = await writes.run(() => store.settings.changed());
      // Answered once no gateway process can answer from the settings cached before this change.
      await store.settings.propagated(epoch);
      writes.event({ event_type: "settings_change", metadata: { scope: subjectId ? "subject" : "tenant", changed, previous: settingsInput(previous) } });
      return record;
    },
  });

  return { store: storeItem, update, delete: deleteItem, read, list, setSettings };
}

export type GovernedOperations = ReturnType<typeof governedOperations>;

/** The subject a settings change is for; null: the whole tenant. */
function scopedSubject(ctx: OperationContext): string | null {
  return ctx.subjectId === TENANT_SCOPE ? null : ctx.subjectId;
}

function given(req: SettingsRequest) {
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

/** The stored content of an allowed write: the policy allowed it, so every required field is a string. */
function content(
  item: ReturnType<typeof itemOf>,
): Pick<MemoryRecord, "category" | "key" | "value" | "source_kind" | "ttl_class" | "source_ref" | "origin" | "consent"> {
  const str = (value: string | null, name: string): string => {
    if (typeof value !== "string") throw new KernelError(`governed: the policy allowed an item without ${name}`);
    return value;
  };
  return {
    category: str(item.category, "category"),
    key: str(item.key, "key"),
    value: str(item.value, "value"),
    source_kind: str(item.source_kind, "source_kind"),
    ttl_class: str(item.ttl_class, "ttl_class"),
    source_ref: item.source_ref,
    origin: item.origin,
    consent: item.consent,
  };
}

function required(record: MemoryRecord | null | undefined): MemoryRecord {
  if (!record) throw new KernelError("governed: the policy allowed an operation on an item that was not gathered");
  return record;
}

function expiry(ctx: OperationContext, ttlClass: string | null): Date {
  const ttl = ttlClass === null ? undefined : ctx.policy.contract.ttl_classes[ttlClass];
  if (!ttl) throw new KernelError("governed: the policy allowed an unknown TTL class");
  return new Date(ctx.now.getTime() + ttl.seconds * 1000);
}

const actor = (principal: Principal) => ({ id: principal.id, roles: [...principal.roles] });

/** Metadata of an item's event: known values and the version, never content (SPEC D4). */
function eventMetadata(record: MemoryRecord): Record<string, unknown> {
  return { category: record.category, ttl_class: record.ttl_class, source_kind: record.source_kind, version: record.version };
}

/** SPEC D4: a refused write keeps metadata only (the kernel adds field lengths). A category off the allowlist is itself content. */
function itemMetadata(req: ItemRequest, policy: PolicyEngine): Record<string, unknown> {
  const contract = policy.contract;
  const known = (value: unknown, allowed: (v: string) => boolean) => (typeof value === "string" && allowed(value) ? value : null);
  return {
    category: known(req.category, (v) => Object.hasOwn(contract.categories, v)),
    ttl_class: known(req.ttl_class, (v) => Object.hasOwn(contract.ttl_classes, v)),
    source_kind: known(req.source_kind, (v) => contract.source_kinds.includes(v)),
    origin: known(req.origin ?? "USER", (v) => ["USER", "SYSTEM", "TOOL_OUTPUT"].includes(v)),
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
