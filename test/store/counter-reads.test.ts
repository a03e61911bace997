import { Collection, MongoNetworkError, type Db, type MongoClient } from "mongodb";
import { CounterStore } from "../../src/contracts/governed/store-counters";
import { createLogger } from "../../src/logger";
import { freshDatabase } from "../support/database";

describe("quota counter reads (C19-CAP)", () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => ({ client, db } = await freshDatabase()));
  afterAll(() => client.close());

  const window = CounterStore.windowStart(Date.parse("2026-06-01T10:00:00Z"), 3600);
  const one = { items: 1, writes: 1, windowStart: window };

  it("C19-CAP: a read answered from before an increment's write, arriving after its acknowledgement, still counts the increment", async () => {
    const counters = new CounterStore(db, createLogger("silent"));
    await counters.add("acme", "alice", one);
    // What the database holds before the second write: the answer a find sent earlier can carry.
    const before = await db
      .collection("memory_counters")
      .find({ _id: CounterStore.docId("acme", "alice") as never })
      .toArray();
    const written = counters.add("acme", "alice", one);
    const find = jest.spyOn(Collection.prototype, "find").mockImplementationOnce(
      () =>
        ({
          toArray: async () => {
            await written;
            return before;
          },
        }) as never,
    );
    try {
      expect((await counters.read("acme", "alice", window)).counts).toEqual({ items: 2, writes_in_window: 2 });
    } finally {
      find.mockRestore();
    }
    // Once no read is in flight, a read answered after the write counts it once.
    expect((await counters.read("acme", "alice", window)).counts).toEqual({ items: 2, writes_in_window: 2 });
  });

  it("C19-CAP C19-FAIL: an increment whose writes fail while the database restarts (six tries, five seconds) is written once it is back, not given up", async () => {
    const counters = new CounterStore(db, createLogger("silent"));
    const bulkWrite = Collection.prototype.bulkWrite;
    let failures = 0;
    const spy = jest.spyOn(Collection.prototype, "bulkWrite").mockImplementation(async function (this: Collection, ops, options) {
      if (this.collectionName === "memory_counters" && failures < 6) {
        failures += 1;
        throw new MongoNetworkError("connection refused while the database restarts");
      }
      return bulkWrite.call(this, ops, options);
    } as typeof bulkWrite);
    try {
      await counters.add("acme", "restarting", one);
    } finally {
      spy.mockRestore();
    }
    expect(failures).toBe(6);
    // Another process's read (none of this one's pending increments): the document holds it.
    const other = new CounterStore(db, createLogger("silent"));
    expect((await other.read("acme", "restarting", window)).counts).toEqual({ items: 1, writes_in_window: 1 });
  }, 30_000);
});
