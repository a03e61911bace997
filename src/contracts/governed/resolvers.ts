import { Arg, Ctx, ID, Int, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import {
  deleteRequest,
  listRequest,
  MemoryDecision,
  MemoryListDecision,
  MemorySettingsDecision,
  MemorySettingsInput,
  readRequest,
  StoreMemoryInput,
  UpdateMemoryInput,
} from "./types";

/** The Phase 19 operations. Each method hands its request to the kernel; the stop reason passes through as-is. */
@Resolver()
export class GovernedResolver {
  @Mutation(() => MemoryDecision, { description: "STORE (seed 000)." })
  async storeMemory(@Arg("input", () => StoreMemoryInput) input: StoreMemoryInput, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.store, ctx.principal, input.toRequest(), ctx));
  }

  @Mutation(() => MemoryDecision, { description: "UPDATE (seed 000, SPEC D2): a new version supersedes the live one, which stays inactive." })
  async updateMemory(@Arg("input", () => UpdateMemoryInput) input: UpdateMemoryInput, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.update, ctx.principal, input.toRequest(), ctx));
  }

  @Mutation(() => MemoryDecision, { description: "DELETE (seed 000, SPEC D1): logical; the item is never read, listed or returned again." })
  async deleteMemory(
    @Arg("memoryId", () => ID) memoryId: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("reason", () => String, { nullable: true }) reason: string | null,
    @Arg("expectedVersion", () => Int, { nullable: true }) expectedVersion: number | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(
      await kernel.run(contracts.governed.operations.delete, ctx.principal, deleteRequest(memoryId, subjectId, reason, expectedVersion), ctx),
      memoryId,
    );
  }

  @Mutation(() => MemorySettingsDecision, { description: "Memory on/off and quotas for the tenant or a subject (admin role; C19-POLICY, C19-CAP)." })
  async setMemorySettings(@Arg("input", () => MemorySettingsInput) input: MemorySettingsInput, @Ctx() ctx: GatewayContext): Promise<MemorySettingsDecision> {
    const { kernel, contracts } = ctx.services;
    return MemorySettingsDecision.from(await kernel.run(contracts.governed.operations.setSettings, ctx.principal, input.toRequest(), ctx));
  }

  @Query(() => MemoryDecision, { description: "READ one item by id (seed 000)." })
  async memory(
    @Arg("memoryId", () => ID) memoryId: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.read, ctx.principal, readRequest(memoryId, subjectId), ctx));
  }

  @Query(() => MemoryListDecision, { description: "LIST a subject's live items, newest first (seed 000); with `key`, only the items stored under that key." })
  async memories(
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("category", () => String, { nullable: true }) category: string | null,
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Arg("after", () => String, { nullable: true }) after: string | null,
    @Arg("key", () => String, { nullable: true, description: "Only the items stored under this key (a lookup by the caller's own key)." }) key: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryListDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryListDecision.from(
      await kernel.run(contracts.governed.operations.list, ctx.principal, listRequest(subjectId, category, limit, after, key), ctx),
    );
  }
}
