import { operation, TENANT_SCOPE } from "../../../kernel/operation";
import { DECAY_FIELDS } from "../fields";
import type { CompanionKit } from "./shared";

/** DECAY (SG-DECAY): facts past their type's lifetime are deactivated, kept, never deleted. */
export function runDecay(kit: CompanionKit) {
  const { store, logger } = kit;
  return operation<Record<string, never>, undefined, { deactivated: number }>({
    contract: "companion",
    name: "DECAY",
    fields: DECAY_FIELDS,
    subject: () => TENANT_SCOPE,
    async allow(_req, _g, ctx, writes) {
      let n = 0;
      for (const fact of await store.activeInTenant(ctx.tenantId)) {
        if (fact.expires_at.getTime() > ctx.now.getTime()) continue;
        await writes.run(
          () => store.setStatus(fact, "inactive", "decayed"),
          () => store.restoreStatus(fact),
        );
        writes.event({ event_type: "invalidate", subject_id: fact.subject_id, memory_id: fact.memory_id, reason: "decayed", metadata: { type: fact.type } });
        logger.info({ requestId: ctx.requestId, memoryId: fact.memory_id, type: fact.type }, "SG-DECAY: fact deactivated (kept, never deleted)");
        n++;
      }
      return { deactivated: n };
    },
  });
}
