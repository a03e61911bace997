import { Ctx, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../context";
import { ContractInfo } from "../types/contract-info";

@Resolver()
export class ContractResolver {
  @Query(() => ContractInfo, { description: "The contract in force: version, categories, TTLs, source kinds, stop reasons." })
  contract(@Ctx() ctx: GatewayContext): ContractInfo {
    const policy = ctx.services.policy;
    return ContractInfo.from(policy.contract, policy.hash ?? "none", policy.signerKeyId);
  }
}
