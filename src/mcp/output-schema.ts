import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { jsonSchemaOf, snakeName, type JsonSchema } from "../kernel/declaration";
import type { Fields } from "../kernel/fields";
import { DECISION_STAMP_PROPERTIES, DECISION_STAMP_REQUIRED } from "../kernel/outcome";

type Properties = Record<string, JsonSchema>;

/**
 * The JSON Schema of declared answer fields, snake_case as this door answers: nothing
 * undeclared, and a value may be null (a refusal answers no item) except where the field is
 * declared `required`, which the answer always carries, never null (an item's id, say).
 */
function answerSchemaOf(fields: Fields, description?: string): JsonSchema {
  return requireDeclared(jsonSchemaOf(fields, { naming: snakeName, nullable: true }, description), fields);
}

function requireDeclared(schema: JsonSchema, fields: Fields): JsonSchema {
  const properties: Properties = { ...(schema.properties as Properties) };
  const required: string[] = [];
  for (const [name, field] of Object.entries(fields)) {
    const key = snakeName(name);
    let property = properties[key];
    if (field.kind === "object") property = requireDeclared(property, field.fields);
    if (field.kind === "list" && field.of.kind === "object") property = { ...property, items: requireDeclared(property.items as JsonSchema, field.of.fields) };
    if (field.required) {
      required.push(key);
      property = notNull(property);
    }
    properties[key] = property;
  }
  return { ...schema, properties, ...(required.length > 0 ? { required } : {}) };
}

const notNull = (schema: JsonSchema): JsonSchema =>
  Array.isArray(schema.type) ? { ...schema, type: (schema.type as string[]).find((t) => t !== "null") } : schema;

/**
 * A tool's outputSchema: the decision stamps every answer carries, then the declared answers of
 * the operations it runs (a tool over two stores runs one of two, so a name both declare, such
 * as `memory`, admits either: `anyOf`). Closed: structuredContent carries nothing undeclared,
 * for a success as for a refusal (the SDK client validates it against this schema).
 */
export function toolOutputSchema(...answers: Fields[]): Tool["outputSchema"] {
  const properties: Properties = { ...(DECISION_STAMP_PROPERTIES as unknown as Properties) };
  for (const answer of answers) {
    for (const [name, schema] of Object.entries(answerSchemaOf(answer).properties as Properties)) {
      const held = properties[name];
      properties[name] = held && JSON.stringify(held) !== JSON.stringify(schema) ? { anyOf: [...((held.anyOf as JsonSchema[]) ?? [held]), schema] } : schema;
    }
  }
  return { type: "object", properties, required: [...DECISION_STAMP_REQUIRED], additionalProperties: false } as Tool["outputSchema"];
}
