import { Field, ID, InterfaceType, ObjectType } from "type-graphql";
import type { Outcome } from "../../kernel/outcome";
import type { MemoryPage } from "../../contracts/governed.service";
import type { MemoryRecord } from "../../store/memory-repository";
import { Memory } from "./memory";
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

@ObjectType({ implements: DecisionFields, description: "The answer to a single-item operation: one stop reason, and the item when it succeeded." })
export class MemoryDecision extends DecisionFields {
  @Field(() => Memory, { nullable: true }) memory!: Memory | null;

  static from(outcome: Outcome<MemoryRecord>): MemoryDecision {
    const decision = new MemoryDecision().assignDecision(outcome);
    decision.memory = outcome.value ? Memory.from(outcome.value) : null;
    return decision;
  }
}

@ObjectType({ implements: DecisionFields, description: "The answer to LIST: one stop reason and, when it succeeded, a page of items." })
export class MemoryListDecision extends DecisionFields {
  @Field(() => [Memory]) memories!: Memory[];
  @Field(() => String, { nullable: true, description: "Pass as `after` for the next page; null on the last." })
  nextCursor!: string | null;

  static from(outcome: Outcome<MemoryPage>): MemoryListDecision {
    const decision = new MemoryListDecision().assignDecision(outcome);
    decision.memories = (outcome.value?.items ?? []).map((record) => Memory.from(record));
    decision.nextCursor = outcome.value?.nextCursor ?? null;
    return decision;
  }
}
