import { GraphQLJSON } from "graphql-scalars";
import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { AgentResponse } from "../../agent/response";
import type { GatewayContext } from "../context";
import { AgentReadInput, AgentUpdateInput, AgentWriteInput, toDocument } from "../types/agent-inputs";
import { AgentReadDecision, AgentUpdateDecision, AgentWriteDecision } from "../types/agent-results";

/** The agent interface of seed 001. Each method is one service call, shared with POST /v1/memory. */
@Resolver()
export class AgentResolver {
  @Query(() => AgentReadDecision, { description: "memory.read.request: ranked retrieval with link expansion (IF1-READ, IF1-EXPAND)." })
  async agentRead(@Arg("input", () => AgentReadInput) input: AgentReadInput, @Ctx() ctx: GatewayContext): Promise<AgentReadDecision> {
    return AgentReadDecision.from(await ctx.services.agent.handle(ctx.principal, toDocument(input, "read"), ctx, "read"));
  }

  @Mutation(() => AgentWriteDecision, { description: "memory.write.request: an immutable memory; a change invalidates its targets (IF1-WRITE, IF1-CHANGE)." })
  async agentWrite(@Arg("input", () => AgentWriteInput) input: AgentWriteInput, @Ctx() ctx: GatewayContext): Promise<AgentWriteDecision> {
    return AgentWriteDecision.from(await ctx.services.agent.handle(ctx.principal, toDocument(input, "write"), ctx, "write"));
  }

  @Mutation(() => AgentUpdateDecision, { description: "memory.update.request: truth and/or utility, dry_run or commit (IF1-UPDATE)." })
  async agentUpdate(@Arg("input", () => AgentUpdateInput) input: AgentUpdateInput, @Ctx() ctx: GatewayContext): Promise<AgentUpdateDecision> {
    return AgentUpdateDecision.from(await ctx.services.agent.handle(ctx.principal, toDocument(input, "update"), ctx, "update"));
  }

  @Mutation(() => GraphQLJSON, {
    description: "Any seed-001 document, raw; its `op` picks the schema. Answers the same JSON as POST /v1/memory.",
  })
  async memoryRequest(@Arg("document", () => GraphQLJSON) document: unknown, @Ctx() ctx: GatewayContext): Promise<AgentResponse> {
    return ctx.services.agent.handle(ctx.principal, document, ctx);
  }
}
