import { operation } from "../../../kernel/operation";
import { FORGET_FIELDS } from "../fields";
import type { LedgerItemRecord, LedgerStore } from "../store";
import { CONTRACT, itemTarget, ownerOf, required, type ForgetRequest, dueEvent } from "./shared";

/** P54-E, MP-FORGET: status deleted, deleted_at, and an invalidate event with its reason. */
export function forget(store: LedgerStore) {
  return operation<ForgetRequest, LedgerItemRecord | null, { memoryId: string }>({
    contract: CONTRACT,
    name: "FORGET",
    fields: FORGET_FIELDS,
    subject: ownerOf(store, (raw) => raw.memoryId),
    gather: async (req, ctx) => (req.memoryId ? store.getItem(ctx.tenantId, ctx.subjectId, req.memoryId) : null),
    input: (_req, item) => ({ target: itemTarget(item) }),
    async allow(_req, gathered, ctx, writes, decision) {
      const item = required(gathered, "ledger item");
      const metadata = { proposal_id: item.proposal_id, kind: item.kind };
      const due = dueEvent("invalidate", "FORGET", decision, ctx, metadata);
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
}
