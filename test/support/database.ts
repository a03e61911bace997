import type { Db } from "mongodb";

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
