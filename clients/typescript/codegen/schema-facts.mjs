// A GraphQL Code Generator plugin: what Apollo Client must know about the schema, beside the
// typed documents. possibleTypes lets the cache match fragments on the Decision interface;
// objectTypeNames lets a test check that every object type has a deliberate type policy.
import { isAbstractType, isObjectType } from "graphql";

export function plugin(schema) {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter(Boolean).map((t) => t.name));
  const possibleTypes = {};
  const objectTypeNames = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__")) continue;
    if (isAbstractType(type))
      possibleTypes[type.name] = schema
        .getPossibleTypes(type)
        .map((t) => t.name)
        .sort();
    else if (isObjectType(type) && !roots.has(type.name)) objectTypeNames.push(type.name);
  }
  objectTypeNames.sort();
  return [
    "/** Interface and union members, for Apollo Client's `possibleTypes`. */",
    `export const possibleTypes: Record<string, string[]> = ${JSON.stringify(possibleTypes)};`,
    "/** Every object type of the schema except the root types. */",
    `export const objectTypeNames: readonly string[] = ${JSON.stringify(objectTypeNames)};`,
    "",
  ].join("\n");
}
