import { randomBytes } from "node:crypto";
import { MongoClient, type Db } from "mongodb";

/**
 * Process bookkeeping that moves on its own (each gateway's heartbeat in the settings epoch):
 * not data, so "nothing changed" comparisons leave it out. It holds no content.
 */
const PROCESS_BOOKKEEPING = new Set(["memory_settings_epoch"]);

/** Every document of every data collection of a database, as JSON text: for "is it anywhere?" and "nothing changed" checks. */
export async function dumpDatabase(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    if (PROCESS_BOOKKEEPING.has(name)) continue;
    const docs = await db.collection(name).find({}).toArray();
    parts.push(`${name}: ${JSON.stringify(docs)}`);
  }
  return parts.join("\n");
}

/** A database name no other test uses. */
export const newDatabaseName = (): string => `t_${randomBytes(6).toString("hex")}`;

/** A client of the suite's FerretDB (jest's globalSetup) and a database of its own; `monitorCommands` turns on the driver's command events. */
export async function freshDatabase(options: { monitorCommands?: boolean } = {}): Promise<{ client: MongoClient; db: Db }> {
  const url = new URL(process.env.MEMGATE_TEST_MONGODB_URI!);
  if (options.monitorCommands) url.searchParams.set("monitorCommands", "true");
  const client = await MongoClient.connect(url.toString());
  return { client, db: client.db(newDatabaseName()) };
}
