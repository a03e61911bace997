import { operation } from "../../../kernel/operation";
import { ERASE_FIELDS } from "../fields";
import type { TargetRequest } from "./requests";
import type { CompanionKit } from "./shared";

/** ERASE (SPEC D1): every fact and proposal of the subject, and its keys; each object an event. */
export function erase(kit: CompanionKit) {
  const { store, cache, logger } = kit;
  return operation<TargetRequest, undefined, { erased: number }>({
    contract: "companion",
    name: "ERASE",
    fields: ERASE_FIELDS,
    async allow(_req, _g, ctx, writes, decision) {
      const { tenantId, subjectId } = ctx;
      const { facts, proposals } = await store.subjectObjects(tenantId, subjectId);
      const mark = { at: ctx.now.toISOString(), by: ctx.principal.id, reason: "erasure_request", operation: "ERASE", decision_id: decision.decisionId };
      const objects = [...facts.map((id) => ({ id, kind: "fact" })), ...proposals.map((id) => ({ id, kind: "proposal" }))];
      for (const object of objects) {
        await store.eraseObject(tenantId, subjectId, object.id, mark, (snapshot) => writes.onUndo(() => store.restore(snapshot)));
        writes.event({
          event_type: "erase",
          memory_id: object.id,
          reason: "erasure_request",
          metadata: { object: object.kind },
          settle: (seq) => store.settleObject("erasure", tenantId, subjectId, object.id, seq),
        });
      }
      await store.eraseSubjectKeys(tenantId, subjectId, ctx.now, (snapshot) => writes.onUndo(() => store.restore(snapshot)));
      cache.invalidateSubject(tenantId, subjectId); // takes effect at once
      // An erasure that matched nothing still leaves its event.
      if (objects.length === 0) writes.event({ event_type: "erase", reason: "erasure_request", metadata: { facts: 0, proposals: 0 } });
      logger.info({ requestId: ctx.requestId, facts: facts.length, proposals: proposals.length }, "companion memory erased on request");
      return { erased: facts.length };
    },
  });
}
