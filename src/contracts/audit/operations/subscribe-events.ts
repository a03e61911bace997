import { operation } from "../../../kernel/operation";
import type { AuditLog } from "../../../store/log/audit-system";
import { SUBSCRIBE_EVENTS_FIELDS } from "../fields";
import { AUDIT_CONTRACT, seq, tenantWide, type EventsAfterRequest, type EventStream } from "./shared";

/** SUBSCRIBE_EVENTS: the live, resumable stream: every event after `afterSeq`, in order, then live ones. */
export function subscribeEvents(log: AuditLog) {
  return operation<EventsAfterRequest, undefined, EventStream>({
    contract: AUDIT_CONTRACT,
    name: "SUBSCRIBE_EVENTS",
    fields: SUBSCRIBE_EVENTS_FIELDS,
    subject: tenantWide,
    input: (req) => ({ stream: { after_seq: seq(req.afterSeq, 0) } }),
    refusal: (req) => ({ after_seq: seq(req.afterSeq, 0) }),
    async allow(req, _gathered, ctx) {
      const afterSeq = seq(req.afterSeq, 0)!;
      // Admitted against the caps per token and per tenant at once (SubscriptionLimitError).
      return (signal: AbortSignal) => log.source.stream(ctx.tenantId, afterSeq, signal, ctx.principal.id);
    },
  });
}
