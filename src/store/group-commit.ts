import type { Logger } from "../logger";

/** The driver's answer once the gateway closed its client: retrying cannot help. */
export const clientClosed = (error: unknown): boolean =>
  error instanceof Error && (error.name === "MongoNotConnectedError" || error.name === "MongoTopologyClosedError");

interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

const RETRY_BASE_MS = 100;
/** How long a write is retried before it is given up, by default (five tries, 3.1 s). */
const DEFAULT_RETRY_FOR_MS = 3_100;
const RETRY_MAX_DELAY_MS = 2_000;
/** Items queued or in flight beyond which new writers wait (see `room`). */
const DEFAULT_BACKLOG = 256;

/**
 * Group commit off the request path: items added while one write is in flight go together
 * in the next one. The first write starts after the current request was answered
 * (setImmediate), so a request never waits for it. A failed write is retried a few times
 * (writers are idempotent), then given up and reported: what it settled is then left to the
 * start-up repair (settle marks) or stays a little behind (quota counters, a cache of the log).
 */
export class GroupCommit<T> {
  private queue: Waiting<T>[] = [];
  private running: Promise<void> | undefined;
  private inFlight = 0;
  private progress: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(
    private readonly name: string,
    private readonly logger: Logger,
    private readonly write: (items: readonly T[]) => Promise<void>,
    /** An error no retry can mend (the database client is closed). */
    private readonly final: (error: unknown) => boolean = () => false,
    private readonly backlog: number = DEFAULT_BACKLOG,
    /** How long a failed write is retried (backing off up to 2 s) before it is given up. */
    private readonly retryForMs: number = DEFAULT_RETRY_FOR_MS,
  ) {}

  /**
   * Back-pressure: resolves once fewer than `backlog` items wait or are being written. A
   * database slower than the requests (FerretDB on SQLite scans a collection per update)
   * then slows the writers down instead of letting the queue grow without bound.
   */
  async room(): Promise<void> {
    while (this.queue.length + this.inFlight >= this.backlog) {
      this.progress ??= (() => {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => (resolve = r));
        return { promise, resolve };
      })();
      await this.progress.promise;
    }
  }

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.running ??= this.drain();
    });
  }

  /** Resolves once everything added so far is written or given up. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        this.inFlight = batch.length;
        await this.commit(batch);
        this.inFlight = 0;
        this.progress?.resolve();
        this.progress = undefined;
      }
    } finally {
      this.running = undefined;
    }
  }

  private async commit(batch: Waiting<T>[]): Promise<void> {
    const items = batch.map((w) => w.item);
    for (let attempt = 0, waited = 0; ; attempt++) {
      try {
        await this.write(items);
        for (const w of batch) w.resolve();
        return;
      } catch (error) {
        if (waited >= this.retryForMs || this.final(error)) {
          this.logger.warn({ err: error, items: items.length }, `${this.name}: group commit given up`);
          for (const w of batch) w.reject(error);
          return;
        }
        const delay = Math.min(RETRY_BASE_MS * 2 ** attempt, RETRY_MAX_DELAY_MS);
        waited += delay;
        await new Promise<void>((resolve) => setTimeout(resolve, delay).unref());
      }
    }
  }
}
