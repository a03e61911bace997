import type { CommandStartedEvent } from "mongodb";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { COMPANION, GOVERNED, LEDGER, fact, preference, proposal } from "../kernel/support";
import { postMemory, readDoc, writeDoc } from "../agent/support";

/** No timer fires during the test: the repair runs at start only. */
const QUIET = {
  MEMGATE_REPAIR_INTERVAL_MS: "3600000",
  MEMGATE_CHECKPOINT_INTERVAL_S: "0",
  MEMGATE_CHECKPOINT_EVERY: "0",
  MEMGATE_INTEGRITY_REFRESH_MS: "600000",
};

/**
 * Collections that hold only what is in flight (due marks), per-process bookkeeping (the
 * settings epoch) or one document per tenant read by `_id`: a filter on them is no scan of
 * other tenants' data. Everything else must be read by `_id` (equality or `$in` of exact ids).
 */
const SMALL = new Set(["memory_due_events", "agent_due_events", "companion_due_events", "ledger_due_events", "memory_settings_epoch"]);

/**
 * Background work that may run during the requests and is not theirs: the checkpointer's read
 * of the tenant's checkpoints (an `_id` range of the tenant's own checkpoints, owned by the
 * log's checkpointer, src/store/log/checkpoints.ts).
 */
const BACKGROUND = new Set(["audit_checkpoints"]);

/** Whether a command's filter addresses documents by exact `_id`s only (what FerretDB answers from its primary key). */
function idAddressed(filter: unknown): boolean {
  if (!filter || typeof filter !== "object") return false;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== "_id") return false;
  const id = (filter as { _id: unknown })._id;
  if (typeof id === "string") return true;
  if (!id || typeof id !== "object") return false;
  const ops = Object.keys(id);
  return ops.length === 1 && ops[0] === "$in" && (id as { $in: unknown[] }).$in.every((v) => typeof v === "string");
}

/** The filters of a command that reads or changes documents (find, update, delete, count), with its collection. */
function filtersOf(e: CommandStartedEvent): { collection: string; filter: unknown }[] {
  const collection = String(e.command[e.commandName]);
  switch (e.commandName) {
    case "find":
    case "count":
      return [{ collection, filter: e.command.filter ?? e.command.query ?? {} }];
    case "update":
      return (e.command.updates as { q: unknown }[]).map((u) => ({ collection, filter: u.q }));
    case "delete":
      return (e.command.deletes as { q: unknown }[]).map((d) => ({ collection, filter: d.q }));
    case "aggregate":
      return [{ collection, filter: e.command.pipeline }];
    default:
      return [];
  }
}

/**
 * SG-LOAD SG-ISO IF1-READ (issue 26 item 1): every request-path read of a small tenant, on a
 * gateway that has served nothing yet (cold caches), is `_id`-addressed, with another tenant's
 * data in every collection: what it costs cannot depend on the other tenant's data. A test of
 * the commands' shape, not of time.
 */
describe("SG-LOAD SG-ISO: a small tenant's reads are `_id`-addressed whatever else the database holds", () => {
  const clock = new ManualClock("2026-07-01T08:00:00.000Z");
  let writer: TestGateway;
  let reader: TestGateway;
  let seen: CommandStartedEvent[] = [];

  const tokens = async (gw: TestGateway, tenant: string) => ({
    agent: await gw.token({ tenant, subjects: ["alice", "repo:app"], roles: ["agent"] }),
    adapter: await gw.token({ tenant, subjects: ["alice"], roles: ["adapter"] }),
    alice: await gw.token({ tenant, sub: "alice", subjects: ["alice"], roles: ["user"] }),
  });

  /** The same writes in each tenant: governed items, agent memories, companion facts, ledger proposals and an approved item. */
  async function populate(tenant: string, n: number): Promise<void> {
    const t = await tokens(writer, tenant);
    for (let i = 0; i < n; i++) {
      expect((await writer.gql(t.agent, GOVERNED.STORE, { input: preference({ key: `k${i}`, value: `value ${i}` }) })).data!.storeMemory.stopReason).toBe(
        "SUCCESS_STORED",
      );
      expect((await postMemory(writer, t.agent, writeDoc("app", { text: `the build uses tool number ${i}` }))).status).toBe(200);
      await writer.gql(t.adapter, COMPANION.ADD, { input: fact({ text: `User likes topic number ${i}` }) });
      await writer.gql(t.agent, LEDGER.PROPOSE, { input: proposal({ proposedText: `I want to learn skill ${i}` }) });
    }
    const pending = await writer.gql(t.alice, LEDGER.PENDING, {});
    const first = pending.data!.pendingProposals.proposals[0].proposalId as string;
    expect((await writer.gql(t.alice, LEDGER.APPROVE, { id: first, text: "I want to learn a skill" })).data!.approveProposal.stopReason).toBe("SUCCESS_STORED");
  }

  beforeAll(async () => {
    writer = await startTestGateway({ clock, env: QUIET });
    await populate("large", 12);
    await populate("small", 3);
    await writer.gateway.idle();
    const uri = new URL(process.env.MEMGATE_TEST_MONGODB_URI!);
    uri.searchParams.set("monitorCommands", "true");
    reader = await startTestGateway({ clock, env: QUIET, dbName: writer.dbName, mongodbUri: uri.toString() });
    // The start-up re-audit walk (a background pass over `_id` ranges, src/jobs/reaudit.ts) is done before the requests.
    await reader.gateway.services.reaudit?.idle();
    reader.gateway.db.client.on("commandStarted", (e: CommandStartedEvent) => seen.push(e));
  }, 240_000);
  afterAll(async () => {
    await reader?.stop();
    await writer?.stop();
  });

  it("governed LIST and READ, ledger pending and active lists, companion envelope, agent targeted read (a cold index build): `_id` only", async () => {
    const t = await tokens(reader, "small");
    seen = [];
    const list = await reader.gql(t.agent, GOVERNED.LIST, {});
    expect(list.data!.memories.memories).toHaveLength(3);
    const id = list.data!.memories.memories[0].memoryId as string;
    expect((await reader.gql(t.agent, GOVERNED.READ, { id })).data!.memory.stopReason).toBe("SUCCESS_READ");
    expect((await reader.gql(t.alice, LEDGER.PENDING, {})).data!.pendingProposals.proposals).toHaveLength(2);
    expect((await reader.gql(t.alice, LEDGER.LEDGER, {})).data!.ledger.items).toHaveLength(1);
    const envelope = await reader.gql(t.adapter, COMPANION.ENVELOPE, { skip: true });
    expect(envelope.data!.memoryEnvelope.stopReason).toBe("SUCCESS_READ");
    const read = await postMemory(reader, t.agent, readDoc("app", "which tool does the build use"));
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain("tool number");

    const reads = seen.flatMap(filtersOf).filter((f) => !SMALL.has(f.collection) && !BACKGROUND.has(f.collection));
    expect(reads.length).toBeGreaterThan(10);
    const scans = reads.filter((f) => !idAddressed(f.filter)).map((f) => `${f.collection} ${JSON.stringify(f.filter)}`);
    expect(scans).toEqual([]);
    // Every `_id` names the small tenant: no other tenant's document is asked for.
    const ids = reads.flatMap((f) => {
      const id = (f.filter as { _id: string | { $in: string[] } })._id;
      return typeof id === "string" ? [id] : id.$in;
    });
    expect(ids.filter((i) => !i.includes("small"))).toEqual([]);
  });
});
