import type { ContractStore, ErasureMark, UnsettledObject } from "../../../kernel/contract-store";
import type { Decision } from "../../../kernel/decision";
import { KernelError } from "../../../kernel/execute";
import { TENANT_SCOPE, type OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import type { MemoryEvent } from "../../../store/event-log";
import type { AuditLog } from "../../../store/log/audit-system";
import type { Checkpoint } from "../../../store/log/checkpoints";
import type { ExportManifest } from "../../../store/log/export";

export const AUDIT_CONTRACT = "audit";

export const DEFAULT_CHECKPOINT_LIMIT = 100;

export interface CheckpointList {
  publicKeyPem: string;
  keyId: string;
  checkpoints: Checkpoint[];
}

/** An export: its signed manifest (the first NDJSON line) and the events it announces. */
export interface AuditExport {
  manifest: ExportManifest;
  events: AsyncIterable<MemoryEvent>;
}

export interface ErasureResult {
  erasedMemoryIds: string[];
}

/** A live stream of the tenant's log, opened by the door with its own abort signal. */
export type EventStream = (signal: AbortSignal) => AsyncIterable<MemoryEvent>;

export interface VerifyChainRequest {
  fromSeq?: number | null;
  toSeq?: number | null;
}

export interface ListCheckpointsRequest {
  afterSeq?: number | null;
  limit?: number | null;
}

export interface EventsAfterRequest {
  afterSeq?: number | null;
}

export interface AcknowledgeRequest {
  /** A code of data.memgate.contracts.audit.reason_codes.ACK_CONFORMANCE. */
  reason?: string | null;
  /** Free text, judged like every text, kept outside the chain (issue 22 §4). */
  note?: string | null;
}

export interface EraseMemoryRequest {
  memoryId?: string | null;
  subjectId?: string | null;
  /** A code of data.memgate.contracts.audit.reason_codes (GDPR Art. 17 grounds, retention, user_request …). */
  reason?: string | null;
  note?: string | null;
}

export interface EraseSubjectRequest {
  subjectId?: string | null;
  reason?: string | null;
  note?: string | null;
}

/** Which stores hold the object, and whether every one that holds it has erased it already. */
export interface Holders {
  holders: ContractStore[];
  found: boolean;
  erased: boolean;
}

export interface AuditOperationDeps {
  log: AuditLog;
  /** Every contract's stores (ContractDeps.stores), read when an erasure runs. */
  stores: readonly ContractStore[];
}

export const tenantWide = () => TENANT_SCOPE;
export const seq = (value: number | null | undefined, fallback: number | null) => (typeof value === "number" ? value : fallback);

/**
 * Issue 22 §4, nothing free-form in the permanent record: the event (and an erasure mark) keeps
 * the reason code the policy answered (audit.rego decision_detail.reason_code, from
 * data.memgate.contracts.audit.reason_codes[operation]); for `other`, the reason's text, with the
 * note if any, is kept outside the chain (ReasonNotes), the event carrying only the note's id
 * and salted digest. Both texts were judged by every detector before this runs (declared text).
 */
export async function codedReason(
  log: AuditLog,
  ctx: OperationContext,
  decision: Decision,
  operationName: string,
  req: { reason?: string | null; note?: string | null },
  writes: Writes,
): Promise<{ code: string; note: { note_id?: string; note_digest?: string } }> {
  const code = decision.detail?.reason_code;
  if (typeof code !== "string") throw new KernelError(`audit: the policy gave no reason code for ${operationName}`);
  const reason = (req.reason ?? "").trim();
  const text = [code === "other" ? reason : "", req.note?.trim() ?? ""].filter((part) => part !== "").join("\n");
  if (text === "") return { code, note: {} };
  const subject = ctx.subjectId === TENANT_SCOPE ? null : ctx.subjectId;
  const kept = await writes.run(
    () => log.notes.keep(ctx.tenantId, subject, operationName, text, ctx.now),
    (done) => log.notes.remove(done.note_id),
  );
  return { code, note: kept };
}

export function erasureMark(ctx: OperationContext, decision: Decision, operationName: string, reason: string): ErasureMark {
  return { at: ctx.now.toISOString(), by: ctx.principal.id, reason, operation: operationName, decision_id: decision.decisionId };
}

/**
 * Erases one object in one store (content out of every place the store keeps it, a
 * tombstone left), then names its `erase` event, whose settle mark completes the erasure.
 * Erasure has no undo: if the event cannot be written, the tombstone stays unsettled and
 * the repair pass appends the event (content that was asked to go never comes back).
 */
export async function eraseObject(
  store: ContractStore,
  ctx: OperationContext,
  objectId: string,
  mark: ErasureMark,
  /** The erasure's stop reason as the policy answered it: the repair pass records it if the event is missed. */
  stopReason: string,
  writes: Writes,
  note: { note_id?: string; note_digest?: string } = {},
): Promise<boolean> {
  return (await eraseObjects(store, ctx, [objectId], mark, stopReason, writes, note)).length > 0;
}

/** Objects a store that erases pages erases at once. */
const ERASURE_PAGE = 200;

/**
 * Erases every object of `objectIds` in one store as `eraseObject` does: in pages of
 * `ERASURE_PAGE` where the store erases a page at once (a subject with 10,000 items: 50 pages of
 * a few commands each), one by one elsewhere; and names their `erase` events in the order of
 * `objectIds`. Returns the ids erased. A failure stops it (the request fails; the repair pass
 * settles what was erased before).
 */
export async function eraseObjects(
  store: ContractStore,
  ctx: OperationContext,
  objectIds: readonly string[],
  mark: ErasureMark,
  stopReason: string,
  writes: Writes,
  note: { note_id?: string; note_digest?: string } = {},
): Promise<string[]> {
  const erased: boolean[] = [];
  const page = store.eraseMany ? ERASURE_PAGE : 1;
  for (let i = 0; i < objectIds.length; i += page) {
    const ids = objectIds.slice(i, i + page);
    erased.push(
      ...(await writes.run(() =>
        store.eraseMany ? store.eraseMany(ctx.tenantId, ctx.subjectId, ids, mark) : store.erase(ctx.tenantId, ctx.subjectId, ids[0], mark).then((one) => [one]),
      )),
    );
  }
  const done = objectIds.filter((_, i) => erased[i]);
  for (const objectId of done) {
    const unsettled: UnsettledObject = {
      tenantId: ctx.tenantId,
      subjectId: ctx.subjectId,
      objectId,
      writtenAt: new Date(mark.at),
      kind: "erasure",
      version: null,
      missing: {
        event_type: "erase",
        operation: mark.operation,
        stop_reason: stopReason,
        content_digest: null,
        metadata: {},
        reason: mark.reason,
        decision_id: mark.decision_id,
      },
    };
    writes.event({
      event_type: "erase",
      memory_id: objectId,
      reason: mark.reason,
      metadata: { object_contract: store.contract, ...note },
      settle: (eventSeq) => store.settle(unsettled, eventSeq),
    });
  }
  return done;
}
