import type { Db, MongoClient } from "mongodb";
import type { Outcome } from "../../src/kernel/outcome";
import { MongoIdempotencyStore } from "../../src/store/idempotency-store";
import { freshDatabase } from "../support/database";

/**
 * A keyed retry answers the first outcome as it was (SPEC D2): the value read back from the
 * idempotency record must be the value declared, with plain numbers and Dates, or a door that
 * copies it key by key (MCP's snake_case answer) sends `{"value": 1}` for a version and the
 * answer no longer matches the tool's outputSchema (issue 23 §1).
 */
describe("MongoIdempotencyStore", () => {
  let client: MongoClient;
  let db: Db;
  beforeAll(async () => {
    ({ client, db } = await freshDatabase());
  });
  afterAll(() => client.close());

  it("SPEC D2 (issue 23 §1): a retry reads back the declared outcome with plain numbers, Dates and its own keys", async () => {
    const store = new MongoIdempotencyStore(db);
    const createdAt = new Date("2026-01-02T03:04:05.678Z");
    const reservation = { fingerprint: "f", attempt: "a1", createdAt };
    expect(await store.reserve("key-1", reservation)).toBeNull();
    const value = { version: 1, confidence: 0.5, whole: 2.0, big: 2 ** 40, at: createdAt, $client: "kept", nested: [{ n: -0.25 }] };
    const outcome = {
      stopReason: "SUCCESS_STORED",
      explanations: [],
      decisionId: "d",
      policyVersion: "p",
      contractVersion: "c",
      value,
    } as unknown as Outcome<unknown>;
    expect(await store.declare("key-1", "a1", outcome, [])).toBe(true);
    const again = await store.reserve("key-1", { ...reservation, attempt: "a2" });
    expect(again?.outcome?.value).toEqual(value);
    const read = again?.outcome?.value as typeof value;
    expect([typeof read.version, typeof read.confidence, typeof read.whole, typeof read.big, read.at instanceof Date]).toEqual([
      "number",
      "number",
      "number",
      "number",
      true,
    ]);
    expect(Object.entries(read.nested[0])).toEqual([["n", -0.25]]);
  });
});
