import type { EventDraft, EventType } from "../store/event-log";

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

/** Steps, each with its undo: what an operation's and a background job's write sets share. */
class Steps {
  private readonly undos: Undo[] = [];

  /** Runs `action` now; `undo` (given its result) runs if the write set fails later. */
  async run<T>(action: () => Promise<T>, undo?: (result: T) => Promise<void>): Promise<T> {
    const result = await action();
    if (undo) this.undos.push(() => undo(result));
    return result;
  }

  /** Registers an undo for something done outside `run` (a conditional write that claimed its object). */
  onUndo(undo: Undo): void {
    this.undos.push(undo);
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

/** An object a write set is about to create (its subject defaults to the operation's). */
export interface CreatedObject {
  objectId: string;
  subjectId?: string;
}

/**
 * The writes of one operation: each step names its undo, each event is named here and
 * appended by the kernel after the steps, in one group commit. If a step or the events
 * fail, every step done is undone in reverse order, so no object is left without its
 * event and nothing partial stays (INV-8).
 */
export class Writes extends Steps {
  private readonly parts: EventPart[] = [];
  private lostRace = false;
  private declared = false;
  /** Set by the kernel for a call with an idempotency key (src/kernel/idempotency.ts). */
  private keyed: ((objects: readonly CreatedObject[], value: unknown) => Promise<void>) | undefined;

  /** The kernel's hook for a keyed call: `creating` keeps what is declared with the key's reservation. */
  keyedBy(declare: (objects: readonly CreatedObject[], value: unknown) => Promise<void>): void {
    this.keyed = declare;
  }

  /**
   * Declares, before writing them, the objects this write set creates and the value the
   * operation will answer: a keyed call keeps them with its reservation, so a retry after the
   * process died can tell whether the write happened (src/kernel/idempotency.ts). Call it
   * once, right before the first object write; without a key it does nothing.
   */
  async creating(objects: readonly CreatedObject[], value: unknown): Promise<void> {
    if (!this.keyed) return;
    await this.keyed(objects, value);
    this.declared = true;
  }

  /** Whether `creating` kept a declaration (the kernel then keeps no outcome after the steps). */
  get isDeclared(): boolean {
    return this.declared;
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
}

/** A background job's event: it names its own header (no request, no operation's decision), and may settle an object. */
export interface JobEvent extends EventDraft {
  settle?: (seq: number) => Promise<void>;
}

/**
 * The writes of a background job (repair, integrity guard, policy watch, re-audit), run by
 * `Kernel.job`: the same steps with their undo, and events appended by the kernel after the
 * steps, so undo, metrics and failing closed hold for jobs as for operations.
 */
export class JobWrites extends Steps {
  private readonly drafts: JobEvent[] = [];

  event(draft: JobEvent): void {
    this.drafts.push(draft);
  }

  get events(): readonly JobEvent[] {
    return this.drafts;
  }
}
