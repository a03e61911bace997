import { Field, Float, Int, ObjectType } from "type-graphql";
import { DecisionFields } from "../../graphql/types/decision";
import type { Outcome } from "../../kernel/outcome";
import type { AgentItem, AgentResponse, DynamicPair, DynamicView } from "./response";

/** A typed input as the JSON document it mirrors: nulls dropped (absent), `op` filled in when left out. */
export function toDocument(input: object, op: string): Record<string, unknown> {
  const document = stripNulls(input) as Record<string, unknown>;
  return { op, ...document };
}

function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, stripNulls(v)]),
    );
  }
  return value;
}

// ---------------------------------------------------------------- results

@ObjectType({ description: "IF1-VALID: one offending place of a document." })
export class AgentValidationError {
  @Field({ description: 'RFC 6901 JSON pointer into the document ("" = the whole document)' }) pointer!: string;
  @Field() message!: string;
}

@ObjectType()
export class AgentLinks {
  @Field(() => String, { nullable: true }) problemId!: string | null;
  @Field(() => [String]) relatedMemoryIds!: string[];
  @Field(() => [String]) changeTargets!: string[];
}

@ObjectType({ description: "A dynamic value (truth or utility) as last updated (IF1-UPDATE)." })
export class AgentDynamicValue {
  @Field(() => Float) target!: number;
  @Field(() => Float) confidence!: number;
  @Field() rationale!: string;
  @Field(() => [String]) evidenceRefs!: string[];
  @Field(() => String, { nullable: true }) contextProblemId!: string | null;
  @Field() updatedAt!: string;

  static from(view: DynamicView | null): AgentDynamicValue | null {
    if (!view) return null;
    return Object.assign(new AgentDynamicValue(), {
      target: view.target,
      confidence: view.confidence,
      rationale: view.rationale,
      evidenceRefs: view.evidence_refs,
      contextProblemId: view.context_problem_id,
      updatedAt: view.updated_at,
    });
  }
}

@ObjectType({ description: "truth and utility of a memory, with what ranking makes of them." })
export class AgentDynamicPair {
  @Field(() => AgentDynamicValue, { nullable: true }) truth!: AgentDynamicValue | null;
  @Field(() => AgentDynamicValue, { nullable: true }) utility!: AgentDynamicValue | null;
  @Field(() => Float) effectiveTruth!: number;
  @Field(() => Float) effectiveUtility!: number;

  static from(pair: DynamicPair | undefined): AgentDynamicPair | null {
    if (!pair) return null;
    return Object.assign(new AgentDynamicPair(), {
      truth: AgentDynamicValue.from(pair.truth),
      utility: AgentDynamicValue.from(pair.utility),
      effectiveTruth: pair.effective_truth,
      effectiveUtility: pair.effective_utility,
    });
  }
}

@ObjectType({ description: "IF1-CHANGE: the change memory that invalidated an item." })
export class AgentInvalidation {
  @Field() id!: string;
  @Field() text!: string;
}

@ObjectType({ description: "IF1-EXPAND: how a read reached an item." })
export class AgentReached {
  @Field({ description: "direct (matched the query) or link" }) via!: string;
  @Field(() => Int, { nullable: true }) hops!: number | null;
  @Field(() => String, { nullable: true, description: "problem | update | related" }) link!: string | null;
  @Field(() => String, { nullable: true, description: "the memory the link was followed from" }) from!: string | null;
}

@ObjectType({ description: "An agent memory (seed 001). Advisory context, never authority (SPEC D7)." })
export class AgentMemoryItem {
  @Field() id!: string;
  @Field() repoId!: string;
  @Field() scope!: string;
  @Field() kind!: string;
  @Field() text!: string;
  @Field(() => Float) confidence!: number;
  @Field(() => String, { nullable: true }) rationale!: string | null;
  @Field(() => AgentLinks) links!: AgentLinks;
  @Field(() => [String]) evidenceRefs!: string[];
  @Field(() => AgentDynamicValue, { nullable: true }) truth!: AgentDynamicValue | null;
  @Field(() => AgentDynamicValue, { nullable: true }) utility!: AgentDynamicValue | null;
  @Field(() => Float) effectiveTruth!: number;
  @Field(() => Float) effectiveUtility!: number;
  @Field() invalidated!: boolean;
  @Field(() => AgentInvalidation, { nullable: true }) invalidatedBy!: AgentInvalidation | null;
  @Field() createdAt!: string;
  // Per-query values, kept for older clients; a normalising cache keys this item by `id`, so
  // one query's score would overwrite another's: read them from AgentReadDecision.hits.
  @Field(() => Float, {
    nullable: true,
    description: "Ranking score of a direct match (docs/RETRIEVAL.md).",
    deprecationReason: "Per query, not per memory: use AgentReadDecision.hits { score }.",
  })
  score!: number | null;
  @Field(() => AgentReached, { nullable: true, deprecationReason: "Per query, not per memory: use AgentReadDecision.hits { reached }." })
  reached!: AgentReached | null;
  @Field({ description: "Always true (SPEC D7)." }) advisory!: boolean;

  static from(item: AgentItem): AgentMemoryItem {
    const reached = item.reached
      ? Object.assign(new AgentReached(), item.reached.via === "direct" ? { via: "direct", hops: 0, link: null, from: null } : item.reached)
      : null;
    return Object.assign(new AgentMemoryItem(), {
      id: item.id,
      repoId: item.repo_id,
      scope: item.scope,
      kind: item.kind,
      text: item.text,
      confidence: item.confidence,
      rationale: item.rationale,
      links: Object.assign(new AgentLinks(), {
        problemId: item.links.problem_id,
        relatedMemoryIds: item.links.related_memory_ids,
        changeTargets: item.links.change_targets,
      }),
      evidenceRefs: item.evidence_refs,
      truth: AgentDynamicValue.from(item.truth),
      utility: AgentDynamicValue.from(item.utility),
      effectiveTruth: item.effective_truth,
      effectiveUtility: item.effective_utility,
      invalidated: item.invalidated,
      invalidatedBy: item.invalidated_by ? Object.assign(new AgentInvalidation(), item.invalidated_by) : null,
      createdAt: item.created_at,
      score: item.score,
      reached,
      advisory: true,
    });
  }
}

@ObjectType({ description: "One memory as one read found it: the per-query values live here, the memory is the same entity in every read." })
export class AgentMemoryHit {
  @Field(() => Float, { nullable: true, description: "Ranking score of a direct match in this read (docs/RETRIEVAL.md)." }) score!: number | null;
  @Field(() => AgentReached, { nullable: true, description: "IF1-EXPAND: how this read reached the memory." }) reached!: AgentReached | null;
  @Field(() => AgentMemoryItem) memory!: AgentMemoryItem;

  static from(item: AgentMemoryItem): AgentMemoryHit {
    return Object.assign(new AgentMemoryHit(), { score: item.score, reached: item.reached, memory: item });
  }
}

@ObjectType()
abstract class AgentDecisionBase extends DecisionFields {
  @Field(() => [AgentValidationError], { description: "IF1-VALID: every offending JSON pointer, when the document was refused." })
  errors!: AgentValidationError[];
  @Field({ description: "Always true (SPEC D7)." }) advisory!: boolean;

  protected assignAgent(response: AgentResponse): this {
    this.assignDecision({
      stopReason: response.stop_reason as Outcome["stopReason"],
      decisionId: response.decision_id,
      policyVersion: response.policy_version,
      contractVersion: response.contract_version,
      explanations: response.explanations,
    });
    this.errors = response.errors.map((e) => Object.assign(new AgentValidationError(), e));
    this.advisory = true;
    return this;
  }
}

@ObjectType({ implements: DecisionFields, description: "The answer to agentRead (IF1-READ)." })
export class AgentReadDecision extends AgentDecisionBase {
  @Field(() => [AgentMemoryItem], { description: "Direct matches by rank, then memories reached through links." }) items!: AgentMemoryItem[];
  @Field(() => [AgentMemoryHit], { description: "The same order as items, with this read's score and path beside each memory." }) hits!: AgentMemoryHit[];

  static from(response: AgentResponse): AgentReadDecision {
    const decision = new AgentReadDecision().assignAgent(response);
    decision.items = (response.items ?? []).map((item) => AgentMemoryItem.from(item));
    decision.hits = decision.items.map((item) => AgentMemoryHit.from(item));
    return decision;
  }
}

@ObjectType({ implements: DecisionFields, description: "The answer to agentWrite (IF1-WRITE, IF1-CHANGE)." })
export class AgentWriteDecision extends AgentDecisionBase {
  @Field(() => AgentMemoryItem, { nullable: true }) memory!: AgentMemoryItem | null;
  @Field(() => [String], { description: "Ids this change invalidated." }) invalidated!: string[];

  static from(response: AgentResponse): AgentWriteDecision {
    const decision = new AgentWriteDecision().assignAgent(response);
    decision.memory = response.memory ? AgentMemoryItem.from(response.memory) : null;
    decision.invalidated = response.invalidated ?? [];
    return decision;
  }
}

@ObjectType({ implements: DecisionFields, description: "The answer to agentUpdate (IF1-UPDATE)." })
export class AgentUpdateDecision extends AgentDecisionBase {
  @Field(() => String, { nullable: true }) mode!: string | null;
  @Field({ description: "false for a dry run: nothing was persisted." }) committed!: boolean;
  @Field(() => AgentDynamicPair, { nullable: true }) before!: AgentDynamicPair | null;
  @Field(() => AgentDynamicPair, { nullable: true }) after!: AgentDynamicPair | null;

  static from(response: AgentResponse): AgentUpdateDecision {
    const decision = new AgentUpdateDecision().assignAgent(response);
    decision.mode = response.mode ?? null;
    decision.committed = response.committed ?? false;
    decision.before = AgentDynamicPair.from(response.before);
    decision.after = AgentDynamicPair.from(response.after);
    return decision;
  }
}
