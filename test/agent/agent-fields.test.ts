import { readFileSync } from "node:fs";
import path from "node:path";
import { agentOperations } from "../../src/contracts/agent/operations";
import { boundedFieldNames, type Fields } from "../../src/kernel/fields";

const data = JSON.parse(readFileSync(path.resolve(__dirname, "..", "..", "policies", "memgate", "contracts", "agent", "data.json"), "utf8")) as {
  operations: Record<string, unknown>;
  fields: Record<string, number>;
};

/** Object fields too: a value of the wrong type there is a fact under the object's name, and every fact needs a bound. */
function objectNames(fields: Fields, prefix = ""): string[] {
  return Object.entries(fields).flatMap(([name, field]) => (field.kind === "object" ? [prefix + name, ...objectNames(field.fields, `${prefix}${name}.`)] : []));
}

describe("the agent contract's declared fields (issue 11 §1, §4)", () => {
  const operations = Object.values(agentOperations({ store: {} as never, indexes: {} as never }));

  it("C19-ITEM: every string, list and object field each operation declares has a bound in policy data, and every bound names a declared field", () => {
    const declared = new Set(operations.flatMap((op) => [...boundedFieldNames(op.fields), ...objectNames(op.fields)]));
    expect([...declared].filter((name) => !(name in data.fields))).toEqual([]);
    expect(Object.keys(data.fields).filter((name) => !declared.has(name))).toEqual([]);
  });

  it("IF1-READ IF1-WRITE IF1-UPDATE: the policy knows every declared operation of the contract, and nothing else", () => {
    // REJUDGE is the re-audit's (src/kernel/rejudge.ts: stored text judged again under a new bundle), never a door's.
    expect(operations.map((op) => op.name).sort()).toEqual(
      Object.keys(data.operations)
        .filter((name) => name !== "REJUDGE")
        .sort(),
    );
    expect(new Set(operations.map((op) => op.contract))).toEqual(new Set(["agent"]));
  });

  it("IF1-WRITE C19-FORBID: every free-text field of the seed-001 documents is declared text, so every detector reads it", () => {
    const texts = (fields: Fields, prefix = ""): string[] =>
      Object.entries(fields).flatMap(([name, field]) => {
        const full = prefix + name;
        if (field.kind === "text") return [full];
        if (field.kind === "list" && field.of.kind === "text") return [`${full}[]`];
        if (field.kind === "object") return texts(field.fields, `${full}.`);
        return [];
      });
    const all = new Set(operations.flatMap((op) => texts(op.fields)));
    expect([...all].sort()).toEqual(
      [
        "query",
        "memory.text",
        "memory.rationale",
        "memory.evidence_refs[]",
        "updates.truth.rationale",
        "updates.truth.evidence_refs[]",
        "updates.utility.rationale",
        "updates.utility.evidence_refs[]",
      ].sort(),
    );
  });
});
