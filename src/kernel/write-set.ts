import type { EventType } from "../store/event-log";

/** The part of an event an operation knows; the kernel adds who, which decision, which policy. */
export interface EventPart {
  event_type: EventType;
  /** Defaults to the operation's subject (none for tenant-wide operations). */
  subject_id?: string | null;
  memory_id?: string | null;
  /** A salted digest of the content, never the content (SPEC D1, D4). */
  content_digest?: string | null;
  reason?: string | null;
  /** Metadata only: category, lengths, counts. Never content. */
  metadata?: Record<string, unknown>;
  /** Marks the object settled once its event is in the log (off the request path; repair catches a miss). */
  settle?: (seq: number) => Promise<void>;
}

type Undo = () => Promise<void>;

/**
 * The writes of one operation: each step names its undo, each event is named here and
 * appended by the kernel after the steps, in one group commit. If a step or the events
 * fail, every step done is undone in reverse order, so no object is left without its
 * event and nothing partial stays (INV-8).
 */
export class Writes {
  private readonly undos: Undo[] = [];
  private readonly parts: EventPart[] = [];
  private lostRace = false;

  /** Runs `action` now; `undo` (given its result) runs if the operation fails later. */
  async run<T>(action: () => Promise<T>, undo?: (result: T) => Promise<void>): Promise<T> {
    const result = await action();
    if (undo) this.undos.push(() => undo(result));
    return result;
  }

  /** Registers an undo for something done outside `run` (a conditional write that claimed its object). */
  onUndo(undo: Undo): void {
    this.undos.push(undo);
  }

  event(part: EventPart): void {
    this.parts.push(part);
  }

  /** A concurrent write won: nothing was changed; the kernel decides again on the object as it is now. */
  lost<T>(): T {
    this.lostRace = true;
    return undefined as T;
  }

  get isLost(): boolean {
    return this.lostRace;
  }

  get events(): readonly EventPart[] {
    return this.parts;
  }

  /** Undoes every step, newest first; an undo that fails is reported, the others still run. */
  async undo(onError: (error: unknown) => void): Promise<void> {
    for (const undo of [...this.undos].reverse()) {
      try {
        await undo();
      } catch (error) {
        onError(error);
      }
    }
  }
}
