import { setTimeout as delay } from "node:timers/promises";
import type { Collection, Db } from "mongodb";
import type { Logger } from "../../logger";
import { COLLECTIONS } from "../database";
import type { EventLog, MemoryEvent } from "../event-log";

/**
 * Where subscribers read the log from: the log itself, never an in-process bus, so an
 * event appended by any gateway process reaches every subscriber (issue 5 §6). Both
 * implementations yield a tenant's events with seq > afterSeq, strictly in seq order and
 * without gaps or duplicates: first the backlog, then live ones, until `signal` aborts.
 *
 * `stream` admits the subscription at once (synchronously) against the caps per token and
 * per tenant, so a refusal is an error of the subscribe call, not of its first event; the
 * slot is released when the signal aborts (the client unsubscribed or went away).
 */
export interface EventSource {
  readonly kind: "poll" | "change_stream";
  readonly limits: SubscriptionLimits;
  stream(tenantId: string, afterSeq: number, signal: AbortSignal, holder?: string): AsyncIterable<MemoryEvent>;
}

/** Too many live subscriptions for this token or this tenant on this gateway. */
export class SubscriptionLimitError extends Error {
  readonly code = "SUBSCRIPTION_LIMIT" as const;
  constructor(
    readonly scope: "token" | "tenant",
    readonly limit: number,
  ) {
    super(`at most ${limit} live subscriptions per ${scope} on one gateway; close one first`);
    this.name = new.target.name;
  }
}

/** Live subscriptions per holder (the token's subject) and per tenant, in this process. */
export class SubscriptionLimits {
  private readonly perHolder = new Map<string, number>();
  private readonly perTenant = new Map<string, number>();

  constructor(readonly caps: { perToken: number; perTenant: number } = { perToken: Infinity, perTenant: Infinity }) {}

  /** Takes a slot or throws SubscriptionLimitError; the slot is given back when `signal` aborts. */
  admit(tenantId: string, holder: string, signal: AbortSignal): void {
    const holderKey = `${tenantId}\u0000${holder}`;
    const tenantCount = this.perTenant.get(tenantId) ?? 0;
    const holderCount = this.perHolder.get(holderKey) ?? 0;
    if (holderCount >= this.caps.perToken) throw new SubscriptionLimitError("token", this.caps.perToken);
    if (tenantCount >= this.caps.perTenant) throw new SubscriptionLimitError("tenant", this.caps.perTenant);
    this.perTenant.set(tenantId, tenantCount + 1);
    this.perHolder.set(holderKey, holderCount + 1);
    const release = () => {
      decrement(this.perTenant, tenantId);
      decrement(this.perHolder, holderKey);
    };
    if (signal.aborted) release();
    else signal.addEventListener("abort", release, { once: true });
  }

  /** Live subscriptions of a tenant (all tenants when absent). */
  live(tenantId?: string): number {
    if (tenantId !== undefined) return this.perTenant.get(tenantId) ?? 0;
    return [...this.perTenant.values()].reduce((a, b) => a + b, 0);
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const next = (counts.get(key) ?? 1) - 1;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}

/** The most events one read hands back before the reader yields them. */
const PAGE = 500;
/** How many events past the last one a catching-up reader asks for at once (one `_id` `$in` query). */
const READ_AHEAD = 64;
/** After a failed read (the database restarting), the next try waits this long, doubling up to the cap. */
const RETRY_MS = 250;
const RETRY_MAX_MS = 5_000;

/**
 * Reads a tenant's events after `afterSeq` by exact `_id`s, never by a range: FerretDB answers
 * `_id` equality and (patched, memgate.3) `_id` `$in` from the index, but scans the whole
 * collection for an `_id` range. Caught up, a call costs one `_id` lookup (of seq + 1) and
 * yields nothing; behind, it asks READ_AHEAD seqs at a time in one query, and yields the
 * consecutive run it got.
 */
export async function readForward(log: EventLog, tenantId: string, afterSeq: number): Promise<MemoryEvent[]> {
  const run: MemoryEvent[] = [];
  for await (const event of log.eventsAfter(tenantId, afterSeq, READ_AHEAD)) {
    run.push(event);
    if (run.length >= PAGE) break;
  }
  return run;
}

async function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false; // aborted
  }
}

/**
 * The tail of one tenant's log as this process watches it for its caught-up subscribers:
 * one `_id` lookup of the next seq per poll, however many subscribers wait, so two
 * hundred idle subscriptions of a tenant cost what one does.
 */
class TenantTail {
  /** The highest seq known to be in the log. */
  private known: number;
  private readonly waiters = new Set<{ afterSeq: number; wake: () => void }>();
  private polling = false;

  constructor(
    private readonly log: EventLog,
    private readonly tenantId: string,
    private readonly pollMs: number,
    from: number,
  ) {
    this.known = from;
  }

  /** Resolves once an event after `afterSeq` is in the log (or the signal aborts). */
  next(afterSeq: number, signal: AbortSignal): Promise<void> {
    this.known = Math.max(this.known, afterSeq);
    return new Promise<void>((resolve) => {
      const waiter = {
        afterSeq,
        wake: () => {
          this.waiters.delete(waiter);
          signal.removeEventListener("abort", waiter.wake);
          resolve();
        },
      };
      this.waiters.add(waiter);
      signal.addEventListener("abort", waiter.wake, { once: true });
      // eslint-disable-next-line @typescript-eslint/no-floating-promises -- poll retries its own failures and never rejects
      if (!this.polling) void this.poll();
    });
  }

  get idle(): boolean {
    return this.waiters.size === 0 && !this.polling;
  }

  private async poll(): Promise<void> {
    this.polling = true;
    let retryMs = RETRY_MS;
    try {
      while (this.waiters.size > 0) {
        await delay(this.pollMs);
        try {
          while (await this.log.get(this.tenantId, this.known + 1)) this.known++;
          retryMs = RETRY_MS;
        } catch {
          // The database is away (restarting): the subscribers wait, the tail tries again slower.
          await delay(retryMs);
          retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
          continue;
        }
        for (const waiter of [...this.waiters]) if (waiter.afterSeq < this.known) waiter.wake();
      }
    } finally {
      this.polling = false;
    }
  }
}

/** Reads forward by exact `_id`; caught up, waits on its tenant's shared tail. Works on every server (FerretDB). */
export class PollingEventSource implements EventSource {
  readonly kind = "poll" as const;
  private readonly tails = new Map<string, TenantTail>();

  constructor(
    private readonly log: EventLog,
    private readonly pollMs: number,
    readonly limits: SubscriptionLimits = new SubscriptionLimits(),
  ) {}

  stream(tenantId: string, afterSeq: number, signal: AbortSignal, holder = ""): AsyncIterable<MemoryEvent> {
    this.limits.admit(tenantId, holder, signal);
    return this.read(tenantId, afterSeq, signal);
  }

  private tail(tenantId: string, from: number): TenantTail {
    for (const [key, tail] of this.tails) if (tail.idle && key !== tenantId) this.tails.delete(key);
    let tail = this.tails.get(tenantId);
    if (!tail) {
      tail = new TenantTail(this.log, tenantId, this.pollMs, from);
      this.tails.set(tenantId, tail);
    }
    return tail;
  }

  private async *read(tenantId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<MemoryEvent> {
    let last = afterSeq;
    let retryMs = RETRY_MS;
    while (!signal.aborted) {
      let page: MemoryEvent[];
      try {
        page = await readForward(this.log, tenantId, last);
        retryMs = RETRY_MS;
      } catch {
        // The database is away (restarting): keep the subscription and try again, slower each time.
        if (!(await pause(retryMs, signal))) return;
        retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
        continue;
      }
      for (const event of page) {
        last = event.seq;
        yield event;
        if (signal.aborted) return;
      }
      if (page.length === 0) await this.tail(tenantId, last).next(last, signal);
    }
  }
}

/**
 * Change streams where the server has them (MongoDB replica sets): the backlog is read
 * like the polling source, then inserts arrive as they commit. The stream is opened before
 * the backlog is read, and anything at or below the last seq yielded is dropped, so the
 * hand-over neither loses nor repeats an event.
 */
export class ChangeStreamEventSource implements EventSource {
  readonly kind = "change_stream" as const;
  private readonly events: Collection<MemoryEvent>;

  constructor(
    db: Db,
    private readonly log: EventLog,
    readonly limits: SubscriptionLimits = new SubscriptionLimits(),
  ) {
    this.events = db.collection<MemoryEvent>(COLLECTIONS.events);
  }

  stream(tenantId: string, afterSeq: number, signal: AbortSignal, holder = ""): AsyncIterable<MemoryEvent> {
    this.limits.admit(tenantId, holder, signal);
    return this.read(tenantId, afterSeq, signal);
  }

  private async *read(tenantId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<MemoryEvent> {
    const changes = this.events.watch<MemoryEvent>([{ $match: { operationType: "insert", "fullDocument.tenant_id": tenantId } }]);
    // The subscriber left: a change stream that fails to close has nothing left to tell anyone.
    const close = (): void => {
      changes.close().catch(() => undefined);
    };
    signal.addEventListener("abort", close, { once: true });
    try {
      let last = afterSeq;
      for (;;) {
        const page = await readForward(this.log, tenantId, last);
        for (const event of page) {
          last = event.seq;
          yield event;
        }
        if (page.length === 0) break;
      }
      for await (const change of changes) {
        if (signal.aborted) return;
        if (change.operationType !== "insert") continue;
        const event = change.fullDocument;
        if (event.seq <= last) continue;
        if (event.seq > last + 1) {
          // Missed some (an insert committed while the backlog was read): read them from the log.
          for (const missed of await readForward(this.log, tenantId, last)) {
            if (missed.seq >= event.seq) break;
            last = missed.seq;
            yield missed;
          }
        }
        if (event.seq === last + 1) {
          last = event.seq;
          yield event;
        }
      }
    } finally {
      signal.removeEventListener("abort", close);
      await changes.close().catch(() => undefined);
    }
  }
}

/**
 * `auto` asks the server once: change streams exist on replica sets and sharded clusters
 * (`hello` names a set, or says "isdbgrid"); FerretDB and standalone servers get polling.
 */
export async function createEventSource(
  db: Db,
  log: EventLog,
  options: { mode: "auto" | "poll" | "change_stream"; pollMs: number; subscriptionsPerToken?: number; subscriptionsPerTenant?: number },
  logger: Logger,
): Promise<EventSource> {
  const limits = new SubscriptionLimits({ perToken: options.subscriptionsPerToken ?? Infinity, perTenant: options.subscriptionsPerTenant ?? Infinity });
  if (options.mode === "poll") return new PollingEventSource(log, options.pollMs, limits);
  if (options.mode === "change_stream") return new ChangeStreamEventSource(db, log, limits);
  let hello: { setName?: string; msg?: string } = {};
  try {
    hello = await db.admin().command({ hello: 1 });
  } catch (error) {
    logger.warn({ err: error }, "could not ask the server whether it has change streams; polling");
  }
  if (hello.setName || hello.msg === "isdbgrid") {
    logger.info("audit subscriptions read the log through change streams");
    return new ChangeStreamEventSource(db, log, limits);
  }
  logger.info("the database has no change streams: audit subscriptions poll the log");
  return new PollingEventSource(log, options.pollMs, limits);
}
