import { Field, ID, InputType, Int, ObjectType } from "type-graphql";
import type { SettingsRequest } from "../../contracts/governed.service";
import type { Outcome } from "../../kernel/outcome";
import type { MemorySettingsRecord } from "../../store/memory-settings";
import { DecisionFields } from "./decision";

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
      subjectId: this.subjectId,
      enabled: this.enabled,
      maxItemsPerSubject: this.maxItemsPerSubject,
      maxWritesPerWindow: this.maxWritesPerWindow,
    };
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
