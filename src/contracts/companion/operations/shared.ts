import type { Decision, GateDecision } from "../../../kernel/decision";
import type { Metrics } from "../../../kernel/metrics";
import type { OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import type { Logger } from "../../../logger";
import type { PolicyEngine } from "../../../policy/policy-engine";
import { newSalt } from "../../../store/canonical";
import type { Envelope } from "../envelope";
import type { EnvelopeCache } from "../envelope-cache";
import type { GroundingScore, GroundingScorer } from "../grounding";
import { DEFAULT_PRIVACY, type FactBody, type FactRecord } from "../records";
import type { CompanionStore, PrivacyState } from "../store";
import { isoTime, str, strings, type AddFactRequest, type Maybe } from "./requests";

/** The contract's tables the operations read (policies/memgate/contracts/companion/data.json). */
export interface CompanionData {
  fact_types: string[];
  sources: string[];
  decay_days: Record<string, number>;
  purposes: string[];
  power_purposes: string[];
}

/**
 * SG-GATE as the companion policy answers it: the band, the confidence to store, why a discard,
 * and whether the gate's own verdict is the decision's answer (main.rego `answered`).
 */
export interface CompanionGate extends GateDecision {
  reason: "narrative_only" | "below_gate" | "ungrounded" | null;
  answered?: boolean;
}

export interface FactResult {
  fact?: FactRecord;
  proposalId?: string;
}

export interface CompanionParts {
  store: CompanionStore;
  scorer: GroundingScorer;
  cache: EnvelopeCache<Envelope>;
  policy: PolicyEngine;
  metrics: Metrics;
  logger: Logger;
}

/** Internal; answered as INTERNAL_INCONSISTENCY (C19-FAIL). */
export class CompanionError extends Error {
  readonly code = "COMPANION_INVARIANT" as const;
  constructor(detail: string) {
    super(`companion: ${detail}`);
    this.name = new.target.name;
  }
}

export const gateOf = (decision: Decision): CompanionGate | null => decision.detail as CompanionGate | null;

export const privacyInput = (state: PrivacyState | undefined) => state?.settings ?? { ...DEFAULT_PRIVACY, share_with: [] };

/** The parts and the helpers every companion operation shares, built once per gateway. */
export type CompanionKit = ReturnType<typeof companionKit>;

export function companionKit(parts: CompanionParts) {
  const { store, cache, policy } = parts;
  const data = (): CompanionData => policy.data<Record<string, CompanionData>>("contracts").companion;
  const known = (value: Maybe<string>, values: readonly string[]): string | null => (typeof value === "string" && values.includes(value) ? value : null);
  const invoker = (ctx: OperationContext) => ({ id: ctx.principal.id, roles: ctx.principal.roles, job: ctx.principal.job });

  /** SPEC D4: what an event may say about a fact request: known values, lengths, scores. */
  const audit = (req: AddFactRequest, ctx: OperationContext, grounding: GroundingScore | undefined) => ({
    type: known(req.type, data().fact_types),
    source: known(req.source, data().sources),
    confidence: typeof req.confidence === "number" ? req.confidence : null,
    lengths: { text: str(req.text).length, summary: str(req.summary).length },
    grounding_score: grounding?.score ?? null,
    scorer: grounding?.scorer ?? null,
    invoker: invoker(ctx),
  });

  const factBody = (req: AddFactRequest, ctx: OperationContext, confidence: number, groundingScore: number): FactBody => {
    const validTo = isoTime(req.validTo);
    return {
      tenant_id: ctx.tenantId,
      subject_id: ctx.subjectId,
      type: str(req.type),
      text: str(req.text),
      confidence,
      source: str(req.source),
      statement_type: req.source === "manual" ? "UserProvidedStatement" : "SourceStatement",
      source_refs: strings(req.sourceRefs),
      job: ctx.principal.job,
      supersedes: null,
      consolidated_from: null,
      valid_to: validTo,
      temporal_scope: validTo ? "bounded" : "unknown",
      created_by: { id: ctx.principal.id, roles: ctx.principal.roles },
      grounding_score: groundingScore,
      content_salt: newSalt(),
    };
  };

  const keyOf = async (writes: Writes, ctx: OperationContext, privacy: PrivacyState): Promise<string> =>
    // A key holds no content and may serve concurrent writes: it is kept even if this operation is undone.
    privacy.key ?? (await writes.run(() => store.ensureKey(ctx.tenantId, ctx.subjectId, ctx.now)));

  /** Cached envelopes of the subject go now, here and (by the stored generation) in every other process. */
  const invalidate = async (writes: Writes, ctx: OperationContext, subjectId = ctx.subjectId) => {
    cache.invalidateSubject(ctx.tenantId, subjectId);
    // Moving the generation on only makes caches stale: harmless to keep if the operation is undone.
    await writes.run(() => store.bumpGeneration(ctx.tenantId, subjectId, ctx.now));
  };

  return { ...parts, data, known, invoker, audit, factBody, keyOf, invalidate };
}
