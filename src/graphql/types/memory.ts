import { Field, ID, Int, ObjectType } from "type-graphql";
import type { MemoryRecord } from "../../store/memory-repository";
import { ProvenanceView } from "./provenance";

@ObjectType({ description: "A governed memory item (seed 000 §2.1). Advisory context, never authority (SPEC D7)." })
export class Memory {
  @Field(() => ID) memoryId!: string;
  @Field(() => ID) subjectId!: string;
  @Field(() => Int, { description: "Content is never changed in place: an update writes version + 1 (SPEC D2)." })
  version!: number;
  @Field() category!: string;
  @Field() key!: string;
  @Field() value!: string;
  @Field() sourceKind!: string;
  @Field() ttlClass!: string;
  @Field(() => String, { nullable: true }) sourceRef!: string | null;
  @Field({ description: "ISO 8601" }) createdAt!: string;
  @Field({ description: "ISO 8601" }) updatedAt!: string;
  @Field({ description: "ISO 8601; the item is not read or listed from then on" }) expiresAt!: string;
  @Field({ description: "Always true: memory informs, it never decides (SG-ADVISORY)." }) advisory!: boolean;
  @Field(() => ProvenanceView, { nullable: true, description: "MP-OBJECT provenance and integrity hash (seed 004)." })
  provenance!: ProvenanceView | null;

  /** Output fields are whitelisted here: salts, creators and lifecycle internals never leave. */
  static from(record: MemoryRecord): Memory {
    return Object.assign(new Memory(), {
      memoryId: record.memory_id,
      subjectId: record.subject_id,
      version: record.version,
      category: record.category,
      key: record.key,
      value: record.value,
      sourceKind: record.source_kind,
      ttlClass: record.ttl_class,
      sourceRef: record.source_ref,
      createdAt: record.created_at.toISOString(),
      updatedAt: record.updated_at.toISOString(),
      expiresAt: record.expires_at.toISOString(),
      advisory: true,
      provenance: ProvenanceView.from(record.provenance, record.integrity_hash),
    });
  }
}
