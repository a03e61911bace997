import { REAUDIT_STATUS_FIELDS, RELEASE_QUARANTINE_FIELDS } from "./fields";
import { operation, TENANT_SCOPE } from "../../kernel/operation";
import type { RejudgeTarget } from "../../kernel/rejudge";
import type { ReauditProgress, ReauditProgressRecord } from "../../store/log/reaudit";
import { AUDIT_CONTRACT } from "./operations";

export interface ReleaseQuarantineRequest {
  memoryId?: string | null;
  subjectId?: string | null;
  reason?: string | null;
}

/** Every target holding the id quarantined: an item and its superseded versions share one id. */
interface QuarantineHolder {
  target: RejudgeTarget;
  subjectId: string;
}

export interface ReleaseResult {
  releasedMemoryId: string;
  contract: string;
}

export interface ReauditOperationDeps {
  progress: ReauditProgress;
  /** Every contract's re-audit targets (ContractDeps.rejudgeTargets), read when a release runs. */
  targets: readonly RejudgeTarget[];
}

const tenantWide = () => TENANT_SCOPE;

/**
 * Issue 13 item 5: how far the re-audit under the bundle in force has come for the token's
 * tenant (admin, auditor), and an admin's release of a quarantined memory back to the status
 * it had. The release names the object and a reason; its `release` event names the object,
 * never its content.
 */
export function reauditOperations({ progress, targets }: ReauditOperationDeps) {
  const reauditStatus = operation<Record<string, never>, undefined, ReauditProgressRecord | null>({
    contract: AUDIT_CONTRACT,
    name: "REAUDIT_STATUS",
    fields: REAUDIT_STATUS_FIELDS,
    subject: tenantWide,
    allow: async (_req, _gathered, ctx) => (ctx.policy.hash ? progress.get(ctx.tenantId, ctx.policy.hash) : null),
  });

  const releaseQuarantine = operation<ReleaseQuarantineRequest, QuarantineHolder[], ReleaseResult>({
    contract: AUDIT_CONTRACT,
    name: "RELEASE_QUARANTINE",
    fields: RELEASE_QUARANTINE_FIELDS,
    subject: tenantWide,
    async gather(req, ctx) {
      const objectId = req.memoryId;
      const holders: QuarantineHolder[] = [];
      if (typeof objectId !== "string" || objectId.trim() === "") return holders;
      for (const target of targets) {
        const held = await target.quarantined(ctx.tenantId, objectId, req.subjectId ?? null);
        if (held) holders.push({ target, subjectId: held.subjectId });
      }
      return holders;
    },
    // A quarantined object is the live target of a release; anything else answers NOT_FOUND (checks/target).
    input: (_req, holders) => ({ target: holders && holders.length > 0 ? { found: true, status: "active" } : { found: false } }),
    async allow(req, holders, ctx, writes) {
      const objectId = req.memoryId!;
      // Every quarantine of the id goes (a governed item and its superseded versions), each with its own event.
      for (const holder of holders) {
        const released = await writes.run(async () => {
          const done = await holder.target.release(ctx.tenantId, objectId, holder.subjectId);
          if (!done) throw new Error("the quarantine was lifted meanwhile");
          return done;
        });
        writes.event({
          event_type: "release",
          subject_id: released.subjectId,
          memory_id: objectId,
          reason: req.reason ?? "",
          metadata: { object_contract: holder.target.contract, kind: holder.target.kind, ...released.metadata },
        });
      }
      return { releasedMemoryId: objectId, contract: holders[0].target.contract };
    },
  });

  return { reauditStatus, releaseQuarantine };
}

export type ReauditOperations = ReturnType<typeof reauditOperations>;
