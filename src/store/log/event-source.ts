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
 */
export interface EventSource {
  readonly kind: "poll" | "change_stream";
  stream(tenantId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<MemoryEvent>;
}

const PAGE = 500;

/** Reads forward by `_id` range; waits `pollMs` when caught up. Works on every server (FerretDB). */
export class PollingEventSource implements EventSource {
  readonly kind = "poll" as const;

  constructor(
    private readonly log: EventLog,
    private readonly pollMs: number,
  ) {}

  async *stream(tenantId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<MemoryEvent> {
    let last = afterSeq;
    while (!signal.aborted) {
      const page = await this.log.range(tenantId, last + 1, last + PAGE, PAGE);
      let progressed = false;
      for (const event of page) {
        if (event.seq !== last + 1) break; // never skip a seq: wait for it (or for a verifier to flag the gap)
        last = event.seq;
        progressed = true;
        yield event;
        if (signal.aborted) return;
      }
      if (!progressed || page.length < PAGE) {
        try {
          await delay(this.pollMs, undefined, { signal });
        } catch {
          return; // aborted
        }
      }
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
  ) {
    this.events = db.collection<MemoryEvent>(COLLECTIONS.events);
  }

  async *stream(tenantId: string, afterSeq: number, signal: AbortSignal): AsyncIterable<MemoryEvent> {
    const changes = this.events.watch<MemoryEvent>([{ $match: { operationType: "insert", "fullDocument.tenant_id": tenantId } }]);
    const close = () => void changes.close();
    signal.addEventListener("abort", close, { once: true });
    try {
      let last = afterSeq;
      for (;;) {
        const page = await this.log.range(tenantId, last + 1, last + PAGE, PAGE);
        for (const event of page) {
          if (event.seq !== last + 1) break;
          last = event.seq;
          yield event;
        }
        if (page.length < PAGE) break;
      }
      for await (const change of changes) {
        if (signal.aborted) return;
        if (change.operationType !== "insert") continue;
        const event = change.fullDocument;
        if (event.seq <= last) continue;
        if (event.seq > last + 1) {
          // Missed some (an insert committed while the backlog was read): read them from the log.
          for (const missed of await this.log.range(tenantId, last + 1, event.seq - 1, event.seq - last)) {
            if (missed.seq !== last + 1) break;
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
  options: { mode: "auto" | "poll" | "change_stream"; pollMs: number },
  logger: Logger,
): Promise<EventSource> {
  if (options.mode === "poll") return new PollingEventSource(log, options.pollMs);
  if (options.mode === "change_stream") return new ChangeStreamEventSource(db, log);
  let hello: { setName?: string; msg?: string } = {};
  try {
    hello = await db.admin().command({ hello: 1 });
  } catch (error) {
    logger.warn({ err: error }, "could not ask the server whether it has change streams; polling");
  }
  if (hello.setName || hello.msg === "isdbgrid") {
    logger.info("audit subscriptions read the log through change streams");
    return new ChangeStreamEventSource(db, log);
  }
  logger.info("the database has no change streams: audit subscriptions poll the log");
  return new PollingEventSource(log, options.pollMs);
}
