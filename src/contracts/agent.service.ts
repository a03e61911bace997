import { randomUUID } from "node:crypto";
import { subjectOf as defaultSubject, type Principal } from "../auth/principal";
import { AGENT_EVENT_MARK, type AgentIndexCache } from "../agent/index-cache";
import { expand } from "../agent/expansion";
import type { TenantMemoryIndex } from "../agent/memory-index";
import { rank } from "../agent/ranking";
import { dynamicPair, toItem, toResponse, type AgentItem, type AgentResponse, type AgentResult } from "../agent/response";
import { isAgentOp, validateDocument, type AgentOp } from "../agent/schema-validation";
import { schemaFacts, semanticFacts, visibleSpaces, type AgentFacts } from "../agent/semantic-validation";
import type { AgentDocument, ReadDocument, UpdateDocument, WriteDocument } from "../agent/types";
import type { DetectorSuite } from "../detectors/detector";
import {
  GLOBAL_SPACE,
  agentMemoryDocId,
  repoSpace,
  type AgentMemoryRecord,
  type AgentMemoryRepository,
  type AgentMemoryUpdateRecord,
  type DynamicValue,
} from "../store/agent-memory-repository";
import { newSalt, saltedDigest } from "../store/canonical";
import type { MemoryEvent } from "../store/event-log";
import type { DecisionRequest, Decided, Governor } from "./governor";
import type { CallContext, Outcome } from "../kernel/outcome";

const CONTRACT = "agent";

/** The policy operation of each seed-001 op (an update's mode picks commit or dry run). */
function operationOf(op: AgentOp | null, document: unknown): string {
  if (op === "read") return "READ";
  if (op === "write") return "WRITE";
  if (op === "update") return (document as { mode?: unknown }).mode === "dry_run" ? "UPDATE_DRY_RUN" : "UPDATE";
  return "DISPATCH";
}

/**
 * The decision is about the repository the document names ("repo:<repo_id>"; a token
 * allows a repository by listing that subject). A document that names no usable repo_id
 * is judged by its schema issues alone, under the caller's own first subject.
 */
function subjectOf(principal: Principal, document: unknown): string {
  const repoId = typeof document === "object" && document !== null ? (document as { repo_id?: unknown }).repo_id : undefined;
  if (typeof repoId === "string" && repoId.trim() !== "") return repoSpace(repoId);
  return defaultSubject(principal);
}

/** The free texts of a document that failed its schema, where they are strings: content checks still see them. */
function rawTexts(document: unknown): Record<string, string> {
  const texts: Record<string, string> = {};
  const take = (field: string, value: unknown) => {
    if (typeof value === "string" && value !== "") texts[field] = value;
  };
  if (typeof document !== "object" || document === null) return texts;
  const memory = (document as { memory?: Record<string, unknown> }).memory;
  if (typeof memory === "object" && memory !== null) {
    take("text", memory.text);
    take("rationale", memory.rationale);
  }
  const updates = (document as { updates?: Record<string, Record<string, unknown> | undefined> }).updates;
  if (typeof updates === "object" && updates !== null) {
    for (const field of ["truth", "utility"]) {
      const value = updates[field];
      if (typeof value === "object" && value !== null) take(`${field}_rationale`, value.rationale);
    }
  }
  return texts;
}

/**
 * The agent memory interface of seed 001: read, write and update documents, validated
 * (IF1-VALID), decided by the policy, stored immutably (IF1-WRITE), invalidated by
 * change memories (IF1-CHANGE), updated in their dynamic values only (IF1-UPDATE), read
 * back ranked (IF1-READ) and expanded along links (IF1-EXPAND). HTTP and GraphQL share it.
 */
export class AgentMemoryService {
  constructor(
    private readonly governor: Governor,
    private readonly repository: AgentMemoryRepository,
    private readonly indexes: AgentIndexCache,
    private readonly detectors: DetectorSuite,
  ) {}

  /** Any document: its `op` picks the schema. `expected` pins the op (the typed GraphQL operations). */
  async handle(principal: Principal, document: unknown, ctx: CallContext, expected?: AgentOp): Promise<AgentResponse> {
    const claimedOp = expected ?? (typeof document === "object" && document !== null ? (document as { op?: unknown }).op : undefined);
    const op = isAgentOp(claimedOp) ? claimedOp : null;
    const base = { operation: operationOf(op, document), contract: CONTRACT, principal, subjectId: subjectOf(principal, document) };
    try {
      const validated = validateDocument(document, expected);
      if (!validated.ok) {
        const texts = rawTexts(document);
        const content = Object.keys(texts).length > 0 ? { texts, facts: await this.detectors.run(texts) } : {};
        return toResponse(op, await this.refuseOrPass(base, schemaFacts(validated.issues), content, ctx));
      }
      const index = await this.indexFor(principal.tenant, validated.document);
      const facts = semanticFacts(validated.document, index);
      switch (validated.op) {
        case "read":
          return toResponse(op, await this.read(base, validated.document as ReadDocument, facts, index, ctx));
        case "write":
          return toResponse(op, await this.write(base, validated.document as WriteDocument, facts, ctx));
        case "update":
          return toResponse(op, await this.update(base, validated.document as UpdateDocument, facts, index, ctx));
      }
    } catch (error) {
      return toResponse(op, await this.governor.failClosed<AgentResult>(error, base, ctx));
    }
  }

  /**
   * Reads and updates see every event in the log. A write only needs the memories it links
   * to: when this process's index already holds them all, the trip to the log is skipped.
   */
  private async indexFor(tenantId: string, document: AgentDocument): Promise<TenantMemoryIndex> {
    if (document.op === "write") {
      const links = document.memory.links ?? {};
      const named = [...(links.problem_id !== undefined ? [links.problem_id] : []), ...(links.related_memory_ids ?? []), ...(links.change_targets ?? [])];
      const current = await this.indexes.current(tenantId);
      if (named.every((id) => current.get(id))) return current;
    }
    return this.indexes.fresh(tenantId);
  }

  /** A document that failed its schema still goes to the policy, which answers (SCHEMA_INVALID). */
  private async refuseOrPass(base: Omit<DecisionRequest, "input">, facts: AgentFacts, extra: Record<string, unknown>, ctx: CallContext): Promise<Outcome<AgentResult>> {
    const request: DecisionRequest = { ...base, input: { agent: facts, target: { found: false }, ...extra } };
    const decided = this.governor.decide(request);
    if (decided.succeeded) throw new Error("the policy accepted a document that failed its schema");
    await this.refused(request, decided, ctx);
    return this.governor.outcome(decided);
  }

  /** SPEC D4: a refusal's event keeps metadata only (operation, stop reason, counts). */
  private async refused(request: DecisionRequest, decided: Decided, ctx: CallContext): Promise<void> {
    const facts = (request.input.agent ?? {}) as Partial<AgentFacts>;
    await this.governor.record(request, decided, ctx, "refuse", {
      metadata: { contract: CONTRACT, issue_count: (facts.schema_issues?.length ?? 0) + (facts.blank?.length ?? 0) + (facts.refs?.length ?? 0) },
    });
  }

  private async read(base: Omit<DecisionRequest, "input">, document: ReadDocument, facts: AgentFacts, index: TenantMemoryIndex, ctx: CallContext): Promise<Outcome<AgentResult>> {
    const request: DecisionRequest = {
      ...base,
      input: { agent: facts, read: { mode: document.mode, limit: document.limit, include_global: document.include_global, hops: document.expand?.semantic_hops ?? 0 } },
    };
    const decided = this.governor.decide(request);
    if (!decided.succeeded) {
      await this.refused(request, decided, ctx);
      return this.governor.outcome(decided);
    }
    const spaces = document.include_global ? visibleSpaces(document.repo_id) : [repoSpace(document.repo_id)];
    const direct = rank(index, {
      query: document.query,
      mode: document.mode,
      spaces,
      kinds: document.kinds,
      limit: document.limit,
      now: this.governor.clock.now(),
    });
    const items: AgentItem[] = direct.map((r) => toItem(r.memory.record, index, { score: r.score, reached: { via: "direct" } }));
    const hops = document.expand?.semantic_hops ?? 0;
    if (document.expand && hops > 0 && direct.length > 0) {
      const reached = expand(
        index,
        direct.map((r) => r.memory.record.memory_id),
        {
          hops,
          includeProblemLinks: document.expand.include_problem_links,
          includeUpdateLinks: document.expand.include_update_links,
          spaces,
          skipInvalidated: document.mode === "ambient",
          max: document.limit,
        },
      );
      for (const r of reached) {
        items.push(toItem(r.memory.record, index, { reached: { via: "link", hops: r.hops, link: r.link, from: r.from } }));
      }
    }
    return this.governor.outcome(decided, { items });
  }

  private async write(base: Omit<DecisionRequest, "input">, document: WriteDocument, facts: AgentFacts, ctx: CallContext): Promise<Outcome<AgentResult>> {
    const { memory } = document;
    const texts = { text: memory.text, rationale: memory.rationale ?? "", evidence_refs: (memory.evidence_refs ?? []).join("\n") };
    const request: DecisionRequest = {
      ...base,
      input: { agent: facts, write: { scope: memory.scope, kind: memory.kind, confidence: memory.confidence }, texts, facts: await this.detectors.run(texts) },
    };
    const decided = this.governor.decide(request);
    if (!decided.succeeded) {
      await this.refused(request, decided, ctx);
      return this.governor.outcome(decided);
    }
    const { principal } = base;
    const now = this.governor.clock.now();
    const space = memory.scope === "global" ? GLOBAL_SPACE : repoSpace(document.repo_id);
    const memoryId = `am_${randomUUID()}`;
    const record: AgentMemoryRecord = {
      _id: agentMemoryDocId(principal.tenant, space, memoryId),
      tenant_id: principal.tenant,
      space,
      repo_id: document.repo_id,
      memory_id: memoryId,
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
      created_at: now,
      updated_at: now,
      created_by: { id: principal.id, roles: principal.roles },
      content_salt: newSalt(),
    };
    await this.repository.insert(record);
    const index = await this.indexes.current(principal.tenant);
    const targets = record.links.change_targets.map((id) => index.get(id)!.record);
    const events: MemoryEvent[] = [];
    try {
      events.push(
        await this.governor.record({ ...request, subjectId: space }, decided, ctx, "create", {
          memory_id: memoryId,
          content_digest: saltedDigest(record.content_salt, { text: record.text, rationale: record.rationale, evidence_refs: record.evidence_refs }),
          metadata: { contract: CONTRACT, space, kind: record.kind, scope: record.scope, links: record.links, text_length: record.text.length },
        }),
      );
    } catch (error) {
      await this.repository.remove(record).catch(() => undefined); // no item without its event (INV-8)
      throw error;
    }
    index.upsert(record);
    // IF1-CHANGE: each target is marked as invalidated by this change, in place, with its own event.
    for (const target of targets) {
      await this.repository.setInvalidatedBy(principal.tenant, target.space, target.memory_id, memoryId, now);
      try {
        events.push(
          await this.governor.record({ ...request, subjectId: target.space }, decided, ctx, "invalidate", {
            memory_id: target.memory_id,
            reason: "IF1-CHANGE",
            metadata: { contract: CONTRACT, space: target.space, invalidated_by: memoryId, previously_invalidated_by: target.invalidated_by },
          }),
        );
      } catch (error) {
        await this.repository.setInvalidatedBy(principal.tenant, target.space, target.memory_id, target.invalidated_by, target.updated_at).catch(() => undefined);
        throw error;
      }
      index.upsert({ ...target, invalidated_by: memoryId, updated_at: now });
    }
    for (const event of events) await this.indexes.markApplied(principal.tenant, event.seq);
    return this.governor.outcome(decided, { memory: toItem(record, index), invalidated: targets.map((t) => t.memory_id) });
  }

  private async update(
    base: Omit<DecisionRequest, "input">,
    document: UpdateDocument,
    facts: AgentFacts,
    index: TenantMemoryIndex,
    ctx: CallContext,
  ): Promise<Outcome<AgentResult>> {
    const found = index.get(document.memory_id);
    const visible = found && visibleSpaces(document.repo_id).includes(found.record.space) ? found.record : null;
    const texts: Record<string, string> = {};
    for (const field of ["truth", "utility"] as const) {
      const value = document.updates[field];
      if (!value) continue;
      texts[`${field}_rationale`] = value.rationale;
      texts[`${field}_evidence_refs`] = (value.evidence_refs ?? []).join("\n");
    }
    const request: DecisionRequest = {
      ...base,
      input: {
        agent: facts,
        target: visible ? { found: true, status: visible.status } : { found: false },
        update: { mode: document.mode, fields: Object.keys(document.updates).filter((k) => k === "truth" || k === "utility") },
        texts,
        facts: await this.detectors.run(texts),
      },
    };
    const decided = this.governor.decide(request);
    if (!decided.succeeded) {
      await this.refused(request, decided, ctx);
      return this.governor.outcome(decided);
    }
    const record = visible!;
    const now = this.governor.clock.now();
    const updateId = `au_${randomUUID()}`;
    const next = (field: "truth" | "utility"): DynamicValue | null => {
      const value = document.updates[field];
      if (!value) return record[field];
      return {
        target: value.target,
        confidence: value.confidence,
        rationale: value.rationale,
        evidence_refs: value.evidence_refs ?? [],
        ...(field === "utility" ? { context_problem_id: document.updates.utility?.context_problem_id ?? null } : {}),
        updated_at: now,
        update_id: updateId,
      };
    };
    const after: AgentMemoryRecord = { ...record, truth: next("truth"), utility: next("utility"), updated_at: now };
    const result: AgentResult = { mode: document.mode, committed: false, before: dynamicPair(record), after: dynamicPair(after) };
    if (document.mode === "dry_run") return this.governor.outcome(decided, result); // IF1-UPDATE: nothing persists

    const { principal } = base;
    const update: AgentMemoryUpdateRecord = {
      _id: `${agentMemoryDocId(principal.tenant, record.space, record.memory_id)}:${updateId}`,
      tenant_id: principal.tenant,
      space: record.space,
      memory_id: record.memory_id,
      update_id: updateId,
      decision_id: decided.decisionId,
      before: { truth: record.truth, utility: record.utility },
      after: { truth: after.truth, utility: after.utility },
      created_at: now,
      created_by: { id: principal.id, roles: principal.roles },
    };
    await this.repository.insertUpdate(update);
    await this.repository.setDynamic(principal.tenant, record.space, record.memory_id, { truth: after.truth, utility: after.utility }, now);
    let event: MemoryEvent;
    try {
      const changed = Object.fromEntries(
        (["truth", "utility"] as const)
          .filter((f) => document.updates[f])
          .map((f) => [f, { before: record[f] ? { target: record[f]!.target, confidence: record[f]!.confidence } : null, after: { target: after[f]!.target, confidence: after[f]!.confidence } }]),
      );
      event = await this.governor.record({ ...request, subjectId: record.space }, decided, ctx, "update", {
        memory_id: record.memory_id,
        reason: "IF1-UPDATE",
        // The rationale and evidence are kept verbatim in the update record; the event commits to them by digest (SPEC D1).
        content_digest: saltedDigest(record.content_salt, { update_id: updateId, truth: document.updates.truth ?? null, utility: document.updates.utility ?? null }),
        metadata: {
          contract: CONTRACT,
          space: record.space,
          update_id: updateId,
          changed,
          evidence_ref_count: (document.updates.truth?.evidence_refs.length ?? 0) + (document.updates.utility?.evidence_refs?.length ?? 0),
          rationale_length: (document.updates.truth?.rationale.length ?? 0) + (document.updates.utility?.rationale.length ?? 0),
        },
      });
    } catch (error) {
      await this.repository.setDynamic(principal.tenant, record.space, record.memory_id, { truth: record.truth, utility: record.utility }, record.updated_at).catch(() => undefined);
      await this.repository.removeUpdate(update).catch(() => undefined);
      throw error;
    }
    index.upsert(after);
    await this.indexes.markApplied(principal.tenant, event.seq);
    return this.governor.outcome(decided, { ...result, committed: true });
  }
}
