import { GraphQLJSON } from "graphql-scalars";
import { Arg, ArgsType, Ctx, Field, Float, ID, InputType, Int, Mutation, ObjectType, Query, registerEnumType, Resolver } from "type-graphql";
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
 * door (unless the declaration keeps its own); a request is handed to the kernel under the
 * declared names (toRequest). The older contracts' resolvers are written by hand, but their
 * inputs come from here too (inputTypeOf, argsTypeOf, requestOf).
 */

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Class = Function;
type TypeRef = Class | object | [Class | object];

const named = <T extends Class>(cls: T, name: string): T => Object.defineProperty(cls, "name", { value: name });

type Naming = (name: string) => string;

const built = new Map<string, Class>();
/** The fields each input type was built from: one name publishing two different shapes is a declaration error. */
const builtFrom = new Map<string, Fields>();
const enums = new Map<string, object>();

const namingOf = (declaration: Pick<OperationDeclaration, "graphqlNaming">): Naming => (declaration.graphqlNaming === "declared" ? (name) => name : camelName);

/** The GraphQL enum of an enumeration declared with `choices` and `graphqlName`, registered once per name (output types may publish it too). */
export function graphqlEnum(field: DeclaredField): object {
  if (field.kind !== "enum" || !field.graphqlName || !field.choices) throw new Error("memgate: a GraphQL enum is an enumeration with graphqlName and choices");
  const existing = enums.get(field.graphqlName);
  if (existing) return existing;
  const values = Object.fromEntries(field.choices.map((value) => [value, value]));
  registerEnumType(values, { name: field.graphqlName, description: field.description });
  enums.set(field.graphqlName, values);
  return values;
}

function scalarOf(field: DeclaredField, nested: () => Class): Class | object {
  switch (field.kind) {
    case "text":
      return String;
    case "enum":
      return field.choices && field.graphqlName ? graphqlEnum(field) : String;
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

/** Decorates `cls` with one GraphQL field per declared field; nested objects become input types (`graphqlName`, else `<Name><Field>Input`). */
function decorateInputFields(cls: Class, name: string, fields: Fields, naming: Naming): void {
  for (const [fieldName, field] of Object.entries(fields)) {
    const object = field.kind === "list" ? field.of : field;
    // Nested types are decorated now: type-graphql collects every type before it resolves the thunks.
    const inner =
      object.kind === "object"
        ? derivedInputType(
            object.graphqlName ?? `${name.replace(/(Input|Args)$/, "")}${pascalName(fieldName)}Input`,
            object.fields,
            object.description ?? field.description,
            naming,
          )
        : undefined;
    // Enums are registered now too, for the same reason.
    const type = typeOf(field, () => inner!);
    Field(() => type, {
      nullable: !field.required,
      description: field.description,
      ...(field.default !== undefined ? { defaultValue: field.default } : {}),
    })((cls as { prototype: object }).prototype, naming(fieldName));
  }
}

/** An input class for declared fields, built once per name. */
export function derivedInputType(name: string, fields: Fields, description?: string, naming: Naming = camelName): Class {
  const existing = built.get(name);
  if (existing) {
    if (builtFrom.get(name) !== fields && JSON.stringify(builtFrom.get(name)) !== JSON.stringify(fields))
      throw new Error(`memgate: two declarations publish different fields as the GraphQL input ${name}`);
    return existing;
  }
  const cls = named(class {}, name);
  built.set(name, cls);
  builtFrom.set(name, fields);
  decorateInputFields(cls, name, fields, naming);
  InputType(name, { description })(cls);
  return cls;
}

/** A hand-written root field's `input` type: the operation's declared fields under its `graphqlInput` name. */
export function inputTypeOf(declaration: OperationDeclaration): Class {
  if (!declaration.graphqlInput) throw new Error(`memgate: ${declaration.contract} ${declaration.name} declares no graphqlInput`);
  return derivedInputType(declaration.graphqlInput, declaration.fields, declaration.description, namingOf(declaration));
}

/** A hand-written root field's arguments (for `@Args`): one per declared field, built once per operation. */
export function argsTypeOf(declaration: OperationDeclaration): Class {
  const name = `${pascalName(`${declaration.contract}_${declaration.name}`)}Args`;
  const existing = built.get(name);
  if (existing) return existing;
  const cls = named(class {}, name);
  built.set(name, cls);
  decorateInputFields(cls, name, declaration.fields, namingOf(declaration));
  ArgsType()(cls);
  return cls;
}

/** The operation's request from its GraphQL input or arguments: declared names, absent fields absent. */
export function requestOf(declaration: OperationDeclaration, given: unknown): Record<string, unknown> {
  return toRequest(declaration.fields, given, namingOf(declaration));
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
    const type = typeOf(field, () => inner!);
    Field(() => type, { nullable: !field.required, description: field.description })(cls.prototype, camelName(fieldName));
  }
  ObjectType(name, { description })(cls);
  return cls;
}

const objectFields = (field: DeclaredField): Fields => (field.kind === "object" ? field.fields : {});
const hasObject = (field: DeclaredField): boolean => field.kind === "object" || (field.kind === "list" && field.of.kind === "object");

/** A GraphQL input (camelCase) as the operation's request, under its declared names; absent fields stay absent. */
export function toRequest(fields: Fields, input: unknown, naming: Naming = camelName): Record<string, unknown> {
  if (input === null || input === undefined || typeof input !== "object") return {};
  const source = input as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(fields)) {
    const value = source[naming(name)];
    if (value === undefined) continue;
    out[name] = convert(field, value, naming);
  }
  return out;
}

function convert(field: DeclaredField, value: unknown, naming: Naming): unknown {
  if (value === null) return null;
  if (field.kind === "object") return toRequest(field.fields, value, naming);
  if (field.kind === "list" && Array.isArray(value)) return value.map((v) => convert(field.of, v, naming));
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
