import type { Decision } from "../../../kernel/decision";
import { KernelError } from "../../../kernel/execute";
import { operation } from "../../../kernel/operation";
import { ledgerData } from "../data";
import { SELECT_FIELDS } from "../fields";
import type { LedgerItemRecord, LedgerStore } from "../store";
import { CONTRACT, type SelectedMemoryContext, type SelectRequest } from "./shared";

const selectedIds = (req: SelectRequest): string[] => [...new Set((req.memoryIds ?? []).filter((m): m is string => typeof m === "string"))];

/** The policy's answer for each selected id, in the order asked (ledger.rego decision_detail); anything else fails closed. */
function selectionAnswers(decision: Decision, count: number): string[] {
  const answers = decision.detail?.selections;
  if (!Array.isArray(answers) || answers.length !== count || !answers.every((a) => typeof a === "string")) {
    throw new KernelError("ledger: the policy gave no answer for every selected id");
  }
  return answers as string[];
}

/**
 * P54-F: context only from ids the person selected, with the attribution line; none
 * selected, an empty context. A forgotten, foreign or unknown id contributes nothing and the
 * policy answers NOT_FOUND for it (P54-E), and for the selection, which still answers what
 * resolved (a `partial` violation, outcome allow).
 */
export function selectedContext(store: LedgerStore) {
  return operation<SelectRequest, LedgerItemRecord[], SelectedMemoryContext>({
    contract: CONTRACT,
    name: "SELECT",
    fields: SELECT_FIELDS,
    gather: (req, ctx) => store.activeAmong(ctx.tenantId, ctx.principal.subjects, selectedIds(req)),
    input: (req, items) => {
      const ids = selectedIds(req);
      const resolved = new Set((items ?? []).map((i) => i.memory_id));
      const found = ids.map((m) => resolved.has(m));
      return { selection: { requested: ids.length, unresolved: found.filter((f) => !f).length, resolved: found } };
    },
    async allow(req, items, ctx, _writes, decision) {
      const byId = new Map((items ?? []).map((i) => [i.memory_id, i]));
      const ids = selectedIds(req);
      const answers = selectionAnswers(decision, ids.length);
      const usable = ids.flatMap((m) => byId.get(m) ?? []);
      return {
        selectedMemoryIds: usable.map((i) => i.memory_id),
        resolvedTexts: usable.map((i) => i.text),
        attributionLine: usable.length > 0 ? ledgerData(ctx.policy).attribution_line : null,
        selections: ids.map((memoryId, i) => ({ memoryId, stopReason: answers[i] })),
      };
    },
  });
}
