import { subjectOf, type Principal } from "../../../auth/principal";
import { KernelError } from "../../../kernel/execute";
import type { Decision } from "../../../kernel/decision";
import type { OperationContext } from "../../../kernel/operation";
import { PROPOSAL_PREFIX, type DueEvent, type LedgerItemRecord, type LedgerStore, type ProposalRecord } from "../store";

export const CONTRACT = "ledger";
export const LIST_LIMIT = 500;

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
  /** One answer per requested id, as the policy gave it: SUCCESS_READ, or NOT_FOUND when it contributes nothing. */
  selections: { memoryId: string; stopReason: string }[];
}

/** A proposal and whether an approval has already claimed its item (a concurrent decision). */
export interface ProposalTarget {
  proposal: ProposalRecord | null;
  claimed: boolean;
}

/** What the policy learns about a proposal: whether it is there and still undecided, never its text. */
export function proposalTarget(gathered: ProposalTarget | undefined): Record<string, unknown> {
  const proposal = gathered?.proposal;
  if (!proposal) return { found: false };
  return { found: true, status: proposal.decision === "pending" && !gathered.claimed ? "active" : proposal.decision };
}

/** What the policy learns about a ledger item: whether it is there and active, never its text (P54-G). */
export function itemTarget(item: LedgerItemRecord | null | undefined): Record<string, unknown> {
  if (!item) return { found: false };
  return { found: true, status: item.status };
}

/** The policy allowed an operation on its target, so the target was gathered; anything else is a contract bug. */
export function required<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new KernelError(`ledger: the policy allowed an operation on a ${what} that was not gathered`);
  return value;
}

export const str = (value: unknown): string => (typeof value === "string" ? value : "");
export const actor = (principal: Principal) => ({ id: principal.id, roles: [...principal.roles] });

/**
 * The subject of an operation on an existing object: the token's subject that holds it.
 * Looked up only among the token's own subjects and tenant; anything else does not exist (SPEC D5).
 */
export const ownerOf =
  (store: LedgerStore, objectIdOf: (raw: Record<string, unknown>) => unknown) =>
  async (raw: unknown, { principal }: Pick<OperationContext, "principal">): Promise<string> => {
    const objectId = raw !== null && typeof raw === "object" ? objectIdOf(raw as Record<string, unknown>) : undefined;
    if (principal.subjects.length > 1 && typeof objectId === "string" && objectId !== "") {
      return (await store.ownerOf(principal.tenant, principal.subjects, objectId)) ?? subjectOf(principal);
    }
    return subjectOf(principal);
  };

export async function gatherProposal(store: LedgerStore, proposalId: string | null | undefined, ctx: OperationContext): Promise<ProposalTarget> {
  if (!proposalId || !proposalId.startsWith(PROPOSAL_PREFIX)) return { proposal: null, claimed: false };
  const [proposal, claimed] = await Promise.all([
    store.getProposal(ctx.tenantId, ctx.subjectId, proposalId),
    store.itemClaimed(ctx.tenantId, ctx.subjectId, proposalId),
  ]);
  return { proposal, claimed };
}

/** The event a write declares before it touches an object (its due mark): what the log will record, stamped with the decision. */
export function dueEvent(
  eventType: DueEvent["event_type"],
  operation: string,
  decision: Decision,
  ctx: Pick<OperationContext, "now">,
  metadata: DueEvent["metadata"],
  contentDigest: string | null = null,
): DueEvent {
  return {
    event_type: eventType,
    operation,
    stop_reason: decision.stopReason,
    decision_id: decision.decisionId,
    at: ctx.now,
    content_digest: contentDigest,
    metadata,
  };
}
