import { stampsOf, type DecisionStamps, type Outcome } from "../../kernel/outcome";
import type { LinkType, TenantMemoryIndex } from "./memory-index";
import { effectiveTruth, effectiveUtility } from "./ranking";
import type { DynamicValue, IndexedRecord } from "./records";
import type { AgentOp } from "./schema-validation";

export interface DynamicView {
  target: number;
  confidence: number;
  rationale: string;
  evidence_refs: string[];
  context_problem_id: string | null;
  updated_at: string;
}

export type Reached = { via: "direct" } | { via: "link"; hops: number; link: LinkType; from: string };

/** One memory as the interface returns it. Output fields are whitelisted here. */
export interface AgentItem {
  id: string;
  repo_id: string;
  scope: string;
  kind: string;
  text: string;
  confidence: number;
  rationale: string | null;
  links: { problem_id: string | null; related_memory_ids: string[]; change_targets: string[] };
  evidence_refs: string[];
  truth: DynamicView | null;
  utility: DynamicView | null;
  /** What ranking uses: truth and utility as last updated, weighted by their confidence. */
  effective_truth: number;
  effective_utility: number;
  invalidated: boolean;
  /** IF1-CHANGE: the change that invalidated this memory, with its text. */
  invalidated_by: { id: string; text: string } | null;
  created_at: string;
  /** Read results only: the ranking score (direct matches) and how the item was reached. */
  score: number | null;
  reached: Reached | null;
  advisory: true;
}

export interface DynamicPair {
  truth: DynamicView | null;
  utility: DynamicView | null;
  effective_truth: number;
  effective_utility: number;
}

/** What a successful operation carries, by op. */
export interface AgentResult {
  items?: AgentItem[];
  memory?: AgentItem;
  invalidated?: string[];
  mode?: string;
  committed?: boolean;
  before?: DynamicPair;
  after?: DynamicPair;
}

/** The JSON answer of POST /v1/memory and memoryRequest: one stop reason, then the result. */
export interface AgentResponse extends AgentResult, DecisionStamps {
  op: AgentOp | null;
  advisory: true;
}

/** The answer to one seed-001 document; `errors` are the policy's, as it answered them (IF1-VALID). */
export function toResponse(op: AgentOp | null, outcome: Outcome<AgentResult>): AgentResponse {
  return { op, ...stampsOf(outcome), advisory: true, ...(outcome.value ?? {}) };
}

export function dynamicView(value: DynamicValue | null): DynamicView | null {
  if (!value) return null;
  return {
    target: value.target,
    confidence: value.confidence,
    rationale: value.rationale,
    evidence_refs: value.evidence_refs,
    context_problem_id: value.context_problem_id ?? null,
    updated_at: value.updated_at.toISOString(),
  };
}

export function dynamicPair(record: IndexedRecord): DynamicPair {
  return {
    truth: dynamicView(record.truth),
    utility: dynamicView(record.utility),
    effective_truth: round(effectiveTruth(record)),
    effective_utility: round(effectiveUtility(record)),
  };
}

export function toItem(record: IndexedRecord, index: TenantMemoryIndex | null, extra: { score?: number; reached?: Reached } = {}): AgentItem {
  const change = record.invalidated_by ? index?.get(record.invalidated_by)?.record : undefined;
  return {
    id: record.memory_id,
    repo_id: record.repo_id,
    scope: record.scope,
    kind: record.kind,
    text: record.text,
    confidence: record.confidence,
    rationale: record.rationale,
    links: record.links,
    evidence_refs: record.evidence_refs,
    truth: dynamicView(record.truth),
    utility: dynamicView(record.utility),
    effective_truth: round(effectiveTruth(record)),
    effective_utility: round(effectiveUtility(record)),
    invalidated: record.invalidated_by !== null,
    invalidated_by: record.invalidated_by ? { id: record.invalidated_by, text: change?.text ?? "" } : null,
    created_at: record.created_at.toISOString(),
    score: extra.score === undefined ? null : round(extra.score),
    reached: extra.reached ?? null,
    advisory: true,
  };
}

const round = (n: number): number => Math.round(n * 1e6) / 1e6;
