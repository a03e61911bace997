import { ManualClock } from "../../src/clock";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { AGENT, GOVERNED, agentWrite, gqlDecision, postMemory, preference } from "./support";

/**
 * Issue 22 item 5: the detectors also read an operation's text fields together, so an
 * identifier split across fields (part of a card number in the key, the rest in the value)
 * is refused with the stop reason it has in one field (C19-FORBID, FORBIDDEN_CATEGORY), the
 * explanation naming the fields it spans. Each half alone is stored: the joint reading is
 * what finds it.
 */
const TENANT = "together-co";
const REPO = "together/web";

describe("fields judged together: an identifier split across fields is refused (C19-FORBID, issue 22 item 5)", () => {
  const clock = new ManualClock("2026-06-02T09:00:00.000Z");
  let gw: TestGateway;
  let agent: string;
  let repoAgent: string;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    agent = await gw.token({ tenant: TENANT, subjects: ["alice"], roles: ["agent"], sub: "assistant-1" });
    repoAgent = await gw.token({ tenant: TENANT, subjects: [`repo:${REPO}`], roles: ["agent"], sub: "coding-agent" });
  });
  afterAll(() => gw.stop());

  it("GraphQL storeMemory: a card number split between key and value is FORBIDDEN_CATEGORY naming key+value (C19-FORBID)", async () => {
    const answer = await gqlDecision(gw, agent, GOVERNED.STORE, { input: preference({ key: "card 4111 1111", value: "1111 1111" }) });
    expect(answer.stopReason).toBe("FORBIDDEN_CATEGORY");
    expect(answer.explanations.join(" ")).toContain("biometrics_ids_in_key+value");
  });

  it("GraphQL storeMemory: an IBAN split between key and value is FORBIDDEN_CATEGORY (C19-FORBID)", async () => {
    const answer = await gqlDecision(gw, agent, GOVERNED.STORE, { input: preference({ key: "iban DE89 3704 0044", value: "0532 0130 00" }) });
    expect(answer.stopReason).toBe("FORBIDDEN_CATEGORY");
    expect(answer.explanations.join(" ")).toContain("_in_key+value");
  });

  it("GraphQL storeMemory: each half alone is stored (C19-FORBID is not triggered by a fragment)", async () => {
    const key = await gqlDecision(gw, agent, GOVERNED.STORE, { input: preference({ key: "card 4111 1111", value: "prefer concise responses" }) });
    expect(key.stopReason).toBe("SUCCESS_STORED");
    const value = await gqlDecision(gw, agent, GOVERNED.STORE, { input: preference({ key: "tone-2", value: "1111 1111" }) });
    expect(value.stopReason).toBe("SUCCESS_STORED");
  });

  it("POST /v1/memory agent write: a card number split between text and rationale is FORBIDDEN_CATEGORY naming both fields (C19-FORBID)", async () => {
    const answer = await postMemory(gw, repoAgent, agentWrite(REPO, { text: "Test payments with card 4111 1111", rationale: "1111 1111 from the team wiki" }));
    expect(answer.stopReason).toBe("FORBIDDEN_CATEGORY");
    expect(answer.explanations.join(" ")).toMatch(/biometrics_ids_in_memory\.text\+memory\.rationale/);
  });

  it("GraphQL agentWrite: the same split is refused alike (every door decides alike, C19-FORBID)", async () => {
    const answer = await gqlDecision(gw, repoAgent, AGENT.WRITE, {
      input: agentWrite(REPO, { text: "Test payments with card 4111 1111", rationale: "1111 1111 from the team wiki" }),
    });
    expect(answer.stopReason).toBe("FORBIDDEN_CATEGORY");
  });

  it("POST /v1/memory: a note whose fields hold unrelated numbers is stored (no false joint finding)", async () => {
    const answer = await postMemory(
      gw,
      repoAgent,
      agentWrite(REPO, { text: "Port 8080 is taken by the dev server", rationale: "seen in build 4521 on 2026-05-30" }),
    );
    expect(answer.stopReason).toBe("SUCCESS_STORED");
  });
});
