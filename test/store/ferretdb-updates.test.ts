import type { MongoClient, Db } from "mongodb";
import { freshDatabase } from "../support/database";

interface Counter {
  _id: string;
  n: number;
  tag?: string;
}

/**
 * The embedded FerretDB as scripts/bootstrap.sh patches it (memgate.4): an update command whose
 * statements each target one document by a distinct `_id` writes them in one transaction after
 * its last statement. Answers stay those of MongoDB: every statement applies, statements that
 * name one document twice still see each other, and a failing statement leaves those before it.
 */
describe("FerretDB update commands (memgate.4 patch)", () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    ({ client, db } = await freshDatabase());
  });
  afterAll(() => client.close());

  const counters = async (name: string, n: number) => {
    const c = db.collection<Counter>(name);
    await c.insertMany(Array.from({ length: n }, (_, i) => ({ _id: `c${i}`, n: 0 })));
    return c;
  };

  it("C19-CAP: statements on distinct _ids, filtered and upserting as the quota counters are, each apply once", async () => {
    const c = await counters("distinct", 20);
    const result = await c.bulkWrite(
      [
        ...Array.from({ length: 20 }, (_, i) => ({ updateOne: { filter: { _id: `c${i}`, n: { $lt: 1 } }, update: { $inc: { n: i + 1 } }, upsert: true } })),
        { updateOne: { filter: { _id: "new" }, update: { $inc: { n: 7 } }, upsert: true } },
      ],
      { ordered: false },
    );
    expect([result.matchedCount, result.modifiedCount, result.upsertedCount]).toEqual([20, 20, 1]);
    const docs = await c.find({}).toArray();
    expect(Object.fromEntries(docs.map((d) => [d._id, d.n]))).toEqual({
      ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`c${i}`, i + 1])),
      new: 7,
    });
  });

  it("statements that name one _id twice see each other's changes", async () => {
    const c = await counters("repeated", 2);
    await c.bulkWrite([
      { updateOne: { filter: { _id: "c0" }, update: { $inc: { n: 1 } } } },
      { updateOne: { filter: { _id: "c1" }, update: { $inc: { n: 5 } } } },
      { updateOne: { filter: { _id: "c0", n: 1 }, update: { $set: { tag: "saw-1" }, $inc: { n: 1 } } } },
    ]);
    expect(await c.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: "c0", n: 2, tag: "saw-1" },
      { _id: "c1", n: 5 },
    ]);
  });

  it("a statement that fails leaves the statements before it written", async () => {
    const c = await counters("failing", 3);
    await c.updateOne({ _id: "c1" }, { $set: { tag: "text" } });
    await expect(
      c.bulkWrite([
        { updateOne: { filter: { _id: "c0" }, update: { $inc: { n: 1 } } } },
        // $inc of a string field: MongoDB and FerretDB refuse the statement.
        { updateOne: { filter: { _id: "c1" }, update: { $inc: { tag: 1 } as Record<string, number> } } },
        { updateOne: { filter: { _id: "c2" }, update: { $inc: { n: 1 } } } },
      ]),
    ).rejects.toThrow();
    expect((await c.findOne({ _id: "c0" }))?.n).toBe(1);
    expect((await c.findOne({ _id: "c1" }))?.tag).toBe("text");
  });
});
