import { subjectOf } from "../../../auth/principal";
import type { Decision } from "../../../kernel/decision";
import { wellFormed } from "../../../kernel/fields";
import type { OperationContext } from "../../../kernel/operation";
import type { UpdateDocument, WriteDocument } from "../documents";
import type { AgentIndexCache } from "../index-cache";
import type { TenantMemoryIndex } from "../memory-index";
import { repoSpace, type DynamicValue, type IndexedRecord } from "../records";
import { validateDocument, type AgentOp, type SchemaIssue, type SchemaResult } from "../schema-validation";
import { schemaFacts, semanticFacts, visibleSpaces, type AgentFacts } from "../semantic-validation";
import { AGENT_CONTRACT, type AgentStore, type DueEvent } from "../store";

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

export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The decision is about the repository the document names ("repo:<repo_id>"; a token allows
 * a repository by listing that subject). A document that names no usable repo_id is judged
 * under the caller's own first subject (its schema issues answer).
 */
export function documentSubject(raw: unknown, ctx: Pick<OperationContext, "principal">): string {
  const repoId = isObject(raw) ? raw.repo_id : undefined;
  // An ill-formed repo_id is refused (SCHEMA_INVALID) and must not become the subject an event records.
  if (typeof repoId === "string" && repoId.trim() !== "" && wellFormed(repoId) === repoId) return repoSpace(repoId);
  return subjectOf(ctx.principal);
}

/** One schema validation per request object (input and allow read the same result). */
const validations = new WeakMap<object, SchemaResult>();
export function validated(req: object, op: AgentOp): SchemaResult {
  let result = validations.get(req);
  if (!result) {
    result = validateDocument(req, op);
    validations.set(req, result);
  }
  return result;
}

/** The validated document of an allowed operation (the policy allows only documents that passed). */
export function documentOf<T>(req: object, op: AgentOp): T {
  const result = validated(req, op);
  if (!result.ok) throw new AgentError(`the policy allowed a ${op} document that failed its schema`);
  return result.document as T;
}

export function indexOf(gathered: TenantMemoryIndex | undefined): TenantMemoryIndex {
  if (!gathered) throw new AgentError("an allowed operation has no index gathered");
  return gathered;
}

export const memoryIdsOf = (links: WriteDocument["memory"]["links"]): string[] => [
  ...(links?.problem_id !== undefined ? [links.problem_id] : []),
  ...(links?.related_memory_ids ?? []),
  ...(links?.change_targets ?? []),
];

/** What an event may say about a dynamic value: its numbers, never its words. */
export const numbers = (value: DynamicValue | null) => (value ? { target: value.target, confidence: value.confidence } : null);

/** The memory an update names, if the caller's repository (or the tenant's global space) holds it. */
export function visibleTarget(index: TenantMemoryIndex | undefined, document: UpdateDocument): IndexedRecord | null {
  const found = index?.get(document.memory_id)?.record;
  return found && visibleSpaces(document.repo_id).includes(found.space) ? found : null;
}

/** Facts about a document: its schema issues, else the semantic layer (links judged only when gathered). */
export function factsOf(
  req: object,
  op: AgentOp,
  index: TenantMemoryIndex | undefined,
  extra: SchemaIssue[] = [],
): { facts: AgentFacts; result: SchemaResult } {
  const result = validated(req, op);
  if (!result.ok) return { facts: schemaFacts([...result.issues, ...extra]), result };
  const facts = semanticFacts(result.document, index ?? null);
  facts.schema_issues.push(...extra);
  return { facts, result };
}

/** The event is in the log: this process's index has its effect already, and nothing is due any more. */
export const settleWith =
  ({ store, indexes }: AgentParts, tenant: string, due: DueEvent) =>
  async (seq: number) => {
    await indexes.markApplied(tenant, seq);
    await store.settled(due);
  };

/** SPEC D4: a refusal's event keeps metadata only (how many places were wrong). */
export const refusal = (_req: unknown, _ctx: OperationContext, decision: Decision) => ({ contract: AGENT_CONTRACT, issue_count: decision.errors.length });
