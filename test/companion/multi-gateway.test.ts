import { startTestGateway, type TestGateway } from "../support/gateway";

const ADD = `mutation Add($input: AddFactInput!) { addFact(input: $input) { stopReason fact { memoryId } } }`;
const ENV = `query { memoryEnvelope(purpose: RESPONSE, subjectId: "alice") { stopReason envelope { cached userFacts { text } } } }`;
const FORGET = `mutation F($id: ID!) { forgetFact(memoryId: $id) { stopReason } }`;
const PRIVACY = `mutation P($input: PrivacyInput!) { setPrivacy(input: $input) { stopReason } }`;
const SUMMARY = "User mentioned they love fettuccini and work on FL Studio";

/** Two gateways, each built by the composition root, on one database: two processes behind a load balancer. */
describe("two gateway processes on one database (SG-ENVELOPE SG-PRIVACY)", () => {
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    a = await startTestGateway();
    b = await startTestGateway({ dbName: a.dbName });
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });

  it("SG-ENVELOPE SG-PRIVACY: forgetting and opt-out through one process empty the other's cached envelope at once", async () => {
    const adapter = await a.token({ tenant: "acme", subjects: ["alice"], roles: ["adapter"] });
    const alice = await b.token({ sub: "alice", tenant: "acme", subjects: ["alice"], roles: ["user"] });
    const input = { type: "USER_FACT", confidence: 0.9, source: "llm_extraction", summary: SUMMARY };
    await a.gql(adapter, ADD, { input: { ...input, text: "User loves fettuccini" } });
    const forgotten = (await a.gql(adapter, ADD, { input: { ...input, text: "User works on FL Studio" } })).data!.addFact.fact.memoryId;
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.userFacts).toHaveLength(2);
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.cached).toBe(true);

    expect((await b.gql(alice, FORGET, { id: forgotten })).data!.forgetFact.stopReason).toBe("SUCCESS_DELETED");
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.userFacts).toEqual([{ text: "User loves fettuccini" }]);

    expect((await b.gql(alice, PRIVACY, { input: { memoryEnabled: false } })).data!.setPrivacy.stopReason).toBe("SUCCESS_UPDATED");
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.userFacts).toEqual([]);
  });
});
