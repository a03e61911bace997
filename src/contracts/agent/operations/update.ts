import { randomUUID } from "node:crypto";
import type { Decision } from "../../../kernel/decision";
import { operation, type OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import { saltedDigest } from "../../../store/canonical";
import type { UpdateDocument } from "../documents";
import { UPDATE_FIELDS } from "../fields";
import type { TenantMemoryIndex } from "../memory-index";
import { UPDATE_ID_PREFIX, agentUpdateDocId, dynamicRef, sealDynamic, sealUpdate, type DynamicValue, type IndexedRecord } from "../records";
import { dynamicPair, type AgentResult } from "../response";
import type { SchemaIssue } from "../schema-validation";
import { AGENT_CONTRACT, dueEvent } from "../store";
import {
  AgentError,
  documentOf,
  documentSubject,
  factsOf,
  indexOf,
  numbers,
  refusal,
  settleWith,
  validated,
  visibleTarget,
  type AgentParts,
  type DocumentRequest,
} from "./shared";

const FIELDS = ["truth", "utility"] as const;

/** UPDATE and UPDATE_DRY_RUN (IF1-UPDATE): a memory's truth and/or utility; a dry run persists nothing. */
export function update(parts: AgentParts, mode: UpdateDocument["mode"]) {
  return operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>({
    contract: AGENT_CONTRACT,
    name: mode === "commit" ? "UPDATE" : "UPDATE_DRY_RUN",
    fields: UPDATE_FIELDS,
    subject: documentSubject,
    async gather(req, ctx) {
      return validated(req, "update").ok ? parts.indexes.fresh(ctx.tenantId) : undefined;
    },
    input(req, index) {
      // The doors pick the operation by the document's mode; should another reach it, its mode is wrong here.
      const claimed = (req as { mode?: unknown }).mode;
      const wrongMode: SchemaIssue[] =
        (claimed === "commit" || claimed === "dry_run") && claimed !== mode
          ? [{ pointer: "/mode", keyword: "const", message: `must be "${mode}" for this operation` }]
          : [];
      const { facts, result } = factsOf(req, "update", index, wrongMode);
      if (!result.ok) return { agent: facts, target: { found: false } };
      const document = result.document as UpdateDocument;
      const target = visibleTarget(index, document);
      return {
        agent: facts,
        target: target ? { found: true, status: target.status } : { found: false },
        update: { mode: document.mode, fields: FIELDS.filter((f) => document.updates[f] !== undefined) },
      };
    },
    refusal,
    async allow(req, gathered, ctx, writes, decision) {
      const document = documentOf<UpdateDocument>(req, "update");
      const index = indexOf(gathered);
      const record = visibleTarget(index, document);
      if (!record) throw new AgentError("the policy allowed an update of a memory the caller cannot see");
      const updateId = `${UPDATE_ID_PREFIX}${randomUUID()}`;
      const next = (field: "truth" | "utility"): DynamicValue | null => {
        const value = document.updates[field];
        if (!value) return record[field];
        return sealDynamic({
          target: value.target,
          confidence: value.confidence,
          rationale: value.rationale,
          evidence_refs: value.evidence_refs ?? [],
          context_problem_id: field === "utility" ? (document.updates.utility?.context_problem_id ?? null) : null,
          updated_at: ctx.now,
          update_id: updateId,
          author_id: ctx.principal.id,
          erased: false,
        });
      };
      const after: IndexedRecord = { ...record, truth: next("truth"), utility: next("utility"), updated_at: ctx.now };
      const result: AgentResult = { mode: document.mode, committed: false, before: dynamicPair(record), after: dynamicPair(after) };
      if (mode === "dry_run") return result; // IF1-UPDATE: nothing persists
      await commitUpdate(parts, { ctx, writes, decision, index, document, record, after, updateId }, result);
      return { ...result, committed: true };
    },
  });
}

interface UpdateCommit {
  ctx: OperationContext;
  writes: Writes;
  decision: Decision;
  index: TenantMemoryIndex;
  document: UpdateDocument;
  record: IndexedRecord;
  after: IndexedRecord;
  updateId: string;
}

/** The update record, the memory's new values and its event; the event commits to the rationale and evidence by digest. */
async function commitUpdate(parts: AgentParts, u: UpdateCommit, result: AgentResult): Promise<void> {
  const { ctx, writes, decision, index, document, record, after, updateId } = u;
  const tenant = ctx.tenantId;
  const changed = (field: "truth" | "utility") => document.updates[field] !== undefined;
  const updateRecord = sealUpdate({
    _id: agentUpdateDocId(tenant, record.space, record.memory_id, updateId),
    tenant_id: tenant,
    space: record.space,
    memory_id: record.memory_id,
    update_id: updateId,
    decision_id: decision.decisionId,
    subject_id: record.subject_id,
    author_id: ctx.principal.id,
    before: { truth: dynamicRef(record.truth), utility: dynamicRef(record.utility) },
    after: { truth: changed("truth") ? after.truth : null, utility: changed("utility") ? after.utility : null },
    status: "active",
    created_at: ctx.now,
    created_by: { id: ctx.principal.id, roles: ctx.principal.roles },
  });
  const metadata = {
    contract: AGENT_CONTRACT,
    space: record.space,
    update_id: updateId,
    changed: Object.fromEntries(FIELDS.filter(changed).map((f) => [f, { before: numbers(record[f]), after: numbers(after[f]) }])),
    evidence_ref_count: (document.updates.truth?.evidence_refs.length ?? 0) + (document.updates.utility?.evidence_refs?.length ?? 0),
    rationale_length: (document.updates.truth?.rationale.length ?? 0) + (document.updates.utility?.rationale.length ?? 0),
  };
  // The rationale and evidence are kept verbatim in the update record; the event commits to them by digest (SPEC D1).
  const digest = saltedDigest(record.content_salt, {
    update_id: updateId,
    truth: document.updates.truth ?? null,
    utility: document.updates.utility ?? null,
  });
  const due = dueEvent(tenant, record.subject_id, record.memory_id, decision.decisionId, "write", ctx.now, {
    event_type: "update",
    operation: "UPDATE",
    stop_reason: decision.stopReason,
    content_digest: digest,
    metadata,
    reason: "IF1-UPDATE",
  });
  // The update record is an object of its own: a keyed retry after a crash finds it by its id (src/kernel/idempotency.ts).
  await writes.creating([{ objectId: updateId, subjectId: record.subject_id }], { ...result, committed: true });
  await writes.run(
    () => parts.store.applyUpdate(record, updateRecord, ctx.now, due),
    () => parts.store.revertUpdate(record, updateRecord, due),
  );
  await writes.run(
    async () => index.upsert(after),
    async () => index.upsert(record),
  );
  writes.event({
    event_type: "update",
    subject_id: record.subject_id,
    memory_id: record.memory_id,
    reason: "IF1-UPDATE",
    content_digest: digest,
    metadata,
    settle: settleWith(parts, tenant, due),
  });
}
