import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { vocabularyAt } from "../kernel/declaration";
import type { Services } from "../services";
import { MEMGATE_TOOLS } from "./tools";

/**
 * The words a model must pick from, as `enum`s in the tools' input schemas, read from the
 * contract in force (the policy bundle's data) each time tools/list is answered: an enumeration
 * field declares where policy data lists its values (`values` in src/contracts/<name>/fields.ts),
 * so a policy author who adds a category or a TTL class changes what the model is offered, with
 * no code change, and a model never has to guess a value the policy would refuse as unknown.
 * With no bundle loaded (every call fails closed then) the enumerations are left open.
 */
export function toolDefinitions(services: Services): Tool[] {
  const values = services.policy.loaded ? (path: string) => vocabularyAt((name) => services.policy.data<unknown>(name), path) : undefined;
  return MEMGATE_TOOLS.map((tool) => tool.describe(values));
}
