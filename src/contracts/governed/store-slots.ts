import type { AnyBulkWriteOperation, Collection } from "mongodb";
import type { Logger } from "../../logger";
import { type Database, isDuplicateKey } from "../../store/database";
import { GOVERNED_COLLECTIONS } from "./records";
import { InsertQueue } from "../../store/insert-queue";

/**
 * Quota slots (C19-CAP, issue 15 §2): what makes a cap hold exactly under concurrency, in
 * one process or many. The policy decides on the counts a write gathered (`items`,
 * `writes_in_window`); a write it allows then reserves the numbered slot those counts
 * imply (the item number count + 1, the write number count + 1 in its window) by
 * inserting a document with that `_id`. The database's unique `_id` lets one write have
 * each number, the way the log hands out seqs: a write that finds its number taken lost a
 * race, and the kernel gathers again with the count raised to the number it saw taken, so
 * the policy judges the write against the count as it now is. The policy alone knows the
 * cap; a slot is only ever numbered from a count the policy allowed, so no more writes than
 * the cap get a number.
 *
 * Within one process, the numbers its unsettled writes hold count as taken (`highestInFlight`),
 * so concurrent writes of one subject judge past each other and rarely lose a race at the
 * database; across processes the unique `_id` still decides.
 *
 * Item slots are counted, not owned: a STORE inserts one, a DELETE removes one (the highest
 * it finds near the count), so there are as many item slots as live items. Write slots of
 * past windows are never read again: the first write of a subject settled after its window
 * ended deletes them (dropWindows), so the collection holds the live items and the current
 * windows' writes, not every write ever made.
 */
interface SlotDoc {
  _id: string;
  tenant_id: string;
  subject_id: string;
  at: Date;
}

export type SlotKind = { kind: "item" } | { kind: "write"; windowStart: number };

const part = (value: string): string => encodeURIComponent(value);

/** How far from the count a DELETE looks for an item slot to give back (and past a window's count, dropWindows). */
const RELEASE_PROBES = 8;
/** Deletes per bulk write when a past window's slots go. */
const DROP_CHUNK = 500;
/** Past windows this process dropped lately: concurrent settles of one subject drop a window once. */
const DROPPED_MEMORY = 10_000;

export class SlotStore {
  private readonly slots: Collection<SlotDoc>;
  /** Concurrent writes' reservations go in one unordered insert; each learns whether its own number was free. */
  private readonly inserts: InsertQueue<SlotDoc>;
  private readonly dropped = new Set<string>();
  /**
   * Numbers this process reserved for writes that have not settled yet, by scope (subject and
   * item or window). Until a write settles, its number is in neither the counter document nor
   * this process's pending increments; counting it here (`highestInFlight`) lets a concurrent
   * write of the same subject judge the count with it and take the next number, instead of
   * losing a race for the same one (an insert that fails, a lookup walk, a second decision).
   */
  private readonly inFlight = new Map<string, Set<number>>();

  constructor(
    db: Database,
    private readonly logger: Logger,
  ) {
    this.slots = db.collection<SlotDoc>(GOVERNED_COLLECTIONS.memorySlots);
    this.inserts = new InsertQueue(this.slots);
  }

  static slotId(tenantId: string, subjectId: string, slot: SlotKind, n: number): string {
    const scope = slot.kind === "item" ? "item" : `w${slot.windowStart}`;
    return `${part(tenantId)}:${part(subjectId)}:${scope}:${n}`;
  }

  /** Takes number `n` for a write, held in flight until the write settles or gives it back; false when another write has it. */
  async reserve(tenantId: string, subjectId: string, slot: SlotKind, n: number, at: Date): Promise<boolean> {
    // Held before the insert, so a concurrent write of this process judges past it at once.
    const scope = SlotStore.slotId(tenantId, subjectId, slot, 0);
    const numbers = this.inFlight.get(scope) ?? new Set<number>();
    numbers.add(n);
    this.inFlight.set(scope, numbers);
    let taken = false;
    try {
      taken = await this.insert(tenantId, subjectId, slot, n, at);
      return taken;
    } finally {
      if (!taken) this.settled(tenantId, subjectId, slot, n);
    }
  }

  /** Puts number `n` back (the undo of a DELETE's release); false when another write has it. */
  restore(tenantId: string, subjectId: string, slot: SlotKind, n: number, at: Date): Promise<boolean> {
    return this.insert(tenantId, subjectId, slot, n, at);
  }

  private async insert(tenantId: string, subjectId: string, slot: SlotKind, n: number, at: Date): Promise<boolean> {
    try {
      await this.inserts.insert({ _id: SlotStore.slotId(tenantId, subjectId, slot, n), tenant_id: tenantId, subject_id: subjectId, at });
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** The highest number this process holds for writes not settled yet (0: none). */
  highestInFlight(tenantId: string, subjectId: string, slot: SlotKind): number {
    const numbers = this.inFlight.get(SlotStore.slotId(tenantId, subjectId, slot, 0));
    return numbers ? Math.max(...numbers) : 0;
  }

  /** The write that held `n` is counted now (its increment is queued): `n` is no longer in flight. */
  settled(tenantId: string, subjectId: string, slot: SlotKind, n: number | undefined): void {
    if (n === undefined) return;
    const scope = SlotStore.slotId(tenantId, subjectId, slot, 0);
    const numbers = this.inFlight.get(scope);
    numbers?.delete(n);
    if (numbers?.size === 0) this.inFlight.delete(scope);
  }

  /**
   * The lowest free number from `from` up, by `_id` lookups. Used after a lost reservation:
   * it walks over the numbers taken meanwhile and finds one given back by an undo (a hole),
   * so a cap is reached exactly, not one short.
   */
  async firstFree(tenantId: string, subjectId: string, slot: SlotKind, from: number): Promise<number> {
    let n = Math.max(1, from);
    while (await this.slots.findOne({ _id: SlotStore.slotId(tenantId, subjectId, slot, n) }, { projection: { _id: 1 } })) n++;
    return n;
  }

  /** Gives number `n` back (the undo of a reservation). */
  async release(tenantId: string, subjectId: string, slot: SlotKind, n: number): Promise<void> {
    try {
      await this.slots.deleteOne({ _id: SlotStore.slotId(tenantId, subjectId, slot, n) });
    } finally {
      this.settled(tenantId, subjectId, slot, n);
    }
  }

  /**
   * Off the request path: deletes the write slots of windows that are past, numbered 1 to the
   * window's count (plus the few a lost race may have left above it), each by `_id`, in one
   * unordered bulk write: FerretDB answers each from the `_id` index, where a filter on the
   * window would scan the collection.
   */
  async dropWindows(tenantId: string, subjectId: string, windows: readonly { start: number; writes: number }[]): Promise<void> {
    const ops: AnyBulkWriteOperation<SlotDoc>[] = [];
    const keys: string[] = [];
    for (const { start, writes } of windows) {
      const key = SlotStore.slotId(tenantId, subjectId, { kind: "write", windowStart: start }, 0);
      if (this.dropped.has(key)) continue;
      keys.push(key);
      for (let n = 1; n <= writes + RELEASE_PROBES; n++) {
        ops.push({ deleteOne: { filter: { _id: SlotStore.slotId(tenantId, subjectId, { kind: "write", windowStart: start }, n) } } });
      }
    }
    for (const key of keys) this.dropped.add(key);
    while (this.dropped.size > DROPPED_MEMORY) this.dropped.delete(this.dropped.values().next().value!);
    try {
      for (let i = 0; i < ops.length; i += DROP_CHUNK) await this.slots.bulkWrite(ops.slice(i, i + DROP_CHUNK), { ordered: false });
    } catch (error) {
      // Harmless for the quota (those numbers are never read again): a later settle tries again.
      for (const key of keys) this.dropped.delete(key);
      this.logger.warn({ err: error }, "past write slots were not dropped; a later write retries");
    }
  }

  /**
   * A live item went: gives one item slot back, the one numbered `count` if there is one,
   * else the nearest around it (each probe an `_id` delete; concurrent deletes each remove
   * a different one). Items stored before slots existed have none: then nothing is removed.
   */
  async releaseItem(tenantId: string, subjectId: string, count: number): Promise<number | null> {
    const probes = [count];
    for (let d = 1; d <= RELEASE_PROBES; d++) probes.push(count + d, count - d);
    for (const n of probes) {
      if (n < 1) continue;
      const { deletedCount } = await this.slots.deleteOne({ _id: SlotStore.slotId(tenantId, subjectId, { kind: "item" }, n) });
      if (deletedCount > 0) return n;
    }
    return null;
  }
}
