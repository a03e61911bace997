import { Field, ID, InputType, registerEnumType } from "type-graphql";
import type { StoreRequest } from "../../contracts/governed.service";

export enum Origin {
  USER = "USER",
  SYSTEM = "SYSTEM",
  TOOL_OUTPUT = "TOOL_OUTPUT",
}
registerEnumType(Origin, { name: "Origin", description: "Where the write comes from; TOOL_OUTPUT is refused (seed 000 §4.9)." });

@InputType({ description: "Evidence that the person asked for this memory." })
export class ConsentInput {
  @Field() explicit!: boolean;
  @Field(() => String, { nullable: true }) evidenceRef?: string | null;
}

/** category, sourceKind and ttlClass are strings so every value gets a stop reason (SPEC D3a). */
@InputType()
export class StoreMemoryInput {
  @Field(() => ID, { nullable: true, description: "One of the token's subjects; default: its first." })
  subjectId?: string | null;
  @Field({ description: "One of contract.categories" }) category!: string;
  @Field() key!: string;
  @Field() value!: string;
  @Field({ description: "One of contract.sourceKinds" }) sourceKind!: string;
  @Field({ description: "One of contract.ttlClasses" }) ttlClass!: string;
  @Field(() => String, { nullable: true, description: "Structure ids only (seed 000 §5.1)" }) sourceRef?: string | null;
  @Field(() => ConsentInput, { nullable: true }) consent?: ConsentInput | null;
  @Field(() => Origin, { nullable: true, defaultValue: Origin.USER }) origin?: Origin | null;

  toRequest(): StoreRequest {
    return {
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
