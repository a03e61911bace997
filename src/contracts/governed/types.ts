import { Field, ID, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { DecisionFields } from "../../graphql/types/decision";
import { ProvenanceView } from "../../graphql/types/provenance";
import type { Outcome } from "../../kernel/outcome";
import type { DeleteRequest, ListRequest, MemoryPage, ReadRequest, SettingsRequest, StoreRequest, UpdateRequest } from "./operations";
import type { MemoryRecord } from "./store";
import type { MemorySettingsRecord } from "./store-settings";

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

  /** The operation's request, named as the policy reads it; the kernel keeps the declared fields only. */
  toRequest(): StoreRequest {
    return {
      subject_id: this.subjectId,
      category: this.category,
      key: this.key,
      value: this.value,
      source_kind: this.sourceKind,
      ttl_class: this.ttlClass,
      source_ref: this.sourceRef,
      consent: this.consent ? { explicit: this.consent.explicit, evidence_ref: this.consent.evidenceRef } : null,
      origin: this.origin,
    };
  }
}

/**
 * UPDATE (SPEC D2): the whole new content of a live item, judged by the same rules as STORE;
 * the new version's expiry counts from the update.
 */
@InputType()
export class UpdateMemoryInput extends StoreMemoryInput {
  @Field(() => ID) memoryId!: string;
  @Field(() => Int, { nullable: true, description: "The version you read; if another write superseded it, the answer is NOT_FOUND." })
  expectedVersion?: number | null;

  override toRequest(): UpdateRequest {
    return { ...super.toRequest(), memory_id: this.memoryId, expected_version: this.expectedVersion };
  }
}

@InputType({ description: "C19-POLICY / C19-CAP, for the admin role. Absent values stay as they are." })
export class MemorySettingsInput {
  @Field(() => ID, { nullable: true, description: "Absent: the whole tenant. A subject's setting overrides the tenant's." })
  subjectId?: string | null;
  @Field(() => Boolean, { nullable: true, description: "false: every memory operation answers POLICY_DISABLED" })
  enabled?: boolean | null;
  @Field(() => Int, { nullable: true }) maxItemsPerSubject?: number | null;
  @Field(() => Int, { nullable: true, description: "Writes (STORE, UPDATE) per subject per window (policy data: window_seconds)" })
  maxWritesPerWindow?: number | null;

  toRequest(): SettingsRequest {
    return {
      subject_id: this.subjectId,
      enabled: this.enabled,
      max_items_per_subject: this.maxItemsPerSubject,
      max_writes_per_window: this.maxWritesPerWindow,
    };
  }
}

/** The arguments of deleteMemory, memory and memories, as their operations' requests. */
export const deleteRequest = (memoryId: string, subjectId: string | null, reason: string | null, expectedVersion: number | null): DeleteRequest => ({
  memory_id: memoryId,
  subject_id: subjectId,
  reason,
  expected_version: expectedVersion,
});
export const readRequest = (memoryId: string, subjectId: string | null): ReadRequest => ({ memory_id: memoryId, subject_id: subjectId });
export const listRequest = (
  subjectId: string | null,
  category: string | null,
  limit: number | null,
  after: string | null,
  key: string | null = null,
): ListRequest => ({
  subject_id: subjectId,
  category,
  key,
  limit,
  after,
});

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
