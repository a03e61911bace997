import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { argsTypeOf, inputTypeOf, requestOf } from "../../graphql/derived";
import { DELETE, LIST, READ, SET_SETTINGS, STORE, UPDATE } from "./fields";
import { MemoryDecision, MemoryListDecision, MemorySettingsDecision } from "./types";

/** Inputs and arguments, derived from the operations' declarations (fields.ts) when this module loads. */
const STORE_INPUT = inputTypeOf(STORE);
const UPDATE_INPUT = inputTypeOf(UPDATE);
const SETTINGS_INPUT = inputTypeOf(SET_SETTINGS);
const DELETE_ARGS = argsTypeOf(DELETE);
const READ_ARGS = argsTypeOf(READ);
const LIST_ARGS = argsTypeOf(LIST);

/** The Phase 19 operations. Each method hands its request to the kernel; the stop reason passes through as-is. */
@Resolver()
export class GovernedResolver {
  @Mutation(() => MemoryDecision, { description: "STORE (seed 000)." })
  async storeMemory(@Arg("input", () => STORE_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.store, ctx.principal, requestOf(STORE, input), ctx));
  }

  @Mutation(() => MemoryDecision, { description: "UPDATE (seed 000, SPEC D2): a new version supersedes the live one, which stays inactive." })
  async updateMemory(@Arg("input", () => UPDATE_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.update, ctx.principal, requestOf(UPDATE, input), ctx));
  }

  @Mutation(() => MemoryDecision, { description: "DELETE (seed 000, SPEC D1): logical; the item is never read, listed or returned again." })
  async deleteMemory(@Args(() => DELETE_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    const request = requestOf(DELETE, args);
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.delete, ctx.principal, request, ctx), request.memory_id as string);
  }

  @Mutation(() => MemorySettingsDecision, { description: "Memory on/off and quotas for the tenant or a subject (admin role; C19-POLICY, C19-CAP)." })
  async setMemorySettings(@Arg("input", () => SETTINGS_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<MemorySettingsDecision> {
    const { kernel, contracts } = ctx.services;
    return MemorySettingsDecision.from(await kernel.run(contracts.governed.operations.setSettings, ctx.principal, requestOf(SET_SETTINGS, input), ctx));
  }

  @Query(() => MemoryDecision, { description: "READ one item by id (seed 000)." })
  async memory(@Args(() => READ_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<MemoryDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryDecision.from(await kernel.run(contracts.governed.operations.read, ctx.principal, requestOf(READ, args), ctx));
  }

  @Query(() => MemoryListDecision, { description: "LIST a subject's live items, newest first (seed 000); with `key`, only the items stored under that key." })
  async memories(@Args(() => LIST_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<MemoryListDecision> {
    const { kernel, contracts } = ctx.services;
    return MemoryListDecision.from(await kernel.run(contracts.governed.operations.list, ctx.principal, requestOf(LIST, args), ctx));
  }
}
