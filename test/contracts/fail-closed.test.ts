import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Db } from "mongodb";
import type { Detector } from "../../src/detectors/detector";
import { EmbeddedFerretDb, ferretdbBinaryPath, freePort } from "../../src/store/embedded-ferretdb";
import { POLICY_BUNDLE, startTestGateway, type TestGateway } from "../support/gateway";
import { preference as item } from "../support/governed";

const FIELDS = "stopReason explanations contractVersion policyVersion memory { memoryId version }";
const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation($input: UpdateMemoryInput!) { updateMemory(input: $input) { ${FIELDS} } }`;
const DELETE = `mutation($id: ID!) { deleteMemory(memoryId: $id) { ${FIELDS} } }`;
const READ = `query($id: ID!) { memory(memoryId: $id) { ${FIELDS} } }`;
const LIST = `query { memories { stopReason explanations memories { memoryId } } }`;
const SETTINGS = `mutation($input: MemorySettingsInput!) { setMemorySettings(input: $input) { stopReason explanations } }`;

const decisionOf = (res: { data?: Record<string, any> }) => Object.values(res.data!)[0] as { stopReason: string; explanations: string[] };

/** INV-8: no item without its event, no event claiming an item that is not there. */
async function expectConsistent(db: Db): Promise<void> {
  const items = await db.collection("memories").find({}).toArray();
  const events = await db
    .collection("memory_events")
    .find({ memory_id: { $ne: null } })
    .toArray();
  for (const it of items) {
    const own = events.filter((e) => e.memory_id === it.memory_id && e.tenant_id === it.tenant_id);
    expect([it.memory_id, own.some((e) => e.event_type === "create")]).toEqual([it.memory_id, true]);
    if (it.version > 1) expect(own.some((e) => e.event_type === "update" && e.metadata.version === it.version)).toBe(true);
    if (it.status === "deleted") expect(own.some((e) => e.event_type === "delete")).toBe(true);
  }
  for (const e of events) {
    if (!["create", "update", "delete"].includes(e.event_type)) continue;
    const found = items.find((it) => it.memory_id === e.memory_id && it.tenant_id === e.tenant_id);
    expect([e.event_type, e.memory_id, Boolean(found)]).toEqual([e.event_type, e.memory_id, true]);
    if (e.event_type === "update") expect(found!.version).toBeGreaterThanOrEqual(e.metadata.version);
  }
}

async function everyOperationFailsClosed(gw: TestGateway, token: string, id: string): Promise<void> {
  const answers = [
    decisionOf(await gw.gql(token, STORE, { input: item({ value: "FAILMARK-store" }) })),
    decisionOf(await gw.gql(token, UPDATE, { input: { ...item({ value: "FAILMARK-update" }), memoryId: id } })),
    decisionOf(await gw.gql(token, READ, { id })),
    decisionOf(await gw.gql(token, LIST, {})),
    decisionOf(await gw.gql(token, DELETE, { id })),
  ];
  for (const answer of answers) expect(answer).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: internal_error"] });
}

describe("C19-FAIL INV-8: a broken dependency answers INTERNAL_INCONSISTENCY and leaves no partial state", () => {
  it("C19-FAIL: the database process stopped mid-run — every operation fails closed; after a restart nothing is half-written and the gateway works again", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-failclosed-db-"));
    const binary = ferretdbBinaryPath(path.resolve(__dirname, "..", ".."));
    const port = await freePort();
    let db = await EmbeddedFerretDb.start({ binary, dataDir, port });
    const gw = await startTestGateway({ mongodbUri: db.uri });
    try {
      const token = await gw.token({ tenant: "crash", subjects: ["s1"], roles: ["agent"] });
      const stored = decisionOf(await gw.gql(token, STORE, { input: item() })) as any;
      expect(stored.stopReason).toBe("SUCCESS_STORED");
      const id = stored.memory.memoryId;
      expect(decisionOf(await gw.gql(token, UPDATE, { input: { ...item({ value: "v2" }), memoryId: id } })).stopReason).toBe("SUCCESS_UPDATED");

      await db.stop();
      await everyOperationFailsClosed(gw, token, id);

      db = await EmbeddedFerretDb.start({ binary, dataDir, port });
      await expectConsistent(gw.gateway.db);
      const everything = JSON.stringify(await gw.gateway.db.collection("memories").find({}).toArray());
      expect(everything).not.toContain("FAILMARK");
      expect(decisionOf(await gw.gql(token, READ, { id }))).toMatchObject({ stopReason: "SUCCESS_READ" });
      expect(decisionOf(await gw.gql(token, STORE, { input: item({ key: "after-restart" }) })).stopReason).toBe("SUCCESS_STORED");
      await expectConsistent(gw.gateway.db);
    } finally {
      await gw.stop();
      await db.stop();
    }
  }, 180_000);

  describe.each([
    ["missing", () => path.join(os.tmpdir(), "memgate-no-such-bundle.tar.gz")],
    [
      "corrupt (random bytes)",
      () => {
        const file = path.join(mkdtempSync(path.join(os.tmpdir(), "memgate-bad-bundle-")), "bundle.tar.gz");
        writeFileSync(file, Buffer.from("this is not a gzip file at all \u0000\u0001\u0002"));
        return file;
      },
    ],
    [
      "truncated (half of the real bundle)",
      () => {
        const real = readFileSync(POLICY_BUNDLE);
        const file = path.join(mkdtempSync(path.join(os.tmpdir(), "memgate-bad-bundle-")), "bundle.tar.gz");
        writeFileSync(file, real.subarray(0, Math.floor(real.length / 2)));
        return file;
      },
    ],
  ])("C19-FAIL: a %s policy bundle (MEMGATE_POLICY_BUNDLE)", (_name, bundleFile) => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway({ env: { MEMGATE_POLICY_BUNDLE: bundleFile() } });
    });
    afterAll(() => gw.stop());

    it("C19-FAIL C19-VERSION: every operation answers INTERNAL_INCONSISTENCY, stamped policy 'none', nothing is stored and each failure is an auditable refuse event", async () => {
      const token = await gw.token({ tenant: "nobundle", subjects: ["s1"], roles: ["agent"] });
      await everyOperationFailsClosed(gw, token, "mem_any");
      const admin = await gw.token({ tenant: "nobundle", subjects: [], roles: ["admin"] });
      expect(decisionOf(await gw.gql(admin, SETTINGS, { input: { enabled: false } })).stopReason).toBe("INTERNAL_INCONSISTENCY");
      const stamped = decisionOf(await gw.gql(token, STORE, { input: item() })) as any;
      expect(stamped).toMatchObject({ policyVersion: "none", contractVersion: "unknown" });
      expect(await gw.gateway.db.collection("memories").countDocuments()).toBe(0);
      expect(await gw.gateway.db.collection("memory_settings").countDocuments()).toBe(0);
      const events = await gw.gateway.db.collection("memory_events").find({ tenant_id: "nobundle" }).toArray();
      expect(events).toHaveLength(7);
      for (const e of events) expect(e).toMatchObject({ event_type: "refuse", stop_reason: "INTERNAL_INCONSISTENCY", memory_id: null, content_digest: null });
      expect(JSON.stringify(events)).not.toContain("FAILMARK");
    });
  });

  describe.each([
    [
      "throws",
      (): Detector => ({
        name: "broken",
        detect: () => {
          throw new Error("detector exploded");
        },
      }),
    ],
    ["rejects", (): Detector => ({ name: "broken-async", detect: async () => Promise.reject(new Error("detector rejected")) })],
    ["returns garbage", (): Detector => ({ name: "garbage", detect: () => undefined as never })],
  ])("C19-FAIL: a detector that %s (GatewayOptions.detectors)", (_name, detector) => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway({ detectors: [detector()] });
    });
    afterAll(() => gw.stop());

    it("C19-FAIL: writes answer INTERNAL_INCONSISTENCY and leave no item and no event claiming one; reads that need no detector still work", async () => {
      const token = await gw.token({ tenant: "baddetector", subjects: ["s1"], roles: ["agent"] });
      const store = decisionOf(await gw.gql(token, STORE, { input: item({ value: "FAILMARK-detector" }) }));
      expect(store).toMatchObject({ stopReason: "INTERNAL_INCONSISTENCY", explanations: ["C19-FAIL: internal_error"] });
      const update = decisionOf(await gw.gql(token, UPDATE, { input: { ...item(), memoryId: "mem_x" } }));
      expect(update.stopReason).toBe("INTERNAL_INCONSISTENCY");
      expect(decisionOf(await gw.gql(token, LIST, {})).stopReason).toBe("SUCCESS_LISTED");
      expect(await gw.gateway.db.collection("memories").countDocuments()).toBe(0);
      await expectConsistent(gw.gateway.db);
      const events = await gw.gateway.db.collection("memory_events").find({ tenant_id: "baddetector" }).toArray();
      expect(events.map((e) => [e.event_type, e.stop_reason])).toEqual([
        ["refuse", "INTERNAL_INCONSISTENCY"],
        ["refuse", "INTERNAL_INCONSISTENCY"],
      ]);
    });
  });
});
