import { GraphQLJSONObject } from "graphql-scalars";
import { Field, ID, Int, ObjectType } from "type-graphql";
import type { Checkpoint } from "../../store/log/checkpoints";
import type { ChainVerification as Verification } from "../../store/log/verify";
import { DecisionFields } from "../../graphql/types/decision";
import type { Outcome } from "../../kernel/outcome";
import type { MemoryEvent as StoredEvent } from "../../store/event-log";
import type { CheckpointList, ErasureResult } from "./operations";

@ObjectType("EventActor", { description: "Who acted: principal id, token roles, and seed 004's kind (system | human | policy-engine)." })
export class EventActorView {
  @Field(() => ID) id!: string;
  @Field(() => [String]) roles!: string[];
  @Field() kind!: string;
}

@ObjectType("MemoryEvent", { description: "One event of a tenant's hash-chained log (MP-LOG). Never content: a salted digest at most (SPEC D1, D4)." })
export class MemoryEventView {
  @Field(() => ID) eventId!: string;
  @Field(() => ID) tenantId!: string;
  @Field(() => ID, { nullable: true }) subjectId!: string | null;
  @Field(() => Int, { description: "Gap-free per tenant." }) seq!: number;
  @Field() eventType!: string;
  @Field() operation!: string;
  @Field(() => String, { nullable: true }) contract!: string | null;
  @Field(() => ID, { nullable: true, description: "seed 004 memory_object_id" }) memoryId!: string | null;
  @Field(() => EventActorView) actor!: EventActorView;
  @Field({ description: "ISO 8601" }) timestamp!: string;
  @Field() stopReason!: string;
  @Field(() => ID, { nullable: true }) decisionId!: string | null;
  @Field(() => String, { nullable: true }) policyHash!: string | null;
  @Field(() => String, { nullable: true }) contractVersion!: string | null;
  @Field(() => String, { nullable: true }) requestId!: string | null;
  @Field(() => String, { nullable: true }) contentDigest!: string | null;
  @Field(() => String, { nullable: true }) reason!: string | null;
  @Field(() => GraphQLJSONObject) metadata!: Record<string, unknown>;
  @Field() prevHash!: string;
  @Field() hash!: string;

  static from(e: StoredEvent): MemoryEventView {
    return Object.assign(new MemoryEventView(), {
      eventId: e.event_id,
      tenantId: e.tenant_id,
      subjectId: e.subject_id,
      seq: e.seq,
      eventType: e.event_type,
      operation: e.operation,
      contract: e.contract ?? null,
      memoryId: e.memory_id,
      actor: Object.assign(new EventActorView(), e.actor),
      timestamp: e.timestamp,
      stopReason: e.stop_reason,
      decisionId: e.decision_id,
      policyHash: e.policy_hash,
      contractVersion: e.contract_version,
      requestId: e.request_id,
      contentDigest: e.content_digest,
      reason: e.reason,
      metadata: e.metadata,
      prevHash: e.prev_hash,
      hash: e.hash,
    });
  }
}

@ObjectType({ implements: DecisionFields, description: "verifyAuditChain: the chain recomputed from the log, its head and every signed checkpoint." })
export class ChainVerification extends DecisionFields {
  @Field(() => Boolean, { nullable: true, description: "null when refused" }) ok!: boolean | null;
  @Field(() => Int, { nullable: true }) fromSeq!: number | null;
  @Field(() => Int, { nullable: true }) toSeq!: number | null;
  @Field(() => Int, { nullable: true }) eventsChecked!: number | null;
  @Field(() => Int, { nullable: true }) firstBrokenSeq!: number | null;
  @Field(() => String, {
    nullable: true,
    description:
      "hash_mismatch, missing_event, seq_mismatch, tenant_mismatch, prev_hash_mismatch, truncated, chain_head_mismatch, checkpoint_mismatch, checkpoint_signature_invalid",
  })
  reason!: string | null;
  @Field(() => Int, { nullable: true }) headSeq!: number | null;
  @Field(() => String, { nullable: true }) headHash!: string | null;
  @Field(() => Int, { nullable: true }) checkpointsChecked!: number | null;

  static from(outcome: Outcome<Verification>): ChainVerification {
    const v = outcome.value;
    return Object.assign(new ChainVerification().assignDecision(outcome), {
      ok: v?.ok ?? null,
      fromSeq: v?.fromSeq ?? null,
      toSeq: v?.toSeq ?? null,
      eventsChecked: v?.eventsChecked ?? null,
      firstBrokenSeq: v?.firstBrokenSeq ?? null,
      reason: v?.reason ?? null,
      headSeq: v?.headSeq ?? null,
      headHash: v?.headHash ?? null,
      checkpointsChecked: v?.checkpointsChecked ?? null,
    });
  }
}

@ObjectType("AuditCheckpoint", { description: "Ed25519 signature over the RFC 8785 form of {tenant, seq, hash, time} (docs/AUDIT.md)." })
export class AuditCheckpointView {
  @Field() tenant!: string;
  @Field(() => Int) seq!: number;
  @Field() hash!: string;
  @Field() time!: string;
  @Field() keyId!: string;
  @Field({ description: "base64" }) signature!: string;

  static from(c: Checkpoint): AuditCheckpointView {
    return Object.assign(new AuditCheckpointView(), { tenant: c.tenant, seq: c.seq, hash: c.hash, time: c.time, keyId: c.key_id, signature: c.signature });
  }
}

@ObjectType({ implements: DecisionFields, description: "auditCheckpoints: the tenant's signed checkpoints and the key that verifies them." })
export class AuditCheckpointList extends DecisionFields {
  @Field(() => String, { nullable: true, description: "Ed25519 public key, SPKI PEM" }) publicKey!: string | null;
  @Field(() => String, { nullable: true }) keyId!: string | null;
  @Field(() => [AuditCheckpointView]) checkpoints!: AuditCheckpointView[];

  static from(outcome: Outcome<CheckpointList>): AuditCheckpointList {
    return Object.assign(new AuditCheckpointList().assignDecision(outcome), {
      publicKey: outcome.value?.publicKeyPem ?? null,
      keyId: outcome.value?.keyId ?? null,
      checkpoints: (outcome.value?.checkpoints ?? []).map((c) => AuditCheckpointView.from(c)),
    });
  }
}

@ObjectType({ implements: DecisionFields, description: "eraseMemory / eraseSubject (SPEC D1)." })
export class ErasureDecision extends DecisionFields {
  @Field(() => [ID]) erasedMemoryIds!: string[];

  static from(outcome: Outcome<ErasureResult>): ErasureDecision {
    return Object.assign(new ErasureDecision().assignDecision(outcome), { erasedMemoryIds: outcome.value?.erasedMemoryIds ?? [] });
  }
}

@ObjectType({ implements: DecisionFields, description: "acknowledgeConformanceBreak (MP-BREAK)." })
export class AcknowledgementDecision extends DecisionFields {
  @Field(() => Int, { nullable: true, description: "The seq of the break acknowledged." }) acknowledgedSeq!: number | null;

  static from(outcome: Outcome<number>): AcknowledgementDecision {
    return Object.assign(new AcknowledgementDecision().assignDecision(outcome), { acknowledgedSeq: outcome.value ?? null });
  }
}
