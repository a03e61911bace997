import { GraphQLJSON } from "graphql-scalars";
import { Arg, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { inputTypeOf } from "../../graphql/derived";
import { runDocument } from "./door";
import { READ, UPDATE, WRITE } from "./fields";
import type { AgentResponse } from "./response";
import { AgentReadDecision, AgentUpdateDecision, AgentWriteDecision, toDocument } from "./types";

/** The seed-001 documents as GraphQL inputs, derived from the operations' declarations (fields.ts) when this module loads. */
const READ_INPUT = inputTypeOf(READ);
const WRITE_INPUT = inputTypeOf(WRITE);
const UPDATE_INPUT = inputTypeOf(UPDATE);

/**
 * The agent interface of seed 001. Each method hands the document to the kernel with the
 * contract's declared operation (the same path as POST /v1/memory) and shapes the answer.
 */
@Resolver()
export class AgentResolver {
  @Query(() => AgentReadDecision, { description: "memory.read.request: ranked retrieval with link expansion (IF1-READ, IF1-EXPAND)." })
  async agentRead(@Arg("input", () => READ_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<AgentReadDecision> {
    return AgentReadDecision.from(await run(ctx, toDocument(input, "read"), "read"));
  }

  @Mutation(() => AgentWriteDecision, { description: "memory.write.request: an immutable memory; a change invalidates its targets (IF1-WRITE, IF1-CHANGE)." })
  async agentWrite(@Arg("input", () => WRITE_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<AgentWriteDecision> {
    return AgentWriteDecision.from(await run(ctx, toDocument(input, "write"), "write"));
  }

  @Mutation(() => AgentUpdateDecision, { description: "memory.update.request: truth and/or utility, dry_run or commit (IF1-UPDATE)." })
  async agentUpdate(@Arg("input", () => UPDATE_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<AgentUpdateDecision> {
    return AgentUpdateDecision.from(await run(ctx, toDocument(input, "update"), "update"));
  }

  @Mutation(() => GraphQLJSON, {
    description: "Any seed-001 document, raw; its `op` picks the schema. Answers the same JSON as POST /v1/memory.",
  })
  async memoryRequest(@Arg("document", () => GraphQLJSON) document: unknown, @Ctx() ctx: GatewayContext): Promise<AgentResponse> {
    return run(ctx, document);
  }
}

function run(ctx: GatewayContext, document: unknown, expected?: "read" | "write" | "update"): Promise<AgentResponse> {
  const { kernel, contracts } = ctx.services;
  return runDocument(kernel, contracts.agent.operations, ctx.principal, document, ctx, expected);
}
