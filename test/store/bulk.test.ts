import { MongoClient, type CommandStartedEvent, type Db } from "mongodb";
import { bulkWriteChunked, STATEMENTS_PER_COMMAND } from "../../src/store/bulk";
import { freshDatabase } from "../support/database";

interface Doc {
  _id: string;
  n: number;
}

/**
 * FerretDB 1.24 on SQLite never answers an `update` command of 100 or more single-document
 * statements (each holds one of its 100 pool connections until the command ends), upstream and
 * patched alike: memgate sends at most STATEMENTS_PER_COMMAND per command (src/store/bulk.ts).
 */
describe("bulk writes in chunks (src/store/bulk.ts)", () => {
  let client: MongoClient;
  let db: Db;
  const updates: CommandStartedEvent[] = [];
  beforeAll(async () => {
    ({ client, db } = await freshDatabase({ monitorCommands: true }));
    client.on("commandStarted", (event) => event.commandName === "update" && updates.push(event));
    await db.collection<Doc>("docs").insertMany(Array.from({ length: 250 }, (_, n) => ({ _id: `d${n}`, n })));
  });
  afterAll(() => client.close());

  it("INV-8: 250 replacements by `_id` are all written, in update commands of at most 50 statements", async () => {
    const ops = Array.from({ length: 250 }, (_, n) => ({ replaceOne: { filter: { _id: `d${n}` }, replacement: { n: -n } } }));
    await bulkWriteChunked(db.collection<Doc>("docs"), ops);
    const docs = await db.collection<Doc>("docs").find({}).toArray();
    expect(docs.filter((d) => d.n === -Number(d._id.slice(1)))).toHaveLength(250);
    expect(updates.map((u) => (u.command.updates as unknown[]).length)).toEqual([50, 50, 50, 50, 50]);
    expect(STATEMENTS_PER_COMMAND).toBeLessThan(100);
  });
});
