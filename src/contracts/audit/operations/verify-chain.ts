import { operation } from "../../../kernel/operation";
import type { AuditLog } from "../../../store/log/audit-system";
import type { ChainVerification } from "../../../store/log/verify";
import { VERIFY_CHAIN_FIELDS } from "../fields";
import { AUDIT_CONTRACT, seq, tenantWide, type VerifyChainRequest } from "./shared";

/** VERIFY_CHAIN: the tenant's chain verified over a range; a known conformance break is always reported. */
export function verifyChain(log: AuditLog) {
  return operation<VerifyChainRequest, undefined, ChainVerification>({
    contract: AUDIT_CONTRACT,
    name: "VERIFY_CHAIN",
    fields: VERIFY_CHAIN_FIELDS,
    subject: tenantWide,
    input: (req) => ({ range: { from_seq: seq(req.fromSeq, null), to_seq: seq(req.toSeq, null) } }),
    refusal: (req) => ({ from_seq: seq(req.fromSeq, null), to_seq: seq(req.toSeq, null) }),
    async allow(req, _gathered, ctx) {
      await log.guard.refresh();
      const result = await log.auditor.verify(ctx.tenantId, { fromSeq: req.fromSeq, toSeq: req.toSeq }, log.guard.acknowledgedSeqs(ctx.tenantId));
      // MP-BREAK: an unverifiable log is a conformance break, however it was found (the log's own duty).
      if (!result.ok) await log.guard.reportBreak(result, "verifyAuditChain");
      // Issue 22 §3: a known break is reported by every answer, whatever range was asked (a default
      // verify starts after the last checkpoint, a fromSeq one where asked), until an admin acknowledges it.
      const known = log.guard.breakOf(ctx.tenantId);
      if (result.ok && known) return { ...result, ok: false, firstBrokenSeq: known.seq, reason: known.reason, lastHash: null };
      return result;
    },
  });
}
