import { ConfigError, loadConfig } from "../../src/config";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

const STORE = `mutation($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason memory { memoryId } } }`;
const LIST = `query { memories { stopReason memories { memoryId key } } }`;
const KEY = "-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=\n-----END PUBLIC KEY-----";

/** The collections a STORE writes, and the names of their indexes. */
async function indexesOf(gw: TestGateway): Promise<Record<string, string[]>> {
  const names = async (collection: string) => (await gw.gateway.db.collection(collection).listIndexes().toArray()).map((i) => String(i.name)).sort();
  return { memories: await names("memories"), memory_events: await names("memory_events") };
}

describe("secondary indexes follow the backend's reads", () => {
  it("default: none on the embedded FerretDB (it reads through none on either backend), all on a database given by URI", () => {
    expect(loadConfig({}).secondaryIndexes).toBe(false);
    expect(loadConfig({ MEMGATE_FERRETDB_POSTGRESQL_URL: "postgres://db/memgate" }).secondaryIndexes).toBe(false);
    expect(loadConfig({ MONGODB_URI: "mongodb://db:27017", JWT_PUBLIC_KEY: KEY }).secondaryIndexes).toBe(true);
    expect(loadConfig({ MONGODB_URI: "mongodb://db:27017", JWT_PUBLIC_KEY: KEY, MEMGATE_SECONDARY_INDEXES: "false" }).secondaryIndexes).toBe(false);
    expect(() => loadConfig({ MEMGATE_SECONDARY_INDEXES: "no" })).toThrow(ConfigError);
  });

  it.each([
    ["false", { memories: ["_id_"], memory_events: ["_id_"] }],
    [
      "true",
      {
        memories: ["_id_", "tenant_subject_memory", "tenant_subject_status_created"],
        memory_events: ["_id_", "tenant_seq", "tenant_subject_timestamp"],
      },
    ],
  ])("MEMGATE_SECONDARY_INDEXES=%s: exactly those indexes, and a subject's memories are stored and listed the same", async (setting, expected) => {
    const gw = await startTestGateway({ env: { MEMGATE_SECONDARY_INDEXES: setting } });
    try {
      const token = await gw.token({ tenant: "idx", subjects: ["alice"], roles: ["agent"] });
      for (const key of ["tone", "editor"]) {
        expect((await gw.gql(token, STORE, { input: preference({ key }) })).data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
      }
      const listed = (await gw.gql(token, LIST)).data!.memories;
      expect(listed.stopReason).toBe("SUCCESS_LISTED");
      expect(listed.memories.map((m: { key: string }) => m.key).sort()).toEqual(["editor", "tone"]);
      expect(await indexesOf(gw)).toEqual(expected);
    } finally {
      await gw.stop();
    }
  });
});
