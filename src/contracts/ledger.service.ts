import { randomUUID } from "node:crypto";
import { subjectOf, type Principal } from "../auth/principal";
import type { DetectorSuite } from "../detectors/detector";
import { newSalt, saltedDigest } from "../store/canonical";
import {
  isDuplicateKey,
  ledgerItemDocId,
  proposalDocId,
  type LedgerItemRecord,
  type LedgerRepository,
  type ProposalRecord,
} from "../store/ledger-repository";
import type { Decided, DecisionRequest, Governor } from "./governor";
import type { CallContext, Outcome } from "../kernel/outcome";

/** A proposal as an agent, adapter or the product sends it; nothing here is trusted yet. */
export interface ProposeRequest {
  subjectId: string;
  proposedText: string;
  kind: string;
  source: { sourceType: string; sourceId?: string | null; note?: string | null };
}

/** The ledger's tables in the policy bundle (policies/memgate/ledger/data.json). */
export interface LedgerData {
  kinds: string[];
  source_types: string[];
  bounds: Record<string, number>;
  attribution_line: string;
}

/** seed 003 SelectedMemoryContext: built per request, never persisted. */
export interface SelectedMemoryContext {
  selectedMemoryIds: string[];
  resolvedTexts: string[];
  attributionLine: string | null;
  /** One answer per requested id: SUCCESS_READ, or NOT_FOUND when it contributes nothing. */
  selections: { memoryId: string; stopReason: string }[];
}

const CONTRACT = "ledger";
const LIST_LIMIT = 500;

/**
 * The person's ledger (seed 003): proposal -> edit -> approve or decline, a verbatim
 * ledger, forgetting and explicit selection. detectors -> policy -> store + event;
 * the policy alone decides. Proposals and items live in their own collections that no
 * other service reads (P54-G).
 */
export class LedgerService {
  constructor(
    private readonly governor: Governor,
    private readonly ledger: LedgerRepository,
    private readonly detectors: DetectorSuite,
  ) {}

  private get data(): LedgerData {
    return this.governor.policy.data<LedgerData>("ledger");
  }

  /** P54-A: a proposal stores nothing in the ledger; it answers MISSING_EXPLICIT_CONSENT with its id (SPEC D3). */
  async propose(principal: Principal, request: ProposeRequest, ctx: CallContext): Promise<Outcome<ProposalRecord>> {
    const base = { operation: "PROPOSE", contract: CONTRACT, principal, subjectId: request.subjectId ?? "" };
    try {
      const source = {
        source_type: request.source?.sourceType ?? "",
        source_id: request.source?.sourceId ?? null,
        note: request.source?.note ?? null,
      };
      const proposal = { text: request.proposedText ?? "", kind: request.kind ?? "", source };
      // Every free-text field, for the Phase 19 content checks; absent optional fields are left out.
      const texts: Record<string, string> = { proposed_text: proposal.text };
      if (source.note !== null) texts.note = source.note;
      if (source.source_id !== null) texts.source_id = source.source_id;
      const facts = await this.detectors.run(texts);
      const decisionRequest: DecisionRequest = { ...base, input: { proposal, texts, facts } };
      const decided = this.governor.decide(decisionRequest);
      if (!this.held(decided)) {
        await this.governor.record(decisionRequest, decided, ctx, "refuse", { metadata: this.proposalMetadata(proposal) });
        return this.governor.outcome(decided);
      }
      const proposalId = `prop_${randomUUID()}`;
      const record: ProposalRecord = {
        _id: proposalDocId(principal.tenant, base.subjectId, proposalId),
        tenant_id: principal.tenant,
        subject_id: base.subjectId,
        proposal_id: proposalId,
        proposed_text: proposal.text,
        kind: proposal.kind,
        source,
        created_at: this.governor.clock.now(),
        proposed_by: { id: principal.id, roles: principal.roles },
        decision: "pending",
        decided_at: null,
        final_text: null,
        result_memory_id: null,
      };
      await this.ledger.insertProposal(record);
      try {
        await this.governor.record(decisionRequest, decided, ctx, "create", {
          reason: "proposal_held_for_owner",
          metadata: { proposal_id: proposalId, ...this.proposalMetadata(proposal) },
        });
      } catch (error) {
        await this.ledger.deleteProposal(record).catch(() => undefined);
        throw error;
      }
      return this.governor.outcome(decided, record);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** The owner's pending proposals, newest first. */
  async pending(principal: Principal, subjectId: string | null | undefined, ctx: CallContext): Promise<Outcome<ProposalRecord[]>> {
    const base = { operation: "PENDING", contract: CONTRACT, principal, subjectId: subjectOf(principal, subjectId) };
    return this.governor.decideRead({ ...base, input: {} }, ctx, () => this.ledger.pendingProposals(principal.tenant, base.subjectId, LIST_LIMIT));
  }

  /**
   * P54-A, P54-B, P54-C: only the owner approves; the final text passes the validator and
   * becomes exactly one ledger item, verbatim. A refusal leaves the proposal pending.
   */
  async approve(principal: Principal, proposalId: string, finalText: string, ctx: CallContext): Promise<Outcome<LedgerItemRecord>> {
    const base = { operation: "APPROVE", contract: CONTRACT, principal, subjectId: subjectOf(principal) };
    try {
      const found = await this.findProposal(principal, proposalId);
      if (found) base.subjectId = found.subject_id;
      const texts = { final_text: finalText ?? "" };
      const facts = await this.detectors.run(texts);
      const decide = (proposal: ProposalRecord | null) => {
        const decisionRequest: DecisionRequest = {
          ...base,
          input: { approval: { final_text: texts.final_text, kind: proposal?.kind ?? null }, target: proposalTarget(proposal), texts, facts },
        };
        return { decisionRequest, decided: this.governor.decide(decisionRequest) };
      };
      let { decisionRequest, decided } = decide(found);
      const proposal = found;
      if (decided.succeeded && proposal) {
        const now = this.governor.clock.now();
        const memoryId = `mem_${proposal.proposal_id.replace(/^prop_/, "")}`;
        const item: LedgerItemRecord = {
          _id: ledgerItemDocId(principal.tenant, base.subjectId, memoryId),
          tenant_id: principal.tenant,
          subject_id: base.subjectId,
          memory_id: memoryId,
          text: texts.final_text,
          kind: proposal.kind,
          source: { source_type: proposal.source.source_type, source_id: proposal.source.source_id, note: proposal.source.note ?? null },
          proposal_id: proposal.proposal_id,
          proposed_at: proposal.created_at,
          created_at: now,
          updated_at: now,
          status: "active",
          deleted_at: null,
          approved_by: { id: principal.id, roles: principal.roles },
          content_salt: newSalt(),
        };
        // The item's _id derives from the proposal's, so the unique _id admits exactly one item
        // per proposal even where a conditional update is not atomic (FerretDB): the insert claims it.
        if (await this.claimItem(item)) {
          let approvedNow = false;
          try {
            approvedNow = await this.ledger.markApproved(proposal, texts.final_text, memoryId, now);
            if (approvedNow) {
              await this.governor.record(decisionRequest, decided, ctx, "create", {
                memory_id: memoryId,
                content_digest: saltedDigest(item.content_salt, { text: item.text }),
                metadata: { proposal_id: proposal.proposal_id, kind: item.kind, source_type: item.source.source_type, edited: item.text !== proposal.proposed_text },
              });
              return this.governor.outcome(decided, item);
            }
          } catch (error) {
            // No item without its event, and the proposal goes back to pending.
            await this.ledger.deleteItem(item).catch(() => undefined);
            if (approvedNow) await this.ledger.revertApproval(proposal).catch(() => undefined);
            throw error;
          }
          await this.ledger.deleteItem(item); // declined meanwhile: no item
        }
        // Another request decided this proposal first: to this one it no longer exists.
        ({ decisionRequest, decided } = decide(null));
      }
      await this.governor.record(decisionRequest, decided, ctx, "refuse", {
        metadata: { proposal_id_length: (proposalId ?? "").length, lengths: { final_text: texts.final_text.length } },
      });
      return this.governor.outcome(decided);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** P54-D: no item, and the proposed text is gone from the record; the event keeps metadata only. */
  async decline(principal: Principal, proposalId: string, ctx: CallContext): Promise<Outcome<{ proposalId: string }>> {
    const base = { operation: "DECLINE", contract: CONTRACT, principal, subjectId: subjectOf(principal) };
    try {
      const found = await this.findProposal(principal, proposalId);
      if (found) base.subjectId = found.subject_id;
      const decide = (proposal: ProposalRecord | null) => {
        const decisionRequest: DecisionRequest = { ...base, input: { target: proposalTarget(proposal) } };
        return { decisionRequest, decided: this.governor.decide(decisionRequest) };
      };
      let { decisionRequest, decided } = decide(found);
      if (decided.succeeded && found) {
        if (await this.ledger.markDeclined(found, this.governor.clock.now())) {
          await this.governor.record(decisionRequest, decided, ctx, "delete", {
            reason: "proposal_declined",
            metadata: {
              proposal_id: found.proposal_id,
              kind: found.kind,
              source_type: found.source.source_type,
              lengths: { proposed_text: found.proposed_text?.length ?? 0 },
            },
          });
          return this.governor.outcome(decided, { proposalId: found.proposal_id });
        }
        ({ decisionRequest, decided } = decide(null));
      }
      await this.governor.record(decisionRequest, decided, ctx, "refuse", { metadata: { proposal_id_length: (proposalId ?? "").length } });
      return this.governor.outcome(decided);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** P54-B: the owner's active items, verbatim, with provenance. */
  async list(principal: Principal, subjectId: string | null | undefined, ctx: CallContext): Promise<Outcome<LedgerItemRecord[]>> {
    const base = { operation: "LEDGER", contract: CONTRACT, principal, subjectId: subjectOf(principal, subjectId) };
    return this.governor.decideRead({ ...base, input: {} }, ctx, () => this.ledger.activeItems(principal.tenant, base.subjectId, LIST_LIMIT));
  }

  /** P54-E, MP-FORGET: status deleted, deleted_at, and an invalidate event with its reason. */
  async forget(principal: Principal, memoryId: string, ctx: CallContext): Promise<Outcome<{ memoryId: string }>> {
    const base = { operation: "FORGET", contract: CONTRACT, principal, subjectId: subjectOf(principal) };
    try {
      const found = await this.findItem(principal, memoryId);
      if (found) base.subjectId = found.subject_id;
      const decide = (item: LedgerItemRecord | null) => {
        const decisionRequest: DecisionRequest = { ...base, input: { target: itemTarget(item) } };
        return { decisionRequest, decided: this.governor.decide(decisionRequest) };
      };
      let { decisionRequest, decided } = decide(found);
      if (decided.succeeded && found) {
        if (await this.ledger.markDeleted(found, this.governor.clock.now())) {
          try {
            await this.governor.record(decisionRequest, decided, ctx, "invalidate", {
              memory_id: found.memory_id,
              reason: "forgotten_by_owner",
              metadata: { proposal_id: found.proposal_id, kind: found.kind },
            });
          } catch (error) {
            await this.ledger.revertDeleted(found).catch(() => undefined);
            throw error;
          }
          return this.governor.outcome(decided, { memoryId: found.memory_id });
        }
        ({ decisionRequest, decided } = decide(null));
      }
      await this.governor.record(decisionRequest, decided, ctx, "refuse", { metadata: { memory_id_length: (memoryId ?? "").length } });
      return this.governor.outcome(decided);
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /**
   * P54-F: context only from ids the person selected, with the attribution line; none
   * selected, an empty context. Each id is decided on its own (RESOLVE): a forgotten,
   * foreign or unknown one answers NOT_FOUND and contributes nothing (P54-E).
   */
  async selectedContext(principal: Principal, memoryIds: string[], ctx: CallContext): Promise<Outcome<SelectedMemoryContext>> {
    const base = { operation: "SELECT", contract: CONTRACT, principal, subjectId: subjectOf(principal) };
    try {
      const ids = [...new Set(memoryIds ?? [])];
      const selections: SelectedMemoryContext["selections"] = [];
      const resolved: LedgerItemRecord[] = [];
      if (ids.length <= this.data.bounds.selection) {
        for (const memoryId of ids) {
          const item = await this.findItem(principal, memoryId);
          const decided = this.governor.decide({
            operation: "RESOLVE",
            contract: CONTRACT,
            principal,
            subjectId: item?.subject_id ?? base.subjectId,
            input: { target: itemTarget(item) },
          });
          selections.push({ memoryId, stopReason: decided.decision.stop_reason });
          if (decided.succeeded && item) resolved.push(item);
        }
      }
      const decisionRequest: DecisionRequest = {
        ...base,
        input: { selection: { requested: ids.length, unresolved: selections.length - resolved.length } },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) {
        await this.governor.record(decisionRequest, decided, ctx, "refuse", {
          metadata: { requested: ids.length, unresolved: selections.length - resolved.length },
        });
      }
      const refusedWhole = !decided.succeeded && decided.decision.stop_reason !== "NOT_FOUND";
      const usable = refusedWhole ? [] : resolved;
      return this.governor.outcome(decided, {
        selectedMemoryIds: usable.map((item) => item.memory_id),
        resolvedTexts: usable.map((item) => item.text),
        attributionLine: usable.length > 0 ? this.data.attribution_line : null,
        selections,
      });
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  /** Inserts the item; false when another approval of the same proposal inserted it first. */
  private async claimItem(item: LedgerItemRecord): Promise<boolean> {
    try {
      await this.ledger.insertItem(item);
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  /** MISSING_EXPLICIT_CONSENT without a violation: the proposal is held for its owner. */
  private held(decided: Decided): boolean {
    return decided.decision.stop_reason === "MISSING_EXPLICIT_CONSENT" && decided.decision.explanations.length === 0;
  }

  /** Looked up only among the token's own subjects and tenant: anything else does not exist (SPEC D5). */
  private async findProposal(principal: Principal, proposalId: string): Promise<ProposalRecord | null> {
    if (typeof proposalId !== "string" || proposalId === "") return null;
    for (const subject of principal.subjects) {
      const record = await this.ledger.getProposal(principal.tenant, subject, proposalId);
      if (record) return record;
    }
    return null;
  }

  private async findItem(principal: Principal, memoryId: string): Promise<LedgerItemRecord | null> {
    if (typeof memoryId !== "string" || memoryId === "") return null;
    for (const subject of principal.subjects) {
      const record = await this.ledger.getItem(principal.tenant, subject, memoryId);
      if (record) return record;
    }
    return null;
  }

  /** SPEC D4: metadata of a proposal, never its text; values off the allowlists are themselves content. */
  private proposalMetadata(proposal: { text: string; kind: string; source: { source_type: string; source_id: string | null; note: string | null } }) {
    const data = this.data;
    return {
      kind: data.kinds.includes(proposal.kind) ? proposal.kind : null,
      source_type: data.source_types.includes(proposal.source.source_type) ? proposal.source.source_type : null,
      lengths: {
        proposed_text: proposal.text.length,
        note: proposal.source.note?.length ?? 0,
        source_id: proposal.source.source_id?.length ?? 0,
      },
    };
  }
}

/** What the policy learns about a proposal: whether it is there and still pending, never its text. */
function proposalTarget(proposal: ProposalRecord | null): Record<string, unknown> {
  if (!proposal) return { found: false };
  return { found: true, status: proposal.decision === "pending" ? "active" : proposal.decision };
}

/** What the policy learns about a ledger item: whether it is there and active, never its text (P54-G). */
function itemTarget(item: LedgerItemRecord | null): Record<string, unknown> {
  if (!item) return { found: false };
  return { found: true, status: item.status };
}
