import { readFileSync } from "node:fs";
import path from "node:path";
import { emittedSdl } from "../../scripts/emit-schema";
import { STOP_REASONS } from "../../src/kernel/outcome";
import { loadBundle } from "../../src/policy/bundle";
import { POLICY_BUNDLE } from "../support/gateway";

describe("the public GraphQL shape", () => {
  it("schema/schema.graphql is what the resolvers emit (run `npm run schema:emit` when this fails)", () => {
    const checkedIn = readFileSync(path.resolve(__dirname, "..", "..", "schema", "schema.graphql"), "utf8");
    expect(checkedIn).toBe(emittedSdl());
  });

  it("C19-STOP D3: the StopReason enum is exactly the policy's priority list", async () => {
    const bundle = await loadBundle(POLICY_BUNDLE);
    expect([...STOP_REASONS]).toEqual(bundle.data.memgate.contract.priority);
  });
});
