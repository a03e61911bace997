import { Args, Ctx, Mutation, Query, Resolver, Root, Subscription, type SubscribeResolverData } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { argsTypeOf, requestOf } from "../../graphql/derived";
import { subscriptionStream } from "../../graphql/subscription";
import type { MemoryEvent } from "../../store/event-log";
import { ACK_CONFORMANCE, ERASE_MEMORY, ERASE_SUBJECT, LIST_CHECKPOINTS, SUBSCRIBE_EVENTS, VERIFY_CHAIN } from "./fields";
import { AcknowledgementDecision, AuditCheckpointList, ChainVerification, ErasureDecision, MemoryEventView } from "./types";

/** Arguments, derived from the operations' declarations (fields.ts) when this module loads. */
const VERIFY_ARGS = argsTypeOf(VERIFY_CHAIN);
const CHECKPOINTS_ARGS = argsTypeOf(LIST_CHECKPOINTS);
const EVENTS_ARGS = argsTypeOf(SUBSCRIBE_EVENTS);
const ERASE_MEMORY_ARGS = argsTypeOf(ERASE_MEMORY);
const ERASE_SUBJECT_ARGS = argsTypeOf(ERASE_SUBJECT);
const ACK_ARGS = argsTypeOf(ACK_CONFORMANCE);

async function subscribeToEvents({ args, context }: SubscribeResolverData<unknown, object, GatewayContext>): Promise<AsyncIterable<MemoryEvent>> {
  const { kernel, contracts } = context.services;
  const outcome = await kernel.run(contracts.audit.operations.subscribeEvents, context.principal, requestOf(SUBSCRIBE_EVENTS, args), context);
  return subscriptionStream("memoryEvents", outcome);
}

/** The auditor's and the subject's doors to the log (issue 5). Each method is one kernel run of an audit operation. */
@Resolver()
export class AuditResolver {
  @Query(() => ChainVerification, { description: "Recomputes the token tenant's chain (auditor). MP-LOG." })
  async verifyAuditChain(@Args(() => VERIFY_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<ChainVerification> {
    const { kernel, contracts } = ctx.services;
    return ChainVerification.from(await kernel.run(contracts.audit.operations.verifyChain, ctx.principal, requestOf(VERIFY_CHAIN, args), ctx));
  }

  @Query(() => AuditCheckpointList, { description: "The tenant's signed checkpoints and the public key (auditor)." })
  async auditCheckpoints(@Args(() => CHECKPOINTS_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<AuditCheckpointList> {
    const { kernel, contracts } = ctx.services;
    return AuditCheckpointList.from(await kernel.run(contracts.audit.operations.listCheckpoints, ctx.principal, requestOf(LIST_CHECKPOINTS, args), ctx));
  }

  @Subscription(() => MemoryEventView, {
    subscribe: subscribeToEvents,
    description: "Every event of the token's tenant after afterSeq, in order, then live ones (auditor). Resume with the last seq seen.",
  })
  memoryEvents(@Root() event: MemoryEvent, @Args(() => EVENTS_ARGS) _args: object): MemoryEventView {
    return MemoryEventView.from(event);
  }

  @Mutation(() => ErasureDecision, {
    description:
      "SPEC D1: erases one memory's content everywhere; the events stay (subject or admin). reason: a code of the policy's reason_codes (GDPR Art. 17 grounds, user_request, retention, policy_change …); note: free text, judged, kept outside the chain.",
  })
  async eraseMemory(@Args(() => ERASE_MEMORY_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<ErasureDecision> {
    const { kernel, contracts } = ctx.services;
    return ErasureDecision.from(await kernel.run(contracts.audit.operations.eraseMemory, ctx.principal, requestOf(ERASE_MEMORY, args), ctx));
  }

  @Mutation(() => ErasureDecision, {
    description: "SPEC D1: erases every memory of a subject (subject or admin). reason: a reason code; note: free text kept outside the chain.",
  })
  async eraseSubject(@Args(() => ERASE_SUBJECT_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<ErasureDecision> {
    const { kernel, contracts } = ctx.services;
    return ErasureDecision.from(await kernel.run(contracts.audit.operations.eraseSubject, ctx.principal, requestOf(ERASE_SUBJECT, args), ctx));
  }

  @Mutation(() => AcknowledgementDecision, {
    description:
      "MP-BREAK: an admin acknowledges the tenant's conformance break; writes resume. reason: a reason code; note: free text kept outside the chain.",
  })
  async acknowledgeConformanceBreak(@Args(() => ACK_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<AcknowledgementDecision> {
    const { kernel, contracts } = ctx.services;
    return AcknowledgementDecision.from(await kernel.run(contracts.audit.operations.acknowledgeBreak, ctx.principal, requestOf(ACK_CONFORMANCE, args), ctx));
  }
}
