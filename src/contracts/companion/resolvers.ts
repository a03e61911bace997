import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../context";
import { AddFactInput, ConsolidateInput, DecayDecision, EraseDecision, EnvelopePurpose, FactDecision, MemoryEnvelope, PrivacyDecision, PrivacyInput } from "../types/companion";

/** Companion memory (seed 002) and consolidation (seed 004). Each method is one service call. */
@Resolver()
export class CompanionResolver {
  @Mutation(() => FactDecision, { description: "SG-TYPED SG-AUTHORITY SG-GATE SG-GROUND: add a fact extracted from a summary." })
  async addFact(@Arg("input", () => AddFactInput) input: AddFactInput, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const validTo = input.validTo ? new Date(input.validTo) : null;
    return FactDecision.from(
      await ctx.services.companion.addFact(ctx.principal, { ...input, validTo: validTo && !Number.isNaN(validTo.getTime()) ? validTo : null }, ctx),
    );
  }

  @Mutation(() => FactDecision, { description: "SG-GATE: the person confirms a held proposal." })
  async confirmProposal(@Arg("proposalId", () => ID) proposalId: string, @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    return FactDecision.from(await ctx.services.companion.confirmProposal(ctx.principal, { proposalId, subjectId }, ctx));
  }

  @Mutation(() => FactDecision, { description: "Forget a fact: inactive at once, kept for audit (MP-FORGET)." })
  async forgetFact(@Arg("memoryId", () => ID) memoryId: string, @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    return FactDecision.from(await ctx.services.companion.forgetFact(ctx.principal, { memoryId, subjectId }, ctx));
  }

  @Query(() => MemoryEnvelope, { description: "SG-ENVELOPE: the subject's active facts by type, advisory, cached." })
  async memoryEnvelope(
    @Arg("purpose", () => EnvelopePurpose) purpose: EnvelopePurpose,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("skipCache", () => Boolean, { nullable: true }) skipCache: boolean | null,
    @Arg("includeNarrative", () => Boolean, { nullable: true, description: "Asking for SHARED_NARRATIVE with a power purpose is refused (SG-WARMTH)." }) includeNarrative: boolean | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryEnvelope> {
    return MemoryEnvelope.from(await ctx.services.companion.envelope(ctx.principal, { subjectId, purpose, skipCache, includeNarrative }, ctx));
  }

  @Mutation(() => PrivacyDecision, { description: "SG-PRIVACY: the subject itself or an admin." })
  async setPrivacy(@Arg("input", () => PrivacyInput) input: PrivacyInput, @Ctx() ctx: GatewayContext): Promise<PrivacyDecision> {
    return PrivacyDecision.from(await ctx.services.companion.setPrivacy(ctx.principal, input, ctx));
  }

  @Mutation(() => EraseDecision, { description: "SPEC D1: erase the subject's companion memory (the subject itself or an admin)." })
  async eraseCompanionMemory(@Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<EraseDecision> {
    return EraseDecision.from(await ctx.services.companion.erase(ctx.principal, { subjectId }, ctx));
  }

  @Mutation(() => DecayDecision, { description: "SG-DECAY: deactivate the tenant's expired facts (admin or job)." })
  async runDecay(@Ctx() ctx: GatewayContext): Promise<DecayDecision> {
    return DecayDecision.from(await ctx.services.companion.runDecay(ctx.principal, ctx));
  }

  @Mutation(() => FactDecision, { description: "MP-CONSOLIDATE: merge facts into one ConsolidatedStatement (adapter or admin)." })
  async consolidateMemories(@Arg("input", () => ConsolidateInput) input: ConsolidateInput, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    return FactDecision.from(await ctx.services.companion.consolidate(ctx.principal, input, ctx));
  }
}
