import { Field, Float, InputType, Int } from "type-graphql";

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
