import { Field, Int, ObjectType } from "type-graphql";
import type { ContractData } from "../../policy/bundle";

@ObjectType()
export class CategoryInfo {
  @Field() name!: string;
  @Field() description!: string;
  @Field(() => Int) valueMax!: number;
  @Field(() => [String]) ttlClasses!: string[];
  @Field(() => [String]) sourceKinds!: string[];
}

@ObjectType()
export class TtlClassInfo {
  @Field() name!: string;
  @Field(() => Int) seconds!: number;
  @Field() description!: string;
}

@ObjectType()
export class FieldBound {
  @Field() field!: string;
  @Field(() => Int) maxLength!: number;
}

@ObjectType({ description: "The contract in force, read from the loaded policy bundle's data." })
export class ContractInfo {
  @Field() version!: string;
  @Field({ description: "Digest of the policy bundle's content in force (what its signed manifest covers, not who signed it)." })
  policyVersion!: string;
  @Field({ nullable: true, description: "RFC 7638 thumbprint of the key that signed the policy bundle in force." })
  policySigner?: string;
  @Field(() => [CategoryInfo]) categories!: CategoryInfo[];
  @Field(() => [TtlClassInfo]) ttlClasses!: TtlClassInfo[];
  @Field(() => [String]) sourceKinds!: string[];
  @Field(() => [FieldBound]) bounds!: FieldBound[];
  @Field(() => [String], { description: "Stop reasons, highest priority first (seed 000 §7, SPEC D3)." })
  stopReasons!: string[];

  static from(contract: ContractData, policyVersion: string, policySigner?: string): ContractInfo {
    return Object.assign(new ContractInfo(), {
      version: contract.version,
      policyVersion,
      policySigner,
      categories: Object.entries(contract.categories).map(([name, c]) =>
        Object.assign(new CategoryInfo(), { name, description: c.description, valueMax: c.value_max, ttlClasses: c.ttl_classes, sourceKinds: c.source_kinds }),
      ),
      ttlClasses: Object.entries(contract.ttl_classes)
        .sort(([, a], [, b]) => a.seconds - b.seconds)
        .map(([name, t]) => Object.assign(new TtlClassInfo(), { name, seconds: t.seconds, description: t.description })),
      sourceKinds: contract.source_kinds,
      bounds: Object.entries(contract.bounds).map(([field, maxLength]) => Object.assign(new FieldBound(), { field, maxLength })),
      stopReasons: contract.priority,
    });
  }
}
