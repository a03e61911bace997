import { principalInput, type Principal } from "../../src/auth/principal";
import { ManualClock } from "../../src/clock";
import { READ, STORE } from "../audit/support";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

/**
 * The policy sees, of the token's subjects, only the operation's subject when the token holds
 * it (src/auth/principal.ts): isolation is still the policy's `subject_id in
 * principal.subjects`, with the same answers for a token of one subject or of five hundred.
 */
describe("SPEC D5 SG-ISOLATION: the policy's view of a token's subjects", () => {
  const many: Principal = {
    id: "adapter-1",
    tenant: "acme",
    subjects: Array.from({ length: 500 }, (_, i) => `s${i}`),
    roles: ["agent"],
    agentType: null,
    job: null,
  };

  it("D5: holds the operation's subject when the token does, and nothing otherwise", () => {
    expect(principalInput(many, "s499")).toMatchObject({ subjects: ["s499"], roles: ["agent"], tenant: "acme" });
    expect(principalInput(many, "mallory")).toMatchObject({ subjects: [] });
  });

  describe("through the gateway", () => {
    let gw: TestGateway;
    beforeAll(async () => {
      gw = await startTestGateway({ clock: new ManualClock("2026-06-01T09:00:00.000Z") });
    });
    afterAll(async () => {
      await gw?.stop();
    });

    it("D5 SG-ISOLATION: a 500-subject token stores and reads for its last subject; a subject it does not hold is refused as before", async () => {
      const wide = await gw.token({ tenant: "acme", subjects: many.subjects, roles: ["agent"] });
      const narrow = await gw.token({ tenant: "acme", subjects: ["s499"], roles: ["agent"] });
      const stored = (await gw.gql(wide, STORE, { input: preference({ subjectId: "s499", key: "tone", value: "short answers" }) })).data!.storeMemory;
      expect(stored.stopReason).toBe("SUCCESS_STORED");
      const id = stored.memory.memoryId as string;
      for (const token of [wide, narrow]) {
        expect((await gw.gql(token, READ, { id, subject: "s499" })).data!.memory).toMatchObject({
          stopReason: "SUCCESS_READ",
          memory: { value: "short answers" },
        });
      }
      const foreign = await gw.gql(wide, STORE, { input: preference({ subjectId: "mallory", key: "tone", value: "short answers" }) });
      expect(foreign.data!.storeMemory.stopReason).toBe("POLICY_DISABLED");
      expect((await gw.gql(wide, READ, { id, subject: "mallory" })).data!.memory.stopReason).toBe("NOT_FOUND");
    });
  });
});
