import { Field, ID, InterfaceType } from "type-graphql";
import type { Outcome } from "../../kernel/outcome";
import { StopReason } from "./stop-reason";

@InterfaceType("Decision", { description: "What every operation of every contract answers: exactly one stop reason (C19-STOP)." })
export abstract class DecisionFields {
  @Field(() => StopReason) stopReason!: string;
  @Field(() => ID, { description: "Names this decision in the event log." }) decisionId!: string;
  @Field({ description: "sha256 of the policy bundle that decided." }) policyVersion!: string;
  @Field() contractVersion!: string;
  @Field(() => [String], { description: "Which rules answered, as RULE-ID: detail. Never content." })
  explanations!: string[];

  protected assignDecision(outcome: Outcome<unknown>): this {
    this.stopReason = outcome.stopReason;
    this.decisionId = outcome.decisionId;
    this.policyVersion = outcome.policyVersion;
    this.contractVersion = outcome.contractVersion;
    this.explanations = outcome.explanations;
    return this;
  }
}
