import { operation } from "../../../kernel/operation";
import { LEDGER_FIELDS } from "../fields";
import type { LedgerItemRecord, LedgerStore } from "../store";
import { CONTRACT, LIST_LIMIT, type ListRequest } from "./shared";

/** LEDGER, P54-B: the owner's active items, verbatim, with provenance. */
export function list(store: LedgerStore) {
  return operation<ListRequest, undefined, LedgerItemRecord[]>({
    contract: CONTRACT,
    name: "LEDGER",
    fields: LEDGER_FIELDS,
    allow: (_req, _gathered, ctx) => store.activeItems(ctx.tenantId, ctx.subjectId, LIST_LIMIT),
  });
}
