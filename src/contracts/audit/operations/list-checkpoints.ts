import { operation } from "../../../kernel/operation";
import type { AuditLog } from "../../../store/log/audit-system";
import { LIST_CHECKPOINTS_FIELDS } from "../fields";
import { AUDIT_CONTRACT, DEFAULT_CHECKPOINT_LIMIT, seq, tenantWide, type CheckpointList, type ListCheckpointsRequest } from "./shared";

/** LIST_CHECKPOINTS: the tenant's signed checkpoints after a sequence number, with the key that signed them. */
export function listCheckpoints(log: AuditLog) {
  return operation<ListCheckpointsRequest, undefined, CheckpointList>({
    contract: AUDIT_CONTRACT,
    name: "LIST_CHECKPOINTS",
    fields: LIST_CHECKPOINTS_FIELDS,
    subject: tenantWide,
    input: (req) => ({ list: { after_seq: seq(req.afterSeq, 0), limit: seq(req.limit, DEFAULT_CHECKPOINT_LIMIT) } }),
    refusal: (req) => ({ after_seq: seq(req.afterSeq, 0), limit: seq(req.limit, DEFAULT_CHECKPOINT_LIMIT) }),
    async allow(req, _gathered, ctx) {
      const checkpoints = await log.checkpointer.list(ctx.tenantId, seq(req.afterSeq, 0)!, seq(req.limit, DEFAULT_CHECKPOINT_LIMIT)!);
      return { publicKeyPem: log.checkpointer.key.publicKeyPem, keyId: log.checkpointer.key.keyId, checkpoints };
    },
  });
}
