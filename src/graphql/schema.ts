import "reflect-metadata";
import type { GraphQLSchema } from "graphql";
import { buildSchemaSync, type NonEmptyArray } from "type-graphql";
import { CONTRACT_DEFINITIONS } from "../contracts";
import { derivedResolvers } from "./derived";
import { ContractResolver } from "./resolvers/contract.resolver";
import { MeResolver } from "./resolvers/me.resolver";

/**
 * Every resolver of the gateway: the gateway's own, each contract's hand-written ones, and one
 * derived from every operation declared `derivedDoors` (src/graphql/derived.ts). A contract
 * adds nothing here: its entry in src/contracts/index.ts brings them.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [
  ContractResolver,
  MeResolver,
  ...CONTRACT_DEFINITIONS.flatMap((contract) => contract.resolvers ?? []),
  ...derivedResolvers(CONTRACT_DEFINITIONS),
];

let schema: GraphQLSchema | undefined;

/**
 * type-graphql insists on a PubSub once any subscription exists. memgate has no in-process
 * bus: subscriptions read the log (src/store/log/event-source.ts), so publishing is refused.
 */
const NO_BUS = {
  publish(): never {
    throw new Error("memgate subscriptions read the event log; there is no in-process bus");
  },
  subscribe(): never {
    throw new Error("memgate subscriptions read the event log; there is no in-process bus");
  },
};

/**
 * Built once per process. Validation stays off (type-graphql's default), so bad values
 * reach the policy and get a stop reason (SPEC D3a) instead of a GraphQL error.
 */
export function buildGatewaySchema(): GraphQLSchema {
  schema ??= buildSchemaSync({ resolvers: RESOLVERS, validate: false, pubSub: NO_BUS });
  return schema;
}
