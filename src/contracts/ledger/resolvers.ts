import { Arg, Args, Ctx, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { argsTypeOf, inputTypeOf, requestOf } from "../../graphql/derived";
import { subscriptionStream } from "../../graphql/subscription";
import { ledgerData } from "./data";
import { APPROVE, DECLINE, FORGET, LEDGER_LIST, PENDING, PROPOSE, SELECT } from "./fields";
import type { LedgerNotice } from "./watch";
import {
  LedgerActionDecision,
  LedgerChange,
  LedgerContractInfo,
  LedgerDecision,
  LedgerItemDecision,
  ProposalDecision,
  ProposalListDecision,
  SelectedMemoryContextDecision,
} from "./types";

/** Inputs and arguments, derived from the operations' declarations (fields.ts) when this module loads. */
const PROPOSE_INPUT = inputTypeOf(PROPOSE);
const APPROVE_ARGS = argsTypeOf(APPROVE);
const DECLINE_ARGS = argsTypeOf(DECLINE);
const FORGET_ARGS = argsTypeOf(FORGET);
const PENDING_ARGS = argsTypeOf(PENDING);
const LEDGER_ARGS = argsTypeOf(LEDGER_LIST);
const SELECT_ARGS = argsTypeOf(SELECT);

async function subscribeToLedger({ args, context }: SubscribeResolverData<unknown, object, GatewayContext>): Promise<AsyncIterable<LedgerNotice>> {
  const { kernel, contracts } = context.services;
  const outcome = await kernel.run(contracts.ledger.operations.watch, context.principal, requestOf(LEDGER_LIST, args), context);
  return subscriptionStream("ledgerChanges", outcome);
}

/** The person's ledger (seed 003). Each method parses, runs one operation through the kernel and shapes its answer. */
@Resolver()
export class LedgerResolver {
  @Mutation(() => ProposalDecision, { description: "Offer a memory to a person (agents, adapters, the product). Stores nothing in the ledger (P54-A)." })
  async proposeMemory(@Arg("input", () => PROPOSE_INPUT) input: object, @Ctx() ctx: GatewayContext): Promise<ProposalDecision> {
    const { kernel, contracts } = ctx.services;
    return ProposalDecision.from(await kernel.run(contracts.ledger.operations.propose, ctx.principal, requestOf(PROPOSE, input), ctx));
  }

  @Query(() => ProposalListDecision, { description: "The owner's pending proposals (user tokens)." })
  async pendingProposals(@Args(() => PENDING_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<ProposalListDecision> {
    const { kernel, contracts } = ctx.services;
    return ProposalListDecision.from(await kernel.run(contracts.ledger.operations.pending, ctx.principal, requestOf(PENDING, args), ctx));
  }

  @Mutation(() => LedgerItemDecision, { description: "The owner approves, with their final wording (P54-A, P54-B, P54-C)." })
  async approveProposal(@Args(() => APPROVE_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<LedgerItemDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerItemDecision.from(await kernel.run(contracts.ledger.operations.approve, ctx.principal, requestOf(APPROVE, args), ctx));
  }

  @Mutation(() => LedgerActionDecision, { description: "The owner declines: nothing is stored and the proposed text is removed (P54-D)." })
  async declineProposal(@Args(() => DECLINE_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<LedgerActionDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerActionDecision.from(await kernel.run(contracts.ledger.operations.decline, ctx.principal, requestOf(DECLINE, args), ctx));
  }

  @Query(() => LedgerDecision, { description: "The owner's active ledger items, verbatim, with provenance (P54-B)." })
  async ledger(@Args(() => LEDGER_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<LedgerDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerDecision.from(await kernel.run(contracts.ledger.operations.list, ctx.principal, requestOf(LEDGER_LIST, args), ctx));
  }

  @Mutation(() => LedgerActionDecision, { description: "The owner forgets an item: never listed or used again (P54-E, MP-FORGET)." })
  async forgetMemory(@Args(() => FORGET_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<LedgerActionDecision> {
    const { kernel, contracts } = ctx.services;
    return LedgerActionDecision.from(await kernel.run(contracts.ledger.operations.forget, ctx.principal, requestOf(FORGET, args), ctx));
  }

  @Query(() => SelectedMemoryContextDecision, { description: "The context an assistant gets from the items the person selected, and only those (P54-F)." })
  async selectedMemoryContext(@Args(() => SELECT_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<SelectedMemoryContextDecision> {
    const { kernel, contracts } = ctx.services;
    return SelectedMemoryContextDecision.from(await kernel.run(contracts.ledger.operations.selectedContext, ctx.principal, requestOf(SELECT, args), ctx));
  }

  @Subscription(() => LedgerChange, {
    subscribe: subscribeToLedger,
    description: "The owner's proposals and ledger, live: one notice per change after subscribing (user tokens, as ledger). No content: read them again.",
  })
  ledgerChanges(@Root() notice: LedgerNotice, @Args(() => LEDGER_ARGS) _args: object): LedgerChange {
    return LedgerChange.from(notice);
  }

  @Query(() => LedgerContractInfo, { description: "The ledger's kinds, source types and attribution line in force." })
  ledgerContract(@Ctx() ctx: GatewayContext): LedgerContractInfo {
    return LedgerContractInfo.from(ledgerData(ctx.services.policy));
  }
}
