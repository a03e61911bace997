import { MongoClient, type Db, type IndexDescription } from "mongodb";

/** The store layer's own collections; each contract names its own beside its store (src/contracts/<name>/). */
export const COLLECTIONS = {
  events: "memory_events",
  chainHeads: "chain_heads",
  idempotency: "idempotency_keys",
} as const;

/**
 * A unique `_id` (or unique index) already held: for one write, for a bulk write (its first
 * error), and for one document of a grouped insert (InsertQueue hands each its own error).
 * The database's unique keys are memgate's arbiter wherever processes race.
 */
export function isDuplicateKey(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 11000;
}

/** The database handle contract stores are built on; only the store layer looks inside it. */
export type Database = Db;
/** The connection a gateway owns (closed at stop). */
export type DatabaseClient = MongoClient;

/** Whether the database answers a ping within `timeoutMs` (readiness). */
export async function pingDatabase(db: Database, timeoutMs = 2_000): Promise<boolean> {
  return db
    .command({ ping: 1 }, { timeoutMS: timeoutMs })
    .then(() => true)
    .catch(() => false);
}

/**
 * Whether the driver can reach a server now, from its own monitoring (SDAM): false once every
 * server it knows is Unknown (its heartbeat or an operation failed on the network), true again
 * at the next successful heartbeat. A request then fails at once instead of waiting the whole
 * server selection timeout (20 s) for a database that is known to be gone, and again for its
 * refuse event.
 */
export class DatabaseReachability {
  private reachable = true;

  constructor(client: MongoClient) {
    client.on("topologyDescriptionChanged", (event) => {
      this.reachable = [...event.newDescription.servers.values()].some((server) => server.type !== "Unknown");
    });
  }

  get available(): boolean {
    return this.reachable;
  }
}

export async function connectDatabase(uri: string, dbName: string): Promise<{ client: MongoClient; db: Db; reachability: DatabaseReachability }> {
  const client = new MongoClient(uri, {
    // 20 s: a database busy with a burst (FerretDB on SQLite under a full test run) still counts as there.
    serverSelectionTimeoutMS: 20_000,
    // A lost database is found back within 2 s (the default, 10 s, while requests are refused at once).
    heartbeatFrequencyMS: 2_000,
    maxPoolSize: 50,
  });
  const reachability = new DatabaseReachability(client);
  await client.connect();
  return { client, db: client.db(dbName), reachability };
}

/**
 * The event log's read indexes (each contract's store declares its own: ContractStore.ensureIndexes).
 * Only worth creating where the database reads through them, as MongoDB does. FerretDB 1.24 does
 * not on either backend: on SQLite it pushes down only `_id` filters (and, patched, `_id: {$in}`)
 * and filters everything else in Go; on PostgreSQL it pushes field equality down as
 * `_jsonb->$1 @> $2`, which no btree index serves (pg_stat_user_indexes counts no scan of them).
 * Nothing relies on them for uniqueness: every unique index repeats what the deterministic `_id`
 * already enforces (src/store/ids.ts). The composition root decides (config.secondaryIndexes).
 */
export const INDEXES: Readonly<Record<string, readonly IndexDescription[]>> = {
  [COLLECTIONS.events]: [
    { key: { tenant_id: 1, seq: 1 }, name: "tenant_seq", unique: true },
    { key: { tenant_id: 1, subject_id: 1, timestamp: 1 }, name: "tenant_subject_timestamp" },
  ],
};

/**
 * Creates the indexes that are missing; run at every start, by every process. Only missing
 * ones are created, one per call: FerretDB 1.24 drops the connection when createIndexes
 * names indexes that exist already (a restart, a second process).
 */
export async function ensureIndexes(db: Db, indexes: Readonly<Record<string, readonly IndexDescription[]>> = INDEXES): Promise<void> {
  for (const [name, wanted] of Object.entries(indexes)) {
    const collection = db.collection(name);
    const existing = new Set(
      (
        await collection
          .listIndexes()
          .toArray()
          .catch(() => [] as { name?: string }[])
      ).map((index) => index.name),
    );
    for (const index of wanted) {
      if (!existing.has(index.name)) await collection.createIndexes([index]);
    }
  }
}
