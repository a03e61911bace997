import { operation } from "../../../kernel/operation";
import type { AuditLog } from "../../../store/log/audit-system";
import { exportManifest, orderedEvents } from "../../../store/log/export";
import { EXPORT_EVENTS_FIELDS } from "../fields";
import { AUDIT_CONTRACT, seq, tenantWide, type AuditExport, type EventsAfterRequest } from "./shared";

/** EXPORT_EVENTS, NDJSON: a signed manifest (range and anchor), then every event after `afterSeq` up to the head as it is when the export starts. */
export function exportEvents(log: AuditLog) {
  return operation<EventsAfterRequest, undefined, AuditExport>({
    contract: AUDIT_CONTRACT,
    name: "EXPORT_EVENTS",
    fields: EXPORT_EVENTS_FIELDS,
    subject: tenantWide,
    input: (req) => ({ stream: { after_seq: seq(req.afterSeq, 0) } }),
    refusal: (req) => ({ after_seq: seq(req.afterSeq, 0) }),
    async allow(req, _gathered, ctx) {
      const afterSeq = seq(req.afterSeq, 0)!;
      const manifest = await exportManifest(log.events, log.checkpointer.keys, ctx.tenantId, afterSeq, ctx.now);
      return { manifest, events: orderedEvents(log.events, ctx.tenantId, afterSeq, manifest.to_seq) };
    },
  });
}
