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
});
