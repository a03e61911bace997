import { MongoClient, type Document } from "mongodb";
import { GovernedStore } from "../../src/contracts/governed/store";
import { ID_LISTS } from "../../src/store/id-lists";
import { createLogger } from "../../src/logger";
import { newDatabaseName } from "../support/database";

/** Every stage of a query plan, depth first. */
function stages(plan: Document | undefined): string[] {
  if (!plan) return [];
  return [String(plan.stage), ...stages(plan.inputStage as Document | undefined), ...((plan.inputStages as Document[] | undefined) ?? []).flatMap(stages)];
}

const uri = process.env.MONGODB_URI;

/**
 * On MongoDB (production), the reads that are `_id`-addressed use the `_id` index, and the
 * compound tenant/subject indexes the stores declare exist and serve a tenant/subject query
 * (issue 26 item 1). Runs only when MONGODB_URI names a MongoDB; FerretDB's explain says
 * nothing about index use.
 */
(uri ? describe : describe.skip)("MongoDB explain (MONGODB_URI set)", () => {
  let client: MongoClient;
  beforeAll(async () => {
    client = await MongoClient.connect(uri!);
  });
  afterAll(() => client?.close());

  it("SG-LOAD: id-list and item reads by `_id` `$in` use the `_id` index; the governed compound index serves a tenant/subject list", async () => {
    const db = client.db(newDatabaseName());
    const store = new GovernedStore(db, createLogger("silent"));
    await store.ensureIndexes();
    await db
      .collection(ID_LISTS)
      .insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `idl:memories:t:s:items:${n}`, tenant_id: "t", entries: [`e${n}`] })) as never[]);
    const byId = await db
      .collection(ID_LISTS)
      .find({ _id: { $in: ["idl:memories:t:s:items:1", "idl:memories:t:s:items:2"] } } as never)
      .explain("queryPlanner");
    expect(stages(byId.queryPlanner.winningPlan)).not.toContain("COLLSCAN");
    const list = await db.collection("memories").find({ tenant_id: "t", subject_id: "s", status: "active" }).sort({ created_at: -1 }).explain("queryPlanner");
    expect(stages(list.queryPlanner.winningPlan)).toContain("IXSCAN");
    await db.dropDatabase();
    store.settings.close();
  });
});
