import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import readRequestSchema from "../../schema/json/memory.read.request.json";
import type { Services } from "../services";

/**
 * The words a model must pick from, as `enum`s in the tools' input schemas, read from the
 * contract in force (the policy bundle's data) each time tools/list is answered: a policy
 * author who adds a category or a TTL class changes what the model is offered, with no code
 * change, and a model never has to guess a value the policy would refuse as unknown.
 */
type Vocabulary = (services: Services) => readonly string[];

interface ContractData {
  categories: Record<string, unknown>;
  ttl_classes: Record<string, unknown>;
  source_kinds: string[];
}

const contract = (services: Services) => services.policy.contract as unknown as ContractData;
const contracts = <T>(services: Services, name: string): T | undefined => services.policy.data<Record<string, T | undefined>>("contracts")?.[name] ?? undefined;

const CATEGORIES: Vocabulary = (s) => Object.keys(contract(s).categories);
const TTL_CLASSES: Vocabulary = (s) => Object.keys(contract(s).ttl_classes);
const SOURCE_KINDS: Vocabulary = (s) => contract(s).source_kinds;
const LEDGER_KINDS: Vocabulary = (s) => contracts<{ kinds?: string[] }>(s, "ledger")?.kinds ?? [];
const LEDGER_SOURCE_TYPES: Vocabulary = (s) => contracts<{ source_types?: string[] }>(s, "ledger")?.source_types ?? [];
const FACT_TYPES: Vocabulary = (s) => contracts<{ fact_types?: string[] }>(s, "companion")?.fact_types ?? [];
const FACT_SOURCES: Vocabulary = (s) => contracts<{ sources?: string[] }>(s, "companion")?.sources ?? [];
const FACT_ORIGINS: Vocabulary = (s) => contracts<{ origins?: string[] }>(s, "companion")?.origins ?? [];
const PURPOSES: Vocabulary = (s) => contracts<{ purposes?: string[] }>(s, "companion")?.purposes ?? [];
/** Seed 001's kinds are its JSON Schema's (schema/json, kept byte for byte as specified). */
const AGENT_KINDS: Vocabulary = () => readRequestSchema.properties.kinds.items.enum;

/** tool → property path in its input schema (dots walk `properties`, `[]` an array's `items`) → vocabulary. */
const ENUMS: Record<string, Record<string, Vocabulary>> = {
  add_memory: { category: CATEGORIES, ttl_class: TTL_CLASSES, source_kind: SOURCE_KINDS },
  update_memory: { category: CATEGORIES, ttl_class: TTL_CLASSES, source_kind: SOURCE_KINDS },
  list_memories: { category: CATEGORIES, "kinds[]": AGENT_KINDS },
  search_memories: { "kinds[]": AGENT_KINDS },
  propose_memory: { kind: LEDGER_KINDS, "source.source_type": LEDGER_SOURCE_TYPES },
  add_fact: { type: FACT_TYPES, source: FACT_SOURCES, origin: FACT_ORIGINS },
  get_memory_envelope: { purpose: PURPOSES },
};

type Schema = { type?: unknown; properties?: Record<string, Schema>; items?: Schema; enum?: readonly string[]; [k: string]: unknown };

/** The tool definitions with the enumerations of the contract in force; unchanged when no bundle is loaded (every call fails closed then). */
export function withVocabulary(definitions: readonly Tool[], services: Services): Tool[] {
  if (!services.policy.loaded) return [...definitions];
  return definitions.map((definition) => {
    const enums = ENUMS[definition.name];
    if (!enums) return definition;
    const inputSchema = structuredClone(definition.inputSchema) as Schema;
    for (const [path, vocabulary] of Object.entries(enums)) {
      const values = vocabulary(services);
      const target = at(inputSchema, path);
      if (target && values.length > 0) target.enum = [...values];
    }
    return { ...definition, inputSchema: inputSchema as Tool["inputSchema"] };
  });
}

function at(schema: Schema, path: string): Schema | undefined {
  let node: Schema | undefined = schema;
  for (const part of path.split(".")) {
    const name = part.replace(/\[\]$/, "");
    node = node?.properties?.[name];
    if (part.endsWith("[]")) node = node?.items;
  }
  return node;
}
