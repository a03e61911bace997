import { randomUUID } from "node:crypto";
import type { Decision, GateDecision } from "../../kernel/decision";
import {
  ADD_FACT_FIELDS,
  CONFIRM_PROPOSAL_FIELDS,
  CONSOLIDATE_FIELDS,
  DECAY_FIELDS,
  ENVELOPE_FIELDS,
  ERASE_FIELDS,
  FORGET_FACT_FIELDS,
  SET_PRIVACY_FIELDS,
} from "./fields";
import type { Metrics } from "../../kernel/metrics";
import { operation, TENANT_SCOPE, type OperationContext } from "../../kernel/operation";
import type { Writes } from "../../kernel/write-set";
import type { Logger } from "../../logger";
import type { PolicyEngine } from "../../policy/policy-engine";
import { newSalt, saltedDigest } from "../../store/canonical";
import { mergeFacts } from "./consolidation";
import { buildEnvelope, DAY_MS, live, type Envelope } from "./envelope";
import { EnvelopeCache } from "./envelope-cache";
import type { GroundingScore, GroundingScorer } from "./grounding";
import {
  DEFAULT_PRIVACY,
  factDigest,
  headId,
  objectDocId,
  sealFact,
  sealHead,
  sealProposal,
  type FactBody,
  type FactRecord,
  type HeadRecord,
  type PrivacyRecord,
  type PrivacySettings,
  type ProposalRecord,
} from "./records";
import type { CompanionStore, PrivacyState } from "./store";

/** The contract's tables the operations read (policies/memgate/contracts/companion/data.json). */
export interface CompanionData {
  fact_types: string[];
  sources: string[];
  decay_days: Record<string, number>;
  purposes: string[];
  power_purposes: string[];
}

/** SG-GATE as the companion policy answers it: the band, the confidence to store, and why a discard. */
export interface CompanionGate extends GateDecision {
  reason: "narrative_only" | "below_gate" | "ungrounded" | null;
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

// ---------------------------------------------------------------- requests (as the kernel parsed them)

type Maybe<T> = T | null | undefined;

export interface AddFactRequest {
  subjectId?: Maybe<string>;
  type?: Maybe<string>;
  text?: Maybe<string>;
  confidence?: Maybe<number>;
  source?: Maybe<string>;
  summary?: Maybe<string>;
  origin?: Maybe<string>;
  supersedes?: Maybe<string>;
  sourceRefs?: Maybe<Maybe<string>[]>;
  validTo?: Maybe<string>;
}

export interface TargetRequest {
  subjectId?: Maybe<string>;
}

export interface ConfirmRequest extends TargetRequest {
  proposalId?: Maybe<string>;
}

export interface ForgetRequest extends TargetRequest {
  memoryId?: Maybe<string>;
}

export interface EnvelopeRequest extends TargetRequest {
  purpose?: Maybe<string>;
  skipCache?: Maybe<boolean>;
  includeNarrative?: Maybe<boolean>;
}

export interface PrivacyRequest extends TargetRequest {
  memoryEnabled?: Maybe<boolean>;
  learnPatterns?: Maybe<boolean>;
  shareWith?: Maybe<Maybe<string>[]>;
  anonymizeDates?: Maybe<boolean>;
  deleteAfterDays?: Maybe<number>;
}

export interface ConsolidateRequest extends TargetRequest {
  memoryIds?: Maybe<Maybe<string>[]>;
  text?: Maybe<string>;
  type?: Maybe<string>;
  justification?: Maybe<string>;
}

const str = (v: Maybe<string>): string => (typeof v === "string" ? v : "");
const strings = (v: Maybe<Maybe<string>[]>): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);

const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/** An ISO 8601 date or time with a zone, as a Date; null for anything else ("not a date", 2026-02-31). */
export function isoTime(value: Maybe<string>): Date | null {
  const m = typeof value === "string" ? ISO_TIME.exec(value) : null;
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (month < 1 || month > 12 || day < 1 || day > days) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
  if (m[7] !== undefined && (Number(m[7]) > 23 || Number(m[8]) > 59)) return null;
  const t = Date.parse(value!);
  return Number.isNaN(t) ? null : new Date(t);
}

/** Registers the undo first, so a step that fails halfway is undone too (every undo here is idempotent). */
async function step<T>(writes: Writes, action: () => Promise<T>, undo: () => Promise<void>): Promise<T> {
  writes.onUndo(undo);
  return action();
}

const gateOf = (decision: Decision): CompanionGate | null => decision.gate as CompanionGate | null;

const privacyInput = (state: PrivacyState | undefined) => state?.settings ?? { ...DEFAULT_PRIVACY, share_with: [] };

// ---------------------------------------------------------------- the operations

/**
 * Companion memory (seed 002) and governed consolidation (seed 004 §3, §5), as operations
 * the kernel runs. Each says what it reads, what the policy sees and what it writes (every
 * step with its undo, every event named); the policy decides, and for ADD_FACT its `gate`
 * says how: apply, hold as a proposal, narrative only, or discard.
 */
export function companionOperations(parts: CompanionParts) {
  const { store, scorer, cache, policy, metrics, logger } = parts;
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

  /**
   * Inserts a fact, supersedes the active one of the same content, points the head at it.
   * Events: create (the fact), invalidate (what it superseded).
   */
  const applyFact = async (
    writes: Writes,
    ctx: OperationContext,
    body: FactBody,
    key: string,
    head: HeadRecord | null,
    previous: FactRecord | null,
    metadata: Record<string, unknown>,
  ): Promise<FactRecord> => {
    const memoryId = `fact_${randomUUID()}`;
    const supersedes = previous && previous.status === "active" ? previous : null;
    const record = sealFact({
      ...body,
      _id: objectDocId(ctx.tenantId, ctx.subjectId, memoryId),
      memory_id: memoryId,
      status: "active",
      status_reason: null,
      supersedes: supersedes?.memory_id ?? null,
      created_at: ctx.now,
      expires_at: new Date(ctx.now.getTime() + (data().decay_days[body.type] ?? 0) * DAY_MS),
    });
    // Every caller answers { fact: record }: a keyed retry after a crash finds the fact by its id (src/kernel/idempotency.ts).
    await writes.creating([{ objectId: memoryId }], { fact: record });
    await step(
      writes,
      () => store.insertFact(record),
      () => store.removeFact(record),
    );
    writes.event({
      event_type: "create",
      memory_id: memoryId,
      content_digest: factDigest(record),
      metadata: { ...metadata, supersedes: record.supersedes, statement_type: record.statement_type },
      settle: (seq) => store.settleObject("write", ctx.tenantId, ctx.subjectId, memoryId, seq),
    });
    if (supersedes) {
      await step(
        writes,
        () => store.setStatus(supersedes, "inactive", "superseded"),
        () => store.restoreStatus(supersedes),
      );
      writes.event({ event_type: "invalidate", memory_id: supersedes.memory_id, reason: "superseded", metadata: { superseded_by: memoryId } });
    }
    const headKey = headId(key, ctx.tenantId, ctx.subjectId, record.type, record.text);
    const next = sealHead({
      _id: headKey,
      tenant_id: ctx.tenantId,
      subject_id: ctx.subjectId,
      active_id: memoryId,
      proposal_id: null,
      proposal_confidence: null,
      observations: 0,
    });
    await step(
      writes,
      () => store.putHead(next),
      () => store.restoreHead(headKey, head),
    );
    return record;
  };

  /** Cached envelopes of the subject go now, here and (by the stored generation) in every other process. */
  const invalidate = async (writes: Writes, ctx: OperationContext, subjectId = ctx.subjectId) => {
    cache.invalidateSubject(ctx.tenantId, subjectId);
    // Moving the generation on only makes caches stale: harmless to keep if the operation is undone.
    await writes.run(() => store.bumpGeneration(ctx.tenantId, subjectId, ctx.now));
  };

  // ---------------------------------------------------------------- ADD_FACT

  interface AddGathered {
    privacy: PrivacyState;
    grounding: GroundingScore;
    target: FactRecord | null;
    head: HeadRecord | null;
    pending: ProposalRecord | null;
    previous: FactRecord | null;
  }

  const addFact = operation<AddFactRequest, AddGathered, FactResult>({
    contract: "companion",
    name: "ADD_FACT",
    fields: ADD_FACT_FIELDS,
    async gather(req, ctx) {
      const [type, factText, summary] = [str(req.type), str(req.text), str(req.summary)];
      const [privacy, target, grounding] = await Promise.all([
        store.privacy(ctx.tenantId, ctx.subjectId),
        req.supersedes ? store.fact(ctx.tenantId, ctx.subjectId, req.supersedes) : Promise.resolve(null),
        factText.trim() && summary.trim() ? scorer.score(summary, factText) : Promise.resolve({ score: 0, unsupported: 0, scorer: scorer.name }),
      ]);
      const head = await store.head(ctx.tenantId, ctx.subjectId, privacy.key, type, factText);
      const [proposal, active] = await Promise.all([
        head?.proposal_id ? store.proposal(ctx.tenantId, ctx.subjectId, head.proposal_id) : Promise.resolve(null),
        head?.active_id && head.active_id !== target?.memory_id ? store.fact(ctx.tenantId, ctx.subjectId, head.active_id) : Promise.resolve(null),
      ]);
      return { privacy, grounding, target, head, pending: proposal?.status === "pending" ? proposal : null, previous: target ?? active };
    },
    input(req, g) {
      const target = g?.target ?? null;
      return {
        fact: { type: req.type ?? null, confidence: req.confidence ?? null, source: req.source ?? null },
        origin: req.origin ?? "adapter",
        grounding: { score: g?.grounding.score ?? 0, judge: g?.grounding.judge ?? null },
        privacy: privacyInput(g?.privacy),
        supersedes: req.supersedes
          ? { requested: true, found: target !== null, same_content: target !== null && target.type === req.type && target.text === req.text }
          : { requested: false },
        proposal: g?.pending && g.head ? { found: true, confidence: g.head.proposal_confidence ?? 0, observations: g.head.observations } : { found: false },
        valid_to: { given: typeof req.validTo === "string", valid: isoTime(req.validTo) !== null },
      };
    },
    refusal(req, ctx, decision, g) {
      const gate = gateOf(decision);
      const discarded = decision.stopReason === "NO_SOURCE_DERIVED_FACT" && (gate?.band === "discard" || gate?.band === "ungrounded");
      if (discarded) {
        metrics.gate.inc({ outcome: gate.band });
        // SPEC D4: the reason is logged, never the text
        logger.debug(
          { requestId: ctx.requestId, reason: gate.reason, confidence: req.confidence, groundingScore: g?.grounding.score ?? null },
          "[SKIP] fact discarded",
        );
      }
      return {
        ...audit(req, ctx, g?.grounding),
        validation_status: gate?.band === "ungrounded" ? "failed" : "not_applied",
        gate: discarded ? gate.band : null,
        gate_reason: discarded ? gate.reason : null,
      };
    },
    async allow(req, g, ctx, writes, decision) {
      const gate = gateOf(decision);
      if (gate?.band !== "apply" && gate?.band !== "narrative") {
        // SG-GATE alert: the policy allowed a fact its gate did not apply (a policy bug); fail closed.
        metrics.gateAlerts.inc();
        logger.error({ requestId: ctx.requestId, band: gate?.band ?? null }, "SG-GATE alert: a fact allowed outside the apply and narrative bands");
        throw new CompanionError("the policy allowed a fact its gate did not apply");
      }
      const outcome = g.pending ? "reinforced" : gate.band === "apply" ? "auto_apply" : "narrative";
      const key = await keyOf(writes, ctx, g.privacy);
      const body = factBody(req, ctx, gate.effective_confidence, g.grounding.score);
      const observations = g.pending && g.head ? g.head.observations + 1 : 1;
      const record = await applyFact(writes, ctx, body, key, g.head, g.previous, {
        ...audit(req, ctx, g.grounding),
        confidence: gate.effective_confidence,
        validation_status: "passed",
        gate: outcome,
        observations,
      });
      const pending = g.pending;
      if (pending) {
        await step(
          writes,
          () => store.setProposalStatus(pending, "applied"),
          () => store.setProposalStatus(pending, "pending"),
        );
      }
      metrics.gate.inc({ outcome });
      logger.info({ requestId: ctx.requestId, confidence: gate.effective_confidence, memoryId: record.memory_id, gate: outcome }, "[HIGH] Applied fact");
      return { fact: record };
    },
    async hold(req, g, ctx, writes, decision) {
      const gate = gateOf(decision);
      if (gate?.band !== "proposal") throw new CompanionError("the policy held a fact outside the proposal band");
      const confidence = gate.effective_confidence;
      let proposalId: string;
      if (g.pending && g.head) {
        // The same fact observed again: the proposal keeps its content; its head counts the observation.
        const head = g.head;
        const { integrity_hash: _h, ...pointer } = head;
        const next = sealHead({ ...pointer, proposal_confidence: Math.max(confidence, head.proposal_confidence ?? 0), observations: head.observations + 1 });
        await step(
          writes,
          () => store.putHead(next),
          () => store.restoreHead(head._id, head),
        );
        proposalId = g.pending.proposal_id;
        writes.event({
          event_type: "update",
          memory_id: proposalId,
          reason: "reinforced",
          metadata: {
            ...audit(req, ctx, g.grounding),
            validation_status: "passed",
            gate: "proposal",
            proposal_id: proposalId,
            observations: next.observations,
          },
        });
      } else {
        const key = await keyOf(writes, ctx, g.privacy);
        proposalId = `prop_${randomUUID()}`;
        const record = sealProposal({
          _id: objectDocId(ctx.tenantId, ctx.subjectId, proposalId),
          tenant_id: ctx.tenantId,
          subject_id: ctx.subjectId,
          proposal_id: proposalId,
          fact: factBody(req, ctx, confidence, g.grounding.score),
          status: "pending",
          created_at: ctx.now,
        });
        await writes.creating([{ objectId: proposalId }], { proposalId });
        await step(
          writes,
          () => store.insertProposal(record),
          () => store.removeProposal(record),
        );
        const headKey = headId(key, ctx.tenantId, ctx.subjectId, record.fact.type, record.fact.text);
        const next = sealHead({
          _id: headKey,
          tenant_id: ctx.tenantId,
          subject_id: ctx.subjectId,
          active_id: g.head?.active_id ?? null,
          proposal_id: proposalId,
          proposal_confidence: confidence,
          observations: (g.head?.observations ?? 0) + 1,
        });
        await step(
          writes,
          () => store.putHead(next),
          () => store.restoreHead(headKey, g.head),
        );
        const id = proposalId;
        writes.event({
          event_type: "create",
          memory_id: id,
          reason: "held_as_proposal",
          content_digest: factDigest(record.fact),
          metadata: { ...audit(req, ctx, g.grounding), validation_status: "passed", gate: "proposal", proposal_id: id },
          settle: (seq) => store.settleObject("write", ctx.tenantId, ctx.subjectId, id, seq),
        });
      }
      metrics.gate.inc({ outcome: "proposal" });
      logger.warn({ requestId: ctx.requestId, confidence, proposalId }, "[GATE] Low-confidence fact held as a proposal; user interactions can reinforce it");
      return { proposalId };
    },
  });

  // ---------------------------------------------------------------- CONFIRM_PROPOSAL

  interface ConfirmGathered {
    proposal: ProposalRecord | null;
    privacy: PrivacyState;
    head: HeadRecord | null;
    previous: FactRecord | null;
  }

  const confirmProposal = operation<ConfirmRequest, ConfirmGathered, FactResult>({
    contract: "companion",
    name: "CONFIRM_PROPOSAL",
    fields: CONFIRM_PROPOSAL_FIELDS,
    async gather(req, ctx) {
      const [found, privacy] = await Promise.all([
        req.proposalId ? store.proposal(ctx.tenantId, ctx.subjectId, req.proposalId) : Promise.resolve(null),
        store.privacy(ctx.tenantId, ctx.subjectId),
      ]);
      const proposal = found?.status === "pending" ? found : null;
      const head = proposal ? await store.head(ctx.tenantId, ctx.subjectId, privacy.key, proposal.fact.type, proposal.fact.text) : null;
      const previous = head?.active_id ? await store.fact(ctx.tenantId, ctx.subjectId, head.active_id) : null;
      return { proposal, privacy, head, previous };
    },
    input(_req, g) {
      return { target: g?.proposal ? { found: true, status: "active" } : { found: false }, privacy: privacyInput(g?.privacy) };
    },
    async allow(_req, g, ctx, writes) {
      const proposal = g.proposal;
      if (!proposal) throw new CompanionError("the policy confirmed a proposal that is not pending");
      const key = await keyOf(writes, ctx, g.privacy);
      const record = await applyFact(writes, ctx, { ...proposal.fact, content_salt: newSalt() }, key, g.head, g.previous, {
        type: proposal.fact.type,
        source: proposal.fact.source,
        confidence: proposal.fact.confidence,
        validation_status: "passed",
        gate: "confirmed",
        proposal_id: proposal.proposal_id,
        invoker: invoker(ctx),
      });
      await step(
        writes,
        () => store.setProposalStatus(proposal, "applied"),
        () => store.setProposalStatus(proposal, "pending"),
      );
      metrics.gate.inc({ outcome: "confirmed" });
      logger.info({ requestId: ctx.requestId, proposalId: proposal.proposal_id, memoryId: record.memory_id }, "proposal confirmed by the person and applied");
      return { fact: record };
    },
  });

  // ---------------------------------------------------------------- FORGET_FACT

  const forgetFact = operation<ForgetRequest, FactRecord | null, FactResult>({
    contract: "companion",
    name: "FORGET_FACT",
    fields: FORGET_FACT_FIELDS,
    gather: (req, ctx) => (req.memoryId ? store.fact(ctx.tenantId, ctx.subjectId, req.memoryId) : Promise.resolve(null)),
    input: (_req, fact) => ({ target: fact && fact.status === "active" ? { found: true, status: "active" } : { found: false } }),
    async allow(_req, fact, ctx, writes) {
      if (!fact) throw new CompanionError("the policy forgot a fact that is not there");
      // MP-FORGET: invalidation with a reason, never deletion.
      await step(
        writes,
        () => store.setStatus(fact, "inactive", "forgotten"),
        () => store.restoreStatus(fact),
      );
      await invalidate(writes, ctx);
      writes.event({ event_type: "invalidate", memory_id: fact.memory_id, reason: "forgotten", metadata: { type: fact.type } });
      return {};
    },
  });

  // ---------------------------------------------------------------- ENVELOPE

  const envelope = operation<EnvelopeRequest, PrivacyState, Envelope>({
    contract: "companion",
    name: "ENVELOPE",
    fields: ENVELOPE_FIELDS,
    gather: (_req, ctx) => store.privacy(ctx.tenantId, ctx.subjectId),
    input: (req, privacy) => ({
      envelope: { purpose: req.purpose ?? null, include_narrative: req.includeNarrative === true },
      privacy: { share_with: privacyInput(privacy).share_with, memory_enabled: privacyInput(privacy).memory_enabled },
    }),
    refusal: (req) => ({ purpose: known(req.purpose, data().purposes) }),
    async allow(req, privacy, ctx) {
      const purpose = str(req.purpose);
      const key = `${EnvelopeCache.key(ctx.tenantId, ctx.subjectId, purpose, ctx.principal.agentType ?? "-")}|g${privacy.generation}`;
      if (!req.skipCache) {
        const hit = cache.get(key);
        if (hit) {
          metrics.envelopeCache.inc({ result: "hit" });
          return { ...live(hit, privacy.settings, ctx.now), cached: true };
        }
      }
      metrics.envelopeCache.inc({ result: "miss" });
      const scope = { tenant: ctx.tenantId, subjectId: ctx.subjectId, purpose, power: data().power_purposes.includes(purpose), now: ctx.now };
      const active = await store.activeEntries(ctx.tenantId, ctx.subjectId);
      const built = buildEnvelope(active.entries, privacy.settings, scope, () => {
        metrics.isolation.inc({ operation: "companion.ENVELOPE", kind: "foreign_record_dropped" });
        logger.error({ requestId: ctx.requestId }, "SG-ISOLATION: a foreign record reached the envelope and was dropped");
      });
      // INV-8: a fact left out while its write is in flight must not stay out of the cached envelope once acknowledged.
      if (active.complete) cache.set(key, built);
      return built;
    },
  });

  // ---------------------------------------------------------------- SET_PRIVACY

  interface PrivacyGathered {
    state: PrivacyState;
    record: PrivacyRecord | null;
  }

  const nextSettings = (req: PrivacyRequest, current: PrivacySettings): PrivacySettings => ({
    memory_enabled: req.memoryEnabled ?? current.memory_enabled,
    learn_patterns: req.learnPatterns ?? current.learn_patterns,
    share_with: req.shareWith ? strings(req.shareWith) : current.share_with,
    anonymize_dates: req.anonymizeDates ?? current.anonymize_dates,
    delete_after_days: req.deleteAfterDays === undefined ? current.delete_after_days : req.deleteAfterDays,
  });

  const setPrivacy = operation<PrivacyRequest, PrivacyGathered, { settings: PrivacySettings }>({
    contract: "companion",
    name: "SET_PRIVACY",
    fields: SET_PRIVACY_FIELDS,
    async gather(_req, ctx) {
      const record = await store.privacyRecord(ctx.tenantId, ctx.subjectId);
      return { record, state: await store.privacy(ctx.tenantId, ctx.subjectId) };
    },
    input: (req, g) => ({ settings: nextSettings(req, privacyInput(g?.state)) }),
    refusal: (req) => ({ given: Object.keys(req).filter((k) => k !== "subjectId") }),
    async allow(req, g, ctx, writes) {
      const current = g.state.settings;
      const next = nextSettings(req, current);
      await step(
        writes,
        () => store.putPrivacy(ctx.tenantId, ctx.subjectId, next, ctx.now),
        () => store.restorePrivacy(ctx.tenantId, ctx.subjectId, g.record, ctx.now),
      );
      cache.invalidateSubject(ctx.tenantId, ctx.subjectId); // opt-out takes effect at once (the generation moved on too)
      const changed = (Object.keys(next) as (keyof PrivacySettings)[]).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]));
      // The agent types shared with are counted, not copied: the log keeps no free text of the person's.
      writes.event({ event_type: "settings_change", reason: "privacy", metadata: { changed, settings: { ...next, share_with: next.share_with.length } } });
      if (next.delete_after_days) await archiveOlder(writes, ctx, next.delete_after_days);
      return { settings: next };
    },
  });

  /** SG-PRIVACY delete_after_days: older facts become inactive, then archived; each step an event. */
  const archiveOlder = async (writes: Writes, ctx: OperationContext, days: number): Promise<number> => {
    const cutoff = ctx.now.getTime() - days * DAY_MS;
    let n = 0;
    for (const fact of await store.activeFacts(ctx.tenantId, ctx.subjectId)) {
      if (fact.created_at.getTime() > cutoff) continue;
      writes.onUndo(() => store.restoreStatus(fact));
      await store.setStatus(fact, "inactive", "delete_after_days");
      writes.event({ event_type: "invalidate", memory_id: fact.memory_id, reason: "delete_after_days", metadata: { days } });
      await store.setStatus(fact, "archived", "delete_after_days");
      writes.event({ event_type: "archive", memory_id: fact.memory_id, reason: "delete_after_days", metadata: { days } });
      logger.info({ requestId: ctx.requestId, memoryId: fact.memory_id }, "fact archived (delete_after_days)");
      n++;
    }
    return n;
  };

  // ---------------------------------------------------------------- ERASE (SPEC D1)

  const erase = operation<TargetRequest, undefined, { erased: number }>({
    contract: "companion",
    name: "ERASE",
    fields: ERASE_FIELDS,
    async allow(_req, _g, ctx, writes, decision) {
      const { tenantId, subjectId } = ctx;
      const { facts, proposals } = await store.subjectObjects(tenantId, subjectId);
      const mark = { at: ctx.now.toISOString(), by: ctx.principal.id, reason: "erasure_request", operation: "ERASE", decision_id: decision.decisionId };
      const objects = [...facts.map((id) => ({ id, kind: "fact" })), ...proposals.map((id) => ({ id, kind: "proposal" }))];
      for (const object of objects) {
        await store.eraseObject(tenantId, subjectId, object.id, mark, (snapshot) => writes.onUndo(() => store.restore(snapshot)));
        writes.event({
          event_type: "erase",
          memory_id: object.id,
          reason: "erasure_request",
          metadata: { object: object.kind },
          settle: (seq) => store.settleObject("erasure", tenantId, subjectId, object.id, seq),
        });
      }
      await store.eraseSubjectKeys(tenantId, subjectId, ctx.now, (snapshot) => writes.onUndo(() => store.restore(snapshot)));
      cache.invalidateSubject(tenantId, subjectId); // takes effect at once
      // An erasure that matched nothing still leaves its event.
      if (objects.length === 0) writes.event({ event_type: "erase", reason: "erasure_request", metadata: { facts: 0, proposals: 0 } });
      logger.info({ requestId: ctx.requestId, facts: facts.length, proposals: proposals.length }, "companion memory erased on request");
      return { erased: facts.length };
    },
  });

  // ---------------------------------------------------------------- DECAY

  const runDecay = operation<Record<string, never>, undefined, { deactivated: number }>({
    contract: "companion",
    name: "DECAY",
    fields: DECAY_FIELDS,
    subject: () => TENANT_SCOPE,
    async allow(_req, _g, ctx, writes) {
      let n = 0;
      for (const fact of await store.activeInTenant(ctx.tenantId)) {
        if (fact.expires_at.getTime() > ctx.now.getTime()) continue;
        await step(
          writes,
          () => store.setStatus(fact, "inactive", "decayed"),
          () => store.restoreStatus(fact),
        );
        writes.event({ event_type: "invalidate", subject_id: fact.subject_id, memory_id: fact.memory_id, reason: "decayed", metadata: { type: fact.type } });
        logger.info({ requestId: ctx.requestId, memoryId: fact.memory_id, type: fact.type }, "SG-DECAY: fact deactivated (kept, never deleted)");
        n++;
      }
      return { deactivated: n };
    },
  });

  // ---------------------------------------------------------------- CONSOLIDATE

  interface ConsolidateGathered {
    ids: string[];
    found: (FactRecord | null)[];
    privacy: PrivacyState;
    grounding: GroundingScore;
  }

  const consolidate = operation<ConsolidateRequest, ConsolidateGathered, FactResult>({
    contract: "companion",
    name: "CONSOLIDATE",
    fields: CONSOLIDATE_FIELDS,
    async gather(req, ctx) {
      // More ids than the bound allows are refused (BOUNDS_EXCEEDED); no more are read than that.
      const ids = [...new Set(strings(req.memoryIds))].slice(0, 64);
      const [found, privacy] = await Promise.all([
        Promise.all(ids.map((i) => store.fact(ctx.tenantId, ctx.subjectId, i))),
        store.privacy(ctx.tenantId, ctx.subjectId),
      ]);
      const summary = found
        .filter((f): f is FactRecord => f !== null)
        .map((f) => f.text)
        .join(". ");
      const merged = str(req.text);
      const grounding = merged.trim() && summary ? await scorer.score(summary, merged) : { score: 0, unsupported: 0, scorer: scorer.name };
      return { ids, found, privacy, grounding };
    },
    input(req, g) {
      const found = g?.found ?? [];
      const ids = g?.ids ?? [...new Set(strings(req.memoryIds))];
      return {
        fact: { type: req.type ?? null, confidence: 1, source: "job" },
        origin: "adapter",
        grounding: { score: g?.grounding.score ?? 0, judge: g?.grounding.judge ?? null },
        privacy: privacyInput(g?.privacy),
        consolidate: {
          inputs: ids.map((_, i) =>
            found[i] && found[i].status === "active" ? { found: true, source_refs: found[i].source_refs.length } : { found: false, source_refs: 0 },
          ),
          types: [...new Set(found.filter((f): f is FactRecord => f !== null).map((f) => f.type))],
        },
      };
    },
    refusal: (req) => ({ inputs: strings(req.memoryIds).length }),
    async allow(req, g, ctx, writes) {
      const originals = g.found.filter((f): f is FactRecord => f !== null && f.status === "active");
      if (originals.length !== g.ids.length) throw new CompanionError("the policy consolidated facts that are not all active");
      const memoryId = `fact_${randomUUID()}`;
      const record = mergeFacts(originals, {
        tenant: ctx.tenantId,
        subjectId: ctx.subjectId,
        memoryId,
        type: str(req.type),
        text: str(req.text),
        now: ctx.now,
        invoker: invoker(ctx),
        groundingScore: g.grounding.score,
        justification: str(req.justification),
      });
      await writes.creating([{ objectId: memoryId }], { fact: record });
      await step(
        writes,
        () => store.insertFact(record),
        () => store.removeFact(record),
      );
      writes.event({
        event_type: "consolidate",
        memory_id: memoryId,
        content_digest: factDigest(record),
        reason: "consolidation",
        metadata: {
          inputs: originals.map((f) => ({ memory_id: f.memory_id, statement_type: f.statement_type, digest: factDigest(f) })),
          output: {
            memory_id: memoryId,
            statement_type: "ConsolidatedStatement",
            source_refs: record.source_refs.length,
            valid_to: record.valid_to?.toISOString() ?? null,
          },
          // The justification is content: the record keeps it (erasable), the chain commits to its salted digest.
          justification: {
            digest: saltedDigest(record.content_salt ?? "", { justification: record.justification ?? "" }),
            length: str(req.justification).length,
          },
          diff: { removed: originals.map((f) => f.memory_id), added: [memoryId] },
        },
        settle: (seq) => store.settleObject("write", ctx.tenantId, ctx.subjectId, memoryId, seq),
      });
      for (const fact of originals) {
        await step(
          writes,
          () => store.setStatus(fact, "inactive", "consolidated"),
          () => store.restoreStatus(fact),
        );
        writes.event({ event_type: "invalidate", memory_id: fact.memory_id, reason: "consolidated", metadata: { into: memoryId } });
      }
      await invalidate(writes, ctx);
      return { fact: record };
    },
  });

  return { addFact, confirmProposal, forgetFact, envelope, setPrivacy, erase, runDecay, consolidate };
}

export type CompanionOperations = ReturnType<typeof companionOperations>;
