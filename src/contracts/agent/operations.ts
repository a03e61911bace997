import { randomUUID } from "node:crypto";
import { subjectOf } from "../../auth/principal";
import type { Decision } from "../../kernel/decision";
import { wellFormed } from "../../kernel/fields";
import { operation, type Operation, type OperationContext } from "../../kernel/operation";
import type { Writes } from "../../kernel/write-set";
import { newSalt, saltedDigest } from "../../store/canonical";
import type { ReadDocument, UpdateDocument, WriteDocument } from "./documents";
import { DISPATCH_FIELDS, READ_FIELDS, UPDATE_FIELDS, WRITE_FIELDS } from "./fields";
import type { AgentIndexCache } from "./index-cache";
import type { TenantMemoryIndex } from "./memory-index";
import { retrieve } from "./ranking";
import {
  GLOBAL_SPACE,
  MEMORY_ID_PREFIX,
  UPDATE_ID_PREFIX,
  agentMemoryDocId,
  agentUpdateDocId,
  dynamicRef,
  repoSpace,
  sealDynamic,
  sealMemory,
  sealUpdate,
  type AgentMemoryRecord,
  type DynamicValue,
} from "./records";
import { dynamicPair, toItem, type AgentItem, type AgentResult } from "./response";
import { validateDocument, type AgentOp, type SchemaIssue, type SchemaResult } from "./schema-validation";
import { schemaFacts, semanticFacts, visibleSpaces, type AgentFacts } from "./semantic-validation";
import { AGENT_CONTRACT, dueEvent, type AgentStore, type DueEvent } from "./store";

/** Internal; answered as INTERNAL_INCONSISTENCY (C19-FAIL). */
export class AgentError extends Error {
  readonly code = "AGENT_INVARIANT" as const;
  constructor(detail: string) {
    super(`agent: ${detail}`);
    this.name = new.target.name;
  }
}

/** A seed-001 document as the kernel parsed it: its declared fields only, values of the wrong type as null. */
export type DocumentRequest = Record<string, unknown>;

/** A document that is none of the three (not an object, or no known `op`), as the doors hand it over. */
export interface DispatchRequest {
  document?: unknown;
}

export interface AgentParts {
  store: AgentStore;
  indexes: AgentIndexCache;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The decision is about the repository the document names ("repo:<repo_id>"; a token allows
 * a repository by listing that subject). A document that names no usable repo_id is judged
 * under the caller's own first subject (its schema issues answer).
 */
function documentSubject(raw: unknown, ctx: Pick<OperationContext, "principal">): string {
  const repoId = isObject(raw) ? raw.repo_id : undefined;
  // An ill-formed repo_id is refused (SCHEMA_INVALID) and must not become the subject an event records.
  if (typeof repoId === "string" && repoId.trim() !== "" && wellFormed(repoId) === repoId) return repoSpace(repoId);
  return subjectOf(ctx.principal);
}

/** One schema validation per request object (input and allow read the same result). */
const validations = new WeakMap<object, SchemaResult>();
function validated(req: object, op: AgentOp): SchemaResult {
  let result = validations.get(req);
  if (!result) {
    result = validateDocument(req, op);
    validations.set(req, result);
  }
  return result;
}

/** The validated document of an allowed operation (the policy allows only documents that passed). */
function documentOf<T>(req: object, op: AgentOp): T {
  const result = validated(req, op);
  if (!result.ok) throw new AgentError(`the policy allowed a ${op} document that failed its schema`);
  return result.document as T;
}

function indexOf(gathered: TenantMemoryIndex | undefined): TenantMemoryIndex {
  if (!gathered) throw new AgentError("an allowed operation has no index gathered");
  return gathered;
}

/** Registers the undo first, so a step that fails halfway is undone too (every undo here is idempotent). */
async function step<T>(writes: Writes, action: () => Promise<T>, undo: () => Promise<void>): Promise<T> {
  writes.onUndo(undo);
  return action();
}

const memoryIdsOf = (links: WriteDocument["memory"]["links"]): string[] => [
  ...(links?.problem_id !== undefined ? [links.problem_id] : []),
  ...(links?.related_memory_ids ?? []),
  ...(links?.change_targets ?? []),
];

/**
 * The agent memory interface of seed 001 as operations the kernel runs: READ (ranked
 * retrieval with link expansion, IF1-READ, IF1-EXPAND), WRITE (an immutable memory; a change
 * invalidates its targets, IF1-WRITE, IF1-CHANGE), UPDATE and UPDATE_DRY_RUN (truth and/or
 * utility, IF1-UPDATE) and DISPATCH (a document that is none of these). Each reads what the
 * policy needs, reports facts (the exact schema's issues, IF1-VALID) and writes through the
 * write set; the policy decides (policies/memgate/contracts/agent).
 */
export function agentOperations({ store, indexes }: AgentParts) {
  /** Facts about a document: its schema issues, else the semantic layer (links judged only when gathered). */
  const factsOf = (req: object, op: AgentOp, index: TenantMemoryIndex | undefined, extra: SchemaIssue[] = []): { facts: AgentFacts; result: SchemaResult } => {
    const result = validated(req, op);
    if (!result.ok) return { facts: schemaFacts([...result.issues, ...extra]), result };
    const facts = semanticFacts(result.document, index ?? null);
    facts.schema_issues.push(...extra);
    return { facts, result };
  };

  /** The event is in the log: this process's index has its effect already, and nothing is due any more. */
  const settleWith = (tenant: string, due: DueEvent) => async (seq: number) => {
    await indexes.markApplied(tenant, seq);
    await store.settled(due);
  };

  /** SPEC D4: a refusal's event keeps metadata only (how many places were wrong). */
  const refusal = (_req: unknown, _ctx: OperationContext, decision: Decision) => ({ contract: AGENT_CONTRACT, issue_count: decision.errors.length });

  const read = operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>({
    contract: AGENT_CONTRACT,
    name: "READ",
    fields: READ_FIELDS,
    subject: documentSubject,
    async gather(req, ctx) {
      return validated(req, "read").ok ? indexes.fresh(ctx.tenantId) : undefined;
    },
    input(req, index) {
      const { facts, result } = factsOf(req, "read", index);
      if (!result.ok) return { agent: facts };
      const document = result.document as ReadDocument;
      return {
        agent: facts,
        read: { mode: document.mode, limit: document.limit, include_global: document.include_global, hops: document.expand?.semantic_hops ?? 0 },
      };
    },
    refusal,
    async allow(req, gathered, ctx) {
      const document = documentOf<ReadDocument>(req, "read");
      const index = indexOf(gathered);
      const spaces = document.include_global ? visibleSpaces(document.repo_id) : [repoSpace(document.repo_id)];
      // IF1-HOPS: linked memories compete with direct matches for the `limit` places (ranking.ts)
      const retrieved = retrieve(index, {
        query: document.query,
        mode: document.mode,
        spaces,
        kinds: document.kinds,
        limit: document.limit,
        now: ctx.now,
        expand: document.expand
          ? {
              hops: document.expand.semantic_hops,
              includeProblemLinks: document.expand.include_problem_links,
              includeUpdateLinks: document.expand.include_update_links,
            }
          : undefined,
      });
      const items: AgentItem[] = retrieved.map((r) => toItem(r.memory.record, index, { score: r.score, reached: r.reached }));
      return { items };
    },
  });

  const write = operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>({
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
      const space = memory.scope === "global" ? GLOBAL_SPACE : repoSpace(repoId);
      const memoryId = `${MEMORY_ID_PREFIX}${randomUUID()}`;
      const record = sealMemory({
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
      const digest = saltedDigest(record.content_salt, { text: record.text, rationale: record.rationale, evidence_refs: record.evidence_refs });
      const metadata = { contract: AGENT_CONTRACT, space, kind: record.kind, scope: record.scope, links: record.links, text_length: record.text.length };
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
      await step(
        writes,
        () => store.insertMemory(record, due),
        () => store.removeMemory(record, due),
      );
      index.upsert(record);
      writes.onUndo(async () => index.remove(memoryId));
      writes.event({ event_type: "create", memory_id: memoryId, content_digest: digest, metadata, settle: settleWith(tenant, due) });

      // IF1-CHANGE: each target is marked as invalidated by this change, in place, with its own event.
      for (const target of targets) {
        const targetMetadata = { contract: AGENT_CONTRACT, space: target.space, invalidated_by: memoryId, previously_invalidated_by: target.invalidated_by };
        const targetDue = dueEvent(tenant, target.subject_id, target.memory_id, decision.decisionId, "write", ctx.now, {
          event_type: "invalidate",
          operation: "WRITE",
          stop_reason: decision.stopReason,
          content_digest: null,
          metadata: targetMetadata,
          reason: "IF1-CHANGE",
        });
        await step(
          writes,
          () => store.setInvalidatedBy(target, memoryId, ctx.now, targetDue),
          () => store.restoreInvalidatedBy(target, targetDue),
        );
        index.upsert({ ...target, invalidated_by: memoryId, updated_at: ctx.now });
        writes.onUndo(async () => index.upsert(target));
        writes.event({
          event_type: "invalidate",
          subject_id: target.subject_id,
          memory_id: target.memory_id,
          reason: "IF1-CHANGE",
          metadata: targetMetadata,
          settle: settleWith(tenant, targetDue),
        });
      }
      return answer;
    },
  });

  const update = (mode: UpdateDocument["mode"]) =>
    operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>({
      contract: AGENT_CONTRACT,
      name: mode === "commit" ? "UPDATE" : "UPDATE_DRY_RUN",
      fields: UPDATE_FIELDS,
      subject: documentSubject,
      async gather(req, ctx) {
        return validated(req, "update").ok ? indexes.fresh(ctx.tenantId) : undefined;
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
          update: { mode: document.mode, fields: (["truth", "utility"] as const).filter((f) => document.updates[f] !== undefined) },
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
        const after: AgentMemoryRecord = { ...record, truth: next("truth"), utility: next("utility"), updated_at: ctx.now };
        const result: AgentResult = { mode: document.mode, committed: false, before: dynamicPair(record), after: dynamicPair(after) };
        if (mode === "dry_run") return result; // IF1-UPDATE: nothing persists

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
          changed: Object.fromEntries(
            (["truth", "utility"] as const).filter(changed).map((f) => [f, { before: numbers(record[f]), after: numbers(after[f]) }]),
          ),
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
        await step(
          writes,
          () => store.applyUpdate(record, updateRecord, ctx.now, due),
          () => store.revertUpdate(record, updateRecord, due),
        );
        index.upsert(after);
        writes.onUndo(async () => index.upsert(record));
        writes.event({
          event_type: "update",
          subject_id: record.subject_id,
          memory_id: record.memory_id,
          reason: "IF1-UPDATE",
          content_digest: digest,
          metadata,
          settle: settleWith(tenant, due),
        });
        return { ...result, committed: true };
      },
    });

  /** A document that is none of the three: judged by its own issue, never allowed (no handler: fail closed). */
  const dispatch = operation<DispatchRequest, undefined, AgentResult>({
    contract: AGENT_CONTRACT,
    name: "DISPATCH",
    fields: DISPATCH_FIELDS,
    subject: (raw, ctx) => documentSubject(isObject(raw) ? raw.document : undefined, ctx),
    input(req) {
      const result = validateDocument(req.document);
      const issues = result.ok ? [{ pointer: "/op", keyword: "enum", message: 'is required and must be one of "read", "write", "update"' }] : result.issues;
      return { agent: schemaFacts(issues) };
    },
    refusal,
  });

  return { read, write, update: update("commit"), updateDryRun: update("dry_run"), dispatch };
}

export type AgentOperations = ReturnType<typeof agentOperations>;
export type AgentDocumentOperation = Operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>;

/** What an event may say about a dynamic value: its numbers, never its words. */
const numbers = (value: DynamicValue | null) => (value ? { target: value.target, confidence: value.confidence } : null);

/** The memory an update names, if the caller's repository (or the tenant's global space) holds it. */
function visibleTarget(index: TenantMemoryIndex | undefined, document: UpdateDocument): AgentMemoryRecord | null {
  const found = index?.get(document.memory_id)?.record;
  return found && visibleSpaces(document.repo_id).includes(found.space) ? found : null;
}
