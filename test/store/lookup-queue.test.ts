import { MongoClient, type CommandStartedEvent, type Db } from "mongodb";
import { LookupQueue } from "../../src/store/lookup-queue";
import { freshDatabase } from "../support/database";

interface Doc {
  _id: string;
  n: number;
  at: Date;
}

/** Grouped `_id` lookups (src/store/lookup-queue.ts) on the real FerretDB: fewer queries, the same answers. */
describe("LookupQueue", () => {
  let client: MongoClient;
  let db: Db;
  const finds: CommandStartedEvent[] = [];
  beforeAll(async () => {
    ({ client, db } = await freshDatabase({ monitorCommands: true }));
    client.on("commandStarted", (event) => event.commandName === "find" && finds.push(event));
    await db.collection<Doc>("docs").insertMany(Array.from({ length: 300 }, (_, n) => ({ _id: `d${n}`, n, at: new Date(1_700_000_000_000 + n) })));
  });
  afterAll(() => client.close());
  beforeEach(() => finds.splice(0));

  it("answers each caller with its own document, or null, as findOne does", async () => {
    const queue = new LookupQueue(db.collection<Doc>("docs"));
    const ids = ["d5", "missing", "d299", "d0", "d17"];
    const got = await Promise.all(ids.map((id) => queue.get(id)));
    const alone = await Promise.all(ids.map((id) => db.collection<Doc>("docs").findOne({ _id: id })));
    expect(got).toEqual(alone);
    expect(got[0]?.at).toBeInstanceOf(Date);
  });

  it("asks the lookups of one tick in one query, at most 100 ids each, and those asked meanwhile in the next", async () => {
    const queue = new LookupQueue(db.collection<Doc>("docs"), {}, 1);
    const first = await Promise.all(Array.from({ length: 250 }, (_, n) => queue.get(`d${n}`)));
    expect(first.map((doc) => doc?.n)).toEqual(Array.from({ length: 250 }, (_, n) => n));
    // 250 ids in one tick: queries of 100, 100 and 50.
    expect(finds.map((f) => (f.command.filter as { _id: { $in: string[] } })._id.$in.length)).toEqual([100, 100, 50]);

    finds.splice(0);
    const early = queue.get("d1");
    // Asked while the first query is in flight: the two go together in the next one.
    await Promise.resolve();
    await Promise.resolve();
    const late = [queue.get("d2"), queue.get("d3")];
    expect((await Promise.all([early, ...late])).map((doc) => doc?.n)).toEqual([1, 2, 3]);
    expect(finds).toHaveLength(2);
  });

  it("gives two callers of one id two copies, so one changing its document does not change the other's", async () => {
    const queue = new LookupQueue(db.collection<Doc>("docs"));
    const [a, b] = await Promise.all([queue.get("d7"), queue.get("d7")]);
    expect(a).toEqual(b);
    a!.n = -1;
    expect(b!.n).toBe(7);
    expect(finds).toHaveLength(1);
  });

  it("fails every caller of a query that failed (each request then fails closed)", async () => {
    const other = await MongoClient.connect(process.env.MEMGATE_TEST_MONGODB_URI!);
    const queue = new LookupQueue(other.db(db.databaseName).collection<Doc>("docs"));
    await other.close();
    const results = await Promise.allSettled([queue.get("d1"), queue.get("d2")]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
  });
});
