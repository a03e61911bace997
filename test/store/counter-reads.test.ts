import { Collection, type Db, type MongoClient } from "mongodb";
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
});
