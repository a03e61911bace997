import { InvalidNamespaceError } from "@langchain/langgraph-checkpoint";
import { MemoriesDocument, createMemgateClient, query } from "../../clients/typescript/src";
import { MemgateHeldError, MemgateRefusalError, MemgateStore } from "../../clients/typescript/src/langgraph";
import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";

const REPO = "acme/web";

/** LangGraph's BaseStore over memgate: every call is a memgate decision (issue 14 item 4). */
describe("MemgateStore: LangGraph's BaseStore through memgate GraphQL", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let store: MemgateStore;
  let person: MemgateStore;
  let url: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    url = `${gw.url}/graphql`;
    const token = await gw.token({ tenant: "acme", subjects: ["alice", `repo:${REPO}`], roles: ["agent"], sub: "langgraph-agent" });
    store = new MemgateStore({ client: createMemgateClient({ url, token }), subjects: ["alice"], repos: [REPO], governed: { consent: { explicit: true } } });
    const alice = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
    person = new MemgateStore({ client: createMemgateClient({ url, token: alice }), subjects: ["alice"] });
  });
  afterAll(() => gw?.stop());

  it("C19-OPS SPEC D2: put, get, put again (version 2), search and delete a subject's governed item", async () => {
    const ns = ["subjects", "alice"];
    await store.put(ns, "tone", { text: "prefer concise answers" });
    expect(await store.get(ns, "tone")).toMatchObject({ namespace: ns, key: "tone", value: { text: "prefer concise answers" } });

    await store.put(ns, "tone", { text: "prefer bullet points" });
    await store.put(ns, "editor", { text: "uses vim keybindings" });
    const tone = await store.get(ns, "tone");
    expect(tone?.value).toEqual({ text: "prefer bullet points" });
    const listed = await store.search(ns);
    expect(listed.map((item) => item.key).sort()).toEqual(["editor", "tone"]);
    expect((await store.search(ns, { query: "bullet" })).map((item) => item.key)).toEqual(["tone"]);
    expect((await store.search(ns, { filter: { text: "uses vim keybindings" } })).map((item) => item.key)).toEqual(["editor"]);

    await store.delete(ns, "editor");
    expect(await store.get(ns, "editor")).toBeNull();
    await store.delete(ns, "editor"); // BaseStore: deleting what is gone is not an error
  });

  it("C19-FORBID D4: a refused put raises MemgateRefusalError carrying the stop reason, and nothing is stored", async () => {
    const ns = ["subjects", "alice"];
    const put = store.put(ns, "ssn", { text: "my social security number is 078-05-1120" });
    await expect(put).rejects.toBeInstanceOf(MemgateRefusalError);
    await expect(store.put(ns, "ssn", { text: "my social security number is 078-05-1120" })).rejects.toMatchObject({
      code: "MEMGATE_REFUSED",
      stopReason: "FORBIDDEN_CATEGORY",
    });
    expect(await store.get(ns, "ssn")).toBeNull();
  });

  it("SPEC D5: a namespace of a subject the token does not hold is refused, never written", async () => {
    await expect(store.put(["subjects", "bob"], "tone", { text: "prefer long answers" })).rejects.toBeInstanceOf(MemgateRefusalError);
    const bob = new MemgateStore({
      client: createMemgateClient({ url, token: await gw.token({ tenant: "acme", subjects: ["bob"], roles: ["agent"] }) }),
    });
    expect(await bob.search(["subjects", "bob"])).toEqual([]);
  });

  it("P54-A: a ledger put is held for the person: MemgateHeldError with the proposal id; after approval it is read verbatim", async () => {
    const ns = ["ledger", "alice"];
    const held = await store.put(ns, "focus", { text: "I've noticed I focus better in the morning", kind: "SELF_OBSERVATION" }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(held).toBeInstanceOf(MemgateHeldError);
    expect(held).toMatchObject({ code: "MEMGATE_HELD", stopReason: "MISSING_EXPLICIT_CONSENT", proposalId: expect.stringMatching(/\S/) });
    expect(await person.search(ns)).toEqual([]); // nothing stored before the person approves

    const approved = await person.approve((held as MemgateHeldError).proposalId, "I've noticed I focus better in the morning");
    const items = await person.search(ns);
    expect(items).toEqual([
      expect.objectContaining({ key: approved.key, value: expect.objectContaining({ text: "I've noticed I focus better in the morning" }) }),
    ]);
    expect(await person.get(ns, approved.key)).toMatchObject({ value: { kind: "SELF_OBSERVATION" } });
  });

  it("IF1-WRITE IF1-READ: a repo namespace writes agent memories and searches them with memgate's per-hit score", async () => {
    const ns = ["repos", REPO];
    await store.put(ns, "lint", {
      text: "ESLint flat config lives in eslint.config.mjs",
      rationale: "read the repo",
      evidence_refs: ["file:eslint.config.mjs"],
    });
    const hits = await store.search(ns, { query: "eslint flat config" });
    expect(hits[0]).toMatchObject({
      namespace: ns,
      value: { text: "ESLint flat config lives in eslint.config.mjs", advisory: true },
      score: expect.any(Number),
    });
    // Immutable and read by relevance (seed 001): no get or delete by id, no search without a query.
    await expect(store.get(ns, hits[0].key)).rejects.toBeInstanceOf(InvalidNamespaceError);
    await expect(store.delete(ns, hits[0].key)).rejects.toBeInstanceOf(InvalidNamespaceError);
    await expect(store.search(ns)).rejects.toBeInstanceOf(InvalidNamespaceError);
  });

  it("listNamespaces lists the subjects' and repos' namespaces that hold memory; a bad namespace is InvalidNamespaceError", async () => {
    expect(await store.listNamespaces()).toEqual(
      expect.arrayContaining([
        ["subjects", "alice"],
        ["repos", REPO],
      ]),
    );
    expect(await store.listNamespaces({ prefix: ["repos"] })).toEqual([["repos", REPO]]);
    expect(await store.listNamespaces({ prefix: ["subjects"], maxDepth: 1 })).toEqual([["subjects"]]);
    await expect(store.get(["repos", REPO, "x"], "x")).rejects.toBeInstanceOf(InvalidNamespaceError);
    await expect(store.put(["ledger"], "x", { text: "y" })).rejects.toBeInstanceOf(InvalidNamespaceError);
  });

  it("SPEC D2: a second put of a key updates the one memgate memory to version 2", async () => {
    const client = createMemgateClient({ url, token: await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] }) });
    await store.put(["subjects", "alice"], "lang", { text: "answers in English" });
    await store.put(["subjects", "alice"], "lang", { text: "answers in French" });
    const memories = (await query(client, MemoriesDocument, { subjectId: "alice", limit: 100 })).memories.memories.filter(
      (m) => m.key === "subjects.alice:lang",
    );
    expect(memories.map((m) => [m.version, JSON.parse(m.value)])).toEqual([[2, { text: "answers in French" }]]);
  });
});
