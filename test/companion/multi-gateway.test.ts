import type { Principal } from "../../src/auth/principal";
import { systemClock } from "../../src/clock";
import { LexicalGroundingScorer } from "../../src/companion/grounding/lexical-scorer";
import { CompanionService } from "../../src/contracts/companion.service";
import { Governor } from "../../src/contracts/governor";
import { createDetectorSuite } from "../../src/detectors";
import { Metrics } from "../../src/kernel/metrics";
import { createLogger } from "../../src/logger";
import { EventLog } from "../../src/store/event-log";
import { FactRepository } from "../../src/store/fact-repository";
import { startTestGateway, type TestGateway } from "../support/gateway";

const ADD = `mutation Add($input: AddFactInput!) { addFact(input: $input) { stopReason fact { memoryId } } }`;
const ENV = `query { memoryEnvelope(purpose: RESPONSE, subjectId: "alice") { stopReason envelope { cached userFacts { text } } } }`;
const SUMMARY = "User mentioned they love fettuccini and work on FL Studio";

/**
 * Another gateway process on the same database, as a second service with its own envelope
 * cache and its own event-log writer. (A second Gateway.start on one database is blocked by
 * the foundation's ensureIndexes, which this FerretDB refuses to run twice.)
 */
function otherProcess(gw: TestGateway): CompanionService {
  const logger = createLogger("silent");
  const governor = new Governor(gw.gateway.services.policy, new EventLog(gw.gateway.db, systemClock), systemClock, logger);
  return new CompanionService(governor, new FactRepository(gw.gateway.db), createDetectorSuite(), new LexicalGroundingScorer(), new Metrics(), logger);
}

describe("two gateway processes on one database (SG-ENVELOPE SG-PRIVACY)", () => {
  let a: TestGateway;
  beforeAll(async () => {
    a = await startTestGateway();
  });
  afterAll(() => a.stop());

  it("SG-ENVELOPE SG-PRIVACY: forgetting and opt-out through one process empty the other's cached envelope at once", async () => {
    const b = otherProcess(a);
    const adapter = await a.token({ tenant: "acme", subjects: ["alice"], roles: ["adapter"] });
    const alice: Principal = { id: "alice", tenant: "acme", subjects: ["alice"], roles: ["user"], agentType: null, job: null };
    const input = { type: "USER_FACT", confidence: 0.9, source: "llm_extraction", summary: SUMMARY };
    await a.gql(adapter, ADD, { input: { ...input, text: "User loves fettuccini" } });
    const forgotten = (await a.gql(adapter, ADD, { input: { ...input, text: "User works on FL Studio" } })).data!.addFact.fact.memoryId;
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.userFacts).toHaveLength(2);
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.cached).toBe(true);

    expect((await b.forgetFact(alice, { memoryId: forgotten }, { requestId: "r1" })).stopReason).toBe("SUCCESS_DELETED");
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.userFacts).toEqual([{ text: "User loves fettuccini" }]);

    expect((await b.setPrivacy(alice, { memoryEnabled: false }, { requestId: "r2" })).stopReason).toBe("SUCCESS_UPDATED");
    expect((await a.gql(adapter, ENV)).data!.memoryEnvelope.envelope.userFacts).toEqual([]);
  });
});
