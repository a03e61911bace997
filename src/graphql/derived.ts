import { GraphQLJSON } from "graphql-scalars";
import { Arg, Ctx, Field, Float, ID, InputType, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import type { ContractDefinition } from "../kernel/contract";
import { camelName, doorNames, pascalName, projectOutput, type OperationDeclaration } from "../kernel/declaration";
import type { Field as DeclaredField, Fields } from "../kernel/fields";
import type { Outcome } from "../kernel/outcome";
import type { GatewayContext } from "./context";
import { DecisionFields } from "./types/decision";

/**
 * GraphQL types built from declarations when the schema is built, by applying type-graphql's
 * decorators to classes made here, instead of generating TypeScript files: the declaration
 * stays the one text a reader edits, and schema/schema.graphql (checked in, with a test that
 * fails when it is stale) is the artifact clients consume. Field names are camelCase on this
 * door; a request is handed to the kernel under the declared names (toRequest).
 */

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Class = Function;
type TypeRef = Class | object | [Class | object];

const named = <T extends Class>(cls: T, name: string): T => Object.defineProperty(cls, "name", { value: name });

const built = new Map<string, Class>();

function scalarOf(field: DeclaredField, nested: () => Class): Class | object {
  switch (field.kind) {
    case "text":
    case "enum":
      return String;
    case "id":
      return field.graphqlId ? ID : String;
    case "number":
      return field.integer ? Int : Float;
    case "boolean":
      return Boolean;
    case "json":
      return GraphQLJSON;
    case "object":
      return nested();
    case "list":
      return scalarOf(field.of, nested);
  }
}

function typeOf(field: DeclaredField, nested: () => Class): TypeRef {
  const base = scalarOf(field, nested);
  return field.kind === "list" ? [base] : base;
}

/** An input class for declared fields (nested objects become `<Name><Field>Input`), built once per name. */
export function derivedInputType(name: string, fields: Fields, description?: string): Class {
  const existing = built.get(name);
  if (existing) return existing;
  const cls = named(class {}, name);
  built.set(name, cls);
  for (const [fieldName, field] of Object.entries(fields)) {
    const nestedName = `${name.replace(/Input$/, "")}${pascalName(fieldName)}Input`;
    // Nested types are decorated now: type-graphql collects every type before it resolves the thunks.
    const inner = hasObject(field) ? derivedInputType(nestedName, field.kind === "list" ? objectFields(field.of) : objectFields(field)) : undefined;
    Field(() => typeOf(field, () => inner!), {
      nullable: !field.required,
      description: field.description,
      ...(field.default !== undefined ? { defaultValue: field.default } : {}),
    })(cls.prototype, camelName(fieldName));
  }
  InputType(name, { description })(cls);
  return cls;
}

/** An object type for declared output fields, built once per name. */
export function derivedObjectType(name: string, fields: Fields, description?: string): Class {
  const existing = built.get(name);
  if (existing) return existing;
  const cls = named(class {}, name);
  built.set(name, cls);
  for (const [fieldName, field] of Object.entries(fields)) {
    const inner = hasObject(field)
      ? derivedObjectType(`${name}${pascalName(fieldName)}`, field.kind === "list" ? objectFields(field.of) : objectFields(field))
      : undefined;
    Field(() => typeOf(field, () => inner!), { nullable: !field.required, description: field.description })(cls.prototype, camelName(fieldName));
  }
  ObjectType(name, { description })(cls);
  return cls;
}

const objectFields = (field: DeclaredField): Fields => (field.kind === "object" ? field.fields : {});
const hasObject = (field: DeclaredField): boolean => field.kind === "object" || (field.kind === "list" && field.of.kind === "object");

/** A GraphQL input (camelCase) as the operation's request, under its declared names; absent fields stay absent. */
export function toRequest(fields: Fields, input: unknown): Record<string, unknown> {
  if (input === null || input === undefined || typeof input !== "object") return {};
  const source = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = source[camelName(name)];
    if (value === undefined) continue;
    out[name] = convert(field, value);
  }
  return out;
}

function convert(field: DeclaredField, value: unknown): unknown {
  if (value === null) return null;
  if (field.kind === "object") return toRequest(field.fields, value);
  if (field.kind === "list" && Array.isArray(value)) return value.map((v) => convert(field.of, v));
  return value;
}

/** A projected result (declared names) as GraphQL answers it (camelCase). */
function toGraphql(fields: Fields, value: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!value) return null;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const v = value[name];
    out[camelName(name)] =
      field.kind === "object" && v && typeof v === "object"
        ? toGraphql(field.fields, v as Record<string, unknown>)
        : field.kind === "list" && field.of.kind === "object" && Array.isArray(v)
          ? v.map((e) => toGraphql(objectFields(field.of), e as Record<string, unknown>))
          : v;
  }
  return out;
}

/** The answer type of a derived operation: the decision's stamps and, on success, `value` (its declared output). */
function resultType(declaration: OperationDeclaration): Class {
  const names = doorNames(declaration);
  const existing = built.get(names.graphqlResult);
  if (existing) return existing;
  const cls = named(class extends DecisionFields {}, names.graphqlResult);
  built.set(names.graphqlResult, cls);
  if (declaration.output) {
    const value = derivedObjectType(`${pascalName(`${declaration.contract}_${declaration.name}`)}Value`, declaration.output);
    Field(() => value, { nullable: true, description: "The result when the policy allowed the operation." })(cls.prototype, "value");
  }
  ObjectType(names.graphqlResult, { implements: DecisionFields, description: `The answer to ${declaration.contract} ${declaration.name}: one stop reason.` })(
    cls,
  );
  return cls;
}

function decisionOf(declaration: OperationDeclaration, outcome: Outcome<unknown>): Record<string, unknown> {
  const output = declaration.output;
  return {
    stopReason: outcome.stopReason,
    decisionId: outcome.decisionId,
    policyVersion: outcome.policyVersion,
    contractVersion: outcome.contractVersion,
    explanations: outcome.explanations,
    ...(output ? { value: toGraphql(output, projectOutput(output, outcome.value)) } : {}),
  };
}

/** One resolver class for an operation declared `derivedDoors`: a Query (read) or Mutation (write) taking `input`. */
export function derivedResolver(declaration: OperationDeclaration): Class {
  const names = doorNames(declaration);
  const input = derivedInputType(names.graphqlInput, declaration.fields, declaration.description);
  const result = resultType(declaration);
  const inputRequired = Object.values(declaration.fields).some((f) => f.required);
  const cls = named(class {}, `${pascalName(`${declaration.contract}_${declaration.name}`)}Resolver`);
  const method = async function (this: unknown, given: unknown, ctx: GatewayContext) {
    const module = (ctx.services.contracts as unknown as Record<string, { operations: Record<string, unknown> } | undefined>)[declaration.contract];
    const op = Object.values(module?.operations ?? {}).find(
      (o) => (o as OperationDeclaration | null)?.name === declaration.name && (o as OperationDeclaration).contract === declaration.contract,
    );
    if (!op) throw new Error(`memgate: no operation ${declaration.contract} ${declaration.name} is built`);
    const outcome = await ctx.services.kernel.run(op as never, ctx.principal, toRequest(declaration.fields, given), ctx);
    return decisionOf(declaration, outcome as Outcome<unknown>);
  };
  Object.defineProperty(cls.prototype, names.graphqlField, { value: method, writable: true, configurable: true });
  const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, names.graphqlField)!;
  Arg("input", () => input, { nullable: !inputRequired })(cls.prototype, names.graphqlField, 0);
  Ctx()(cls.prototype, names.graphqlField, 1);
  const rootField = declaration.kind === "read" ? Query : Mutation;
  rootField(() => result, { description: declaration.description })(cls.prototype, names.graphqlField, descriptor);
  Resolver()(cls);
  return cls;
}

/** Every derived resolver of the registered contracts. */
export function derivedResolvers(definitions: readonly ContractDefinition[]): Class[] {
  return definitions.flatMap((d) => (d.declarations ?? []).filter((decl) => decl.derivedDoors).map(derivedResolver));
}
