import { Field, ID, Int, ObjectType } from "type-graphql";
import { DecisionFields } from "../../graphql/types/decision";
import { ProvenanceView } from "../../graphql/types/provenance";
import type { Outcome } from "../../kernel/outcome";
import type { MemoryPage } from "./operations";
import type { MemoryRecord } from "./store";
import type { MemorySettingsRecord } from "./store-settings";

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

@ObjectType({ implements: DecisionFields, description: "The answer to a single-item operation: one stop reason, and the item when it succeeded." })
export class MemoryDecision extends DecisionFields {
  @Field(() => Memory, { nullable: true }) memory!: Memory | null;
  @Field(() => ID, {
    nullable: true,
    description: "The id of the item acted on when it succeeded, also after DELETE, which returns no content: a client cache evicts Memory by it.",
  })
  memoryId!: string | null;

  static from(outcome: Outcome<MemoryRecord | undefined>, actedOn: string | null = null): MemoryDecision {
    const decision = new MemoryDecision().assignDecision(outcome);
    decision.memory = outcome.value ? Memory.from(outcome.value) : null;
    decision.memoryId = outcome.value?.memory_id ?? (outcome.outcome === "allow" ? actedOn : null);
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

@ObjectType({ description: "Settings as stored for a tenant or a subject; null: not set here (a default or the tenant's applies)." })
export class MemorySettings {
  @Field() scope!: string;
  @Field(() => ID, { nullable: true }) subjectId!: string | null;
  @Field(() => Boolean, { nullable: true }) enabled!: boolean | null;
  @Field(() => Int, { nullable: true }) maxItemsPerSubject!: number | null;
  @Field(() => Int, { nullable: true }) maxWritesPerWindow!: number | null;
  @Field({ description: "ISO 8601" }) updatedAt!: string;

  static from(record: MemorySettingsRecord): MemorySettings {
    return Object.assign(new MemorySettings(), {
      scope: record.subject_id ? "subject" : "tenant",
      subjectId: record.subject_id,
      enabled: record.enabled ?? null,
      maxItemsPerSubject: record.max_items_per_subject ?? null,
      maxWritesPerWindow: record.max_writes_per_window ?? null,
      updatedAt: record.updated_at.toISOString(),
    });
  }
}

@ObjectType({ implements: DecisionFields, description: "The answer to setMemorySettings: one stop reason, and the settings when it succeeded." })
export class MemorySettingsDecision extends DecisionFields {
  @Field(() => MemorySettings, { nullable: true }) settings!: MemorySettings | null;

  static from(outcome: Outcome<MemorySettingsRecord>): MemorySettingsDecision {
    const decision = new MemorySettingsDecision().assignDecision(outcome);
    decision.settings = outcome.value ? MemorySettings.from(outcome.value) : null;
    return decision;
  }
}
