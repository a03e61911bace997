import type { EventDraft, MemoryEvent } from "../store/event-log";

// The kernel's ports: what it needs from the store, as interfaces it owns. The store implements
// them (src/store/event-log.ts, src/store/faults.ts) and the composition root (src/gateway.ts)
// plugs them in, so the kernel loads no store module. The event record shapes are the log's
// own (a type-only import, erased at build: .dependency-cruiser.cjs allows only that).

/** Where the kernel appends the events of a write set, a refusal or a failure. */
export interface EventAppender {
  append(draft: EventDraft): Promise<MemoryEvent>;
}

/** An object whose integrity hash no longer matches: a conformance break, not an ordinary failure (MP-OBJECT). */
export interface IntegrityBreak {
  readonly name: string;
  readonly memoryId: string;
  readonly collection: string;
  readonly subjectId: string | null;
}

/** How the store's failures read to the kernel. */
export interface StoreFaults {
  /** The integrity break an error reports, if it is one. */
  integrityBreak(error: unknown): IntegrityBreak | undefined;
  /** The write may have been applied although its answer was lost (the connection broke mid-command). */
  outcomeUnknown(error: unknown): boolean;
}
