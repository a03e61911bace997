import { operation } from "../../../kernel/operation";
import { PENDING_FIELDS } from "../fields";
import type { LedgerStore, ProposalRecord } from "../store";
import { CONTRACT, LIST_LIMIT, type ListRequest } from "./shared";

/** The owner's pending proposals, newest first. */
export function pending(store: LedgerStore) {
  return operation<ListRequest, undefined, ProposalRecord[]>({
    contract: CONTRACT,
    name: "PENDING",
    fields: PENDING_FIELDS,
    allow: (_req, _gathered, ctx) => store.pendingProposals(ctx.tenantId, ctx.subjectId, LIST_LIMIT),
  });
}
