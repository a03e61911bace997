import { Ctx, Field, ObjectType, Query, Resolver } from "type-graphql";
import { tokenRights, type TokenRights } from "../../auth/token-rights";
import type { GatewayContext } from "../context";

@ObjectType({ description: "What the calling token is and may do, so an agent can discover its rights instead of failing (issue 14)." })
export class Me {
  @Field({ description: "From the token only (SPEC D5)." }) tenant!: string;
  @Field(() => [String], { description: "The subjects this token may act for; arguments can only narrow them." }) subjects!: string[];
  @Field(() => [String]) roles!: string[];
  @Field(() => [String], {
    description:
      "contract.OPERATION the policy's role check admits for this token (read from the policy bundle); each call is still judged on its own (subject, owner, content).",
  })
  operations!: string[];
  @Field(() => String, { nullable: true, description: "ISO 8601: when the token expires." }) expiresAt!: string | null;

  static from(rights: TokenRights): Me {
    return Object.assign(new Me(), rights);
  }
}

@Resolver()
export class MeResolver {
  @Query(() => Me, { description: "The calling token: tenant, subjects, roles, the operations it may call, and its expiry." })
  me(@Ctx() ctx: GatewayContext): Me {
    return Me.from(tokenRights(ctx.principal, ctx.services.policy));
  }
}
