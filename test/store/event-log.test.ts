import type { MongoClient, Db } from "mongodb";
import { ManualClock } from "../../src/clock";
import { ensureIndexes } from "../../src/store/database";
import { EventLog, GENESIS_HASH, SEQ_BATCH, eventHash, type EventDraft, type MemoryEvent } from "../../src/store/event-log";
import { eventDocId } from "../../src/store/ids";
import { freshDatabase } from "../support/database";

const draft = (tenant: string, n: number): EventDraft => ({
  tenant_id: tenant,
  subject_id: "s",
  event_type: "create",
  operation: "STORE",
  memory_id: `m${n}`,
  actor: { id: "a", roles: ["agent"], kind: "system" },
  stop_reason: "SUCCESS_STORED",
  decision_id: `d${n}`,
  policy_hash: "p",
  contract_version: "19.1.0",
  request_id: `r${n}`,
  content_digest: null,
  reason: null,
  metadata: { n },
});

function expectIntactChain(events: MemoryEvent[], count: number): void {
  expect(events.map((e) => e.seq)).toEqual(Array.from({ length: count }, (_, i) => i + 1));
  let prev = GENESIS_HASH;
  for (const event of events) {
    const { _id, hash, ...body } = event;
    expect(event.prev_hash).toBe(prev);
    expect(eventHash(body)).toBe(hash);
    prev = hash;
  }
}

describe("the memory_events chain", () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    ({ client, db } = await freshDatabase());
    await ensureIndexes(db);
  });
  afterAll(() => client.close());

  it("MP-LOG: concurrent appends of one writer get gap-free seqs and each event chains to the one before", async () => {
    const log = new EventLog(db, new ManualClock());
    const written = await Promise.all(Array.from({ length: 60 }, (_, i) => log.append(draft("solo", i))));
    expect(new Set(written.map((e) => e.seq)).size).toBe(60);
    expectIntactChain(await log.range("solo", 1, 1000), 60);
  });

  it("MP-LOG: two writers on one tenant (as two gateway processes) produce one chain with no fork and no gap", async () => {
    const clock = new ManualClock();
    const a = new EventLog(db, clock);
    const b = new EventLog(db, clock);
    const appends: Promise<MemoryEvent>[] = [];
    for (let i = 0; i < 40; i++) appends.push((i % 2 === 0 ? a : b).append(draft("shared", i)));
    const written = await Promise.all(appends);
    expect(new Set(written.map((e) => e.seq)).size).toBe(40);
    expect(new Set(written.map((e) => e.metadata.n)).size).toBe(40);
    expectIntactChain(await a.range("shared", 1, 1000), 40);
    expect(await b.head("shared")).toEqual({ seq: 40, hash: written.find((e) => e.seq === 40)!.hash });
  });

  it("MP-LOG: tenants have separate chains", async () => {
    const log = new EventLog(db, new ManualClock());
    await Promise.all([log.append(draft("t-one", 1)), log.append(draft("t-two", 1)), log.append(draft("t-one", 2))]);
    expect((await log.range("t-one", 1, 10)).map((e) => e.seq)).toEqual([1, 2]);
    expect((await log.range("t-two", 1, 10)).map((e) => e.seq)).toEqual([1]);
  });

  it("MP-LOG MP-BREAK: a tenant is listed among the chains as soon as its first event is answered (a policy change then reaches it)", async () => {
    const log = new EventLog(db, new ManualClock());
    const [first] = await Promise.all([log.append(draft("t-new", 1)), log.append(draft("t-new", 2))]);
    expect(first.seq).toBe(1);
    expect(await log.tenants()).toContain("t-new");
    // Another process sees it too: the head document is in the database, not only in this process.
    expect(await new EventLog(db, new ManualClock()).tenants()).toContain("t-new");
  });

  it("MP-LOG: events are read by exact ids in batches, answered from the index: bySeqs aligns them with their seqs, null where there is none", async () => {
    const log = new EventLog(db, new ManualClock());
    const written = await Promise.all(Array.from({ length: 5 }, (_, i) => log.append(draft("batch", i))));
    const bySeq = new Map(written.map((e) => [e.seq, e.hash]));
    const read = await log.bySeqs("batch", [4, 9, 1, 5]);
    expect(read.map((e) => e && [e.seq, e.hash])).toEqual([[4, bySeq.get(4)], null, [1, bySeq.get(1)], [5, bySeq.get(5)]]);
    expect(await log.bySeqs("other-tenant", [1, 2])).toEqual([null, null]);
    await expect(
      log.bySeqs(
        "batch",
        Array.from({ length: SEQ_BATCH + 1 }, (_, i) => i + 1),
      ),
    ).rejects.toThrow(RangeError);
    // The embedded FerretDB, as scripts/bootstrap.sh patches it (memgate.3), pushes `_id` and `_id $in` down to its index.
    const explain = async (filter: Record<string, unknown>) =>
      ((await db.command({ explain: { find: "memory_events", filter } })) as { filterPushdown?: boolean }).filterPushdown;
    // Upstream FerretDB (MEMGATE_FERRETDB_PATCHES=none) pushes down only a lone `_id`: same answers, by scans.
    const patched = process.env.MEMGATE_FERRETDB_PATCHES !== "none";
    const ids = [eventDocId("batch", 1), eventDocId("batch", 2)];
    expect(await explain({ _id: ids[0] })).toBe(true);
    expect(await explain({ _id: { $in: ids } })).toBe(patched);
    expect(await explain({ _id: { $in: ids }, tenant_id: "batch" })).toBe(patched);
    // memgate.7: a string `_id` range alone is read from an index on the `_id` as text (a page of a walk over a tenant's prefix).
    expect(await explain({ _id: { $gte: ids[0], $lte: ids[1] } })).toBe(patched);
    // With another field beside it the range is not patch 7's case on SQLite; FerretDB's PostgreSQL backend pushes a field equality down itself.
    if (!process.env.MEMGATE_FERRETDB_POSTGRESQL_URL) expect(await explain({ _id: { $gte: ids[0], $lte: ids[1] }, tenant_id: "batch" })).toBe(false);
  });
});
