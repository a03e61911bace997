import { randomUUID } from "node:crypto";
import type { Decision } from "../../../kernel/decision";
import { operation, type OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import { newSalt, saltedDigest } from "../../../store/canonical";
import type { WriteDocument } from "../documents";
import { WRITE_FIELDS } from "../fields";
import type { TenantMemoryIndex } from "../memory-index";
import { GLOBAL_SPACE, MEMORY_ID_PREFIX, agentMemoryDocId, repoSpace, sealMemory, type AgentMemoryRecord, type IndexedRecord } from "../records";
import { toItem, type AgentResult } from "../response";
import { AGENT_CONTRACT, dueEvent } from "../store";
import {
  AgentError,
  documentOf,
  documentSubject,
  factsOf,
  indexOf,
  memoryIdsOf,
  refusal,
  settleWith,
  validated,
  type AgentParts,
  type DocumentRequest,
} from "./shared";

/** WRITE (IF1-WRITE, IF1-CHANGE): an immutable memory; a change invalidates its targets. */
export function write(parts: AgentParts) {
  const { store, indexes } = parts;
  return operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>({
    contract: AGENT_CONTRACT,
    name: "WRITE",
    fields: WRITE_FIELDS,
    subject: documentSubject,
    /** A write only needs the memories it links to: when this process's index holds them all, the trip to the log is skipped. */
    async gather(req, ctx) {
      const result = validated(req, "write");
      if (!result.ok) return undefined;
      const named = memoryIdsOf((result.document as WriteDocument).memory.links);
      const current = await indexes.current(ctx.tenantId);
      return named.every((memoryId) => current.get(memoryId)) ? current : indexes.fresh(ctx.tenantId);
    },
    input(req, index) {
      const { facts, result } = factsOf(req, "write", index);
      if (!result.ok) return { agent: facts };
      const { memory } = result.document as WriteDocument;
      return { agent: facts, write: { scope: memory.scope, kind: memory.kind, confidence: memory.confidence } };
    },
    refusal,
    async allow(req, gathered, ctx, writes, decision) {
      const { repo_id: repoId, memory } = documentOf<WriteDocument>(req, "write");
      const index = indexOf(gathered);
      const tenant = ctx.tenantId;
      const record = memoryRecord(ctx, repoId, memory);
      const memoryId = record.memory_id;
      const digest = saltedDigest(record.content_salt, { text: record.text, rationale: record.rationale, evidence_refs: record.evidence_refs });
      const metadata = {
        contract: AGENT_CONTRACT,
        space: record.space,
        kind: record.kind,
        scope: record.scope,
        links: record.links,
        text_length: record.text.length,
      };
      const due = dueEvent(tenant, record.subject_id, memoryId, decision.decisionId, "write", ctx.now, {
        event_type: "create",
        operation: "WRITE",
        stop_reason: decision.stopReason,
        content_digest: digest,
        metadata,
      });
      const targets = record.links.change_targets.map((targetId) => {
        const target = index.get(targetId)?.record;
        if (!target) throw new AgentError("a change target the policy judged visible is not in the index");
        return target;
      });
      // The answer is known before anything is written: a keyed retry after a crash finds the memory by its id (src/kernel/idempotency.ts).
      const answer: AgentResult = { memory: toItem(record, index), invalidated: targets.map((t) => t.memory_id) };
      await writes.creating([{ objectId: memoryId }], answer);
      await writes.run(
        () => store.insertMemory(record, due),
        () => store.removeMemory(record, due),
      );
      await writes.run(
        async () => index.upsert(record),
        async () => index.remove(memoryId),
      );
      writes.event({ event_type: "create", memory_id: memoryId, content_digest: digest, metadata, settle: settleWith(parts, tenant, due) });
      for (const target of targets) await invalidateTarget(parts, ctx, writes, decision, index, target, memoryId);
      return answer;
    },
  });
}

/** The memory a WRITE document stores, sealed. */
function memoryRecord(ctx: OperationContext, repoId: string, memory: WriteDocument["memory"]): AgentMemoryRecord {
  const tenant = ctx.tenantId;
  const space = memory.scope === "global" ? GLOBAL_SPACE : repoSpace(repoId);
  const memoryId = `${MEMORY_ID_PREFIX}${randomUUID()}`;
  return sealMemory({
    _id: agentMemoryDocId(tenant, space, memoryId),
    tenant_id: tenant,
    space,
    repo_id: repoId,
    memory_id: memoryId,
    subject_id: ctx.subjectId,
    author_id: ctx.principal.id,
    scope: memory.scope,
    kind: memory.kind,
    text: memory.text,
    confidence: memory.confidence,
    rationale: memory.rationale ?? null,
    links: {
      problem_id: memory.links?.problem_id ?? null,
      related_memory_ids: [...new Set(memory.links?.related_memory_ids ?? [])],
      change_targets: [...new Set(memory.links?.change_targets ?? [])],
    },
    evidence_refs: memory.evidence_refs ?? [],
    truth: null,
    utility: null,
    invalidated_by: null,
    status: "active",
    created_at: ctx.now,
    updated_at: ctx.now,
    created_by: { id: ctx.principal.id, roles: ctx.principal.roles },
    content_salt: newSalt(),
  });
}

/** IF1-CHANGE: a target is marked as invalidated by this change, in place, with its own event. */
async function invalidateTarget(
  parts: AgentParts,
  ctx: OperationContext,
  writes: Writes,
  decision: Decision,
  index: TenantMemoryIndex,
  target: IndexedRecord,
  memoryId: string,
): Promise<void> {
  const targetMetadata = { contract: AGENT_CONTRACT, space: target.space, invalidated_by: memoryId, previously_invalidated_by: target.invalidated_by };
  const targetDue = dueEvent(ctx.tenantId, target.subject_id, target.memory_id, decision.decisionId, "write", ctx.now, {
    event_type: "invalidate",
    operation: "WRITE",
    stop_reason: decision.stopReason,
    content_digest: null,
    metadata: targetMetadata,
    reason: "IF1-CHANGE",
  });
  await writes.run(
    () => parts.store.setInvalidatedBy(target, memoryId, ctx.now, targetDue),
    () => parts.store.restoreInvalidatedBy(target, targetDue),
  );
  await writes.run(
    async () => index.upsert({ ...target, invalidated_by: memoryId, updated_at: ctx.now }),
    async () => index.upsert(target),
  );
  writes.event({
    event_type: "invalidate",
    subject_id: target.subject_id,
    memory_id: target.memory_id,
    reason: "IF1-CHANGE",
    metadata: targetMetadata,
    settle: settleWith(parts, ctx.tenantId, targetDue),
  });
}
