import { ManualClock } from "../../src/clock";
import { dumpDatabase } from "../support/database";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { LEDGER, PENDING, SELECT, approved, propose } from "./helpers";

const STORE = `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { stopReason memory { memoryId value } } }`;
const READ = `query Read($id: ID!) { memory(memoryId: $id) { stopReason memory { memoryId key value } } }`;
const LIST = `query List($subject: ID) { memories(subjectId: $subject) { stopReason memories { memoryId key value } } }`;

/**
 * P54-G / seed 003 Invariant G, SPEC D7: ledger items are never an input to other decision
 * logic. Every policy input the real engine evaluates is captured (the engine still decides:
 * the spy calls through) and searched for the ledger's texts.
 */
describe("P54-G ledger items reach no other read and no policy input", () => {
  const clock = new ManualClock("2026-06-01T08:00:00.000Z");
  let gw: TestGateway;
  let agent: string;
  let alice: string;
  let inputs: string[];

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    alice = await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const policy = gw.gateway.services.policy;
    const decide = policy.decide.bind(policy);
    inputs = [];
    jest.spyOn(policy, "decide").mockImplementation((input) => {
      inputs.push(JSON.stringify(input));
      return decide(input);
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await gw.stop();
  });

  it("P54-G P54-F SPEC-D7: once approved, an item's text is in no policy input, agent read or governed record; only an explicit selection returns it", async () => {
    const text = "LEDGER-ONLY-3391 I prefer quiet mornings";
    const memoryId = await approved(gw, agent, alice, text);
    const other = await approved(gw, agent, alice, "LEDGER-ONLY-3392 I want to learn chess");
    await gw.gql(alice, "mutation($id: ID!) { forgetMemory(memoryId: $id) { stopReason } }", { id: other });
    inputs.length = 0;

    // Everything else an agent or the person does afterwards.
    const stored = await gw.gql(agent, STORE, {
      input: {
        category: "PREFERENCE",
        key: "tone",
        value: "prefer concise answers",
        sourceKind: "USER_EXPLICIT",
        ttlClass: "LONG",
        consent: { explicit: true },
      },
    });
    expect(stored.data!.storeMemory.stopReason).toBe("SUCCESS_STORED");
    const reads = [
      await gw.gql(agent, LIST, {}),
      await gw.gql(alice, LIST, {}),
      await gw.gql(agent, READ, { id: memoryId }),
      await gw.gql(alice, READ, { id: memoryId }),
      await gw.gql(agent, READ, { id: stored.data!.storeMemory.memory.memoryId }),
    ];
    expect(reads[2].data!.memory.stopReason).toBe("NOT_FOUND");
    expect(reads[3].data!.memory.stopReason).toBe("NOT_FOUND");
    for (const read of reads) expect(JSON.stringify(read)).not.toContain("LEDGER-ONLY");
    await propose(gw, agent, { proposedText: "I prefer evening runs" });
    await gw.gql(alice, PENDING, {});
    const ledger = await gw.gql(alice, LEDGER, {});
    expect(JSON.stringify(ledger)).toContain("LEDGER-ONLY-3391"); // the person's own ledger shows it
    const selected = await gw.gql(alice, SELECT, { ids: [memoryId, other] });
    expect(selected.data!.selectedMemoryContext.resolvedTexts).toEqual([text]); // and an explicit selection resolves it

    expect(inputs.length).toBeGreaterThan(8);
    for (const input of inputs) expect(input).not.toContain("LEDGER-ONLY");
    // the governed store never received it either
    const governed = JSON.stringify(await gw.gateway.db.collection("memories").find({}).toArray());
    expect(governed).toContain("prefer concise answers");
    expect(governed).not.toContain("LEDGER-ONLY");
    expect(JSON.stringify(await gw.gateway.db.collection("memory_events").find({}).toArray())).not.toContain("LEDGER-ONLY");
  });

  it("P54-F: without a selection there is no memory context at all, however many items the ledger holds", async () => {
    for (let i = 0; i < 3; i++) await approved(gw, agent, alice, `I want to try recipe ${i}`);
    const res = (await gw.gql(alice, SELECT, { ids: [] })).data!.selectedMemoryContext;
    expect(res).toMatchObject({ stopReason: "SUCCESS_READ", selectedMemoryIds: [], resolvedTexts: [], attributionLine: null });
    expect(await dumpDatabase(gw.gateway.db)).not.toContain("Using the items you selected"); // the context is never persisted
  });
});
