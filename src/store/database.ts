import { MongoClient, type Db, type IndexDescription } from "mongodb";

export const COLLECTIONS = {
  memories: "memories",
  memoryVersions: "memory_versions",
  events: "memory_events",
  chainHeads: "chain_heads",
  memorySettings: "memory_settings",
  memoryCounters: "memory_counters",
  memoryClaims: "memory_claims",
  ledgerProposals: "ledger_proposals",
  ledgerItems: "ledger_items",
  agentMemories: "agent_memories",
  agentMemoryUpdates: "agent_memory_updates",
} as const;

export async function connectDatabase(uri: string, dbName: string): Promise<{ client: MongoClient; db: Db }> {
  const client = new MongoClient(uri, { serverSelectionTimeoutMS: 5_000, maxPoolSize: 50 });
  await client.connect();
  return { client, db: client.db(dbName) };
}

/**
 * Creates the indexes the read paths and the chain need; idempotent, run at every start.
 * FerretDB accepts and keeps them (its SQLite backend does not use them for queries);
 * on MongoDB they carry the production read paths and enforce uniqueness.
 */
export async function ensureIndexes(db: Db): Promise<void> {
  // FerretDB 2 drops the connection when one createIndexes call names several indexes that
  // all exist already (a second process, a restart): create them one at a time.
  const original = db.collection.bind(db);
  db = Object.create(db, {
    collection: {
      value: (name: string) => {
        const collection = original(name);
        return Object.assign(Object.create(collection), {
          createIndexes: async (specs: IndexDescription[]) => {
            for (const spec of specs) await collection.createIndexes([spec]);
          },
        });
      },
    },
  }) as Db;
  await db.collection(COLLECTIONS.memories).createIndexes([
    { key: { tenant_id: 1, subject_id: 1, memory_id: 1 }, name: "tenant_subject_memory", unique: true },
    { key: { tenant_id: 1, subject_id: 1, status: 1, created_at: -1 }, name: "tenant_subject_status_created" },
  ]);
  await db.collection(COLLECTIONS.memoryVersions).createIndexes([
    { key: { tenant_id: 1, subject_id: 1, memory_id: 1, version: 1 }, name: "tenant_subject_memory_version", unique: true },
  ]);
  await db.collection(COLLECTIONS.agentMemories).createIndexes([
    { key: { tenant_id: 1, space: 1, memory_id: 1 }, name: "tenant_space_memory", unique: true },
  ]);
  await db.collection(COLLECTIONS.agentMemoryUpdates).createIndexes([
    { key: { tenant_id: 1, memory_id: 1, created_at: 1 }, name: "tenant_memory_created" },
  ]);
  await db.collection(COLLECTIONS.events).createIndexes([
    { key: { tenant_id: 1, seq: 1 }, name: "tenant_seq", unique: true },
    { key: { tenant_id: 1, subject_id: 1, timestamp: 1 }, name: "tenant_subject_timestamp" },
  ]);
  await db.collection(COLLECTIONS.ledgerProposals).createIndexes([
    { key: { tenant_id: 1, subject_id: 1, decision: 1, created_at: -1 }, name: "tenant_subject_decision_created" },
  ]);
  await db.collection(COLLECTIONS.ledgerItems).createIndexes([
    { key: { tenant_id: 1, subject_id: 1, status: 1, created_at: -1 }, name: "tenant_subject_status_created" },
  ]);
}
