import type { CommandStartedEvent, Db, MongoClient } from "mongodb";
import { ID_LIST_PAGE, ID_LISTS, IdLists, type IdListRef } from "../../src/store/id-lists";
import { freshDatabase } from "../support/database";

const ref = (tenantId: string, scope = "s1", list = "items"): IdListRef => ({ collection: "memories", tenantId, scope, list });

/** `_id`-addressed member lists (src/store/id-lists.ts) on the real FerretDB. */
describe("IdLists (SG-LOAD, SG-ISO)", () => {
  let client: MongoClient;
  let db: Db;
  const commands: CommandStartedEvent[] = [];
  beforeAll(async () => {
    ({ client, db } = await freshDatabase({ monitorCommands: true }));
    client.on("commandStarted", (event) => commands.push(event));
  });
  afterAll(() => client.close());
  beforeEach(() => commands.splice(0));

  it("keeps every entry once, in order, across buckets, and reads them by `_id` only", async () => {
    const lists = new IdLists(db);
    const all = Array.from({ length: ID_LIST_PAGE * 2 + 7 }, (_, n) => `m${String(n).padStart(5, "0")}`);
    for (const entry of all) await lists.add(ref("t1"), [entry]);
    await lists.add(ref("t1"), ["m00003"]); // again: a repair re-adding an entry
    await lists.add(ref("t2"), ["other"]);
    commands.splice(0);
    // A second process (no hints) reads the same list.
    const fresh = new IdLists(db);
    expect(await fresh.entries(ref("t1"))).toEqual(all);
    expect(await fresh.entries(ref("t2"))).toEqual(["other"]);
    const finds = commands.filter((c) => c.commandName === "find");
    expect(finds.length).toBeGreaterThan(0);
    for (const find of finds) {
      const filter = find.command.filter as { _id: unknown };
      expect(Object.keys(filter)).toEqual(["_id"]);
      const ids = typeof filter._id === "string" ? [filter._id] : (filter._id as { $in: string[] }).$in;
      expect(Array.isArray(ids)).toBe(true);
      for (const id of ids) expect(id.startsWith("idl:memories:t")).toBe(true);
    }
    // Two pages written, then 8 open slots (the repeated entry took one): one query of the head, one of pages and open slots.
    expect(await db.collection(ID_LISTS).countDocuments({ _id: { $in: ["idl:memories:t1:s1:items:p0", "idl:memories:t1:s1:items:p1"] } as never })).toBe(2);
    expect(finds).toHaveLength(4); // t1: head, then pages and slots; t2: the same
  });

  it("two writers with stale hints still place every entry (a taken slot answers duplicate key, the next is tried)", async () => {
    const a = new IdLists(db);
    const b = new IdLists(db);
    await a.add(ref("race"), ["first"]);
    await b.add(ref("race"), ["second"]);
    const many = Array.from({ length: ID_LIST_PAGE * 2 + 3 }, (_, n) => `x${n}`);
    await Promise.all(many.map((entry, n) => (n % 2 === 0 ? a : b).add(ref("race"), [entry])));
    expect((await new IdLists(db).entries(ref("race"))).sort()).toEqual(["first", "second", ...many].sort());
  });

  it("reads several lists together: one query of their pages and slots, and one of the heads this process has no hint for", async () => {
    const lists = new IdLists(db);
    await lists.add(ref("multi", "a"), ["1"]);
    await lists.add(ref("multi", "b"), ["2", "3"]);
    commands.splice(0);
    expect(await lists.entriesOf([ref("multi", "a"), ref("multi", "b"), ref("multi", "none")])).toEqual([["1"], ["2", "3"], []]);
    expect(commands.filter((c) => c.commandName === "find")).toHaveLength(2);
  });

  it("adds without reading: a new list's first slot, and concurrent adds in one grouped insert (SG-LOAD, issue 26 §5)", async () => {
    const lists = new IdLists(db);
    await lists.add(ref("quiet", "a"), ["first"]);
    await Promise.all(Array.from({ length: 20 }, (_, n) => lists.add(ref("quiet", `s${n}`), [`e${n}`])));
    await Promise.all(Array.from({ length: 10 }, (_, n) => lists.add(ref("quiet", "a"), [`more${n}`])));
    expect(commands.filter((c) => c.commandName === "find")).toHaveLength(0);
    // One insert for the first add, then one (or a few, as the queue drains) for each burst of concurrent adds.
    expect(commands.filter((c) => c.commandName === "insert").length).toBeLessThanOrEqual(5);
    expect(await new IdLists(db).entries(ref("quiet", "a"))).toEqual(["first", ...Array.from({ length: 10 }, (_, n) => `more${n}`)]);
  });

  it("a second process's hint goes stale: its slot answers duplicate key, it reads the list's end once and appends after it", async () => {
    const a = new IdLists(db);
    const b = new IdLists(db);
    const long = Array.from({ length: ID_LIST_PAGE * 3 + 5 }, (_, n) => `a${n}`);
    for (const entry of long.slice(0, 2)) await a.add(ref("stale"), [entry]);
    await b.add(ref("stale"), ["b0"]); // cold: slot 0 taken, the end is read, slot 2 taken
    for (const entry of long.slice(2)) await a.add(ref("stale"), [entry]); // a moves three pages on (a's own hint follows)
    commands.splice(0);
    await b.add(ref("stale"), ["b1"]);
    // b's hint (slot 3) is taken: one failed insert, the end read by head + open page (the head jumps three pages), one insert.
    expect(commands.filter((c) => c.commandName === "find")).toHaveLength(2);
    expect(commands.filter((c) => c.commandName === "insert")).toHaveLength(2);
    const all = await new IdLists(db).entries(ref("stale"));
    expect(all.sort()).toEqual([...long, "b0", "b1"].sort());
    expect(all).toHaveLength(long.length + 2);
  });
});
