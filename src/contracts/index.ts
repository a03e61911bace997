import type { ContractDefinition, ContractDeps } from "../kernel/contract";
import { agent } from "./agent";
import { audit } from "./audit";
import { companion } from "./companion";
import { governed } from "./governed";
import { ledger } from "./ledger";

/**
 * Every contract of the gateway, one entry each (`npm run new-contract -- <name>` adds one).
 * The composition root builds them with the same dependencies; their stores are then reachable
 * by repair and erasure, their re-judge targets by the re-audit, the doors find their
 * operations here (typed) to hand them to the kernel, and GraphQL, MCP and REST/OpenAPI publish
 * their declared operations (src/kernel/declaration.ts).
 */
export const CONTRACTS = {
  companion,
  audit,
  ledger,
  agent,
  governed,
};

type Built<D> = D extends ContractDefinition<infer M> ? M : never;
export type Contracts = { [K in keyof typeof CONTRACTS]: Built<(typeof CONTRACTS)[K]> };

export const CONTRACT_DEFINITIONS: readonly ContractDefinition[] = Object.values(CONTRACTS) as readonly ContractDefinition[];

export function createContracts(deps: ContractDeps): Contracts {
  return Object.fromEntries(Object.entries(CONTRACTS).map(([name, definition]) => [name, (definition as ContractDefinition).create(deps)])) as Contracts;
}
