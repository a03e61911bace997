import { randomUUID } from "node:crypto";
import { subjectOf, type Principal } from "../auth/principal";
import { buildEnvelope, DAY_MS, live, type Envelope } from "../companion/envelope";
import { mergeFacts } from "../companion/consolidation";
import { EnvelopeCache } from "../companion/envelope-cache";
import type { GroundingScorer } from "../companion/grounding";
import type { DetectorSuite } from "../detectors/detector";
import type { Metrics } from "../kernel/metrics";
import type { Logger } from "../logger";
import { newSalt, saltedDigest } from "../store/canonical";
import { factDocId, headId, subjectDocId, type FactRecord, type FactRepository, type PrivacyView, type ProposalRecord } from "../store/fact-repository";
import type { EventType } from "../store/event-log";
import type { Decided, DecisionRequest, Governor } from "./governor";
import type { CallContext, Outcome } from "../kernel/outcome";

const CONTRACT = "companion";

export interface CompanionData {
  fact_types: string[];
  sources: string[];
  gate: { apply_min: number; proposal_min: number; narrative_min: number; reinforcement_step: number };
  grounding_min: number;
  decay_days: Record<string, number>;
  envelope_cache_seconds: number;
  purposes: string[];
  power_purposes: string[];
  origins: string[];
}

export interface AddFactRequest {
  subjectId?: string | null;
  type: string;
  text: string;
  confidence: number;
  source: string;
  summary: string;
  origin?: string | null;
  supersedes?: string | null;
  sourceRefs?: string[] | null;
  validTo?: Date | null;
}

export interface FactResult {
  fact?: FactRecord;
  proposalId?: string;
}

export interface PrivacyRequest {
  subjectId?: string | null;
  memoryEnabled?: boolean | null;
  learnPatterns?: boolean | null;
  shareWith?: string[] | null;
  anonymizeDates?: boolean | null;
  deleteAfterDays?: number | null;
}

/** The settings a subject chose (SG-PRIVACY), as returned to callers. */
export type PrivacySettingsData = Omit<PrivacyView, "generation">;

export interface ConsolidateRequest {
  subjectId?: string | null;
  memoryIds: string[];
  text: string;
  type: string;
  justification: string;
}

/**
 * Companion memory (seed 002) and governed consolidation (seed 004 §3, §5):
 * detectors + grounding score -> policy -> store + event. The policy alone decides;
 * this service acts on its answer (store, hold a proposal, refuse) and keeps the log.
 */
export class CompanionService {
  readonly cache: EnvelopeCache<Envelope>;

  constructor(
    private readonly governor: Governor,
    private readonly facts: FactRepository,
    private readonly detectors: DetectorSuite,
    private readonly scorer: GroundingScorer,
    private readonly metrics: Metrics,
    private readonly logger: Logger,
    cacheSeconds?: number,
  ) {
    this.cache = new EnvelopeCache(governor.clock, (cacheSeconds ?? 900) * 1000);
  }

  private get data(): CompanionData {
    return this.governor.policy.data<CompanionData>("companion");
  }

  /** Cached envelopes of the subject go now, here and (by the stored generation) in every other process. */
  private async invalidate(tenant: string, subject: string): Promise<void> {
    this.cache.invalidateSubject(tenant, subject);
    await this.facts.bumpGeneration(tenant, subject, this.governor.clock.now());
  }

  private observe<T>(operation: string, started: bigint, outcome: Outcome<T>): Outcome<T> {
    this.metrics.decisions.inc({ contract: CONTRACT, operation, stop_reason: outcome.stopReason });
    this.metrics.latency.observe({ contract: CONTRACT, operation }, Number(process.hrtime.bigint() - started) / 1e9);
    if (outcome.explanations.some((e) => e.startsWith("AUTHZ-SUBJECT"))) {
      this.metrics.isolation.inc({ operation, kind: "subject_not_in_token" });
      this.logger.error({ operation, decisionId: outcome.decisionId }, "SG-ISOLATION: cross-tenant or cross-subject attempt refused");
    }
    return outcome;
  }

  private async refuse<T>(request: DecisionRequest, decided: Decided, ctx: CallContext, metadata: Record<string, unknown>, reason: string | null = null): Promise<Outcome<T>> {
    await this.governor.record(request, decided, ctx, "refuse", { reason, metadata });
    return this.governor.outcome(decided);
  }

  // ---------------------------------------------------------------- addFact

  async addFact(principal: Principal, request: AddFactRequest, ctx: CallContext): Promise<Outcome<FactResult>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, request.subjectId);
    const base = { operation: "ADD_FACT", contract: CONTRACT, principal, subjectId };
    try {
      const text = typeof request.text === "string" ? request.text : "";
      const summary = typeof request.summary === "string" ? request.summary : "";
      const fact = { type: request.type, text, summary, confidence: request.confidence, source: request.source };
      const texts = { text, summary };
      const detected = await this.detectors.run(texts);
      const grounding = text.trim() && summary.trim() ? await this.scorer.score(summary, text) : { score: 0, unsupported: 0, scorer: this.scorer.name };
      const privacy = await this.facts.getPrivacy(principal.tenant, subjectId);
      const hid = headId(principal.tenant, subjectId, String(request.type), text);
      const head = await this.facts.head(hid);
      let supersedes: Record<string, unknown> = { requested: false };
      let target: FactRecord | null = null;
      if (request.supersedes) {
        target = await this.facts.get(principal.tenant, subjectId, request.supersedes);
        supersedes = { requested: true, found: target !== null, same_content: target !== null && target.type === request.type && target.text === text };
      }
      const pending = head?.proposal_id ? await this.facts.proposal(principal.tenant, subjectId, head.proposal_id) : null;
      const proposal = pending && pending.status === "pending" ? { found: true, confidence: head!.proposal_confidence ?? 0, observations: head!.observations } : { found: false };
      const decisionRequest: DecisionRequest = {
        ...base,
        input: { fact, texts, facts: detected, origin: request.origin ?? "adapter", grounding: { score: grounding.score }, privacy, supersedes, proposal },
      };
      const decided = this.governor.decide(decisionRequest);
      const audit = {
        type: this.data.fact_types.includes(request.type) ? request.type : null,
        source: this.data.sources.includes(request.source) ? request.source : null,
        confidence: typeof request.confidence === "number" ? request.confidence : null,
        lengths: { text: text.length, summary: summary.length },
        grounding_score: grounding.score,
        scorer: grounding.scorer,
        invoker: { id: principal.id, roles: principal.roles, job: principal.job },
      };
      const stop = decided.decision.stop_reason;
      const explained = (e: string) => decided.decision.explanations.includes(e);

      if (stop === "MISSING_EXPLICIT_CONSENT" && explained("SG-GATE: held_as_proposal")) {
        const proposalId = pending?.proposal_id ?? `prop_${randomUUID()}`;
        const record: ProposalRecord = {
          _id: factDocId(principal.tenant, subjectId, proposalId),
          tenant_id: principal.tenant,
          subject_id: subjectId,
          proposal_id: proposalId,
          head_id: hid,
          fact: this.factBody(principal, request, text, grounding.score),
          status: "pending",
          created_at: this.governor.clock.now(),
        };
        await this.facts.putProposal(record);
        await this.facts.putHead({ _id: hid, active_id: head?.active_id ?? null, proposal_id: proposalId, proposal_confidence: Math.max(request.confidence, head?.proposal_confidence ?? 0), observations: (head?.observations ?? 0) + 1 });
        await this.governor.record(decisionRequest, decided, ctx, "refuse", { reason: "held_as_proposal", metadata: { ...audit, validation_status: "passed", gate: "proposal", proposal_id: proposalId } });
        this.metrics.gate.inc({ outcome: "proposal" });
        this.logger.warn({ requestId: ctx.requestId, confidence: request.confidence, proposalId }, "[GATE] Low-confidence fact held as a proposal; user interactions can reinforce it");
        return this.observe("ADD_FACT", started, { ...this.governor.outcome(decided), value: { proposalId } });
      }
      if (!decided.succeeded) {
        const reason = explained("SG-GROUND: ungrounded") ? "ungrounded" : explained("SG-GATE: below_gate") ? "below_gate" : explained("SG-GATE: narrative_only") ? "narrative_only" : null;
        if (reason) {
          this.metrics.gate.inc({ outcome: reason === "ungrounded" ? "ungrounded" : "discard" });
          // SPEC D4: the reason is logged, never the text
          this.logger.debug({ requestId: ctx.requestId, reason, confidence: request.confidence, groundingScore: grounding.score }, "[SKIP] fact discarded");
        }
        return this.observe("ADD_FACT", started, await this.refuse(decisionRequest, decided, ctx, { ...audit, validation_status: reason === "ungrounded" ? "failed" : "not_applied" }, reason));
      }

      // Applied: a fact below the apply threshold that is not a narrative is a bug (SG-GATE alert).
      const applyMin = this.data.gate.apply_min;
      const effective =
        request.confidence >= applyMin ? "auto_apply" : proposal.found ? "reinforced" : request.type === "SHARED_NARRATIVE" ? "narrative" : "auto_apply";
      if (effective === "auto_apply" && request.confidence < this.data.gate.apply_min) {
        this.metrics.gateAlerts.inc();
        this.logger.error({ requestId: ctx.requestId, confidence: request.confidence }, "SG-GATE alert: low-confidence auto-apply");
      }
      // a reinforced proposal keeps the strongest confidence it was observed with
      const confidence = effective === "reinforced" ? Math.max(request.confidence, head?.proposal_confidence ?? 0) : request.confidence;
      const stored = await this.store(principal, subjectId, { ...request, confidence }, text, grounding.score, hid, head, target, decisionRequest, decided, ctx,
        { ...audit, validation_status: "passed", gate: effective, observations: proposal.found ? (head?.observations ?? 0) + 1 : 1 }, "create");
      if (pending) await this.facts.putProposal({ ...pending, status: "applied" });
      this.metrics.gate.inc({ outcome: effective });
      this.logger.info({ requestId: ctx.requestId, confidence: request.confidence, memoryId: stored.memory_id, gate: effective }, "[HIGH] Applied fact");
      return this.observe("ADD_FACT", started, this.governor.outcome(decided, { fact: stored }));
    } catch (error) {
      return this.observe("ADD_FACT", started, await this.governor.failClosed<FactResult>(error, base, ctx));
    }
  }

  private factBody(principal: Principal, request: AddFactRequest, text: string, groundingScore: number): ProposalRecord["fact"] {
    const validTo = request.validTo ?? null;
    return {
      tenant_id: principal.tenant,
      subject_id: subjectOf(principal, request.subjectId),
      type: request.type,
      text,
      confidence: request.confidence,
      source: request.source,
      statement_type: request.source === "manual" ? "UserProvidedStatement" : "SourceStatement",
      source_refs: request.sourceRefs ?? [],
      job: principal.job,
      supersedes: null,
      consolidated_from: null,
      valid_to: validTo,
      temporal_scope: validTo ? "bounded" : "unknown",
      created_by: { id: principal.id, roles: principal.roles },
      grounding_score: groundingScore,
      content_salt: newSalt(),
    };
  }

  /** Inserts the fact, supersedes the previous one of the same content, and records both events. */
  private async store(
    principal: Principal,
    subjectId: string,
    request: AddFactRequest,
    text: string,
    groundingScore: number,
    hid: string,
    head: { active_id: string | null; proposal_id: string | null } | null,
    target: FactRecord | null,
    decisionRequest: DecisionRequest,
    decided: Decided,
    ctx: CallContext,
    metadata: Record<string, unknown>,
    eventType: EventType,
    body?: ProposalRecord["fact"],
  ): Promise<FactRecord> {
    const now = this.governor.clock.now();
    const memoryId = `fact_${randomUUID()}`;
    const fact = body ?? this.factBody(principal, request, text, groundingScore);
    const previousId = target?.memory_id ?? head?.active_id ?? null;
    const previous = previousId && previousId !== target?.memory_id ? await this.facts.get(principal.tenant, subjectId, previousId) : target;
    const record: FactRecord = {
      ...fact,
      _id: factDocId(principal.tenant, subjectId, memoryId),
      memory_id: memoryId,
      status: "active",
      status_reason: null,
      supersedes: previous && previous.status === "active" ? previous.memory_id : null,
      created_at: now,
      expires_at: new Date(now.getTime() + (this.data.decay_days[fact.type] ?? 0) * DAY_MS),
    };
    await this.facts.insert(record);
    try {
      await this.governor.record(decisionRequest, decided, ctx, eventType, {
        memory_id: memoryId,
        content_digest: saltedDigest(record.content_salt, { type: record.type, text: record.text }),
        metadata: { ...metadata, supersedes: record.supersedes, statement_type: record.statement_type },
      });
    } catch (error) {
      // No fact without its event: it was never acknowledged, so it is rolled back (INV-8).
      await this.facts.rollback(record).catch(() => undefined);
      throw error;
    }
    if (previous && previous.status === "active") {
      await this.facts.setStatus(previous, "inactive", "superseded");
      await this.governor.record(decisionRequest, decided, ctx, "invalidate", { memory_id: previous.memory_id, reason: "superseded", metadata: { superseded_by: memoryId } });
    }
    await this.facts.putHead({ _id: hid, active_id: memoryId, proposal_id: null, proposal_confidence: null, observations: 0 });
    return record;
  }

  // ---------------------------------------------------------------- confirmProposal

  async confirmProposal(principal: Principal, input: { subjectId?: string | null; proposalId: string }, ctx: CallContext): Promise<Outcome<FactResult>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, input.subjectId);
    const base = { operation: "CONFIRM_PROPOSAL", contract: CONTRACT, principal, subjectId };
    try {
      const proposal = await this.facts.proposal(principal.tenant, subjectId, input.proposalId);
      const target = proposal && proposal.status === "pending" ? { found: true, status: "active" } : { found: false };
      const decisionRequest: DecisionRequest = { ...base, input: { target, privacy: await this.facts.getPrivacy(principal.tenant, subjectId) } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded || !proposal) return this.observe("CONFIRM_PROPOSAL", started, await this.refuse(decisionRequest, decided, ctx, { proposal_id_length: input.proposalId.length }));
      const head = await this.facts.head(proposal.head_id);
      const stored = await this.store(principal, subjectId, { ...proposal.fact, summary: "" }, proposal.fact.text, proposal.fact.grounding_score, proposal.head_id, head, null, decisionRequest, decided, ctx,
        { type: proposal.fact.type, source: proposal.fact.source, confidence: proposal.fact.confidence, validation_status: "passed", gate: "confirmed", proposal_id: proposal.proposal_id, invoker: { id: principal.id, roles: principal.roles } }, "create", proposal.fact);
      await this.facts.putProposal({ ...proposal, status: "applied" });
      this.metrics.gate.inc({ outcome: "confirmed" });
      this.logger.info({ requestId: ctx.requestId, proposalId: proposal.proposal_id, memoryId: stored.memory_id }, "proposal confirmed by the person and applied");
      return this.observe("CONFIRM_PROPOSAL", started, this.governor.outcome(decided, { fact: stored }));
    } catch (error) {
      return this.observe("CONFIRM_PROPOSAL", started, await this.governor.failClosed<FactResult>(error, base, ctx));
    }
  }

  // ---------------------------------------------------------------- forgetFact

  async forgetFact(principal: Principal, input: { subjectId?: string | null; memoryId: string }, ctx: CallContext): Promise<Outcome<FactResult>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, input.subjectId);
    const base = { operation: "FORGET_FACT", contract: CONTRACT, principal, subjectId };
    try {
      const fact = await this.facts.get(principal.tenant, subjectId, input.memoryId);
      const target = fact && fact.status === "active" ? { found: true, status: "active" } : { found: false };
      const decisionRequest: DecisionRequest = { ...base, input: { target } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded || !fact) return this.observe("FORGET_FACT", started, await this.refuse(decisionRequest, decided, ctx, { memory_id_length: input.memoryId.length }));
      await this.facts.setStatus(fact, "inactive", "forgotten");
      await this.invalidate(principal.tenant, subjectId);
      await this.governor.record(decisionRequest, decided, ctx, "invalidate", { memory_id: fact.memory_id, reason: "forgotten", metadata: { type: fact.type } });
      return this.observe("FORGET_FACT", started, this.governor.outcome(decided, {}));
    } catch (error) {
      return this.observe("FORGET_FACT", started, await this.governor.failClosed<FactResult>(error, base, ctx));
    }
  }

  // ---------------------------------------------------------------- memoryEnvelope

  async envelope(principal: Principal, input: { subjectId?: string | null; purpose: string; skipCache?: boolean | null; includeNarrative?: boolean | null }, ctx: CallContext): Promise<Outcome<Envelope>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, input.subjectId);
    const base = { operation: "ENVELOPE", contract: CONTRACT, principal, subjectId };
    try {
      const privacy = await this.facts.getPrivacy(principal.tenant, subjectId);
      const decisionRequest: DecisionRequest = {
        ...base,
        input: { envelope: { purpose: input.purpose, include_narrative: input.includeNarrative === true }, privacy: { share_with: privacy.share_with, memory_enabled: privacy.memory_enabled } },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) {
        const warmth = decided.decision.explanations.includes("SG-WARMTH: warmth_in_power");
        return this.observe("ENVELOPE", started, await this.refuse(decisionRequest, decided, ctx, { purpose: this.data.purposes.includes(input.purpose) ? input.purpose : null }, warmth ? "warmth_in_power" : null));
      }
      const key = `${EnvelopeCache.key(principal.tenant, subjectId, input.purpose, principal.agentType ?? "-")}|g${privacy.generation}`;
      if (!input.skipCache) {
        const hit = this.cache.get(key);
        if (hit) {
          this.metrics.envelopeCache.inc({ result: "hit" });
          return this.observe("ENVELOPE", started, this.governor.outcome(decided, { ...live(hit, privacy, this.governor.clock.now()), cached: true }));
        }
      }
      this.metrics.envelopeCache.inc({ result: "miss" });
      const scope = { tenant: principal.tenant, subjectId, purpose: input.purpose, power: this.data.power_purposes.includes(input.purpose), now: this.governor.clock.now() };
      const envelope = buildEnvelope(await this.facts.activeEntries(principal.tenant, subjectId), privacy, scope, () => {
        this.metrics.isolation.inc({ operation: "ENVELOPE", kind: "foreign_record_dropped" });
        this.logger.error({ requestId: ctx.requestId }, "SG-ISOLATION: a foreign record reached the envelope and was dropped");
      });
      this.cache.set(key, envelope);
      return this.observe("ENVELOPE", started, this.governor.outcome(decided, envelope));
    } catch (error) {
      return this.observe("ENVELOPE", started, await this.governor.failClosed<Envelope>(error, base, ctx));
    }
  }

  // ---------------------------------------------------------------- setPrivacy

  async setPrivacy(principal: Principal, request: PrivacyRequest, ctx: CallContext): Promise<Outcome<{ settings: PrivacySettingsData }>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, request.subjectId);
    const base = { operation: "SET_PRIVACY", contract: CONTRACT, principal, subjectId };
    try {
      const current = await this.facts.getPrivacy(principal.tenant, subjectId);
      const next = {
        memory_enabled: request.memoryEnabled ?? current.memory_enabled,
        learn_patterns: request.learnPatterns ?? current.learn_patterns,
        share_with: request.shareWith ?? current.share_with,
        anonymize_dates: request.anonymizeDates ?? current.anonymize_dates,
        delete_after_days: request.deleteAfterDays === undefined ? current.delete_after_days : request.deleteAfterDays,
      };
      const decisionRequest: DecisionRequest = { ...base, input: { settings: next } };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return this.observe("SET_PRIVACY", started, await this.refuse(decisionRequest, decided, ctx, { fields: Object.keys(request).filter((k) => k !== "subjectId") }));
      await this.facts.putPrivacy({ _id: subjectDocId(principal.tenant, subjectId), tenant_id: principal.tenant, subject_id: subjectId, ...next, updated_at: this.governor.clock.now() });
      this.cache.invalidateSubject(principal.tenant, subjectId); // opt-out takes effect at once (the generation moved on too)
      const changed = Object.keys(next).filter((k) => JSON.stringify((next as Record<string, unknown>)[k]) !== JSON.stringify((current as Record<string, unknown>)[k]));
      await this.governor.record(decisionRequest, decided, ctx, "settings_change", { reason: "privacy", metadata: { changed, settings: next } });
      if (next.delete_after_days) await this.archiveOlder(principal, subjectId, next.delete_after_days, decisionRequest, decided, ctx);
      return this.observe("SET_PRIVACY", started, this.governor.outcome(decided, { settings: next }));
    } catch (error) {
      return this.observe("SET_PRIVACY", started, await this.governor.failClosed<{ settings: PrivacySettingsData }>(error, base, ctx));
    }
  }

  /** SG-PRIVACY delete_after_days: older facts become inactive, then archived; each step an event. */
  private async archiveOlder(principal: Principal, subjectId: string, days: number, request: DecisionRequest, decided: Decided, ctx: CallContext): Promise<number> {
    const cutoff = this.governor.clock.now().getTime() - days * DAY_MS;
    let n = 0;
    for (const fact of await this.facts.active(principal.tenant, subjectId)) {
      if (fact.created_at.getTime() > cutoff) continue;
      await this.facts.setStatus(fact, "inactive", "delete_after_days");
      await this.governor.record(request, decided, ctx, "invalidate", { memory_id: fact.memory_id, reason: "delete_after_days", metadata: { days } });
      await this.facts.setStatus(fact, "archived", "delete_after_days");
      await this.governor.record(request, decided, ctx, "archive", { memory_id: fact.memory_id, reason: "delete_after_days", metadata: { days } });
      this.logger.info({ requestId: ctx.requestId, memoryId: fact.memory_id }, "fact archived (delete_after_days)");
      n++;
    }
    return n;
  }

  // ---------------------------------------------------------------- erasure (SPEC D1)

  async erase(principal: Principal, input: { subjectId?: string | null }, ctx: CallContext): Promise<Outcome<{ erased: number }>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, input.subjectId);
    const base = { operation: "ERASE", contract: CONTRACT, principal, subjectId };
    try {
      const decisionRequest: DecisionRequest = { ...base, input: {} };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return this.observe("ERASE", started, await this.refuse(decisionRequest, decided, ctx, {}));
      const ids = await this.facts.erase(principal.tenant, subjectId);
      await this.invalidate(principal.tenant, subjectId); // takes effect at once
      for (const id of ids) await this.governor.record(decisionRequest, decided, ctx, "erase", { memory_id: id, reason: "erasure_request" });
      this.logger.info({ requestId: ctx.requestId, count: ids.length }, "companion memory erased on request");
      return this.observe("ERASE", started, this.governor.outcome(decided, { erased: ids.length }));
    } catch (error) {
      return this.observe("ERASE", started, await this.governor.failClosed<{ erased: number }>(error, base, ctx));
    }
  }

  // ---------------------------------------------------------------- decay pass

  async runDecay(principal: Principal, ctx: CallContext): Promise<Outcome<{ deactivated: number }>> {
    const started = process.hrtime.bigint();
    const base = { operation: "DECAY", contract: CONTRACT, principal, subjectId: principal.subjects[0] ?? "*" };
    try {
      const decisionRequest: DecisionRequest = { ...base, input: {} };
      const decided = this.governor.decide({ ...decisionRequest, subjectId: decisionRequest.subjectId });
      if (!decided.succeeded) return this.observe("DECAY", started, await this.refuse(decisionRequest, decided, ctx, {}));
      const now = this.governor.clock.now().getTime();
      let n = 0;
      for (const fact of await this.facts.activeInTenant(principal.tenant)) {
        if (fact.expires_at.getTime() > now) continue;
        await this.facts.setStatus(fact, "inactive", "decayed");
        await this.governor.record({ ...decisionRequest, subjectId: fact.subject_id }, decided, ctx, "invalidate", { memory_id: fact.memory_id, reason: "decayed", metadata: { type: fact.type } });
        this.logger.info({ requestId: ctx.requestId, memoryId: fact.memory_id, type: fact.type }, "SG-DECAY: fact deactivated (kept, never deleted)");
        n++;
      }
      return this.observe("DECAY", started, this.governor.outcome(decided, { deactivated: n }));
    } catch (error) {
      return this.observe("DECAY", started, await this.governor.failClosed<{ deactivated: number }>(error, base, ctx));
    }
  }

  // ---------------------------------------------------------------- consolidateMemories

  async consolidate(principal: Principal, request: ConsolidateRequest, ctx: CallContext): Promise<Outcome<FactResult>> {
    const started = process.hrtime.bigint();
    const subjectId = subjectOf(principal, request.subjectId);
    const base = { operation: "CONSOLIDATE", contract: CONTRACT, principal, subjectId };
    try {
      const ids = Array.isArray(request.memoryIds) ? [...new Set(request.memoryIds)].slice(0, 64) : [];
      const found = await Promise.all(ids.map((id) => this.facts.get(principal.tenant, subjectId, id)));
      const inputs = found.map((f) => (f && f.status === "active" ? { found: true, source_refs: f.source_refs.length } : { found: false, source_refs: 0 }));
      const text = typeof request.text === "string" ? request.text : "";
      const summary = found.filter((f): f is FactRecord => f !== null).map((f) => f.text).join(". ");
      const grounding = text.trim() && summary ? await this.scorer.score(summary, text) : { score: 0 };
      const texts = { text, justification: request.justification ?? "" };
      const decisionRequest: DecisionRequest = {
        ...base,
        input: {
          fact: { type: request.type, text, summary: summary || " ", confidence: 1, source: "job" },
          texts,
          facts: await this.detectors.run(texts),
          origin: "adapter",
          grounding: { score: grounding.score },
          privacy: await this.facts.getPrivacy(principal.tenant, subjectId),
          consolidate: { inputs, types: [...new Set(found.filter((f): f is FactRecord => f !== null).map((f) => f.type))] },
        },
      };
      const decided = this.governor.decide(decisionRequest);
      if (!decided.succeeded) return this.observe("CONSOLIDATE", started, await this.refuse(decisionRequest, decided, ctx, { inputs: ids.length, lengths: { text: text.length } }));
      const originals = found as FactRecord[];
      const memoryId = `fact_${randomUUID()}`;
      const record = mergeFacts(originals, {
        tenant: principal.tenant,
        subjectId,
        memoryId,
        type: request.type,
        text,
        now: this.governor.clock.now(),
        invoker: { id: principal.id, roles: principal.roles, job: principal.job },
        groundingScore: grounding.score,
      });
      const validTo = record.valid_to;
      await this.facts.insert(record);
      try {
        await this.governor.record(decisionRequest, decided, ctx, "consolidate", {
          memory_id: memoryId,
          content_digest: saltedDigest(record.content_salt, { type: record.type, text: record.text }),
          reason: "consolidation",
          metadata: {
            inputs: originals.map((f) => ({ memory_id: f.memory_id, statement_type: f.statement_type, digest: saltedDigest(f.content_salt, { type: f.type, text: f.text }) })),
            output: { memory_id: memoryId, statement_type: "ConsolidatedStatement", source_refs: record.source_refs.length, valid_to: validTo?.toISOString() ?? null },
            justification: (request.justification ?? "").slice(0, 1024),
            diff: { removed: originals.map((f) => f.memory_id), added: [memoryId] },
          },
        });
      } catch (error) {
        // No statement without its event: the inputs are untouched and the merged fact goes (INV-8).
        await this.facts.rollback(record).catch(() => undefined);
        throw error;
      }
      for (const f of originals) {
        await this.facts.setStatus(f, "inactive", "consolidated");
        await this.governor.record(decisionRequest, decided, ctx, "invalidate", { memory_id: f.memory_id, reason: "consolidated", metadata: { into: memoryId } });
      }
      await this.invalidate(principal.tenant, subjectId);
      return this.observe("CONSOLIDATE", started, this.governor.outcome(decided, { fact: record }));
    } catch (error) {
      return this.observe("CONSOLIDATE", started, await this.governor.failClosed<FactResult>(error, base, ctx));
    }
  }
}
