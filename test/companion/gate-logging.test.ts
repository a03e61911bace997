import { Writable } from "node:stream";
import pino from "pino";
import type { Gateway } from "../../src/gateway";
import { startTestGateway } from "../support/gateway";
import { signToken } from "../support/tokens";

const ADD = `mutation Add($input: AddFactInput!) { addFact(input: $input) { stopReason } }`;
const SUMMARY = "User mentioned they love fettuccini and work on FL Studio";

describe("gate outcomes in the logs (SG-GATE)", () => {
  const lines: { level: number; msg: string; [k: string]: unknown }[] = [];
  let gateway: Gateway;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    gateway = (await startTestGateway({ logger: pino({ level: "debug" }, sink) })).gateway;
  });
  afterAll(() => gateway.stop());

  it("SG-GATE SG-GROUND D4: applied at info, proposals at warn, discards at debug with their reason; the text is never logged", async () => {
    const token = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["adapter"] });
    const add = async (text: string, confidence: number) => {
      const res = await fetch(`${gateway.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: ADD, variables: { input: { type: "USER_FACT", text, confidence, source: "llm_extraction", summary: SUMMARY } } }),
      });
      return ((await res.json()) as { data: { addFact: { stopReason: string } } }).data.addFact.stopReason;
    };
    expect(await add("User loves fettuccini", 0.85)).toBe("SUCCESS_STORED");
    expect(await add("User works on FL Studio", 0.78)).toBe("MISSING_EXPLICIT_CONSENT");
    expect(await add("User enjoys Italian food", 0.62)).toBe("NO_SOURCE_DERIVED_FACT");
    expect(await add("User is an expert musician", 0.95)).toBe("NO_SOURCE_DERIVED_FACT");
    const gate = lines.filter((l) => /\[(HIGH|GATE|SKIP)\]/.test(l.msg));
    expect(gate.map((l) => [l.level, l.msg.slice(0, 6)])).toEqual([
      [30, "[HIGH]"],
      [40, "[GATE]"],
      [20, "[SKIP]"],
      [20, "[SKIP]"],
    ]);
    expect(gate.map((l) => l.reason ?? null)).toEqual([null, null, "narrative_only", "ungrounded"]);
    const all = JSON.stringify(lines);
    for (const text of ["fettuccini", "FL Studio", "Italian food", "expert musician"]) expect(all).not.toContain(text);
  });
});
