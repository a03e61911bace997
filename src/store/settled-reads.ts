/**
 * INV-8, MP-LOG, MP-OBJECT on the read path (docs/FAULTS.md "Unsettled objects on reads"): an
 * object without its event is never served as live, without a database round trip for the
 * objects this process knows settled. A store keeps one of these beside its due marks.
 */

/** What a read tells `live` of one object: its due mark's key and its write time; null: nothing to check (not live content). */
export type DueOf<T> = (object: T) => { id: string; writtenAt: Date } | null;

/** Due keys this process remembers as settled, beyond which the oldest are forgotten (and checked again if read). */
const KNOWN_SETTLED = 50_000;

export class SettledReads {
  /**
   * Objects written before this (ms, injected clock) are settled; the repair pass moves it
   * (`settledBefore`). -Infinity until the first clean pass.
   */
  private watermark = Number.NEGATIVE_INFINITY;
  /** How far the last scan of the marks saw every one: all of them (Infinity), or those written before its last one's time. */
  private seen = Number.NEGATIVE_INFINITY;
  /**
   * Due keys whose object this process knows has its event: its own writes once appended (the
   * mark's removal may still be pending), and objects a read found settled. Such an object is
   * served without a lookup: the writer reads its writes at the cost of its own read.
   */
  private readonly known = new Map<string, number>();

  /** The repair's scan of the marks, oldest first: null when it returned every mark, else the time of the last one returned. */
  scanned(lastOfFullBatch: Date | null): void {
    this.seen = lastOfFullBatch === null ? Number.POSITIVE_INFINITY : lastOfFullBatch.getTime();
  }

  /**
   * The repair pass settled every object written before `cutoff` whose mark its last scan saw
   * (no claim lost, no error): reads of objects written before both need no check. Only moves forward.
   */
  settledBefore(cutoff: Date): void {
    const mark = Math.min(cutoff.getTime(), this.seen);
    if (mark <= this.watermark) return;
    this.watermark = mark;
    for (const [id, at] of this.known) if (at < mark) this.known.delete(id);
  }

  /** The object's event is in the log (this process appended it, or a read saw it). */
  remember(id: string, writtenAt?: Date): void {
    const at = writtenAt?.getTime() ?? Number.POSITIVE_INFINITY;
    if (at < this.watermark) return;
    this.known.delete(id);
    this.known.set(id, at);
    // Oldest remembered first: one forgotten costs a lookup on its next read, never a wrong answer.
    if (this.known.size > KNOWN_SETTLED) this.known.delete(this.known.keys().next().value!);
  }

  /** An undo took the object back: its key may be written again, by a write that is not settled yet. */
  forget(id: string): void {
    this.known.delete(id);
  }

  /**
   * The objects that may be served as live. One written before the watermark, or known settled
   * here, costs nothing; the others' marks are read in one `lookup`. No mark: the event is in
   * the log. A mark: `unsettled` decides (the repair's settleOne: the event exists, or is
   * appended once the write is old enough); an object it does not settle is left out, as if it
   * did not exist (NOT_FOUND, the answer for an id that never existed).
   */
  async live<T, M>(
    objects: readonly T[],
    dueOf: DueOf<T>,
    lookup: (ids: readonly string[]) => Promise<Map<string, M>>,
    unsettled: (object: T, mark: M) => Promise<boolean>,
  ): Promise<T[]> {
    const open = new Map<string, { object: T; writtenAt: Date }>();
    for (const object of objects) {
      const due = dueOf(object);
      if (due && due.writtenAt.getTime() >= this.watermark && !this.known.has(due.id)) open.set(due.id, { object, writtenAt: due.writtenAt });
    }
    if (open.size === 0) return [...objects];
    const marks = await lookup([...open.keys()]);
    const withheld = new Set<T>();
    for (const [id, { object, writtenAt }] of open) {
      const mark = marks.get(id);
      if (mark === undefined || (await unsettled(object, mark))) this.remember(id, writtenAt);
      else withheld.add(object);
    }
    return withheld.size === 0 ? [...objects] : objects.filter((object) => !withheld.has(object));
  }
}
