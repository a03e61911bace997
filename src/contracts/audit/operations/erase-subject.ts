import { operation, TENANT_SCOPE } from "../../../kernel/operation";
import { ERASE_SUBJECT_FIELDS } from "../fields";
import { AUDIT_CONTRACT, codedReason, eraseObjects, erasureMark, type AuditOperationDeps, type EraseSubjectRequest, type ErasureResult } from "./shared";

/** ERASE_SUBJECT (SPEC D1): every object of the subject in every contract's store; an erasure that matched nothing is logged too. */
export function eraseSubject({ log, stores }: AuditOperationDeps) {
  return operation<EraseSubjectRequest, undefined, ErasureResult>({
    contract: AUDIT_CONTRACT,
    name: "ERASE_SUBJECT",
    fields: ERASE_SUBJECT_FIELDS,
    async allow(req, _gathered, ctx, writes, decision) {
      // What was noted about the subject before goes with it; this erasure's own note is kept.
      if (ctx.subjectId !== TENANT_SCOPE) await log.notes.eraseSubject(ctx.tenantId, ctx.subjectId);
      const { code: reason, note } = await codedReason(log, ctx, decision, "ERASE_SUBJECT", req, writes);
      const mark = erasureMark(ctx, decision, "ERASE_SUBJECT", reason);
      const erased = new Set<string>();
      for (const store of stores) {
        const objectIds = await store.objectIds(ctx.tenantId, ctx.subjectId);
        for (const objectId of await eraseObjects(store, ctx, objectIds, mark, decision.stopReason, writes, note)) erased.add(objectId);
      }
      if (erased.size === 0) {
        writes.event({ event_type: "erase", memory_id: null, reason, metadata: { erased_objects: 0, stores: stores.map((s) => s.contract), ...note } });
      }
      return { erasedMemoryIds: [...erased].sort() };
    },
  });
}
