import { GraphQLJSONObject } from "graphql-scalars";
import { Field, Int, ObjectType } from "type-graphql";
import type { Provenance } from "../../store/provenance";

@ObjectType("Provenance", { description: "MP-OBJECT provenance of a stored memory (seed 004 §1.1)." })
export class ProvenanceView {
  @Field() statementType!: string;
  @Field() verdictType!: string;
  @Field(() => [String]) sourceRefs!: string[];
  @Field() timestamp!: string;
  @Field(() => String, { nullable: true }) validFrom!: string | null;
  @Field(() => String, { nullable: true }) validTo!: string | null;
  @Field({ description: "bounded | unknown" }) temporalScope!: string;
  @Field(() => GraphQLJSONObject) applicabilityScope!: Record<string, unknown>;
  @Field(() => String, { nullable: true }) jurisdiction!: string | null;
  @Field(() => Int) version!: number;
  @Field({ description: "sha256 over the RFC 8785 form of the content fields and this provenance" }) integrityHash!: string;

  static from(p: Provenance | undefined, integrityHash: string | undefined): ProvenanceView | null {
    if (!p || !integrityHash) return null;
    return Object.assign(new ProvenanceView(), {
      statementType: p.statement_type,
      verdictType: p.verdict_type,
      sourceRefs: p.source_refs,
      timestamp: p.timestamp,
      validFrom: p.valid_from,
      validTo: p.valid_to,
      temporalScope: p.temporal_scope,
      applicabilityScope: p.applicability_scope,
      jurisdiction: p.jurisdiction,
      version: p.version,
      integrityHash,
    });
  }
}
