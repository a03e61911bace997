import { Field, ID, Int, ObjectType } from "type-graphql";
import { DecisionFields } from "../../graphql/types/decision";
import { StopReason } from "../../graphql/types/stop-reason";
import type { Outcome } from "../../kernel/outcome";
import type { LedgerData } from "./data";
import type { SelectedMemoryContext } from "./operations";
import type { LedgerItemRecord, LedgerSource, ProposalRecord } from "./store";
import type { LedgerNotice } from "./watch";

@ObjectType({ description: "Where a proposal or ledger item came from (seed 003 MemorySource)." })
export class MemorySource {
  @Field() sourceType!: string;
  @Field(() => String, { nullable: true }) sourceId!: string | null;
  @Field(() => String, { nullable: true }) note!: string | null;

  static from(source: LedgerSource): MemorySource {
    return Object.assign(new MemorySource(), { sourceType: source.source_type, sourceId: source.source_id, note: source.note ?? null });
  }
}

@ObjectType({ description: "A pending proposal (seed 003 MemoryProposal), shown to its owner verbatim." })
export class MemoryProposal {
  @Field(() => ID) proposalId!: string;
  @Field(() => ID) subjectId!: string;
  @Field() proposedText!: string;
  @Field() kind!: string;
  @Field(() => MemorySource) source!: MemorySource;
  @Field({ description: "ISO 8601" }) createdAt!: string;
  @Field({ description: "pending | approved | declined" }) decision!: string;

  static from(record: ProposalRecord): MemoryProposal {
    return Object.assign(new MemoryProposal(), {
      proposalId: record.proposal_id,
      subjectId: record.subject_id,
      proposedText: record.proposed_text ?? "",
      kind: record.kind,
      source: MemorySource.from(record.source),
      createdAt: record.created_at.toISOString(),
      decision: record.decision,
    });
  }
}

@ObjectType({ description: "A ledger item (seed 003 MemoryItem): exactly the text its owner approved (P54-B), with provenance." })
export class LedgerItem {
  @Field(() => ID) memoryId!: string;
  @Field(() => ID) subjectId!: string;
  @Field({ description: "Verbatim: never rephrased, trimmed or reformatted." }) text!: string;
  @Field() kind!: string;
  @Field(() => MemorySource) source!: MemorySource;
  @Field(() => ID, { description: "The proposal it was approved from." }) proposalId!: string;
  @Field({ description: "ISO 8601: when it was proposed." }) proposedAt!: string;
  @Field({ description: "ISO 8601: when its owner approved it." }) createdAt!: string;
  @Field({ description: "ISO 8601" }) updatedAt!: string;
  @Field({ description: "Always active: forgotten items are never returned." }) status!: string;

  static from(record: LedgerItemRecord): LedgerItem {
    return Object.assign(new LedgerItem(), {
      memoryId: record.memory_id,
      subjectId: record.subject_id,
      text: record.text,
      kind: record.kind,
      source: MemorySource.from(record.source),
      proposalId: record.proposal_id,
      proposedAt: record.proposed_at.toISOString(),
      createdAt: record.created_at.toISOString(),
      updatedAt: record.updated_at.toISOString(),
      status: record.status,
    });
  }
}

@ObjectType({
  implements: DecisionFields,
  description: "proposeMemory: MISSING_EXPLICIT_CONSENT with the id of the proposal held for the person (SPEC D3), or a refusal.",
})
export class ProposalDecision extends DecisionFields {
  @Field(() => ID, { nullable: true }) proposalId!: string | null;
  @Field(() => MemoryProposal, { nullable: true }) proposal!: MemoryProposal | null;

  static from(outcome: Outcome<ProposalRecord>): ProposalDecision {
    const decision = new ProposalDecision().assignDecision(outcome);
    decision.proposalId = outcome.value?.proposal_id ?? null;
    decision.proposal = outcome.value ? MemoryProposal.from(outcome.value) : null;
    return decision;
  }
}

@ObjectType({ implements: DecisionFields })
export class ProposalListDecision extends DecisionFields {
  @Field(() => [MemoryProposal]) proposals!: MemoryProposal[];

  static from(outcome: Outcome<ProposalRecord[]>): ProposalListDecision {
    const decision = new ProposalListDecision().assignDecision(outcome);
    decision.proposals = (outcome.value ?? []).map((r) => MemoryProposal.from(r));
    return decision;
  }
}

@ObjectType({
  implements: DecisionFields,
  description: "approveProposal: SUCCESS_STORED with the one ledger item created, or a refusal (the proposal stays pending).",
})
export class LedgerItemDecision extends DecisionFields {
  @Field(() => LedgerItem, { nullable: true }) memory!: LedgerItem | null;

  static from(outcome: Outcome<LedgerItemRecord>): LedgerItemDecision {
    const decision = new LedgerItemDecision().assignDecision(outcome);
    decision.memory = outcome.value ? LedgerItem.from(outcome.value) : null;
    return decision;
  }
}

@ObjectType({ implements: DecisionFields })
export class LedgerDecision extends DecisionFields {
  @Field(() => [LedgerItem]) items!: LedgerItem[];

  static from(outcome: Outcome<LedgerItemRecord[]>): LedgerDecision {
    const decision = new LedgerDecision().assignDecision(outcome);
    decision.items = (outcome.value ?? []).map((r) => LedgerItem.from(r));
    return decision;
  }
}

@ObjectType({ implements: DecisionFields, description: "declineProposal and forgetMemory: the id acted on when it succeeded." })
export class LedgerActionDecision extends DecisionFields {
  @Field(() => ID, { nullable: true }) proposalId!: string | null;
  @Field(() => ID, { nullable: true }) memoryId!: string | null;

  static from(outcome: Outcome<{ proposalId?: string; memoryId?: string }>): LedgerActionDecision {
    const decision = new LedgerActionDecision().assignDecision(outcome);
    decision.proposalId = outcome.value?.proposalId ?? null;
    decision.memoryId = outcome.value?.memoryId ?? null;
    return decision;
  }
}

@ObjectType({ description: "The answer for one selected id." })
export class MemorySelection {
  @Field(() => ID) memoryId!: string;
  @Field(() => StopReason) stopReason!: string;
}

@ObjectType({
  implements: DecisionFields,
  description:
    "seed 003 SelectedMemoryContext, never persisted. Only the selected items that resolved contribute; stopReason is NOT_FOUND when any selected id did not.",
})
export class SelectedMemoryContextDecision extends DecisionFields {
  @Field(() => [ID]) selectedMemoryIds!: string[];
  @Field(() => [String], { description: "The items' texts, verbatim, in the order of selectedMemoryIds." }) resolvedTexts!: string[];
  @Field(() => String, { nullable: true, description: '"Using the items you selected…" whenever the context is not empty; null when it is.' })
  attributionLine!: string | null;
  @Field(() => [MemorySelection]) selections!: MemorySelection[];

  static from(outcome: Outcome<SelectedMemoryContext>): SelectedMemoryContextDecision {
    const decision = new SelectedMemoryContextDecision().assignDecision(outcome);
    decision.selectedMemoryIds = outcome.value?.selectedMemoryIds ?? [];
    decision.resolvedTexts = outcome.value?.resolvedTexts ?? [];
    decision.attributionLine = outcome.value?.attributionLine ?? null;
    decision.selections = (outcome.value?.selections ?? []).map((s) => Object.assign(new MemorySelection(), s));
    return decision;
  }
}

@ObjectType({ description: "The ledger's allowlists in force (policy data)." })
export class LedgerContractInfo {
  @Field(() => [String]) kinds!: string[];
  @Field(() => [String]) sourceTypes!: string[];
  @Field() attributionLine!: string;

  static from(data: LedgerData): LedgerContractInfo {
    return Object.assign(new LedgerContractInfo(), { kinds: data.kinds, sourceTypes: data.source_types, attributionLine: data.attribution_line });
  }
}

@ObjectType({ description: "Something changed in the owner's proposals or ledger; read them again (pendingProposals, ledger). Carries no content." })
export class LedgerChange {
  @Field(() => Int, { description: "The event's place in the tenant's log (for listening: the head the stream starts after)." }) seq!: number;
  @Field({ description: "listening (first, once: read the lists now) | proposed | approved | declined | forgotten | changed" }) change!: string;

  static from(notice: LedgerNotice): LedgerChange {
    return Object.assign(new LedgerChange(), { seq: notice.seq, change: notice.change });
  }
}
