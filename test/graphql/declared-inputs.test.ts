import "reflect-metadata";
import { getNamedType, isInputObjectType, isNonNullType, type GraphQLArgument, type GraphQLInputField, type GraphQLSchema } from "graphql";
import * as agent from "../../src/contracts/agent/fields";
import * as audit from "../../src/contracts/audit/fields";
import * as companion from "../../src/contracts/companion/fields";
import * as governed from "../../src/contracts/governed/fields";
import * as ledger from "../../src/contracts/ledger/fields";
import { derivedInputType } from "../../src/graphql/derived";
import { buildGatewaySchema } from "../../src/graphql/schema";
import { camelName } from "../../src/kernel/declaration";
import { text, type Field, type Fields } from "../../src/kernel/fields";

/**
 * The older contracts' root fields are written by hand, but their GraphQL inputs and arguments
 * are derived from their operations' declarations (src/graphql/derived.ts, issue 23 §1). This
 * reads the built schema back: every declared field is a GraphQL argument or input field of a
 * matching type and nullability, and GraphQL takes nothing the operation does not declare.
 * `args`: the root field's arguments, `input`: its `input` object.
 */
const DOORS: [root: "Query" | "Mutation", field: string, fields: Fields, via: "args" | "input", naming?: (n: string) => string][] = [
  ["Mutation", "storeMemory", governed.STORE_FIELDS, "input"],
  ["Mutation", "updateMemory", governed.UPDATE_FIELDS, "input"],
  ["Mutation", "deleteMemory", governed.DELETE_FIELDS, "args"],
  ["Mutation", "setMemorySettings", governed.SET_SETTINGS_FIELDS, "input"],
  ["Query", "memory", governed.READ_FIELDS, "args"],
  ["Query", "memories", governed.LIST_FIELDS, "args"],
  ["Mutation", "proposeMemory", ledger.PROPOSE_FIELDS, "input"],
  ["Mutation", "approveProposal", ledger.APPROVE_FIELDS, "args"],
  ["Mutation", "declineProposal", ledger.DECLINE_FIELDS, "args"],
  ["Mutation", "forgetMemory", ledger.FORGET_FIELDS, "args"],
  ["Query", "ledger", ledger.LEDGER_FIELDS, "args"],
  ["Query", "pendingProposals", ledger.PENDING_FIELDS, "args"],
  ["Mutation", "addFact", companion.ADD_FACT_FIELDS, "input"],
  ["Mutation", "confirmProposal", companion.CONFIRM_PROPOSAL_FIELDS, "args"],
  ["Mutation", "forgetFact", companion.FORGET_FACT_FIELDS, "args"],
  ["Mutation", "consolidateMemories", companion.CONSOLIDATE_FIELDS, "input"],
  ["Mutation", "setPrivacy", companion.SET_PRIVACY_FIELDS, "input"],
  ["Mutation", "eraseCompanionMemory", companion.ERASE_FIELDS, "args"],
  ["Query", "memoryEnvelope", companion.ENVELOPE_FIELDS, "args"],
  ["Mutation", "eraseMemory", audit.ERASE_MEMORY_FIELDS, "args"],
  ["Mutation", "eraseSubject", audit.ERASE_SUBJECT_FIELDS, "args"],
  ["Mutation", "acknowledgeConformanceBreak", audit.ACK_CONFORMANCE_FIELDS, "args"],
  ["Mutation", "releaseQuarantine", audit.RELEASE_QUARANTINE_FIELDS, "args"],
  ["Query", "auditCheckpoints", audit.LIST_CHECKPOINTS_FIELDS, "args"],
  ["Query", "verifyAuditChain", audit.VERIFY_CHAIN_FIELDS, "args"],
  ["Query", "selectedMemoryContext", ledger.SELECT_FIELDS, "args"],
  ["Query", "agentRead", agent.READ_FIELDS, "input", (n) => n],
  ["Mutation", "agentWrite", agent.WRITE_FIELDS, "input", (n) => n],
  ["Mutation", "agentUpdate", agent.UPDATE_FIELDS, "input", (n) => n],
];

/** The GraphQL types a declared kind may be published as (strings the policy judges may be GraphQL enums). */
function accepts(field: Field, typeName: string, enumType: boolean): boolean {
  switch (field.kind) {
    case "text":
      return typeName === "String";
    case "id":
      return typeName === "ID" || typeName === "String";
    case "enum":
      return typeName === "String" || enumType;
    case "number":
      return typeName === (field.integer ? "Int" : "Float") || typeName === "Int";
    case "boolean":
      return typeName === "Boolean";
    case "json":
      return typeName === "JSON" || typeName === "JSONObject";
    case "list":
      return accepts(field.of, typeName, enumType);
    case "object":
      return true;
  }
}

function mismatches(fields: Fields, published: readonly (GraphQLArgument | GraphQLInputField)[], naming: (n: string) => string, at: string): string[] {
  const byName = new Map(published.map((p) => [p.name, p]));
  const found: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const arg = byName.get(naming(name));
    byName.delete(naming(name));
    if (!arg) {
      found.push(`${at}${naming(name)}: declared, not published`);
      continue;
    }
    const named = getNamedType(arg.type);
    if (!accepts(field, named.name, named.constructor.name === "GraphQLEnumType")) found.push(`${at}${arg.name}: ${field.kind} published as ${named.name}`);
    if (Boolean(field.required) !== isNonNullType(arg.type))
      found.push(`${at}${arg.name}: ${field.required ? "required" : "optional"} published as ${String(arg.type)}`);
    const inner = field.kind === "list" ? field.of : field;
    if (inner.kind === "object" && isInputObjectType(named))
      found.push(...mismatches(inner.fields, Object.values(named.getFields()), naming, `${at}${arg.name}.`));
  }
  for (const name of byName.keys()) found.push(`${at}${name}: published, not declared`);
  return found;
}

describe("the older contracts' GraphQL arguments against the operations' declarations", () => {
  let schema: GraphQLSchema;
  beforeAll(() => {
    schema = buildGatewaySchema();
  });

  it("C19-OPS (issue 23 §1): one GraphQL type name for two different declared shapes is refused, not published as the first", () => {
    expect(derivedInputType("ClashInput", { a: text() })).toBe(derivedInputType("ClashInput", { a: text() }));
    expect(() => derivedInputType("ClashInput", { a: text(), b: text() })).toThrow("two declarations publish different fields as the GraphQL input ClashInput");
  });

  it.each(DOORS)("C19-OPS (issue 23 §1): %s.%s takes exactly its operation's declared fields", (root, name, fields, via, naming = camelName) => {
    const field = (root === "Query" ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
    expect(field).toBeDefined();
    const input = via === "input" ? getNamedType(field.args.find((a) => a.name === "input")!.type) : undefined;
    const published = input && isInputObjectType(input) ? Object.values(input.getFields()) : field.args;
    expect(mismatches(fields, published, naming, "")).toEqual([]);
  });
});
