import type { Clock } from "../../clock";

/**
 * SG-ENVELOPE: envelopes cached per (tenant, subject, purpose, reader) for up to `ttlMs`, within
 * a byte budget (MEMGATE_ENVELOPE_CACHE_MB): least recently used first out past it.
 */
export class EnvelopeCache<T> {
  /** In least-recently-used order (a hit moves its key to the end). */
  private readonly entries = new Map<string, { at: number; value: T; bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly clock: Clock,
    readonly ttlMs: number,
    private readonly budgetBytes = 32 * 1024 * 1024,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    this.drop(key);
    if (this.clock.now().getTime() - hit.at >= this.ttlMs) return undefined;
    this.entries.set(key, hit);
    this.bytes += hit.bytes;
    return hit.value;
  }

  set(key: string, value: T): void {
    this.drop(key);
    // An estimate (UTF-16 strings of the envelope as JSON, and the key): envelopes are plain data.
    const bytes = 2 * (JSON.stringify(value)?.length ?? 0) + 2 * key.length + 200;
    while (this.entries.size > 0 && (this.entries.size >= this.maxEntries || this.bytes + bytes > this.budgetBytes)) {
      this.drop(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { at: this.clock.now().getTime(), value, bytes });
    this.bytes += bytes;
  }

  /** What the cache holds (estimated bytes, and entries). */
  usage(): { bytes: number; entries: number } {
    return { bytes: this.bytes, entries: this.entries.size };
  }

  private drop(key: string): void {
    const hit = this.entries.get(key);
    if (!hit) return;
    this.entries.delete(key);
    this.bytes -= hit.bytes;
  }

  /** Opt-out, forgetting, erasure: everything cached about a subject goes at once. */
  invalidateSubject(tenant: string, subject: string): void {
    const prefix = `${encodeURIComponent(tenant)}|${encodeURIComponent(subject)}|`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.drop(key);
  }

  static key(tenant: string, subject: string, purpose: string, reader: string): string {
    return `${encodeURIComponent(tenant)}|${encodeURIComponent(subject)}|${purpose}|${reader}`;
  }
}
