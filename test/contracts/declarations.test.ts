import { readFileSync } from "node:fs";
import path from "node:path";
import { DELETE_FIELDS, STORE_FIELDS } from "../../src/contracts/governed/fields";
import { declarationProblems, type ContractModule } from "../../src/kernel/contract";
import { erasedFields, jsonSchemaOf, snakeName, storedTexts, withoutFields } from "../../src/kernel/declaration";
import { enumeration, object, text, type Fields } from "../../src/kernel/fields";
import { STOP_REASONS } from "../../src/kernel/outcome";
import { startTestGateway } from "../support/gateway";

const ROOT = path.resolve(__dirname, "..", "..");
const policy = (file: string) => JSON.parse(readFileSync(path.join(ROOT, "policies", "memgate", file), "utf8"));

const moduleWith = (fields: Fields, rejudge = false): ContractModule =>
  ({ name: "demo", operations: { write: { contract: "demo", name: "WRITE", fields } }, stores: [], rejudge: rejudge ? [{}] : [] }) as unknown as ContractModule;

/** Issue 23 item 1: one declaration per operation; what start-up checks against it, and what is derived from it. */
describe("operation declarations", () => {
  it("C19-STOP: STOP_REASONS is the policy's priority list, in its order", () => {
    expect([...STOP_REASONS]).toEqual(policy("contract/data.json").priority);
  });

  it("C19-ITEM: a declared field without a bound, a bound without a field, and stored text nothing re-judges are start-up problems", () => {
    const problems = declarationProblems([moduleWith({ note: text({ stored: true }), kind: enumeration() })], () => ({ note: 100, colour: 16 }));
    expect(problems).toEqual([
      'demo: the field "kind" has no bound in policies/memgate/contracts/demo/data.json "fields"',
      'demo: the bound "colour" names no declared field',
      "demo: WRITE store text but the contract offers no re-judge target",
    ]);
    expect(declarationProblems([moduleWith({ note: text({ stored: true }) }, true)], () => ({ note: 100 }))).toEqual([]);
  });

  it("C19-ITEM: the gateway starts with every contract's declarations matching the policy's bounds (it refuses to start otherwise)", async () => {
    const gw = await startTestGateway();
    await gw.stop();
  });

  it("MP-BREAK SPEC-D1 (issue 23 §1): re-judged text and erased fields are the fields declared stored, by their declared names", () => {
    const record = { key: "tone", value: "concise", source_ref: "", consent: { explicit: true, evidence_ref: "msg-1" }, category: "PREFERENCE" };
    expect(storedTexts(STORE_FIELDS, record)).toEqual({ key: "tone", value: "concise", "consent.evidence_ref": "msg-1" });
    expect(erasedFields({ a: text({ stored: true }), b: text(), c: object({ d: text() }, { stored: true, storedAs: "kept_c" }) })).toEqual(["a", "kept_c"]);
    expect(erasedFields(STORE_FIELDS, DELETE_FIELDS)).toEqual(["consent.evidence_ref", "delete_reason", "key", "source_ref", "value"]);
    expect(withoutFields({ ...record, delete_reason: "moved" }, erasedFields(STORE_FIELDS, DELETE_FIELDS))).toEqual({
      consent: { explicit: true },
      category: "PREFERENCE",
    });
    expect(record.consent.evidence_ref).toBe("msg-1"); // copied, never changed in place
  });

  it("C19-OPS: a JSON Schema derived from a declaration names fields for the door, marks required ones and takes enumerations from policy data", () => {
    const schema = jsonSchemaOf(STORE_FIELDS, { naming: snakeName, values: (p) => (p === "contract.ttl_classes" ? ["SHORT", "LONG"] : undefined) });
    expect(schema).toMatchObject({
      type: "object",
      additionalProperties: false,
      required: ["category", "key", "value", "source_kind", "ttl_class"],
      properties: { ttl_class: { type: "string", enum: ["SHORT", "LONG"] }, consent: { type: "object", properties: { evidence_ref: { type: "string" } } } },
    });
  });
});
