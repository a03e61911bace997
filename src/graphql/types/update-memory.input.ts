import { Field, ID, InputType, Int } from "type-graphql";
import type { UpdateRequest } from "../../contracts/governed.service";
import { ConsentInput, Origin } from "./store-memory.input";

/** UPDATE (SPEC D2): the whole new content of a live item; judged by the same rules as STORE. */
@InputType()
export class UpdateMemoryInput {
  @Field(() => ID) memoryId!: string;
  @Field(() => Int, { nullable: true, description: "The version you read; if another write superseded it, the answer is NOT_FOUND." })
  expectedVersion?: number | null;
  @Field(() => ID, { nullable: true, description: "One of the token's subjects; default: its first." })
  subjectId?: string | null;
  @Field({ description: "One of contract.categories" }) category!: string;
  @Field() key!: string;
  @Field() value!: string;
  @Field({ description: "One of contract.sourceKinds" }) sourceKind!: string;
  @Field({ description: "One of contract.ttlClasses; the new version's expiry counts from the update" }) ttlClass!: string;
  @Field(() => String, { nullable: true, description: "Structure ids only (seed 000 §5.1)" }) sourceRef?: string | null;
  @Field(() => ConsentInput, { nullable: true }) consent?: ConsentInput | null;
  @Field(() => Origin, { nullable: true, defaultValue: Origin.USER }) origin?: Origin | null;

  toRequest(): UpdateRequest {
    return {
      memoryId: this.memoryId,
      expectedVersion: this.expectedVersion,
      subjectId: this.subjectId,
      category: this.category,
      key: this.key,
      value: this.value,
      sourceKind: this.sourceKind,
      ttlClass: this.ttlClass,
      sourceRef: this.sourceRef,
      consent: this.consent ? { explicit: this.consent.explicit, evidenceRef: this.consent.evidenceRef } : null,
      origin: this.origin,
    };
  }
}
