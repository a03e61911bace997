import { Field, ID, InputType } from "type-graphql";
import type { ProposeRequest } from "../../contracts/ledger.service";

@InputType({ description: "Provenance of a proposal (seed 003 MemorySource): no signal names, scores or classifications (P54-SOURCE)." })
export class ProposalSourceInput {
  @Field({ description: "One of ledgerContract.sourceTypes (policy data)." }) sourceType!: string;
  @Field(() => String, { nullable: true, description: "Pointer to the reflection or interpretation artifact." }) sourceId?: string | null;
  @Field(() => String, { nullable: true, description: "Human-readable, e.g. \"After Phase 3 summary\"." }) note?: string | null;
}

/** kind and sourceType are strings so that every value gets a stop reason (SPEC D3a). */
@InputType()
export class ProposeMemoryInput {
  @Field(() => ID, { description: "The person the proposal is for; one of the token's subjects." }) subjectId!: string;
  @Field({ description: "The candidate text shown to the person verbatim." }) proposedText!: string;
  @Field({ description: "PREFERENCE | CONSTRAINT | GOAL | SELF_OBSERVATION (P54-KIND)." }) kind!: string;
  @Field(() => ProposalSourceInput) source!: ProposalSourceInput;

  toRequest(): ProposeRequest {
    return {
      subjectId: this.subjectId,
      proposedText: this.proposedText,
      kind: this.kind,
      source: { sourceType: this.source?.sourceType, sourceId: this.source?.sourceId, note: this.source?.note },
    };
  }
}
