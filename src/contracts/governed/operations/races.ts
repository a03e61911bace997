import type { OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import type { GovernedStore } from "../store";
import { CounterStore, type SubjectCounts } from "../store-counters";
import type { SlotKind } from "../store-slots";
import { targetOf, type Quota, type Target } from "./shared";

interface EntitlementData {
  defaults: { window_seconds: number };
}

/** The quota slots a request holds across judge-again rounds. */
interface HeldSlots {
  item?: number;
  write?: number;
  windowStart: number;
  keep: boolean;
}

/**
 * What the governed writes share across the kernel's judge-again rounds (one per gateway):
 * the version a lost conditional write saw claimed, and the quota slots a request holds.
 */
export class WriteRaces {
  /** Requests whose conditional write lost: the version the other write claimed (read by the second gather). */
  private readonly lostVersions = new WeakMap<object, number>();
  /**
   * Slots a request holds across judge-again rounds: when one of its two slots (item, write)
   * was taken, the one it got stays reserved for it, so no other write sees a number come
   * and go again (a refusal judged on it would leave the cap one short). Given back when the
   * request is refused or fails; kept by the write when it commits.
   */
  private readonly held = new WeakMap<object, HeldSlots>();

  constructor(private readonly store: GovernedStore) {}

  /** A conditional write of `req` lost to another write that took `version`. */
  lost(req: object, version: number): void {
    this.lostVersions.set(req, version);
  }

  private releaseHeld(req: object, ctx: Pick<OperationContext, "tenantId" | "subjectId">): Promise<void> {
    const h = this.held.get(req);
    this.held.delete(req);
    if (!h) return Promise.resolve();
    return Promise.all([
      h.item === undefined ? undefined : this.store.slots.release(ctx.tenantId, ctx.subjectId, { kind: "item" }, h.item),
      h.write === undefined ? undefined : this.store.slots.release(ctx.tenantId, ctx.subjectId, { kind: "write", windowStart: h.windowStart }, h.write),
    ]).then(() => undefined);
  }

  /**
   * The counts the policy judges. First: as the counter document has them (one `_id` read).
   * After a lost reservation: for a slot the request holds, the count it was allowed on;
   * for the other, the first free number from the counter's count up (store-slots.ts),
   * which counts the reservations of concurrent writes the counters do not hold yet.
   */
  async judged(req: object, counters: SubjectCounts, ctx: OperationContext): Promise<SubjectCounts> {
    const h = this.held.get(req);
    if (!h) return counters;
    const { counts, windowStart: start } = counters;
    const [item, write] = await Promise.all([
      h.item ?? this.store.slots.firstFree(ctx.tenantId, ctx.subjectId, { kind: "item" }, counts.items + 1),
      h.write ?? this.store.slots.firstFree(ctx.tenantId, ctx.subjectId, { kind: "write", windowStart: start }, counts.writes_in_window + 1),
    ]);
    return { ...counters, counts: { items: item - 1, writes_in_window: write - 1 } };
  }

  /** A refusal after a lost round gives back what the request held (the refusal hook is synchronous; the release is not awaited). */
  refusedAfterRace(req: object, ctx: OperationContext): void {
    void this.releaseHeld(req, ctx).catch(() => undefined);
  }

  /**
   * Reserves the numbered slots the policy's counts imply (store-slots.ts): the next item
   * number (STORE) and the next write number in the window. False: another write has one of
   * them; the one reserved is held for the next round and the kernel judges again.
   */
  async reserveSlots(req: object, counters: SubjectCounts, ctx: OperationContext, writes: Writes, item: boolean): Promise<boolean> {
    const { counts, windowStart: start } = counters;
    const h = this.held.get(req) ?? { windowStart: start, keep: false };
    this.held.set(req, h);
    h.keep = false;
    const reserve = async (slot: SlotKind, n: number) => {
      // Taken by a write of this process since the gather: lost without asking the database.
      if (this.store.slots.highestInFlight(ctx.tenantId, ctx.subjectId, slot) >= n) return undefined;
      return (await this.store.slots.reserve(ctx.tenantId, ctx.subjectId, slot, n, ctx.now)) ? n : undefined;
    };
    const [gotItem, gotWrite] = await Promise.all([
      item && h.item === undefined ? reserve({ kind: "item" }, counts.items + 1) : h.item,
      h.write === undefined ? reserve({ kind: "write", windowStart: start }, counts.writes_in_window + 1) : h.write,
    ]);
    h.item = gotItem;
    h.write = gotWrite;
    // Undone with the write set when it fails; kept over a lost round.
    writes.onUndo(() => (h.keep ? Promise.resolve() : this.releaseHeld(req, ctx)));
    if ((gotItem !== undefined || !item) && gotWrite !== undefined) return true;
    h.keep = true;
    return false;
  }

  /** The slot numbers a committed write holds, for its settle. */
  heldSlots(req: object): { item?: number; write?: number; windowStart?: number } {
    const h = this.held.get(req);
    return { item: h?.item, write: h?.write, windowStart: h?.windowStart };
  }

  windowStart(ctx: OperationContext): number {
    return CounterStore.windowStart(ctx.now.getTime(), ctx.policy.data<EntitlementData>("entitlements").defaults.window_seconds);
  }

  async quota(ctx: OperationContext): Promise<Quota> {
    const [settings, counters] = await Promise.all([
      this.store.settings.forSubject(ctx.tenantId, ctx.subjectId),
      this.store.counters.read(ctx.tenantId, ctx.subjectId, this.windowStart(ctx)),
    ]);
    // Numbers this process's unsettled writes hold are taken as surely as counted ones (store-slots.ts).
    const { counts, windowStart: start } = counters;
    const items = Math.max(counts.items, this.store.slots.highestInFlight(ctx.tenantId, ctx.subjectId, { kind: "item" }));
    const writesInWindow = Math.max(
      counts.writes_in_window,
      this.store.slots.highestInFlight(ctx.tenantId, ctx.subjectId, { kind: "write", windowStart: start }),
    );
    return { settings, counters: { ...counters, counts: { items, writes_in_window: writesInWindow } } };
  }

  async target(req: { memory_id?: string | null }, ctx: OperationContext): Promise<Target> {
    const [record, settings] = await Promise.all([
      typeof req.memory_id === "string" ? this.store.get(ctx.tenantId, ctx.subjectId, req.memory_id) : Promise.resolve(null),
      this.store.settings.forSubject(ctx.tenantId, ctx.subjectId),
    ]);
    return { record, claimed: this.lostVersions.get(req) ?? null, settings };
  }

  /** The policy's view of the target and of the version the caller expects; after a lost race the claimed version is gone. */
  targeted(req: { memory_id?: string | null; expected_version?: number | null }, g: Target | undefined) {
    const claimed = g?.claimed ?? null;
    const found = targetOf(g?.record ?? null);
    return {
      item: { memory_id: req.memory_id ?? null, expected_version: req.expected_version ?? claimed },
      target: claimed === null ? found : { ...found, version: Math.max(Number(found.version ?? 0), claimed + 1) },
    };
  }
}
