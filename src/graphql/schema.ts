import "reflect-metadata";
import type { GraphQLSchema } from "graphql";
import { buildSchemaSync, type NonEmptyArray } from "type-graphql";
import { AuditResolver } from "../contracts/audit/resolvers";
import { AgentResolver } from "../contracts/agent/resolvers";
import { CompanionResolver } from "../contracts/companion/resolvers";
import { ContractResolver } from "./resolvers/contract.resolver";
import { GovernedResolver } from "../contracts/governed/resolvers";
import { LedgerResolver } from "../contracts/ledger/resolvers";
import { ReauditResolver } from "../contracts/audit/reaudit-resolvers";
import { MeResolver } from "./resolvers/me.resolver";

/** Every resolver of the gateway; a contract adds its resolver here. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const RESOLVERS: NonEmptyArray<Function> = [
  ContractResolver,
  GovernedResolver,
  LedgerResolver,
  AuditResolver,
  AgentResolver,
  CompanionResolver,
  ReauditResolver,
  MeResolver,
];

let schema: GraphQLSchema | undefined;

/**
 * type-graphql insists on a PubSub once any subscription exists. memgate has no in-process
 * bus: subscriptions read the log (src/audit/event-source.ts), so publishing is refused.
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
