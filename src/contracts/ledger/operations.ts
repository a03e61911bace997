import { randomUUID } from "node:crypto";
import { subjectOf, type Principal } from "../../auth/principal";
import { KernelError } from "../../kernel/execute";
import { APPROVE_FIELDS, DECLINE_FIELDS, FORGET_FIELDS, LEDGER_FIELDS, PENDING_FIELDS, PROPOSE_FIELDS, SELECT_FIELDS } from "./fields";
import { operation, type OperationContext } from "../../kernel/operation";
import { newSalt, saltedDigest } from "../../store/canonical";
import { ledgerData } from "./data";
import {
  PROPOSAL_PREFIX,
  itemIdOf,
  ledgerDocId,
  withItemProvenance,
  withProposalProvenance,
  type LedgerItemRecord,
  type LedgerStore,
  type ProposalRecord,
  type DueEvent,
} from "./store";

const CONTRACT = "ledger";
const LIST_LIMIT = 500;

/** A proposal as an agent, adapter or the product sends it; nothing here is trusted yet. */
export interface ProposeRequest {
  subjectId?: string | null;
  proposedText?: string | null;
  kind?: string | null;
  source?: { sourceType?: string | null; sourceId?: string | null; note?: string | null } | null;
}
export interface ApproveRequest {
  proposalId?: string | null;
  finalText?: string | null;
}
export interface DeclineRequest {
  proposalId?: string | null;
}
export interface ForgetRequest {
  memoryId?: string | null;
}
export interface ListRequest {
  subjectId?: string | null;
}
export interface SelectRequest {
  memoryIds?: (string | null)[] | null;
}

/** seed 003 SelectedMemoryContext: built per request, never persisted. */
export interface SelectedMemoryContext {
  selectedMemoryIds: string[];
  resolvedTexts: string[];
  attributionLine: string | null;
  /** One answer per requested id: SUCCESS_READ, or NOT_FOUND when it contributes nothing. */
  selections: { memoryId: string; stopReason: string }[];
}

/** A proposal and whether an approval has already claimed its item (a concurrent decision). */
interface ProposalTarget {
  proposal: ProposalRecord | null;
  claimed: boolean;
}

/** What the policy learns about a proposal: whether it is there and still undecided, never its text. */
function proposalTarget(gathered: ProposalTarget | undefined): Record<string, unknown> {
  const proposal = gathered?.proposal;
  if (!proposal) return { found: false };
  return { found: true, status: proposal.decision === "pending" && !gathered.claimed ? "active" : proposal.decision };
}

/** What the policy learns about a ledger item: whether it is there and active, never its text (P54-G). */
function itemTarget(item: LedgerItemRecord | null | undefined): Record<string, unknown> {
  if (!item) return { found: false };
  return { found: true, status: item.status };
}

/** The policy allowed an operation on its target, so the target was gathered; anything else is a contract bug. */
function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new KernelError(`ledger: the policy allowed an operation on a ${what} that was not gathered`);
  return value;
}

const str = (value: unknown): string => (typeof value === "string" ? value : "");
const actor = (principal: Principal) => ({ id: principal.id, roles: [...principal.roles] });

/**
 * The person's ledger (seed 003) as declared operations: proposal -> edit -> approve or
 * decline, a verbatim ledger, forgetting and explicit selection. The kernel runs the
 * lifecycle; the policy decides (a proposal's success, MISSING_EXPLICIT_CONSENT, is outcome
 * `hold`); these only say what to read, what the policy sees and what to write.
 */
export function ledgerOperations(store: LedgerStore) {
  /**
   * The subject of an operation on an existing object: the token's subject that holds it.
   * Looked up only among the token's own subjects and tenant; anything else does not exist (SPEC D5).
   */
  const ownerOf =
    (objectIdOf: (raw: Record<string, unknown>) => unknown) =>
    async (raw: unknown, { principal }: Pick<OperationContext, "principal">): Promise<string> => {
      const objectId = raw !== null && typeof raw === "object" ? objectIdOf(raw as Record<string, unknown>) : undefined;
      if (principal.subjects.length > 1 && typeof objectId === "string" && objectId !== "") {
        return (await store.ownerOf(principal.tenant, principal.subjects, objectId)) ?? subjectOf(principal);
      }
      return subjectOf(principal);
    };

  const gatherProposal = async (proposalId: string | null | undefined, ctx: OperationContext): Promise<ProposalTarget> => {
    if (!proposalId || !proposalId.startsWith(PROPOSAL_PREFIX)) return { proposal: null, claimed: false };
    const [proposal, claimed] = await Promise.all([
      store.getProposal(ctx.tenantId, ctx.subjectId, proposalId),
      store.itemClaimed(ctx.tenantId, ctx.subjectId, proposalId),
    ]);
    return { proposal, claimed };
  };

  /** P54-A: a proposal stores nothing in the ledger; held for its owner, it answers MISSING_EXPLICIT_CONSENT with its id (SPEC D3). */
  const propose = operation<ProposeRequest, undefined, ProposalRecord>({
    contract: CONTRACT,
    name: "PROPOSE",
    fields: PROPOSE_FIELDS,
    input: (req) => ({ proposal: { kind: str(req.kind), source_type: str(req.source?.sourceType) } }),
    // SPEC D4: values off the allowlists are themselves content.
    refusal: (req, ctx) => {
      const data = ledgerData(ctx.policy);
      return {
        kind: data.kinds.includes(str(req.kind)) ? req.kind : null,
        source_type: data.source_types.includes(str(req.source?.sourceType)) ? req.source?.sourceType : null,
      };
    },
    async hold(req, _gathered, ctx, writes, decision) {
      const proposalId = `${PROPOSAL_PREFIX}${randomUUID()}`;
      const source = { source_type: str(req.source?.sourceType), source_id: req.source?.sourceId ?? null, note: req.source?.note ?? null };
      const proposedText = str(req.proposedText);
      const metadata = {
        proposal_id: proposalId,
        kind: req.kind,
        source_type: source.source_type,
        lengths: { proposed_text: proposedText.length, note: source.note?.length ?? 0, source_id: source.source_id?.length ?? 0 },
      };
      const due: DueEvent = {
        event_type: "create",
        operation: "PROPOSE",
        stop_reason: decision.stopReason,
        decision_id: decision.decisionId,
        at: ctx.now,
        content_digest: null,
        metadata,
      };
      const record = withProposalProvenance({
        _id: ledgerDocId(ctx.tenantId, ctx.subjectId, proposalId),
        tenant_id: ctx.tenantId,
        subject_id: ctx.subjectId,
        proposal_id: proposalId,
        proposed_text: proposedText,
        kind: str(req.kind),
        source,
        created_at: ctx.now,
        proposed_by: actor(ctx.principal),
        decision: "pending" as const,
        decided_at: null,
        final_text: null,
        result_memory_id: null,
      });
      // A keyed retry after a crash finds the proposal by its id (src/kernel/idempotency.ts).
      await writes.creating([{ objectId: proposalId }], record);
      await writes.run(
        () => store.insertProposal(record, due),
        () => store.deleteProposal(record, due),
      );
      writes.event({
        event_type: "create",
        memory_id: proposalId,
        reason: "proposal_held_for_owner",
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: proposalId, due }),
      });
      return record;
    },
  });

  /** The owner's pending proposals, newest first. */
  const pending = operation<ListRequest, undefined, ProposalRecord[]>({
    contract: CONTRACT,
    name: "PENDING",
    fields: PENDING_FIELDS,
    allow: (_req, _gathered, ctx) => store.pendingProposals(ctx.tenantId, ctx.subjectId, LIST_LIMIT),
  });

  /**
   * P54-A, P54-B, P54-C: only the owner approves; the final text passes the validator and
   * becomes exactly one ledger item, verbatim. A refusal leaves the proposal pending.
   */
  const approve = operation<ApproveRequest, ProposalTarget, LedgerItemRecord>({
    contract: CONTRACT,
    name: "APPROVE",
    fields: APPROVE_FIELDS,
    subject: ownerOf((raw) => raw.proposalId),
    gather: (req, ctx) => gatherProposal(req.proposalId, ctx),
    input: (_req, gathered) => ({ target: proposalTarget(gathered) }),
    async allow(req, gathered, ctx, writes, decision) {
      const proposal = required(gathered?.proposal, "proposal");
      const finalText = str(req.finalText);
      const memoryId = itemIdOf(proposal.proposal_id);
      const salt = newSalt();
      const digest = saltedDigest(salt, { text: finalText });
      const metadata = {
        proposal_id: proposal.proposal_id,
        kind: proposal.kind,
        source_type: proposal.source.source_type,
        edited: finalText !== proposal.proposed_text,
      };
      const due: DueEvent = {
        event_type: "create",
        operation: "APPROVE",
        stop_reason: decision.stopReason,
        decision_id: decision.decisionId,
        at: ctx.now,
        content_digest: digest,
        metadata,
      };
      const item = withItemProvenance({
        _id: ledgerDocId(ctx.tenantId, ctx.subjectId, memoryId),
        tenant_id: ctx.tenantId,
        subject_id: ctx.subjectId,
        memory_id: memoryId,
        text: finalText,
        kind: proposal.kind,
        source: { source_type: proposal.source.source_type, source_id: proposal.source.source_id, note: proposal.source.note ?? null },
        proposal_id: proposal.proposal_id,
        proposed_at: proposal.created_at,
        created_at: ctx.now,
        updated_at: ctx.now,
        status: "active" as const,
        deleted_at: null,
        approved_by: actor(ctx.principal),
        content_salt: salt,
      });
      // The item's _id derives from the proposal's, so the unique _id admits exactly one item per
      // proposal even where a conditional update is not atomic (FerretDB): the insert claims it.
      const claimed = await writes.run(
        () => store.claimItem(item, due),
        async (won) => (won ? store.deleteItem(item, due) : undefined),
      );
      if (!claimed) return writes.lost();
      const approved = await writes.run(
        () => store.markApproved(proposal, finalText, memoryId, ctx.now),
        async (done) => (done ? store.revertApproval(proposal) : undefined),
      );
      if (!approved) return writes.lost(); // declined meanwhile: the item goes again
      writes.event({
        event_type: "create",
        memory_id: memoryId,
        content_digest: digest,
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: memoryId, due }),
      });
      return item;
    },
  });

  /**
   * P54-D: no item, and the proposed text and note are gone from the record; the event keeps
   * metadata only. The text leaves with an undo that puts it back, so a decline whose event
   * cannot be written leaves the proposal as it was (INV-8).
   */
  const decline = operation<DeclineRequest, ProposalTarget, { proposalId: string }>({
    contract: CONTRACT,
    name: "DECLINE",
    fields: DECLINE_FIELDS,
    subject: ownerOf((raw) => raw.proposalId),
    gather: (req, ctx) => gatherProposal(req.proposalId, ctx),
    input: (_req, gathered) => ({ target: proposalTarget(gathered) }),
    async allow(_req, gathered, ctx, writes, decision) {
      const proposal = required(gathered?.proposal, "proposal");
      const metadata = {
        proposal_id: proposal.proposal_id,
        kind: proposal.kind,
        source_type: proposal.source.source_type,
        lengths: { proposed_text: proposal.proposed_text?.length ?? 0 },
      };
      const due: DueEvent = {
        event_type: "delete",
        operation: "DECLINE",
        stop_reason: decision.stopReason,
        decision_id: decision.decisionId,
        at: ctx.now,
        content_digest: null,
        metadata,
      };
      const declined = await writes.run(
        () => store.markDeclined(proposal, ctx.now, due),
        async (done) => (done ? store.restoreDeclined(proposal, due) : undefined),
      );
      if (!declined) return writes.lost();
      writes.event({
        event_type: "delete",
        memory_id: proposal.proposal_id,
        reason: "proposal_declined",
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: proposal.proposal_id, due }),
      });
      return { proposalId: proposal.proposal_id };
    },
  });

  /** P54-B: the owner's active items, verbatim, with provenance. */
  const list = operation<ListRequest, undefined, LedgerItemRecord[]>({
    contract: CONTRACT,
    name: "LEDGER",
    fields: LEDGER_FIELDS,
    allow: (_req, _gathered, ctx) => store.activeItems(ctx.tenantId, ctx.subjectId, LIST_LIMIT),
  });

  /** P54-E, MP-FORGET: status deleted, deleted_at, and an invalidate event with its reason. */
  const forget = operation<ForgetRequest, LedgerItemRecord | null, { memoryId: string }>({
    contract: CONTRACT,
    name: "FORGET",
    fields: FORGET_FIELDS,
    subject: ownerOf((raw) => raw.memoryId),
    gather: async (req, ctx) => (req.memoryId ? store.getItem(ctx.tenantId, ctx.subjectId, req.memoryId) : null),
    input: (_req, item) => ({ target: itemTarget(item) }),
    async allow(_req, gathered, ctx, writes, decision) {
      const item = required(gathered, "ledger item");
      const metadata = { proposal_id: item.proposal_id, kind: item.kind };
      const due: DueEvent = {
        event_type: "invalidate",
        operation: "FORGET",
        stop_reason: decision.stopReason,
        decision_id: decision.decisionId,
        at: ctx.now,
        content_digest: null,
        metadata,
      };
      const forgotten = await writes.run(
        () => store.markDeleted(item, ctx.now, due),
        async (done) => (done ? store.revertDeleted(item, due) : undefined),
      );
      if (!forgotten) return writes.lost();
      writes.event({
        event_type: "invalidate",
        memory_id: item.memory_id,
        reason: "forgotten_by_owner",
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: item.memory_id, due }),
      });
      return { memoryId: item.memory_id };
    },
  });

  const selectedIds = (req: SelectRequest): string[] => [...new Set((req.memoryIds ?? []).filter((m): m is string => typeof m === "string"))];

  /**
   * P54-F: context only from ids the person selected, with the attribution line; none
   * selected, an empty context. A forgotten, foreign or unknown id answers NOT_FOUND for itself
   * and contributes nothing (P54-E); the policy then answers NOT_FOUND for the selection but
   * lets it answer what resolved (a `partial` violation, outcome allow).
   */
  const selectedContext = operation<SelectRequest, LedgerItemRecord[], SelectedMemoryContext>({
    contract: CONTRACT,
    name: "SELECT",
    fields: SELECT_FIELDS,
    gather: (req, ctx) => store.activeAmong(ctx.tenantId, ctx.principal.subjects, selectedIds(req)),
    input: (req, items) => {
      const ids = selectedIds(req);
      const resolved = new Set((items ?? []).map((i) => i.memory_id));
      return { selection: { requested: ids.length, unresolved: ids.filter((m) => !resolved.has(m)).length } };
    },
    async allow(req, items, ctx) {
      const byId = new Map((items ?? []).map((i) => [i.memory_id, i]));
      const ids = selectedIds(req);
      const usable = ids.flatMap((m) => byId.get(m) ?? []);
      return {
        selectedMemoryIds: usable.map((i) => i.memory_id),
        resolvedTexts: usable.map((i) => i.text),
        attributionLine: usable.length > 0 ? ledgerData(ctx.policy).attribution_line : null,
        selections: ids.map((m) => ({ memoryId: m, stopReason: byId.has(m) ? "SUCCESS_READ" : "NOT_FOUND" })),
      };
    },
  });

  return { propose, pending, approve, decline, list, forget, selectedContext };
}

export type LedgerOperations = ReturnType<typeof ledgerOperations>;
