import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { DecisionFields } from "../../graphql/types/decision";
import type { Outcome } from "../../kernel/outcome";
import type { AgentItem, AgentResponse, DynamicPair, DynamicView } from "./response";

// ---------------------------------------------------------------- inputs (seed-001 documents)

/**
 * The seed-001 documents as GraphQL inputs, field for field and under the schemas' own
 * names, so a document can be passed unchanged as the input variable. Every field is
 * nullable and enums are strings: what the schema requires is checked by the validation
 * layer (IF1-VALID), which answers SCHEMA_INVALID with the JSON pointer, not a GraphQL error.
 */
@InputType({ description: "memory.read.request: expand" })
export class AgentExpandInput {
  @Field(() => Int, { nullable: true, description: "0..3, default 2" }) semantic_hops?: number | null;
  @Field(() => Boolean, { nullable: true, description: "default true" }) include_problem_links?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: "default true" }) include_update_links?: boolean | null;
}

@InputType({ description: "memory.read.request (seed 001)" })
export class AgentReadInput {
  @Field(() => String, { nullable: true, description: 'const "read"; may be left out' }) op?: string | null;
  @Field(() => String, { nullable: true }) repo_id?: string | null;
  @Field(() => String, { nullable: true, description: "ambient | targeted" }) mode?: string | null;
  @Field(() => String, { nullable: true }) query?: string | null;
  @Field(() => Boolean, { nullable: true, description: "default true" }) include_global?: boolean | null;
  @Field(() => [String], { nullable: true, description: "problem | solution | failed_tactic | fact | preference | change" }) kinds?: string[] | null;
  @Field(() => Int, { nullable: true, description: "1..100, default 20" }) limit?: number | null;
  @Field(() => AgentExpandInput, { nullable: true }) expand?: AgentExpandInput | null;
}

@InputType({ description: "memory.write.request: memory.links" })
export class AgentLinksInput {
  @Field(() => String, { nullable: true }) problem_id?: string | null;
  @Field(() => [String], { nullable: true }) related_memory_ids?: string[] | null;
  @Field(() => [String], { nullable: true }) change_targets?: string[] | null;
}

@InputType({ description: "memory.write.request: memory" })
export class AgentMemoryInput {
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => String, { nullable: true, description: "repo | global" }) scope?: string | null;
  @Field(() => String, { nullable: true, description: "problem | solution | failed_tactic | fact | preference | change" }) kind?: string | null;
  @Field(() => Float, { nullable: true, description: "0..1" }) confidence?: number | null;
  @Field(() => String, { nullable: true }) rationale?: string | null;
  @Field(() => AgentLinksInput, { nullable: true }) links?: AgentLinksInput | null;
  @Field(() => [String], { nullable: true }) evidence_refs?: string[] | null;
}

@InputType({ description: "memory.write.request (seed 001)" })
export class AgentWriteInput {
  @Field(() => String, { nullable: true, description: 'const "write"; may be left out' }) op?: string | null;
  @Field(() => String, { nullable: true }) repo_id?: string | null;
  @Field(() => AgentMemoryInput, { nullable: true }) memory?: AgentMemoryInput | null;
}

@InputType({ description: "memory.update.request: updates.truth / updates.utility" })
export class AgentDynamicUpdateInput {
  @Field(() => Float, { nullable: true, description: "0..1" }) target?: number | null;
  @Field(() => Float, { nullable: true, description: "0..1" }) confidence?: number | null;
  @Field(() => String, { nullable: true }) rationale?: string | null;
  @Field(() => [String], { nullable: true, description: "truth: at least one" }) evidence_refs?: string[] | null;
  @Field(() => String, { nullable: true, description: "utility only" }) context_problem_id?: string | null;
}

@InputType({ description: "memory.update.request: updates (truth and/or utility)" })
export class AgentUpdatesInput {
  @Field(() => AgentDynamicUpdateInput, { nullable: true }) truth?: AgentDynamicUpdateInput | null;
  @Field(() => AgentDynamicUpdateInput, { nullable: true }) utility?: AgentDynamicUpdateInput | null;
}

@InputType({ description: "memory.update.request (seed 001)" })
export class AgentUpdateInput {
  @Field(() => String, { nullable: true, description: 'const "update"; may be left out' }) op?: string | null;
  @Field(() => String, { nullable: true }) repo_id?: string | null;
  @Field(() => String, { nullable: true }) memory_id?: string | null;
  @Field(() => String, { nullable: true, description: "dry_run | commit" }) mode?: string | null;
  @Field(() => AgentUpdatesInput, { nullable: true }) updates?: AgentUpdatesInput | null;
}

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
