import { Arg, Ctx, ID, Int, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { subscriptionStream } from "../../graphql/subscription";
import type { MemoryEvent } from "../../store/event-log";
import { AcknowledgementDecision, AuditCheckpointList, ChainVerification, ErasureDecision, MemoryEventView } from "./types";

async function subscribeToEvents({
  args,
  context,
}: SubscribeResolverData<unknown, { afterSeq?: number | null }, GatewayContext>): Promise<AsyncIterable<MemoryEvent>> {
  const { kernel, contracts } = context.services;
  const outcome = await kernel.run(contracts.audit.operations.subscribeEvents, context.principal, { afterSeq: args.afterSeq }, context);
  return subscriptionStream("memoryEvents", outcome);
}

/** The auditor's and the subject's doors to the log (issue 5). Each method is one kernel run of an audit operation. */
@Resolver()
export class AuditResolver {
  @Query(() => ChainVerification, { description: "Recomputes the token tenant's chain (auditor). MP-LOG." })
  async verifyAuditChain(
    @Arg("fromSeq", () => Int, { nullable: true }) fromSeq: number | null,
    @Arg("toSeq", () => Int, { nullable: true }) toSeq: number | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<ChainVerification> {
    return ChainVerification.from(await ctx.services.kernel.run(ctx.services.contracts.audit.operations.verifyChain, ctx.principal, { fromSeq, toSeq }, ctx));
  }

  @Query(() => AuditCheckpointList, { description: "The tenant's signed checkpoints and the public key (auditor)." })
  async auditCheckpoints(
    @Arg("afterSeq", () => Int, { nullable: true }) afterSeq: number | null,
    @Arg("limit", () => Int, { nullable: true }) limit: number | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<AuditCheckpointList> {
    return AuditCheckpointList.from(
      await ctx.services.kernel.run(ctx.services.contracts.audit.operations.listCheckpoints, ctx.principal, { afterSeq, limit }, ctx),
    );
  }

  @Subscription(() => MemoryEventView, {
    subscribe: subscribeToEvents,
    description: "Every event of the token's tenant after afterSeq, in order, then live ones (auditor). Resume with the last seq seen.",
  })
  memoryEvents(@Root() event: MemoryEvent, @Arg("afterSeq", () => Int, { nullable: true }) _afterSeq: number | null): MemoryEventView {
    return MemoryEventView.from(event);
  }

  @Mutation(() => ErasureDecision, {
    description:
      "SPEC D1: erases one memory's content everywhere; the events stay (subject or admin). reason: a code of the policy's reason_codes (GDPR Art. 17 grounds, user_request, retention, policy_change …); note: free text, judged, kept outside the chain.",
  })
  async eraseMemory(
    @Arg("memoryId", () => ID) memoryId: string,
    @Arg("reason", () => String) reason: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("note", () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<ErasureDecision> {
    return ErasureDecision.from(
      await ctx.services.kernel.run(ctx.services.contracts.audit.operations.eraseMemory, ctx.principal, { memoryId, subjectId, reason, note }, ctx),
    );
  }

  @Mutation(() => ErasureDecision, {
    description: "SPEC D1: erases every memory of a subject (subject or admin). reason: a reason code; note: free text kept outside the chain.",
  })
  async eraseSubject(
    @Arg("reason", () => String) reason: string,
    @Arg("subjectId", () => ID, { nullable: true }) subjectId: string | null,
    @Arg("note", () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<ErasureDecision> {
    return ErasureDecision.from(
      await ctx.services.kernel.run(ctx.services.contracts.audit.operations.eraseSubject, ctx.principal, { subjectId, reason, note }, ctx),
    );
  }

  @Mutation(() => AcknowledgementDecision, {
    description:
      "MP-BREAK: an admin acknowledges the tenant's conformance break; writes resume. reason: a reason code; note: free text kept outside the chain.",
  })
  async acknowledgeConformanceBreak(
    @Arg("reason", () => String) reason: string,
    @Arg("note", () => String, { nullable: true }) note: string | null,
    @Ctx() ctx: GatewayContext,
  ): Promise<AcknowledgementDecision> {
    return AcknowledgementDecision.from(
      await ctx.services.kernel.run(ctx.services.contracts.audit.operations.acknowledgeBreak, ctx.principal, { reason, note }, ctx),
    );
  }
}
