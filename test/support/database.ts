import type { Db } from "mongodb";

/** Every document of every collection of a database, as JSON text: for "is it anywhere?" checks. */
export async function dumpDatabase(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const { name } of await db.listCollections().toArray()) {
    const docs = await db.collection(name).find({}).toArray();
    parts.push(`${name}: ${JSON.stringify(docs)}`);
  }
  return parts.join("\n");
}
