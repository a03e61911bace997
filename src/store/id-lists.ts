import type { Collection } from "mongodb";
import { isDuplicateKey, type Database } from "./database";
import { InsertQueue } from "./insert-queue";

/** The collection of every list document (one collection, so a new list costs no new collection). */
export const ID_LISTS = "id_lists";

/** Slots per page: a list of 10,000 entries written one at a time is 78 pages and at most 128 open slots. */
export const ID_LIST_PAGE = 128;

/** One list: the members of a (collection, tenant, scope, list), e.g. a subject's governed items. */
export interface IdListRef {
  collection: string;
  tenantId: string;
  /** What the list is of inside the tenant: a subject id, or "*" for the whole tenant. */
  scope: string;
  list: string;
}

interface ListDoc {
  _id: string;
  tenant_id: string;
  /** A slot or a page: its entries. */
  entries?: string[];
  /** The head: how many pages are written (a hint). */
  pages?: number;
}

const part = (value: string): string => encodeURIComponent(value);

/** Taken slots in a row before an add gives up (each sends the writer to read the list's end again). */
const MAX_TAKEN = 64;

/**
 * Lists of member ids kept beside the objects, so that every list read is `_id`-addressed:
 * FerretDB 1.24 on SQLite answers `_id` equality and `_id: {$in}` from its primary key, and
 * scans the whole collection (every tenant) for any other filter, range or sort.
 *
 * Every document is written once and never updated, because FerretDB's updates are
 * read-modify-write (two concurrent `$addToSet`s on one document lose one; measured) and
 * MongoDB without transactions is the target: the unique `_id` is the only arbiter. An `add`
 * inserts a slot `<key>:<n>` (n dense) at the end this process knows, without reading: a slot
 * another process took answers duplicate key, and the writer reads where the list ends now
 * and takes the next. The writer of a page's last slot (or the first reader to find the page
 * full) inserts the page `<key>:p<p>`, the union of its ID_LIST_PAGE slots, and raises the
 * head's page count (a hint: a stale one costs one more round trip). A read is one `$in` of
 * the written pages and the open page's slots (a second for the head when this process has no
 * hint), whatever else the database holds.
 *
 * Without transactions an entry and its object are two writes, made together once the object's
 * due mark is in, so a reader may meet an entry whose object is missing (not yet written, or
 * a write undone), superseded, deleted or erased, and keeps only the objects that qualify. An
 * object without its entry is left only by a process that stopped between the two writes
 * while the object's due mark is still there: the repair, which settles every due mark, adds
 * the entry again (readers read each entry once).
 */
export class IdLists {
  private readonly docs: Collection<ListDoc>;
  /** Slot and page inserts of concurrent requests, one `insertMany` between them (each caller gets its own outcome). */
  private readonly inserts: InsertQueue<ListDoc>;
  /**
   * Per list, the next slot this process would take: the list's end as this process knows it
   * (what it appended, or read). Insert-only documents make it safe to extend without reading:
   * a slot some other process took since answers duplicate key, and only then is the end read.
   */
  private readonly next = new Map<string, number>();

  constructor(db: Database) {
    this.docs = db.collection<ListDoc>(ID_LISTS);
    this.inserts = new InsertQueue(this.docs);
  }

  static key(ref: IdListRef): string {
    return `idl:${part(ref.collection)}:${part(ref.tenantId)}:${part(ref.scope)}:${part(ref.list)}`;
  }

  /**
   * Adds entries as one slot (an entry added twice is read once). No read on the way: the slot
   * after the list's end as this process knows it (slot 0 for a list it has not seen, which is
   * free when the list is new) is inserted, grouped with concurrent adds. Another gateway (or
   * this one before a restart) having appended since answers duplicate key: the list's end is
   * then read (its head, the open page and its slots: one query) and the next free slot taken.
   */
  async add(ref: IdListRef, entries: readonly string[]): Promise<void> {
    if (entries.length === 0) return;
    const key = IdLists.key(ref);
    for (let attempt = 0; ; attempt++) {
      const n = this.next.get(key) ?? 0;
      this.remember(key, n + 1); // concurrent adds of this process take the following slots
      try {
        await this.inserts.insert({ _id: `${key}:${n}`, tenant_id: ref.tenantId, entries: [...entries] });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        if (attempt >= MAX_TAKEN) throw new Error(`id list: ${attempt + 1} slots in a row were taken`, { cause: error });
        await this.findEnd(ref, key);
        continue;
      }
      if (n % ID_LIST_PAGE === ID_LIST_PAGE - 1) await this.writePage(ref, key, Math.floor(n / ID_LIST_PAGE));
      return;
    }
  }

  /**
   * Where the list ends now: one `$in` of its head, the page this process believes open and
   * that page's slots, then (only if others filled pages meanwhile) the pages after it. The
   * end is past the last slot found; this process's own adds in flight keep the hint above it.
   */
  private async findEnd(ref: IdListRef, key: string): Promise<void> {
    const openIds = (p: number): string[] => [`${key}:p${p}`, ...Array.from({ length: ID_LIST_PAGE }, (_, s) => `${key}:${p * ID_LIST_PAGE + s}`)];
    const byId = async (ids: string[]): Promise<Map<string, ListDoc>> =>
      new Map((await this.docs.find({ _id: { $in: ids } }).toArray()).map((doc) => [doc._id, doc]));
    let page = Math.floor((this.next.get(key) ?? 0) / ID_LIST_PAGE);
    let found = await byId([`${key}:head`, ...openIds(page)]);
    const headPages = found.get(`${key}:head`)?.pages ?? 0;
    if (headPages > page) {
      page = headPages;
      found = await byId(openIds(page));
    }
    for (let round = 0; ; round++) {
      if (round > 10_000) throw new Error("id list: no end found");
      const full = found.has(`${key}:${page * ID_LIST_PAGE + ID_LIST_PAGE - 1}`);
      if (!found.has(`${key}:p${page}`) && !full) break;
      if (!found.has(`${key}:p${page}`)) await this.writePage(ref, key, page, found);
      page++;
      found = await byId(openIds(page));
    }
    let end = page * ID_LIST_PAGE;
    for (let s = 0; s < ID_LIST_PAGE; s++) if (found.has(`${key}:${page * ID_LIST_PAGE + s}`)) end = page * ID_LIST_PAGE + s + 1;
    this.remember(key, end);
  }

  /** The entries of a list, oldest first, each once. */
  async entries(ref: IdListRef): Promise<string[]> {
    return (await this.read([ref]))[0];
  }

  /** The entries of several lists, read together. */
  async entriesOf(refs: readonly IdListRef[]): Promise<string[][]> {
    return this.read(refs);
  }

  private async read(refs: readonly IdListRef[]): Promise<string[][]> {
    const keys = refs.map(IdLists.key);
    const found = new Map<string, ListDoc>();
    const fetch = async (ids: string[]): Promise<void> => {
      for (let i = 0; i < ids.length; i += 1000) {
        for (const doc of await this.docs.find({ _id: { $in: ids.slice(i, i + 1000) } }).toArray()) found.set(doc._id, doc);
      }
    };
    // Where each list's open page is believed to be: this process's hint, else the head's.
    const unknown = keys.filter((key) => !this.next.has(key));
    if (unknown.length > 0) await fetch(unknown.map((key) => `${key}:head`));
    const open = keys.map((key) => (this.next.has(key) ? Math.floor(this.next.get(key)! / ID_LIST_PAGE) : (found.get(`${key}:head`)?.pages ?? 0)));
    const wanted = (i: number, from: number): string[] => [
      ...Array.from({ length: open[i] + 1 - from }, (_, p) => `${keys[i]}:p${from + p}`),
      ...Array.from({ length: ID_LIST_PAGE }, (_, s) => `${keys[i]}:${open[i] * ID_LIST_PAGE + s}`),
    ];
    await fetch(keys.flatMap((_, i) => wanted(i, 0)));
    // A page already written (another process moved on) or a full open page: look further.
    for (let round = 0; ; round++) {
      const further: string[] = [];
      for (let i = 0; i < keys.length; i++) {
        const full = found.has(`${keys[i]}:${open[i] * ID_LIST_PAGE + ID_LIST_PAGE - 1}`);
        if (!found.has(`${keys[i]}:p${open[i]}`) && !full) continue;
        if (!found.has(`${keys[i]}:p${open[i]}`)) await this.writePage(refs[i], keys[i], open[i], found);
        open[i]++;
        further.push(...wanted(i, open[i]));
      }
      if (further.length === 0) break;
      await fetch(further);
      if (round > 10_000) throw new Error("id list: no end found");
    }
    // A page without its document (a slot of it never written: its write failed, so its object was undone) is read as slots.
    const slotsOf = (key: string, p: number): string[] => Array.from({ length: ID_LIST_PAGE }, (_, s) => `${key}:${p * ID_LIST_PAGE + s}`);
    const gaps = keys.flatMap((key, i) =>
      Array.from({ length: open[i] }, (_, p) => p).flatMap((p) => (found.has(`${key}:p${p}`) ? [] : slotsOf(key, p).filter((id) => !found.has(id)))),
    );
    if (gaps.length > 0) await fetch(gaps);
    return keys.map((key, i) => {
      const out = new Set<string>();
      let end = open[i] * ID_LIST_PAGE;
      for (let p = 0; p <= open[i]; p++) {
        const page = p < open[i] ? found.get(`${key}:p${p}`) : undefined;
        if (page) {
          for (const entry of page.entries ?? []) out.add(entry);
          continue;
        }
        slotsOf(key, p).forEach((id, s) => {
          const slot = found.get(id);
          if (!slot) return;
          if (p === open[i]) end = p * ID_LIST_PAGE + s + 1;
          for (const entry of slot.entries ?? []) out.add(entry);
        });
      }
      this.remember(key, end);
      return [...out];
    });
  }

  /** Writes page `p` of a full run of slots (once: a duplicate key means another process did). */
  private async writePage(ref: IdListRef, key: string, p: number, known?: Map<string, ListDoc>): Promise<void> {
    const ids = Array.from({ length: ID_LIST_PAGE }, (_, s) => `${key}:${p * ID_LIST_PAGE + s}`);
    const slots = known && ids.every((id) => known.has(id)) ? ids.map((id) => known.get(id)!) : await this.docs.find({ _id: { $in: ids } }).toArray();
    const byId = new Map(slots.map((slot) => [slot._id, slot]));
    if (!ids.every((id) => byId.has(id))) return; // not full yet (a reader raced a writer): the next one writes it
    const entries = [...new Set(ids.flatMap((id) => byId.get(id)!.entries ?? []))];
    try {
      await this.inserts.insert({ _id: `${key}:p${p}`, tenant_id: ref.tenantId, entries });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    try {
      await this.docs.updateOne({ _id: `${key}:head` }, { $max: { pages: p + 1 }, $setOnInsert: { tenant_id: ref.tenantId } }, { upsert: true });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error; // two first pages at once: either head is a fine hint
    }
  }

  /** Bounded: the hints are dropped whole past 100,000 lists (a missing hint costs one read of the head). */
  private remember(key: string, next: number): void {
    if (this.next.size >= 100_000 && !this.next.has(key)) this.next.clear();
    if ((this.next.get(key) ?? -1) < next) this.next.set(key, next);
  }
}

/**
 * A list entry that sorts as "newest first" lists order objects: the creation time (fixed
 * width) and the URI-encoded object id (the `_id`s of one subject's objects share their prefix,
 * so the id orders them as `_id` does).
 */
export function timeEntry(createdAt: Date, objectId: string): string {
  return `${String(createdAt.getTime()).padStart(15, "0")}:${encodeURIComponent(objectId)}`;
}

/** The object id a timeEntry names. */
export function entryObjectId(entry: string): string {
  return decodeURIComponent(entry.slice(16));
}

/**
 * A "newest first, at most `limit`" page from a list's timeEntry entries: candidates in order,
 * fetched by `_id` in growing `$in` batches (`fetch` returns those that qualify: live, unexpired,
 * of the asked kind), until the page is full. What is read depends on this list only.
 */
export async function newestFirst<T>(
  entries: readonly string[],
  limit: number,
  fetch: (objectIds: string[]) => Promise<T[]>,
  order: (a: T, b: T) => number,
  before?: string,
): Promise<T[]> {
  const candidates = entries
    .filter((entry) => before === undefined || entry < before)
    .sort()
    .reverse();
  const found: T[] = [];
  for (let i = 0, batch = limit + 4; i < candidates.length && found.length < limit; i += batch, batch *= 2) {
    found.push(...(await fetch(candidates.slice(i, i + batch).map(entryObjectId))).sort(order));
  }
  return found.slice(0, limit);
}

/** "Newest first": created_at, then `_id`, both descending (the order of every list page). */
export function newestOrder(a: { created_at: Date; _id: string }, b: { created_at: Date; _id: string }): number {
  return b.created_at.getTime() - a.created_at.getTime() || (a._id < b._id ? 1 : a._id > b._id ? -1 : 0);
}
