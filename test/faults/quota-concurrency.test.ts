import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason explanations memory { memoryId } } }`;
const SETTINGS = `mutation Settings($input: MemorySettingsInput!) { setMemorySettings(input: $input) { stopReason } }`;
const DELETE = `mutation Delete($id: ID!) { deleteMemory(memoryId: $id) { stopReason } }`;

describe("caps and quotas hold exactly under concurrency, across gateways (issue 15 §2, C19-CAP)", () => {
  const clock = new ManualClock("2026-06-01T10:00:00.000Z");
  let first: TestGateway;
  let second: TestGateway;
  let admin: string;

  beforeAll(async () => {
    // Admission is off: fifty writes of one principal at once would otherwise queue and get 429
    // (issue 22 §1); this test is about the cap, which must hold whatever admission lets through.
    const env = { MEMGATE_RATE_LIMIT_PER_S: "0" };
    first = await startTestGateway({ clock, env });
    second = await startTestGateway({ clock, env, dbName: first.dbName });
    admin = await first.token({ tenant: "capco", subjects: [], roles: ["admin"], sub: "admin-1" });
  });
  afterAll(async () => {
    await second.stop();
    await first.stop();
  });

  const tally = (answers: { stopReason: string }[]) =>
    answers.reduce<Record<string, number>>((acc, a) => ({ ...acc, [a.stopReason]: (acc[a.stopReason] ?? 0) + 1 }), {});

  it("C19-CAP: fifty concurrent stores on two gateways against an item cap of five store exactly five; a delete frees exactly one", async () => {
    expect((await first.gql(admin, SETTINGS, { input: { subjectId: "alice", maxItemsPerSubject: 5 } })).data?.setMemorySettings.stopReason).toBe(
      "SUCCESS_UPDATED",
    );
    const token = await first.token({ tenant: "capco", subjects: ["alice"], roles: ["agent"] });
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        (i % 2 ? second : first)
          .gql(token, STORE, { input: preference({ key: `k${i}` }) })
          .then((r) => r.data!.storeMemory as { stopReason: string; memory: { memoryId: string } | null }),
      ),
    );
    expect(tally(answers)).toEqual({ SUCCESS_STORED: 5, ENTITLEMENT_CAP: 45 });
    const db = first.gateway.db;
    expect(await db.collection("memories").countDocuments({ tenant_id: "capco", subject_id: "alice" })).toBe(5);
    expect(await db.collection("memory_events").countDocuments({ tenant_id: "capco", event_type: "create" })).toBe(5);

    const stored = answers.filter((a) => a.memory).map((a) => a.memory!.memoryId);
    expect((await first.gql(token, DELETE, { id: stored[0] })).data?.deleteMemory.stopReason).toBe("SUCCESS_DELETED");
    const again = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? second : first).gql(token, STORE, { input: preference({ key: `r${i}` }) })));
    expect(tally(again.map((r) => r.data!.storeMemory))).toEqual({ SUCCESS_STORED: 1, ENTITLEMENT_CAP: 9 });
  });

  it("C19-CAP D6: twenty concurrent stores against four writes per window write four; the next window (injected clock) writes again", async () => {
    await first.gql(admin, SETTINGS, { input: { subjectId: "bob", maxWritesPerWindow: 4 } });
    const token = await first.token({ tenant: "capco", subjects: ["bob"], roles: ["agent"] });
    const burst = () =>
      Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? second : first).gql(token, STORE, { input: preference({ key: `w${i}` }) }))).then((rs) =>
        tally(rs.map((r) => r.data!.storeMemory)),
      );
    expect(await burst()).toEqual({ SUCCESS_STORED: 4, ENTITLEMENT_CAP: 16 });
    clock.advance(24 * 3600 * 1000);
    expect(await burst()).toEqual({ SUCCESS_STORED: 4, ENTITLEMENT_CAP: 16 });
  });

  it("C19-CAP: the write slots of a past window go once a later write of the subject settles; the item slots stay", async () => {
    const token = await first.token({ tenant: "capco", subjects: ["carol"], roles: ["agent"] });
    const slots = () =>
      first.gateway.db
        .collection<{ _id: string }>("memory_slots")
        .find({ tenant_id: "capco", subject_id: "carol" })
        .toArray()
        .then((docs) => docs.map((d) => d._id.replace(/^capco:carol:/, "").replace(/^w\d+/, "w")).sort());
    const settled = () => Promise.all([first.gateway.idle(), second.gateway.idle()]);
    for (let i = 0; i < 3; i++)
      expect((await (i % 2 ? second : first).gql(token, STORE, { input: preference({ key: `c${i}` }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
    await settled();
    expect(await slots()).toEqual(["item:1", "item:2", "item:3", "w:1", "w:2", "w:3"]);
    clock.advance(2 * 3600 * 1000);
    // The past window's drop is held (a slow database) until the gateway is asked to be idle:
    // idle() waits for it, as for every other settle (a CI run read the slots mid-drop once).
    const { slots: slotStore } = first.gateway.services.contracts.governed.store;
    const drop = slotStore.dropWindows.bind(slotStore);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const heldDrop = jest.spyOn(slotStore, "dropWindows").mockImplementation(async (...args) => {
      await held;
      return drop(...args);
    });
    try {
      expect((await first.gql(token, STORE, { input: preference({ key: "c3" }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
      let idle = false;
      const idled = settled().then(() => (idle = true));
      await first.gateway.services.contracts.governed.store.idle();
      for (let turn = 0; turn < 10; turn++) await new Promise((resolve) => setImmediate(resolve));
      expect(heldDrop).toHaveBeenCalled();
      expect(idle).toBe(false);
      release();
      await idled;
    } finally {
      heldDrop.mockRestore();
    }
    // Only the new window's one write slot is left beside the four items.
    expect(await slots()).toEqual(["item:1", "item:2", "item:3", "item:4", "w:1"]);
  });

  it("C19-CAP: concurrent stores of one subject on one gateway take consecutive numbers without a lost race at the database", async () => {
    await first.gql(admin, SETTINGS, { input: { subjectId: "dave", maxItemsPerSubject: 30 } });
    const token = await first.token({ tenant: "capco", subjects: ["dave"], roles: ["agent"] });
    const { slots } = first.gateway.services.contracts.governed.store;
    const attempts = jest.spyOn(slots, "reserve");
    try {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => first.gql(token, STORE, { input: preference({ key: `d${i}` }) })));
      expect(tally(answers.map((r) => r.data!.storeMemory))).toEqual({ SUCCESS_STORED: 20 });
      // Each number was asked of the database once: a write of this gateway judged past the numbers the others held.
      const taken = await Promise.all(attempts.mock.results.map((r) => r.value as Promise<boolean>));
      expect(taken.filter((ok) => !ok)).toHaveLength(0);
    } finally {
      attempts.mockRestore();
    }
  });

  it("C19-CAP INV-8: a store that fails after taking its number gives it back, so the cap is still reached exactly", async () => {
    await first.gql(admin, SETTINGS, { input: { subjectId: "erin", maxItemsPerSubject: 3 } });
    const token = await first.token({ tenant: "capco", subjects: ["erin"], roles: ["agent"] });
    const store = first.gateway.services.contracts.governed.store;
    const failing = jest.spyOn(store, "insert").mockRejectedValueOnce(new Error("injected: the item insert failed"));
    try {
      expect((await first.gql(token, STORE, { input: preference({ key: "e-failed" }) })).data!.storeMemory.stopReason).toBe("INTERNAL_INCONSISTENCY");
    } finally {
      failing.mockRestore();
    }
    expect(store.slots.highestInFlight("capco", "erin", { kind: "item" })).toBe(0);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => first.gql(token, STORE, { input: preference({ key: `e${i}` }) })));
    expect(tally(answers.map((r) => r.data!.storeMemory))).toEqual({ SUCCESS_STORED: 3, ENTITLEMENT_CAP: 7 });
  });
});
