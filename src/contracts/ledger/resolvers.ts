import { Arg, Ctx, ID, Mutation, Query, Resolver } from "type-graphql";
import type { LedgerData } from "../../contracts/ledger.service";
import type { GatewayContext } from "../context";
import {
  LedgerActionDecision,
  LedgerContractInfo,
  LedgerDecision,
  LedgerItemDecision,
  ProposalDecision,
  ProposalListDecision,
  SelectedMemoryContextDecision,
} from "../types/ledger";
import { ProposeMemoryInput } from "../types/ledger-input";

/** The person's ledger (seed 003). Each method is one service call; the stop reason passes through as-is. */
@Resolver()
export class LedgerResolver {
  @Mutation(() => ProposalDecision, { description: "Offer a memory to a person (agents, adapters, the product). Stores nothing in the ledger (P54-A)." })
  async proposeMemory(@Arg("input", () => ProposeMemoryInput) input: ProposeMemoryInput, @Ctx() ctx: GatewayContext): Promise<ProposalDecision> {
    return ProposalDecision.from(await ctx.services.ledger.propose(ctx.principal, input.toRequest(), ctx));
  }

  @Query(() => ProposalListDecision, { description: "The owner's pending proposals (user tokens)." })
  async pendingProposals(@Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<ProposalListDecision> {
    return ProposalListDecision.from(await ctx.services.ledger.pending(ctx.principal, subjectId, ctx));
  }

  @Mutation(() => LedgerItemDecision, { description: "The owner approves, with their final wording (P54-A, P54-B, P54-C)." })
  async approveProposal(
    @Arg("proposalId", () => ID) proposalId: string,
    @Arg("finalText", () => String) finalText: string,
    @Ctx() ctx: GatewayContext,
  ): Promise<LedgerItemDecision> {
    return LedgerItemDecision.from(await ctx.services.ledger.approve(ctx.principal, proposalId, finalText, ctx));
  }

  @Mutation(() => LedgerActionDecision, { description: "The owner declines: nothing is stored and the proposed text is removed (P54-D)." })
  async declineProposal(@Arg("proposalId", () => ID) proposalId: string, @Ctx() ctx: GatewayContext): Promise<LedgerActionDecision> {
    return LedgerActionDecision.from(await ctx.services.ledger.decline(ctx.principal, proposalId, ctx));
  }

  @Query(() => LedgerDecision, { description: "The owner's active ledger items, verbatim, with provenance (P54-B)." })
  async ledger(@Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<LedgerDecision> {
    return LedgerDecision.from(await ctx.services.ledger.list(ctx.principal, subjectId, ctx));
  }

  @Mutation(() => LedgerActionDecision, { description: "The owner forgets an item: never listed or used again (P54-E, MP-FORGET)." })
  async forgetMemory(@Arg("memoryId", () => ID) memoryId: string, @Ctx() ctx: GatewayContext): Promise<LedgerActionDecision> {
    return LedgerActionDecision.from(await ctx.services.ledger.forget(ctx.principal, memoryId, ctx));
  }

  @Query(() => SelectedMemoryContextDecision, { description: "The context an assistant gets from the items the person selected, and only those (P54-F)." })
  async selectedMemoryContext(@Arg("memoryIds", () => [ID]) memoryIds: string[], @Ctx() ctx: GatewayContext): Promise<SelectedMemoryContextDecision> {
    return SelectedMemoryContextDecision.from(await ctx.services.ledger.selectedContext(ctx.principal, memoryIds, ctx));
  }

  @Query(() => LedgerContractInfo, { description: "The ledger's kinds, source types and attribution line in force." })
  ledgerContract(@Ctx() ctx: GatewayContext): LedgerContractInfo {
    return LedgerContractInfo.from(ctx.services.policy.data<LedgerData>("ledger"));
  }
}
