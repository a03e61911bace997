import { operation } from "../../../kernel/operation";
import { FORGET_FACT_FIELDS } from "../fields";
import type { FactRecord } from "../records";
import type { ForgetRequest } from "./requests";
import { CompanionError, type CompanionKit, type FactResult } from "./shared";

/** FORGET_FACT (MP-FORGET): invalidation with a reason, never deletion. */
export function forgetFact(kit: CompanionKit) {
  const { store } = kit;
  return operation<ForgetRequest, FactRecord | null, FactResult>({
    contract: "companion",
    name: "FORGET_FACT",
    fields: FORGET_FACT_FIELDS,
    gather: (req, ctx) => (req.memoryId ? store.fact(ctx.tenantId, ctx.subjectId, req.memoryId) : Promise.resolve(null)),
    input: (_req, fact) => ({ target: fact && fact.status === "active" ? { found: true, status: "active" } : { found: false } }),
    async allow(_req, fact, ctx, writes) {
      if (!fact) throw new CompanionError("the policy forgot a fact that is not there");
      await writes.run(
        () => store.setStatus(fact, "inactive", "forgotten"),
        () => store.restoreStatus(fact),
      );
      await kit.invalidate(writes, ctx);
      writes.event({ event_type: "invalidate", memory_id: fact.memory_id, reason: "forgotten", metadata: { type: fact.type } });
      return {};
    },
  });
}
