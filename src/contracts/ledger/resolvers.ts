import { Arg, Ctx, ID, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { subscriptionStream } from "../../graphql/subscription";
import { ledgerData } from "./data";
import type { LedgerNotice } from "./watch";
import {
  LedgerActionDecision,
  LedgerChange,
  LedgerContractInfo,
  LedgerDecision,
  LedgerItemDecision,
  ProposalDecision,
  ProposalListDecision,
  ProposeMemoryInput,
  SelectedMemoryContextDecision,
} from "./types";

async function subscribeToLedger({
  args,
  context,
}: SubscribeResolverData<unknown, { subjectId?: string | null }, GatewayContext>): Promise<AsyncIterable<LedgerNotice>> {
  const { kernel, contracts } = context.services;
  const outcome = await kernel.run(contracts.ledger.operations.watch, context.principal, { subjectId: args.subjectId ?? null }, context);
  return subscriptionStream("ledgerChanges", outcome);
}

/** The person's ledger (seed 003). Each method parses, runs one operation through the kernel and shapes its answer. */
@Resolver()
export class LedgerResolver {
  @Mutation(() => ProposalDecision, { description: "Offer a memory to a person (agents, adapters, the product). Stores nothing in the ledger (P54-A)." })
  async proposeMemory(@Arg("input", () => ProposeMemoryInput) input: ProposeMemoryInput, @Ctx() ctx: GatewayContext): Promise<ProposalDecision> {
    const { kernel, contracts } = ctx.services;
    return ProposalDecision.from(await kernel.run(contracts.ledger.operations.propose, ctx.principal, input.toRequest(), ctx));
  }

  @Query(() => ProposalListDecision, { description: "The owner's pending proposals (user tokens)." })
  async pendingProposals(@Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<ProposalListDecision> {
    const { kernel, contracts } = ctx.services;
    return ProposalListDecision.from(await kernel.run(contracts.ledger.operations.pending, ctx.principal, { subjectId }, ctx));
  }

  @Mutation(() => LedgerItemDecision, { description: "The owner approves, with their final wording (P54-A, P54-B, P54-C)." })
  async approveProposal(
    @Arg("proposalId", () => ID) proposalId: string,
    @Arg("finalText", () => String) finalText: string,
    @Ctx() ctx: GatewayContext,
  ): Promise<LedgerItemDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerItemDecision.from(await kernel.run(contracts.ledger.operations.approve, ctx.principal, { proposalId, finalText }, ctx));
  }

  @Mutation(() => LedgerActionDecision, { description: "The owner declines: nothing is stored and the proposed text is removed (P54-D)." })
  async declineProposal(@Arg("proposalId", () => ID) proposalId: string, @Ctx() ctx: GatewayContext): Promise<LedgerActionDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerActionDecision.from(await kernel.run(contracts.ledger.operations.decline, ctx.principal, { proposalId }, ctx));
  }

  @Query(() => LedgerDecision, { description: "The owner's active ledger items, verbatim, with provenance (P54-B)." })
  async ledger(@Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null, @Ctx() ctx: GatewayContext): Promise<LedgerDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerDecision.from(await kernel.run(contracts.ledger.operations.list, ctx.principal, { subjectId }, ctx));
  }

  @Mutation(() => LedgerActionDecision, { description: "The owner forgets an item: never listed or used again (P54-E, MP-FORGET)." })
  async forgetMemory(@Arg("memoryId", () => ID) memoryId: string, @Ctx() ctx: GatewayContext): Promise<LedgerActionDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerActionDecision.from(await kernel.run(contracts.ledger.operations.forget, ctx.principal, { memoryId }, ctx));
  }

  @Query(() => SelectedMemoryContextDecision, { description: "The context an assistant gets from the items the person selected, and only those (P54-F)." })
  async selectedMemoryContext(@Arg("memoryIds", () => [ID]) memoryIds: string[], @Ctx() ctx: GatewayContext): Promise<SelectedMemoryContextDecision> {
    const { kernel, contracts } = ctx.services;
    return SelectedMemoryContextDecision.from(await kernel.run(contracts.ledger.operations.selectedContext, ctx.principal, { memoryIds }, ctx));
  }

  @Subscription(() => LedgerChange, {
    subscribe: subscribeToLedger,
    description: "The owner's proposals and ledger, live: one notice per change after subscribing (user tokens, as ledger). No content: read them again.",
  })
  ledgerChanges(@Root() notice: LedgerNotice, @Arg("subjectId", () => ID, { nullable: true }) _subjectId: string | null): LedgerChange {
    return LedgerChange.from(notice);
  }

  @Query(() => LedgerContractInfo, { description: "The ledger's kinds, source types and attribution line in force." })
  ledgerContract(@Ctx() ctx: GatewayContext): LedgerContractInfo {
    return LedgerContractInfo.from(ledgerData(ctx.services.policy));
  }
}
