import type { AuditLog } from "../../store/log/audit-system";
import type { Checkpoint } from "../../store/log/checkpoints";
import { exportManifest, orderedEvents, type ExportManifest } from "../../store/log/export";
import type { ChainVerification } from "../../store/log/verify";
import type { ContractStore, ErasureMark, UnsettledObject } from "../../kernel/contract-store";
import type { Decision } from "../../kernel/decision";
import { actorOf } from "../../kernel/execute";
import { operation, TENANT_SCOPE, type OperationContext } from "../../kernel/operation";
import type { Writes } from "../../kernel/write-set";
import type { MemoryEvent } from "../../store/event-log";
import {
  ACK_CONFORMANCE_FIELDS,
  ERASE_MEMORY_FIELDS,
  ERASE_SUBJECT_FIELDS,
  EXPORT_EVENTS_FIELDS,
  LIST_CHECKPOINTS_FIELDS,
  SUBSCRIBE_EVENTS_FIELDS,
  VERIFY_CHAIN_FIELDS,
} from "./fields";

export const AUDIT_CONTRACT = "audit";

const DEFAULT_CHECKPOINT_LIMIT = 100;

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
interface Holders {
  holders: ContractStore[];
  found: boolean;
  erased: boolean;
}

export interface AuditOperationDeps {
  log: AuditLog;
  /** Every contract's stores (ContractDeps.stores), read when an erasure runs. */
  stores: readonly ContractStore[];
}

const tenantWide = () => TENANT_SCOPE;
const seq = (value: number | null | undefined, fallback: number | null) => (typeof value === "number" ? value : fallback);

/**
 * The audit contract (issue 5, issue 11): the auditor's doors to the log (verification,
 * checkpoints, the live stream, the export), an admin's acknowledgement of a conformance
 * break (MP-BREAK), and erasure on the subject's request (SPEC D1), which reaches every
 * contract through its ContractStore. The policy decides each operation
 * (policies/memgate/contracts/audit); reasons are declared text, so they meet every detector.
 */
/**
 * Issue 22 §4, nothing free-form in the permanent record: the event (and an erasure mark) keeps a
 * reason code from policy data (data.memgate.contracts.audit.reason_codes[operation]); a reason that
 * is not a code is recorded as `other`, and its text, with the note if any, is kept outside the
 * chain (ReasonNotes), the event carrying only the note's id and salted digest. Both texts were
 * judged by every detector before this runs (they are declared text fields).
 */
async function codedReason(
  log: AuditLog,
  ctx: OperationContext,
  operationName: string,
  req: { reason?: string | null; note?: string | null },
  writes: Writes,
): Promise<{ code: string; note: { note_id?: string; note_digest?: string } }> {
  const codes = ctx.policy.data<{ audit?: { reason_codes?: Record<string, string[]> } }>("contracts")?.audit?.reason_codes?.[operationName] ?? [];
  const reason = (req.reason ?? "").trim();
  const code = codes.includes(reason) ? reason : "other";
  const text = [code === "other" ? reason : "", req.note?.trim() ?? ""].filter((part) => part !== "").join("\n");
  if (text === "") return { code, note: {} };
  const subject = ctx.subjectId === TENANT_SCOPE ? null : ctx.subjectId;
  const kept = await writes.run(
    () => log.notes.keep(ctx.tenantId, subject, operationName, text, ctx.now),
    (done) => log.notes.remove(done.note_id),
  );
  return { code, note: kept };
}

export function auditOperations({ log, stores }: AuditOperationDeps) {
  const verifyChain = operation<VerifyChainRequest, undefined, ChainVerification>({
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

  const listCheckpoints = operation<ListCheckpointsRequest, undefined, CheckpointList>({
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

  /** The live, resumable stream: every event after `afterSeq`, in order, then live ones. */
  const subscribeEvents = operation<EventsAfterRequest, undefined, EventStream>({
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

  /** NDJSON export: a signed manifest (range and anchor), then every event after `afterSeq` up to the head as it is when the export starts. */
  const exportEvents = operation<EventsAfterRequest, undefined, AuditExport>({
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

  /** MP-BREAK: an admin acknowledges the tenant's conformance break; writes are accepted again. */
  const acknowledgeBreak = operation<AcknowledgeRequest, undefined, number>({
    contract: AUDIT_CONTRACT,
    name: "ACK_CONFORMANCE",
    fields: ACK_CONFORMANCE_FIELDS,
    subject: tenantWide,
    async allow(req, _gathered, ctx, writes) {
      const { code: reason, note } = await codedReason(log, ctx, "ACK_CONFORMANCE", req, writes);
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

  /** SPEC D1: one object's content out of whichever store holds it; the events stay. */
  const eraseMemory = operation<EraseMemoryRequest, Holders, ErasureResult>({
    contract: AUDIT_CONTRACT,
    name: "ERASE_MEMORY",
    fields: ERASE_MEMORY_FIELDS,
    async gather(req, ctx) {
      const objectId = req.memoryId;
      if (typeof objectId !== "string" || objectId.trim() === "") return { holders: [], found: false, erased: false };
      const seen = await Promise.all(stores.map(async (store) => ({ store, ...(await store.lookup(ctx.tenantId, ctx.subjectId, objectId)) })));
      const found = seen.filter((s) => s.found);
      const holders = found.filter((s) => !s.erased).map((s) => s.store);
      return { holders, found: found.length > 0, erased: found.length > 0 && holders.length === 0 };
    },
    // A subject the token does not hold gathers nothing: "not found", whatever exists (no existence oracle).
    input: (req, gathered) => ({
      item: { memory_id: req.memoryId ?? "" },
      erasure: { found: gathered?.found ?? false, erased: gathered?.erased ?? false },
    }),
    async allow(req, gathered, ctx, writes, decision) {
      const objectId = req.memoryId!;
      const { code, note } = await codedReason(log, ctx, "ERASE_MEMORY", req, writes);
      const mark = erasureMark(ctx, decision, "ERASE_MEMORY", code);
      let erased = false;
      for (const store of gathered.holders) erased = (await eraseObject(store, ctx, objectId, mark, writes, note)) || erased;
      // Erased by a concurrent request meanwhile: the policy judges the object as it is now.
      if (!erased) return writes.lost();
      return { erasedMemoryIds: [objectId] };
    },
  });

  /** SPEC D1: every object of the subject in every contract's store; an erasure that matched nothing is logged too. */
  const eraseSubject = operation<EraseSubjectRequest, undefined, ErasureResult>({
    contract: AUDIT_CONTRACT,
    name: "ERASE_SUBJECT",
    fields: ERASE_SUBJECT_FIELDS,
    async allow(req, _gathered, ctx, writes, decision) {
      // What was noted about the subject before goes with it; this erasure's own note is kept.
      if (ctx.subjectId !== TENANT_SCOPE) await log.notes.eraseSubject(ctx.tenantId, ctx.subjectId);
      const { code: reason, note } = await codedReason(log, ctx, "ERASE_SUBJECT", req, writes);
      const mark = erasureMark(ctx, decision, "ERASE_SUBJECT", reason);
      const erased = new Set<string>();
      for (const store of stores) {
        for (const objectId of await store.objectIds(ctx.tenantId, ctx.subjectId)) {
          if (await eraseObject(store, ctx, objectId, mark, writes, note)) erased.add(objectId);
        }
      }
      if (erased.size === 0) {
        writes.event({ event_type: "erase", memory_id: null, reason, metadata: { erased_objects: 0, stores: stores.map((s) => s.contract), ...note } });
      }
      return { erasedMemoryIds: [...erased].sort() };
    },
  });

  return { verifyChain, listCheckpoints, subscribeEvents, exportEvents, acknowledgeBreak, eraseMemory, eraseSubject };
}

export type AuditOperations = ReturnType<typeof auditOperations>;

function erasureMark(ctx: OperationContext, decision: Decision, operationName: string, reason: string): ErasureMark {
  return { at: ctx.now.toISOString(), by: ctx.principal.id, reason, operation: operationName, decision_id: decision.decisionId };
}

/**
 * Erases one object in one store (content out of every place the store keeps it, a
 * tombstone left), then names its `erase` event, whose settle mark completes the erasure.
 * Erasure has no undo: if the event cannot be written, the tombstone stays unsettled and
 * the repair pass appends the event (content that was asked to go never comes back).
 */
async function eraseObject(
  store: ContractStore,
  ctx: OperationContext,
  objectId: string,
  mark: ErasureMark,
  writes: Writes,
  note: { note_id?: string; note_digest?: string } = {},
): Promise<boolean> {
  const erased = await writes.run(() => store.erase(ctx.tenantId, ctx.subjectId, objectId, mark));
  if (!erased) return false;
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
      stop_reason: "SUCCESS_DELETED",
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
  return true;
}
