import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../context";
import { MemoryDecision, MemoryListDecision } from "../types/decision";
import { StoreMemoryInput } from "../types/store-memory.input";

/** The Phase 19 operations. Each method is one service call; the stop reason passes through as-is. */
@Resolver()
export class GovernedResolver {
  @Mutation(() => MemoryDecision, { description: "STORE (seed 000)." })
  async storeMemory(@Arg("input", () => StoreMemoryInput) input: StoreMemoryInput, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    return MemoryDecision.from(await ctx.services.governed.store(ctx.principal, input.toRequest(), ctx));
  }

  @Query(() => MemoryDecision, { description: "READ one item by id (seed 000)." })
  async memory(
    @Arg("memoryId", () => ID) memoryId: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryDecision> {
    return MemoryDecision.from(await ctx.services.governed.read(ctx.principal, { memoryId, subjectId }, ctx));
  }

  @Query(() => MemoryListDecision, { description: "LIST a subject's live items, newest first (seed 000)." })
  async memories(
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("category", () => String, { nullable: true }) category: string | null,
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryListDecision> {
    return MemoryListDecision.from(await ctx.services.governed.list(ctx.principal, { subjectId, category, limit, after }, ctx));
  }
}
