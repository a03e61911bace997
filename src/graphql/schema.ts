import "reflect-metadata";
import type { GraphQLSchema } from "graphql";
import { buildSchemaSync, type NonEmptyArray } from "type-graphql";
import { ContractResolver } from "./resolvers/contract.resolver";
import { GovernedResolver } from "./resolvers/governed.resolver";
import { LedgerResolver } from "./resolvers/ledger.resolver";

/** Every resolver of the gateway; a contract adds its resolver here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [ContractResolver, GovernedResolver, LedgerResolver];

let schema: GraphQLSchema | undefined;

/**
 * Built once per process. Validation stays off (type-graphql's default), so bad values
 * reach the policy and get a stop reason (SPEC D3a) instead of a GraphQL error.
 */
export function buildGatewaySchema(): GraphQLSchema {
  schema ??= buildSchemaSync({ resolvers: RESOLVERS, validate: false });
  return schema;
}
