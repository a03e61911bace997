import type { Clock } from "../../clock";

/** SG-ENVELOPE: envelopes cached per (tenant, subject, purpose, reader) for up to `ttlMs`. */
export class EnvelopeCache<T> {
  private readonly entries = new Map<string, { at: number; value: T }>();

  constructor(
    private readonly clock: Clock,
    readonly ttlMs: number,
    private readonly maxEntries = 50_000,
  ) {}

  get(key: string): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (this.clock.now().getTime() - hit.at >= this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(key: string, value: T): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { at: this.clock.now().getTime(), value });
  }

  /** Opt-out, forgetting, erasure: everything cached about a subject goes at once. */
  invalidateSubject(tenant: string, subject: string): void {
    const prefix = `${encodeURIComponent(tenant)}|${encodeURIComponent(subject)}|`;
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  static key(tenant: string, subject: string, purpose: string, reader: string): string {
    return `${encodeURIComponent(tenant)}|${encodeURIComponent(subject)}|${purpose}|${reader}`;
  }
}
