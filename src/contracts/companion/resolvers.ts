import { Arg, Args, Ctx, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { argsTypeOf, inputTypeOf, requestOf } from "../../graphql/derived";
import { ADD_FACT, CONFIRM_PROPOSAL, CONSOLIDATE, ENVELOPE, ERASE, FORGET_FACT, SET_PRIVACY } from "./fields";
import { DecayDecision, EraseDecision, FactDecision, MemoryEnvelope, PrivacyDecision } from "./types";

/** Inputs and arguments, derived from the operations' declarations (fields.ts) when this module loads. */
const ADD_FACT_INPUT = inputTypeOf(ADD_FACT);
const PRIVACY_INPUT = inputTypeOf(SET_PRIVACY);
const CONSOLIDATE_INPUT = inputTypeOf(CONSOLIDATE);
const CONFIRM_ARGS = argsTypeOf(CONFIRM_PROPOSAL);
const FORGET_ARGS = argsTypeOf(FORGET_FACT);
const ENVELOPE_ARGS = argsTypeOf(ENVELOPE);
const ERASE_ARGS = argsTypeOf(ERASE);

/**
 * Companion memory (seed 002) and consolidation (seed 004). Each method hands its arguments
 * to the kernel with the contract's declared operation and shapes the answer; nothing else.
 */
@Resolver()
export class CompanionResolver {
  @Mutation(() => FactDecision, { description: "SG-TYPED SG-AUTHORITY SG-GATE SG-GROUND: add a fact extracted from a summary." })
  async addFact(@Arg("input", () => ADD_FACT_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.addFact, ctx.principal, requestOf(ADD_FACT, input), ctx));
  }

  @Mutation(() => FactDecision, { description: "SG-GATE: the person confirms a held proposal." })
  async confirmProposal(@Args(() => CONFIRM_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.confirmProposal, ctx.principal, requestOf(CONFIRM_PROPOSAL, args), ctx));
  }

  @Mutation(() => FactDecision, { description: "Forget a fact: inactive at once, kept for audit (MP-FORGET)." })
  async forgetFact(@Args(() => FORGET_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.forgetFact, ctx.principal, requestOf(FORGET_FACT, args), ctx));
  }

  @Query(() => MemoryEnvelope, { description: "SG-ENVELOPE: the subject's active facts by type, advisory, cached." })
  async memoryEnvelope(@Args(() => ENVELOPE_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<MemoryEnvelope> {
    const { kernel, contracts } = ctx.services;
    return MemoryEnvelope.from(await kernel.run(contracts.companion.operations.envelope, ctx.principal, requestOf(ENVELOPE, args), ctx));
  }

  @Mutation(() => PrivacyDecision, { description: "SG-PRIVACY: the subject itself or an admin." })
  async setPrivacy(@Arg("input", () => PRIVACY_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<PrivacyDecision> {
    const { kernel, contracts } = ctx.services;
    return PrivacyDecision.from(await kernel.run(contracts.companion.operations.setPrivacy, ctx.principal, requestOf(SET_PRIVACY, input), ctx));
  }

  @Mutation(() => EraseDecision, { description: "SPEC D1: erase the subject's companion memory (the subject itself or an admin)." })
  async eraseCompanionMemory(@Args(() => ERASE_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<EraseDecision> {
    const { kernel, contracts } = ctx.services;
    return EraseDecision.from(await kernel.run(contracts.companion.operations.erase, ctx.principal, requestOf(ERASE, args), ctx));
  }

  @Mutation(() => DecayDecision, { description: "SG-DECAY: deactivate the tenant's expired facts (admin or job)." })
  async runDecay(@Ctx() ctx: GatewayContext): Promise<DecayDecision> {
    const { kernel, contracts } = ctx.services;
    return DecayDecision.from(await kernel.run(contracts.companion.operations.runDecay, ctx.principal, {}, ctx));
  }

  @Mutation(() => FactDecision, { description: "MP-CONSOLIDATE: merge facts into one ConsolidatedStatement (adapter or admin)." })
  async consolidateMemories(@Arg("input", () => CONSOLIDATE_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.consolidate, ctx.principal, requestOf(CONSOLIDATE, input), ctx));
  }
}
