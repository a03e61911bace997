import { randomUUID } from "node:crypto";
import { MongoBulkWriteError, type Collection, type Db, type FindCursor } from "mongodb";
import type { Clock } from "../clock";
import { canonicalHash, storedJson } from "./canonical";
import { COLLECTIONS, isDuplicateKey } from "./database";
import { eventDocId } from "./ids";

export const EVENT_TYPES = [
  "create",
  "update",
  "delete",
  "invalidate",
  "archive",
  "consolidate",
  "erase",
  "refuse",
  "settings_change",
  "policy_change",
  "conformance_break",
  "quarantine",
  "release",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventActor {
  id: string;
  /** The roles of the verified token that acted (SPEC D5). */
  roles: string[];
  /** seed 004: who acted, in its three kinds. */
  kind: "system" | "human" | "policy-engine";
}

/** What a service hands to the log; the log adds identity, order and the chain. */
export interface EventDraft {
  tenant_id: string;
  subject_id: string | null;
  event_type: EventType;
  operation: string;
  /** The contract whose operation this is (governed, agent, companion, ledger, audit, system). */
  contract?: string | null;
  /** seed 004 `memory_object_id`. */
  memory_id: string | null;
  actor: EventActor;
  stop_reason: string;
  decision_id: string | null;
  policy_hash: string | null;
  contract_version: string | null;
  request_id: string | null;
  /** A salted digest of the content, never the content (SPEC D1, D4). */
  content_digest: string | null;
  reason: string | null;
  /** Metadata only: category, lengths, counts, explanations. Never content. */
  metadata: Record<string, unknown>;
}

export interface MemoryEvent extends EventDraft {
  _id: string;
  event_id: string;
  seq: number;
  timestamp: string;
  prev_hash: string;
  /** Id of the Ed25519 key that signed the event (src/store/log/event-signing.ts, docs/AUDIT.md). */
  key_id?: string;
  /** base64 Ed25519 signature over the event without `_id`, `hash` and `signature`. */
  signature?: string;
  hash: string;
}

/** Turns an event body into the body that is hashed and stored (the gateway's signature). */
export type EventSealer = <T extends Omit<MemoryEvent, "_id" | "hash">>(body: T) => T;

export const GENESIS_HASH = "0".repeat(64);

/** seed 004 §1.2 / §4: invalidation and archival carry a reason; SPEC D1: so does erasure. */
export const REASON_REQUIRED: readonly EventType[] = ["invalidate", "archive", "erase"];

export class EventDraftError extends Error {
  readonly code = "EVENT_DRAFT_INVALID" as const;
  constructor(detail: string) {
    super(`event draft rejected: ${detail}`);
    this.name = new.target.name;
  }
}

/** Called after an event is in the log, before `append` resolves; a failure is logged, never thrown. */
export type AppendHook = (event: MemoryEvent) => Promise<void> | void;

function checkDraft(draft: EventDraft): void {
  if (!(EVENT_TYPES as readonly string[]).includes(draft.event_type)) throw new EventDraftError(`unknown event_type`);
  if (typeof draft.tenant_id !== "string" || draft.tenant_id === "") throw new EventDraftError("tenant_id is required");
  if (REASON_REQUIRED.includes(draft.event_type) && (typeof draft.reason !== "string" || draft.reason.trim() === "")) {
    throw new EventDraftError(`${draft.event_type} needs a reason (MP-LOG)`);
  }
}

/** The hash covers every field but the storage `_id` and the hash itself. */
export function eventHash(event: Omit<MemoryEvent, "_id" | "hash">): string {
  return canonicalHash(event);
}

interface ChainHead {
  _id: string;
  seq: number;
  hash: string;
}

interface PendingAppend {
  draft: EventDraft;
  resolve: (event: MemoryEvent) => void;
  reject: (error: unknown) => void;
}

interface TenantChain {
  queue: PendingAppend[];
  flushing: boolean;
  head: { seq: number; hash: string } | undefined;
  /** Until when (process time) another process is known to append to this tenant: take turns. */
  contendedUntil: number;
  /** How long the last insert took: the scale of a turn. */
  insertMs: number;
}

const MAX_BATCH = 256;
/** Events whose hash this process remembers having sealed (sealedHash): about the last checkpoint intervals' worth. */
const SEALED_MAX = 20_000;
/** Seqs per `bySeqs` query (the embedded FerretDB pushes down an `$in` of up to 1,000 ids). */
export const SEQ_BATCH = 100;
/** The `count` seqs after `seq`. */
export const seqsAfter = (seq: number, count: number): number[] => Array.from({ length: count }, (_, i) => seq + 1 + i);
/** The consecutive seqs from `from` to `to`, in batches of SEQ_BATCH (for `bySeqs`). */
export function* seqBatches(from: number, to: number): Iterable<number[]> {
  for (let seq = from; seq <= to; seq += SEQ_BATCH) yield seqsAfter(seq - 1, Math.min(SEQ_BATCH, to - seq + 1));
}
const MAX_CONFLICT_RETRIES = 200;
/** How long a process keeps taking turns after it last saw another one append to the tenant. */
const CONTENDED_MS = 2_000;
/** The shortest turn: a fraction of an insert on an idle machine. */
const MIN_TURN_MS = 2;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** How long a chain-head update waits to take in later batches (and to stay clear of the requests that appended). */
const HEAD_DELAY_MS = 20;

/** The chain-head document update of one tenant: the newest head to write, and the write in flight. */
interface HeadWriter {
  pending: { seq: number; hash: string } | undefined;
  running: Promise<void> | undefined;
}

/**
 * The append-only, hash-chained `memory_events` log. Each tenant has one chain with a
 * gap-free `seq`. Appends are queued per tenant and written in batches (group commit),
 * so concurrent requests cost one insert between them. The event `_id` is derived from
 * (tenant, seq), so when several gateway processes append to one tenant the database's
 * unique `_id` decides who got a seq: the loser reloads the head and tries again.
 *
 * The chain-head document is a hint, not the truth (`head()` walks forward from it): it is
 * advanced off the request path, coalesced per tenant, so an append costs one insert.
 */
export class EventLog {
  private readonly events: Collection<MemoryEvent>;
  private readonly heads: Collection<ChainHead>;
  private readonly chains = new Map<string, TenantChain>();
  private readonly hooks: AppendHook[] = [];
  private readonly headWriters = new Map<string, HeadWriter>();
  /** `_id` -> hash of the events this process appended last (at most SEALED_MAX). */
  private readonly sealed = new Map<string, string>();
  /** Where hook failures go; set by the composition root. */
  onHookError: (error: unknown, event: MemoryEvent) => void = () => undefined;
  /** Signs each event body before its hash is formed; set by the composition root (issue 12 §6). */
  private seal: EventSealer = (body) => body;
  /** Where a failed chain-head update goes (harmless: the head is walked forward on the next read). */
  onHeadError: (error: unknown, tenantId: string) => void = () => undefined;

  constructor(
    db: Db,
    private readonly clock: Clock,
  ) {
    this.events = db.collection<MemoryEvent>(COLLECTIONS.events);
    this.heads = db.collection<ChainHead>(COLLECTIONS.chainHeads);
  }

  async append(draft: EventDraft): Promise<MemoryEvent> {
    checkDraft(draft);
    const chain = this.chain(draft.tenant_id);
    const event = await new Promise<MemoryEvent>((resolve, reject) => {
      chain.queue.push({ draft, resolve, reject });
      // flush settles every queued append (resolves or rejects it) and never rejects itself.
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- fire and forget: see above
      if (!chain.flushing) void this.flush(draft.tenant_id, chain);
    });
    for (const hook of this.hooks) {
      try {
        await hook(event);
      } catch (error) {
        this.onHookError(error, event);
      }
    }
    return event;
  }

  /**
   * The hash this process gave the event stored under `_id`, if it appended it recently. The
   * hash covers the signature, so an event read back whose recomputed hash is this one is byte
   * for byte what this process signed: its signature needs no second Ed25519 verify.
   */
  sealedHash(id: string): string | undefined {
    return this.sealed.get(id);
  }

  private remember(event: MemoryEvent): void {
    if (this.sealed.size >= SEALED_MAX) this.sealed.delete(this.sealed.keys().next().value as string);
    this.sealed.set(event._id, event.hash);
  }

  /** Every event this log links from now on is passed through `sealer` before it is hashed. */
  sealWith(sealer: EventSealer): void {
    this.seal = sealer;
  }

  /**
   * One cursor over a tenant's events with seq in [fromSeq, toSeq], unsorted (the database's
   * order): FerretDB pushes down no `_id` range, so a long segment is read in one pass instead
   * of one scan per page. Readers put the events in seq order themselves.
   */
  segment(tenantId: string, fromSeq: number, toSeq: number): FindCursor<MemoryEvent> {
    return this.events.find({ _id: { $gte: eventDocId(tenantId, Math.max(1, fromSeq)), $lte: eventDocId(tenantId, toSeq) } }, { batchSize: 1000 });
  }

  /** Runs after every append of this process (checkpoints, settling the item the event is about). */
  afterAppend(hook: AppendHook): void {
    this.hooks.push(hook);
  }

  /** Every tenant that has a chain (from the chain heads; a tenant's head is written with its first events). */
  async tenants(): Promise<string[]> {
    return (await this.heads.find({}, { projection: { _id: 1 } }).toArray()).map((h) => h._id);
  }

  /** The chain head document as stored (it may lag the log by the batch in flight). */
  async storedHead(tenantId: string): Promise<{ seq: number; hash: string } | null> {
    const stored = await this.heads.findOne({ _id: tenantId });
    return stored ? { seq: stored.seq, hash: stored.hash } : null;
  }

  /** One event by its seq: an `_id` lookup. */
  async get(tenantId: string, seq: number): Promise<MemoryEvent | null> {
    return this.events.findOne({ _id: eventDocId(tenantId, seq) });
  }

  /** A tenant's events about one object, of these types, in seq order: a scan (the repair's last resort). */
  async aboutObject(tenantId: string, memoryId: string, types: readonly EventType[]): Promise<MemoryEvent[]> {
    return this.events
      .find({ tenant_id: tenantId, memory_id: memoryId, event_type: { $in: [...types] } })
      .sort({ seq: 1 })
      .toArray();
  }

  /**
   * The events at these seqs (at most SEQ_BATCH), aligned with them, null where there is none:
   * one `_id` `$in` query. MongoDB answers it from the `_id` index; so does the embedded FerretDB
   * as scripts/bootstrap.sh patches it (memgate.3), where upstream scanned the collection.
   */
  async bySeqs(tenantId: string, seqs: readonly number[]): Promise<(MemoryEvent | null)[]> {
    if (seqs.length === 0) return [];
    if (seqs.length > SEQ_BATCH) throw new RangeError(`at most ${SEQ_BATCH} seqs per query`);
    const ids = seqs.map((seq) => eventDocId(tenantId, seq));
    const found = new Map((await this.events.find({ _id: { $in: ids } }).toArray()).map((event) => [event._id, event]));
    return ids.map((id) => found.get(id) ?? null);
  }

  /**
   * The consecutive events after `seq`, in order, up to the first gap: one `_id` lookup of
   * seq + 1 (all it costs when nothing is there), then `batch` seqs per `bySeqs` query. How
   * subscribers catch up and how a lagging chain-head hint is walked forward.
   */
  async *eventsAfter(tenantId: string, seq: number, batch = SEQ_BATCH): AsyncIterable<MemoryEvent> {
    const first = await this.get(tenantId, seq + 1);
    if (!first) return;
    yield first;
    for (let last = first.seq; ;) {
      for (const event of await this.bySeqs(tenantId, seqsAfter(last, batch))) {
        if (!event || event.seq !== last + 1) return;
        yield event;
        last = event.seq;
      }
    }
  }

  /** The newest event of a tenant's chain as the database has it now. */
  async head(tenantId: string): Promise<{ seq: number; hash: string }> {
    const stored = await this.heads.findOne({ _id: tenantId });
    return this.walkedFrom(tenantId, { seq: stored?.seq ?? 0, hash: stored?.hash ?? GENESIS_HASH });
  }

  /** `head` moved past the events stored after it (the head document is advanced after each batch and may lag behind). */
  private async walkedFrom(tenantId: string, head: { seq: number; hash: string }): Promise<{ seq: number; hash: string }> {
    let walked = head;
    for await (const event of this.eventsAfter(tenantId, head.seq)) walked = { seq: event.seq, hash: event.hash };
    return walked;
  }

  /** Events of a tenant with seq in [fromSeq, toSeq], in order, read by `_id` range. */
  async range(tenantId: string, fromSeq: number, toSeq: number, limit = 1000): Promise<MemoryEvent[]> {
    return this.events
      .find({ _id: { $gte: eventDocId(tenantId, Math.max(1, fromSeq)), $lte: eventDocId(tenantId, toSeq) } })
      .sort({ _id: 1 })
      .limit(limit)
      .toArray();
  }

  private chain(tenantId: string): TenantChain {
    let chain = this.chains.get(tenantId);
    if (!chain) {
      chain = { queue: [], flushing: false, head: undefined, contendedUntil: 0, insertMs: 0 };
      this.chains.set(tenantId, chain);
    }
    return chain;
  }

  /** Resolves once every chain-head update scheduled so far is written (tests, shutdown, benchmarks). */
  async settled(): Promise<void> {
    while ([...this.headWriters.values()].some((w) => w.running !== undefined)) {
      await Promise.all([...this.headWriters.values()].map((w) => w.running));
    }
  }

  private async flush(tenantId: string, chain: TenantChain): Promise<void> {
    chain.flushing = true;
    // One microtask later: the events an operation appends together (Promise.all) go in one insert.
    await Promise.resolve();
    try {
      while (chain.queue.length > 0) {
        const batch = chain.queue.splice(0, MAX_BATCH);
        try {
          await this.writeBatch(tenantId, chain, batch);
        } catch (error) {
          chain.head = undefined;
          for (const pending of batch) pending.reject(error);
        }
      }
    } finally {
      chain.flushing = false;
    }
  }

  /**
   * Seq allocation across processes (issue 15 §3). The unique `_id` (tenant, seq) decides who
   * got a seq; what makes it fair is how the others come back:
   * - the head is found by walking forward by `_id` from the last head this process knew
   *   (or the stored head hint), never re-read from the lagging head document after every
   *   conflict, so a loser catches up in as many lookups as seqs it missed;
   * - before each batch a process checks that the next seq is free (one `_id` lookup), so a
   *   process that keeps winning leaves the others the same window it has;
   * - a process that has seen another one append to the tenant recently (a conflict, or a
   *   foreign seq in its walk) waits a random fraction of its last insert's time before each
   *   batch, so the processes take turns instead of the fastest taking every seq. Its
   *   requests keep queueing meanwhile and go in the next batch (group commit), so the
   *   pause costs latency, not throughput.
   */
  private async writeBatch(tenantId: string, chain: TenantChain, batch: PendingAppend[]): Promise<void> {
    let remaining = batch;
    for (let attempt = 0; remaining.length > 0; attempt++) {
      if (attempt > MAX_CONFLICT_RETRIES) throw new Error(`event log: gave up after ${attempt} seq conflicts`);
      if (Date.now() < chain.contendedUntil) await sleep(Math.random() * Math.max(MIN_TURN_MS, chain.insertMs) * (1 + Math.min(attempt, 4)));
      const head = await this.walkHead(tenantId, chain);
      const events = this.link(tenantId, head, remaining);
      let inserted = events.length;
      const started = performance.now();
      try {
        await this.events.insertMany(events, { ordered: true });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        // Ordered insert: everything before the conflicting seq went in and chains correctly.
        inserted = (error as MongoBulkWriteError).insertedCount ?? 0;
        chain.contendedUntil = Date.now() + CONTENDED_MS;
      }
      chain.insertMs = performance.now() - started;
      if (inserted > 0 && events[0].seq === 1) {
        // A tenant's first events: its head document is written before they are answered, so
        // `tenants()` lists every tenant with an event (a policy change reaches its chain too).
        const last = events[inserted - 1];
        await this.advanceHead(tenantId, { seq: last.seq, hash: last.hash }).catch((error: unknown) => this.onHeadError(error, tenantId));
      }
      for (let i = 0; i < inserted; i++) {
        this.remember(events[i]);
        remaining[i].resolve(events[i]);
      }
      if (inserted > 0) {
        const last = events[inserted - 1];
        chain.head = { seq: last.seq, hash: last.hash };
        this.scheduleHead(tenantId, chain.head);
      }
      remaining = remaining.slice(inserted);
    }
  }

  /** The head as the database has it now, walked forward by `_id` from what this process knew. */
  private async walkHead(tenantId: string, chain: TenantChain): Promise<{ seq: number; hash: string }> {
    const known = chain.head ?? (await this.storedHead(tenantId)) ?? { seq: 0, hash: GENESIS_HASH };
    const head = await this.walkedFrom(tenantId, known);
    // Another process appended to this tenant (the first load of a chain is not contention).
    if (chain.head && head.seq > known.seq) chain.contendedUntil = Date.now() + CONTENDED_MS;
    chain.head = head;
    return head;
  }

  private link(tenantId: string, head: { seq: number; hash: string }, pending: PendingAppend[]): MemoryEvent[] {
    const timestamp = this.clock.now().toISOString();
    let prev = head;
    return pending.map(({ draft }) => {
      const seq = prev.seq + 1;
      const body = this.seal(storedJson({ ...draft, contract: draft.contract ?? null, event_id: randomUUID(), seq, timestamp, prev_hash: prev.hash }));
      const hash = eventHash(body);
      prev = { seq, hash };
      return { _id: eventDocId(tenantId, seq), ...body, hash };
    });
  }

  /**
   * Off the request path: the head update starts HEAD_DELAY_MS after the batch (the appenders'
   * requests have been answered by then) and writes only the newest head, so the batches of
   * that time cost one update. A lagging or missing head is safe: `head()` walks forward from it.
   */
  private scheduleHead(tenantId: string, head: { seq: number; hash: string }): void {
    let writer = this.headWriters.get(tenantId);
    if (!writer) {
      writer = { pending: undefined, running: undefined };
      this.headWriters.set(tenantId, writer);
    }
    if (!writer.pending || writer.pending.seq < head.seq) writer.pending = head;
    if (!writer.running) writer.running = this.writeHeads(tenantId, writer);
  }

  private async writeHeads(tenantId: string, writer: HeadWriter): Promise<void> {
    await new Promise<void>((resolve) => setTimeout(resolve, HEAD_DELAY_MS));
    try {
      while (writer.pending) {
        const head = writer.pending;
        writer.pending = undefined;
        await this.advanceHead(tenantId, head).catch((error: unknown) => this.onHeadError(error, tenantId));
      }
    } finally {
      writer.running = undefined;
    }
  }

  private async advanceHead(tenantId: string, head: { seq: number; hash: string }): Promise<void> {
    try {
      await this.heads.updateOne({ _id: tenantId, seq: { $lt: head.seq } }, { $set: { seq: head.seq, hash: head.hash } }, { upsert: true });
    } catch (error) {
      // A newer head was written by another process; ours is older, so nothing to do.
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
