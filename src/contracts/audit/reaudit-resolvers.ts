import { Args, Ctx, Field, ID, Int, Mutation, ObjectType, Query, Resolver } from "type-graphql";
import type { GatewayContext } from "../../graphql/context";
import { argsTypeOf, requestOf } from "../../graphql/derived";
import { DecisionFields } from "../../graphql/types/decision";
import type { Outcome } from "../../kernel/outcome";
import type { ReauditProgressRecord } from "../../store/log/reaudit";
import { RELEASE_QUARANTINE } from "./fields";
import type { ReleaseResult } from "./reaudit";

const RELEASE_ARGS = argsTypeOf(RELEASE_QUARANTINE);

@ObjectType("ReauditTargetProgress", { description: "One kind of stored memory in a tenant's re-audit." })
export class ReauditTargetProgress {
  @Field({ description: "contract and collection, e.g. governed-memories, ledger-items" }) kind!: string;
  @Field(() => Int) scanned!: number;
  @Field(() => Int) quarantined!: number;
  @Field() done!: boolean;
}

@ObjectType("ReauditProgress", { description: "The token tenant's re-audit under one policy bundle (issue 13 item 5)." })
export class ReauditProgressView {
  @Field({ description: "sha256 of the bundle the walk judges against." }) policyHash!: string;
  @Field() policyVersion!: string;
  @Field({ description: "running | done" }) state!: string;
  @Field({ description: "ISO 8601" }) startedAt!: string;
  @Field(() => String, { nullable: true, description: "ISO 8601" }) finishedAt!: string | null;
  @Field(() => Int) scanned!: number;
  @Field(() => Int) quarantined!: number;
  @Field(() => Int, { description: "Database round trips the walk took (scans, quarantines, progress writes)." }) roundTrips!: number;
  @Field(() => [ReauditTargetProgress]) targets!: ReauditTargetProgress[];

  static from(record: ReauditProgressRecord): ReauditProgressView {
    const targets = Object.entries(record.targets).map(([kind, t]) =>
      Object.assign(new ReauditTargetProgress(), { kind, scanned: t.scanned, quarantined: t.quarantined, done: t.done }),
    );
    return Object.assign(new ReauditProgressView(), {
      policyHash: record.policy_hash,
      policyVersion: record.policy_version,
      state: record.state,
      startedAt: record.started_at,
      finishedAt: record.finished_at,
      scanned: targets.reduce((n, t) => n + t.scanned, 0),
      quarantined: targets.reduce((n, t) => n + t.quarantined, 0),
      roundTrips: record.round_trips,
      targets,
    });
  }
}

@ObjectType({ implements: DecisionFields, description: "reauditStatus: null progress when no walk has started for the tenant." })
export class ReauditStatusDecision extends DecisionFields {
  @Field(() => ReauditProgressView, { nullable: true }) progress!: ReauditProgressView | null;

  static from(outcome: Outcome<ReauditProgressRecord | null>): ReauditStatusDecision {
    return Object.assign(new ReauditStatusDecision().assignDecision(outcome), { progress: outcome.value ? ReauditProgressView.from(outcome.value) : null });
  }
}

@ObjectType({ implements: DecisionFields, description: "releaseQuarantine: the memory is back in the status it had." })
export class ReleaseDecision extends DecisionFields {
  @Field(() => ID, { nullable: true }) releasedMemoryId!: string | null;
  @Field(() => String, { nullable: true }) contract!: string | null;

  static from(outcome: Outcome<ReleaseResult>): ReleaseDecision {
    return Object.assign(new ReleaseDecision().assignDecision(outcome), {
      releasedMemoryId: outcome.value?.releasedMemoryId ?? null,
      contract: outcome.value?.contract ?? null,
    });
  }
}

/** Issue 13 item 5: re-audit progress and the release of a quarantine, each one kernel run. */
@Resolver()
export class ReauditResolver {
  @Query(() => ReauditStatusDecision, {
    description: "How far re-judging stored memory under the bundle in force has come for the token's tenant (admin, auditor).",
  })
  async reauditStatus(@Ctx() ctx: GatewayContext): Promise<ReauditStatusDecision> {
    return ReauditStatusDecision.from(await ctx.services.kernel.run(ctx.services.contracts.audit.operations.reauditStatus, ctx.principal, {}, ctx));
  }

  @Mutation(() => ReleaseDecision, { description: "An admin returns a quarantined memory to the reads (reason required); a `release` event records it." })
  async releaseQuarantine(@Args(() => RELEASE_ARGS) args: object, @Ctx() ctx: GatewayContext): Promise<ReleaseDecision> {
    return ReleaseDecision.from(
      await ctx.services.kernel.run(ctx.services.contracts.audit.operations.releaseQuarantine, ctx.principal, requestOf(RELEASE_QUARANTINE, args), ctx),
    );
  }
}
