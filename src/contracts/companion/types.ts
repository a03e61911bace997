import { Field, Float, ID, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/derived";
import { DecisionFields } from "../../graphql/types/decision";
import type { Outcome } from "../../kernel/outcome";
import type { Envelope, EnvelopeFact } from "./envelope";
import type { FactResult } from "./operations";
import { ENVELOPE_FIELDS } from "./fields";
import type { FactRecord } from "./records";

/** Registered now: type-graphql collects enums before it resolves the field thunks. */
const ENVELOPE_PURPOSE = graphqlEnum(ENVELOPE_FIELDS.purpose);

@ObjectType({ description: "A companion fact. Advisory context, never authority (SG-ADVISORY)." })
export class Fact {
  @Field(() => ID) memoryId!: string;
  @Field(() => ID) subjectId!: string;
  @Field() type!: string;
  @Field() text!: string;
  @Field(() => Float) confidence!: number;
  @Field() source!: string;
  @Field() statementType!: string;
  @Field(() => [String]) sourceRefs!: string[];
  @Field() status!: string;
  @Field(() => ID, { nullable: true }) supersedes!: string | null;
  @Field(() => [ID], { nullable: true }) consolidatedFrom!: string[] | null;
  @Field() createdAt!: string;
  @Field() expiresAt!: string;
  @Field(() => String, { nullable: true }) validTo!: string | null;
  @Field() temporalScope!: string;
  @Field() advisory!: boolean;

  static from(r: FactRecord): Fact {
    return Object.assign(new Fact(), {
      memoryId: r.memory_id,
      subjectId: r.subject_id,
      type: r.type,
      text: r.text,
      confidence: r.confidence,
      source: r.source,
      statementType: r.statement_type,
      sourceRefs: r.source_refs,
      status: r.status,
      supersedes: r.supersedes,
      consolidatedFrom: r.consolidated_from,
      createdAt: r.created_at.toISOString(),
      expiresAt: r.expires_at.toISOString(),
      validTo: r.valid_to ? r.valid_to.toISOString() : null,
      temporalScope: r.temporal_scope,
      advisory: true,
    });
  }
}

@ObjectType({ implements: DecisionFields, description: "The answer to addFact, confirmProposal, forgetFact, consolidateMemories." })
export class FactDecision extends DecisionFields {
  @Field(() => Fact, { nullable: true }) fact!: Fact | null;
  @Field(() => ID, { nullable: true, description: "Set with MISSING_EXPLICIT_CONSENT: the proposal held for confirmation." }) proposalId!: string | null;

  static from(outcome: Outcome<FactResult>): FactDecision {
    const d = new FactDecision().assignDecision(outcome);
    d.fact = outcome.value?.fact ? Fact.from(outcome.value.fact) : null;
    d.proposalId = outcome.value?.proposalId ?? null;
    return d;
  }
}

@ObjectType()
export class EnvelopeEntry {
  @Field(() => ID) memoryId!: string;
  @Field() text!: string;
  @Field(() => Float) confidence!: number;
  @Field(() => Int) ageDays!: number;
  @Field({ description: "ISO 8601; the day only when the subject asked to anonymize dates" }) addedAt!: string;
  @Field({ description: "Always true (SG-ADVISORY)" }) advisory!: boolean;

  static from(f: EnvelopeFact): EnvelopeEntry {
    return Object.assign(new EnvelopeEntry(), {
      memoryId: f.memoryId,
      text: f.text,
      confidence: f.confidence,
      ageDays: f.ageDays,
      addedAt: f.addedAt,
      advisory: true,
    });
  }
}

@ObjectType({ description: "A subject's active facts grouped by type; advisory context only." })
export class MemoryEnvelopeBody {
  @Field(() => ID) subjectId!: string;
  @Field(() => ENVELOPE_PURPOSE) purpose!: string;
  @Field() generatedAt!: string;
  @Field() cached!: boolean;
  @Field() advisory!: boolean;
  @Field(() => [EnvelopeEntry]) userFacts!: EnvelopeEntry[];
  @Field(() => [EnvelopeEntry]) userPatterns!: EnvelopeEntry[];
  @Field(() => [EnvelopeEntry], { nullable: true, description: "null for power purposes: left out by construction (SG-WARMTH)" }) sharedNarrative!:
    EnvelopeEntry[] | null;
}

@ObjectType({ implements: DecisionFields })
export class MemoryEnvelope extends DecisionFields {
  @Field(() => MemoryEnvelopeBody, { nullable: true }) envelope!: MemoryEnvelopeBody | null;

  static from(outcome: Outcome<Envelope>): MemoryEnvelope {
    const d = new MemoryEnvelope().assignDecision(outcome);
    const e = outcome.value;
    d.envelope = e
      ? Object.assign(new MemoryEnvelopeBody(), {
          subjectId: e.subjectId,
          purpose: e.purpose,
          generatedAt: e.generatedAt,
          cached: e.cached,
          advisory: true,
          userFacts: (e.facts.USER_FACT ?? []).map(EnvelopeEntry.from),
          userPatterns: (e.facts.USER_PATTERN ?? []).map(EnvelopeEntry.from),
          sharedNarrative: e.facts.SHARED_NARRATIVE ? e.facts.SHARED_NARRATIVE.map(EnvelopeEntry.from) : null,
        })
      : null;
    return d;
  }
}

@ObjectType()
export class PrivacySettingsView {
  @Field() memoryEnabled!: boolean;
  @Field() learnPatterns!: boolean;
  @Field(() => [String]) shareWith!: string[];
  @Field() anonymizeDates!: boolean;
  @Field(() => Int, { nullable: true }) deleteAfterDays!: number | null;
}

@ObjectType({ implements: DecisionFields })
export class PrivacyDecision extends DecisionFields {
  @Field(() => PrivacySettingsView, { nullable: true }) settings!: PrivacySettingsView | null;

  static from(
    outcome: Outcome<{
      settings: { memory_enabled: boolean; learn_patterns: boolean; share_with: string[]; anonymize_dates: boolean; delete_after_days: number | null };
    }>,
  ): PrivacyDecision {
    const d = new PrivacyDecision().assignDecision(outcome);
    const s = outcome.value?.settings;
    d.settings = s
      ? Object.assign(new PrivacySettingsView(), {
          memoryEnabled: s.memory_enabled,
          learnPatterns: s.learn_patterns,
          shareWith: s.share_with,
          anonymizeDates: s.anonymize_dates,
          deleteAfterDays: s.delete_after_days,
        })
      : null;
    return d;
  }
}

@ObjectType({ implements: DecisionFields })
export class DecayDecision extends DecisionFields {
  @Field(() => Int, { nullable: true }) deactivated!: number | null;

  static from(outcome: Outcome<{ deactivated: number }>): DecayDecision {
    const d = new DecayDecision().assignDecision(outcome);
    d.deactivated = outcome.value?.deactivated ?? null;
    return d;
  }
}

@ObjectType({ implements: DecisionFields })
export class EraseDecision extends DecisionFields {
  @Field(() => Int, { nullable: true, description: "How many facts lost their text." }) erased!: number | null;

  static from(outcome: Outcome<{ erased: number }>): EraseDecision {
    const d = new EraseDecision().assignDecision(outcome);
    d.erased = outcome.value?.erased ?? null;
    return d;
  }
}
