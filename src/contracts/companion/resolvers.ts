import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import {
  AddFactInput,
  ConsolidateInput,
  DecayDecision,
  EraseDecision,
  EnvelopePurpose,
  FactDecision,
  MemoryEnvelope,
  PrivacyDecision,
  PrivacyInput,
} from "./types";

/**
 * Companion memory (seed 002) and consolidation (seed 004). Each method hands its arguments
 * to the kernel with the contract's declared operation and shapes the answer; nothing else.
 */
@Resolver()
export class CompanionResolver {
  @Mutation(() => FactDecision, { description: "SG-TYPED SG-AUTHORITY SG-GATE SG-GROUND: add a fact extracted from a summary." })
  async addFact(@Arg("input", () => AddFactInput) input: AddFactInput, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.addFact, ctx.principal, input, ctx));
  }

  @Mutation(() => FactDecision, { description: "SG-GATE: the person confirms a held proposal." })
  async confirmProposal(
    @Arg("proposalId", () => ID) proposalId: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.confirmProposal, ctx.principal, { proposalId, subjectId }, ctx));
  }

  @Mutation(() => FactDecision, { description: "Forget a fact: inactive at once, kept for audit (MP-FORGET)." })
  async forgetFact(
    @Arg("memoryId", () => ID) memoryId: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.forgetFact, ctx.principal, { memoryId, subjectId }, ctx));
  }

  @Query(() => MemoryEnvelope, { description: "SG-ENVELOPE: the subject's active facts by type, advisory, cached." })
  async memoryEnvelope(
    @Arg("purpose", () => EnvelopePurpose) purpose: EnvelopePurpose,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("skipCache", () => Boolean, { nullable: true }) skipCache: boolean | null,
    @Arg("includeNarrative", () => Boolean, { nullable: true, description: "Asking for SHARED_NARRATIVE with a power purpose is refused (SG-WARMTH)." })
    includeNarrative: boolean | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<MemoryEnvelope> {
    const { kernel, contracts } = ctx.services;
    return MemoryEnvelope.from(
      await kernel.run(contracts.companion.operations.envelope, ctx.principal, { subjectId, purpose, skipCache, includeNarrative }, ctx),
    );
  }

  @Mutation(() => PrivacyDecision, { description: "SG-PRIVACY: the subject itself or an admin." })
  async setPrivacy(@Arg("input", () => PrivacyInput) input: PrivacyInput, @Ctx() ctx: GatewayContext): Promise<PrivacyDecision> {
    const { kernel, contracts } = ctx.services;
    return PrivacyDecision.from(await kernel.run(contracts.companion.operations.setPrivacy, ctx.principal, input, ctx));
  }

  @Mutation(() => EraseDecision, { description: "SPEC D1: erase the subject's companion memory (the subject itself or an admin)." })
  async eraseCompanionMemory(@Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<EraseDecision> {
    const { kernel, contracts } = ctx.services;
    return EraseDecision.from(await kernel.run(contracts.companion.operations.erase, ctx.principal, { subjectId }, ctx));
  }

  @Mutation(() => DecayDecision, { description: "SG-DECAY: deactivate the tenant's expired facts (admin or job)." })
  async runDecay(@Ctx() ctx: GatewayContext): Promise<DecayDecision> {
    const { kernel, contracts } = ctx.services;
    return DecayDecision.from(await kernel.run(contracts.companion.operations.runDecay, ctx.principal, {}, ctx));
  }

  @Mutation(() => FactDecision, { description: "MP-CONSOLIDATE: merge facts into one ConsolidatedStatement (adapter or admin)." })
  async consolidateMemories(@Arg("input", () => ConsolidateInput) input: ConsolidateInput, @Ctx() ctx: GatewayContext): Promise<FactDecision> {
    const { kernel, contracts } = ctx.services;
    return FactDecision.from(await kernel.run(contracts.companion.operations.consolidate, ctx.principal, input, ctx));
  }
}
