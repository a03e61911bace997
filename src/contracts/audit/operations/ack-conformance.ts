import { actorOf } from "../../../kernel/execute";
import { operation } from "../../../kernel/operation";
import type { AuditLog } from "../../../store/log/audit-system";
import { ACK_CONFORMANCE_FIELDS } from "../fields";
import { AUDIT_CONTRACT, codedReason, tenantWide, type AcknowledgeRequest } from "./shared";

/** ACK_CONFORMANCE (MP-BREAK): an admin acknowledges the tenant's conformance break; writes are accepted again. */
export function acknowledgeBreak(log: AuditLog) {
  return operation<AcknowledgeRequest, undefined, number>({
    contract: AUDIT_CONTRACT,
    name: "ACK_CONFORMANCE",
    fields: ACK_CONFORMANCE_FIELDS,
    subject: tenantWide,
    async allow(req, _gathered, ctx, writes, decision) {
      const { code: reason, note } = await codedReason(log, ctx, decision, "ACK_CONFORMANCE", req, writes);
      const acknowledged = await writes.run(
        () => log.guard.acknowledge(ctx.tenantId, actorOf(ctx.principal), reason),
        async (brokenSeq) => {
          if (brokenSeq !== null) await log.guard.unacknowledge(ctx.tenantId, brokenSeq);
        },
      );
      writes.event({ event_type: "settings_change", reason, metadata: { acknowledged_break_seq: acknowledged, ...note } });
      return acknowledged ?? 0;
    },
  });
}
