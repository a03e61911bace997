import { randomUUID } from "node:crypto";
import { BaseStore, InMemoryStore, InvalidNamespaceError } from "@langchain/langgraph-checkpoint";
import { MemoriesDocument, createMemgateClient, query } from "../../clients/typescript/src";
import { MemgateStore } from "../../clients/typescript/src/langgraph";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";

/**
 * The BaseStore contract, as LangGraph's own tests state it for InMemoryStore
 * (langgraphjs libs/checkpoint/src/tests/store.test.ts, "InMemoryStore"), run against both
 * InMemoryStore (so the assertions are LangGraph's behaviour) and MemgateStore over a real
 * gateway (issue 24 item 2). Each test gets a fresh store: a fresh memgate subject.
 */
function conformance(name: string, fresh: () => Promise<BaseStore>): void {
  describe(`${name}: LangGraph's BaseStore contract`, () => {
    let store: BaseStore;
    beforeEach(async () => {
      store = await fresh();
    });

    it("get: an item put is read back with namespace, key, value and dates, nothing else", async () => {
      await store.put(["test"], "123", { value: 1 });
      expect(await store.get(["test"], "123")).toEqual({
        value: { value: 1 },
        key: "123",
        namespace: ["test"],
        createdAt: expect.any(Date),
        updatedAt: expect.any(Date),
      });
      expect(await store.get(["test"], "missing")).toBeNull();
    });

    it("search: the items of a namespace, in the order they were put", async () => {
      await store.put(["test"], "123", { value: 1 });
      await store.put(["test"], "456", { value: 2 });
      const result = await store.search(["test"]);
      expect(result).toHaveLength(2);
      expect(result[0]).toMatchObject({ value: { value: 1 }, key: "123", namespace: ["test"] });
      expect(result[1]).toMatchObject({ value: { value: 2 }, key: "456", namespace: ["test"] });
    });

    it("put twice: the second value replaces the first; delete: get answers null, and deleting again is no error", async () => {
      await store.put(["test"], "123", { value: 1 });
      await store.put(["test"], "123", { value: 2 });
      expect((await store.get(["test"], "123"))?.value).toEqual({ value: 2 });
      expect(await store.search(["test"])).toHaveLength(1);
      await store.delete(["test"], "123");
      expect(await store.get(["test"], "123")).toBeNull();
      await expect(store.delete(["test"], "123")).resolves.toBeUndefined();
    });

    it("listNamespaces: every namespace without an option; by prefix, suffix, wildcard; maxDepth; limit and offset", async () => {
      await store.put(["a", "b", "c"], "1", { value: 1 });
      await store.put(["a", "b", "d"], "2", { value: 2 });
      await store.put(["x", "y", "z"], "3", { value: 3 });
      expect(await store.listNamespaces()).toEqual([
        ["a", "b", "c"],
        ["a", "b", "d"],
        ["x", "y", "z"],
      ]);
      expect(await store.listNamespaces({ prefix: ["a"] })).toEqual([
        ["a", "b", "c"],
        ["a", "b", "d"],
      ]);
      expect(await store.listNamespaces({ suffix: ["d"] })).toEqual([["a", "b", "d"]]);
      expect(await store.listNamespaces({ prefix: ["a", "*", "c"] })).toEqual([["a", "b", "c"]]);
      expect(await store.listNamespaces({ maxDepth: 2 })).toEqual([
        ["a", "b"],
        ["x", "y"],
      ]);
      expect(await store.listNamespaces({ limit: 1, offset: 1 })).toEqual([["a", "b", "d"]]);
      expect(await store.listNamespaces({ prefix: ["non", "existent"] })).toEqual([]);
    });

    it("namespaces of any depth: a search by prefix finds the deeper ones, not the siblings", async () => {
      await store.put(["users", "u1", "prefs"], "tone", { text: "concise" });
      await store.put(["users", "u1", "prefs", "editor"], "keys", { text: "vim" });
      await store.put(["users", "u1", "notes"], "n1", { text: "other" });
      expect((await store.search(["users", "u1", "prefs"])).map((i) => [i.namespace, i.key])).toEqual([
        [["users", "u1", "prefs"], "tone"],
        [["users", "u1", "prefs", "editor"], "keys"],
      ]);
      expect(await store.search([])).toHaveLength(3);
    });

    it("search filter: equality and LangGraph's operators on the value's fields; limit and offset", async () => {
      await store.put(["docs"], "a", { type: "report", n: 1 });
      await store.put(["docs"], "b", { type: "memo", n: 2 });
      await store.put(["docs"], "c", { type: "report", n: 3 });
      expect((await store.search(["docs"], { filter: { type: "report" } })).map((i) => i.key)).toEqual(["a", "c"]);
      expect((await store.search(["docs"], { filter: { n: { $gte: 2 } } })).map((i) => i.key)).toEqual(["b", "c"]);
      expect((await store.search(["docs"], { filter: { type: { $in: ["memo"] } } })).map((i) => i.key)).toEqual(["b"]);
      expect((await store.search(["docs"], { limit: 1, offset: 1 })).map((i) => i.key)).toEqual(["b"]);
    });

    it("a key of any length LangGraph allows (300 characters) is put, read, listed and deleted", async () => {
      const key = `k-${"x".repeat(298)}`;
      await store.put(["users", "u1", "prefs"], key, { text: "long key" });
      expect(await store.get(["users", "u1", "prefs"], key)).toMatchObject({ key, namespace: ["users", "u1", "prefs"], value: { text: "long key" } });
      expect((await store.search(["users", "u1"])).map((i) => i.key)).toEqual([key]);
      await store.delete(["users", "u1", "prefs"], key);
      expect(await store.get(["users", "u1", "prefs"], key)).toBeNull();
    });

    it("invalid namespaces are refused on put with InvalidNamespaceError; a 'langgraph' label below the root is fine", async () => {
      const doc = { foo: "bar" };
      await expect(store.put([], "foo", doc)).rejects.toThrow(InvalidNamespaceError);
      await expect(store.put(["the", "thing.about"], "foo", doc)).rejects.toThrow(InvalidNamespaceError);
      await expect(store.put(["some", "fun", ""], "foo", doc)).rejects.toThrow(InvalidNamespaceError);
      await expect(store.put(["langgraph", "foo"], "bar", doc)).rejects.toThrow(InvalidNamespaceError);
      await store.put(["foo", "langgraph", "foo"], "bar", doc);
      expect((await store.get(["foo", "langgraph", "foo"], "bar"))?.value).toEqual(doc);
      expect((await store.search(["foo", "langgraph", "foo"]))[0].value).toEqual(doc);
      await store.delete(["foo", "langgraph", "foo"], "bar");
      expect(await store.get(["foo", "langgraph", "foo"], "bar")).toBeNull();
    });

    it("batch: operations answer in order (put → undefined, get → item, search → items, listNamespaces → namespaces)", async () => {
      await store.put(["b"], "k0", { value: 0 });
      const results = await store.batch([
        { namespace: ["b"], key: "k1", value: { value: 1 } },
        { namespace: ["b"], key: "k0" },
        { namespacePrefix: ["b"], limit: 10, offset: 0 },
        { matchConditions: [{ matchType: "prefix", path: ["b"] }], limit: 10, offset: 0 },
      ]);
      expect(results[0] ?? null).toBeNull(); // InMemoryStore answers null, MemgateStore undefined: both void
      expect(results[1]).toMatchObject({ key: "k0", value: { value: 0 } });
      expect((results[2] as { key: string }[]).map((i) => i.key)).toEqual(expect.arrayContaining(["k0"]));
      expect(results[3]).toEqual([["b"]]);
    });
  });
}

conformance("InMemoryStore", async () => new InMemoryStore());

const clock = new ManualClock("2026-03-01T12:00:00.000Z");
let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ clock });
});
afterAll(() => gw?.stop());

/** The gateway's clock moves one second per call, so items put one after another have distinct dates. */
class TickingMemgateStore extends MemgateStore {
  override batch: MemgateStore["batch"] = (operations) => {
    clock.advance(1000);
    return super.batch(operations);
  };
}

/** A fresh subject per store: the token holds it and u1 (["users", "u1", …] is u1's). */
async function freshMemgateStore(): Promise<MemgateStore> {
  const subject = `s-${randomUUID().slice(0, 8)}`;
  const u1 = `u1-${subject}`;
  const token = await gw.token({ tenant: `t-${subject}`, subjects: [subject, u1], roles: ["agent"], sub: "graph" });
  return new TickingMemgateStore({
    client: createMemgateClient({ url: `${gw.url}/graphql`, token }),
    subjectOf: (ns) => (ns[0] === "users" && ns[1] === "u1" ? u1 : undefined),
  });
}

conformance("MemgateStore", freshMemgateStore);

describe("MemgateStore beyond the shared contract", () => {
  it("C19-OPS: with default options a graph's put is stored (SYSTEM_KNOWN, no person's consent needed) and a put of a key updates one memgate memory", async () => {
    const subject = `s-${randomUUID().slice(0, 8)}`;
    const token = await gw.token({ tenant: "acme", subjects: [subject], roles: ["agent"] });
    const client = createMemgateClient({ url: `${gw.url}/graphql`, token });
    const store = new MemgateStore({ client });
    await store.put(["users", subject, "prefs"], "tone", { text: "prefer concise answers" });
    await store.put(["users", subject, "prefs"], "tone", { text: "prefer bullet points" });
    const memories = (await query(client, MemoriesDocument, { subjectId: subject })).memories.memories;
    expect(memories.map((m) => [m.key, m.version, m.sourceKind, JSON.parse(m.value)])).toEqual([
      [`users.${subject}.prefs:tone`, 2, "SYSTEM_KNOWN", { text: "prefer bullet points" }],
    ]);
  });

  it("get and put by key cost the same round trips with 1 item or 40: one LIST by key (+ the write)", async () => {
    const subject = `s-${randomUUID().slice(0, 8)}`;
    const token = await gw.token({ tenant: "acme", subjects: [subject], roles: ["agent"] });
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests += 1;
      return fetch(input, init);
    };
    const store = new MemgateStore({ client: createMemgateClient({ url: `${gw.url}/graphql`, token, fetch: counting }) });
    const ns = ["users", subject, "prefs"];
    const cost = async (run: () => Promise<unknown>) => {
      requests = 0;
      await run();
      return requests;
    };
    await store.put(ns, "k0", { text: "first" }); // reads the contract's key bound once
    const small = [await cost(() => store.get(ns, "k0")), await cost(() => store.put(ns, "k0", { text: "again" }))];
    for (let i = 1; i < 40; i++) await store.put(ns, `k${i}`, { text: `item ${i}` });
    const large = [await cost(() => store.get(ns, "k0")), await cost(() => store.put(ns, "k0", { text: "third" }))];
    expect(small).toEqual([1, 2]);
    expect(large).toEqual(small);
  });

  it("search with a query is lexical: items sharing no term are left out, the rest ranked by the share of terms found", async () => {
    const store = await freshMemgateStore();
    await store.put(["notes"], "n1", { text: "prefers dark mode in the editor" });
    await store.put(["notes"], "n2", { text: "dark chocolate after lunch" });
    await store.put(["notes"], "n3", { text: "meetings on tuesdays" });
    const hits = await store.search(["notes"], { query: "dark editor" });
    expect(hits.map((h) => [h.key, h.score])).toEqual([
      ["n1", 1],
      ["n2", 0.5],
    ]);
    expect((await store.search(["notes"], { query: "pref", filter: { text: { $ne: "x" } } })).map((h) => h.key)).toEqual(["n1"]);
  });
});
