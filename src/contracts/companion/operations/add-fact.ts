import { randomUUID } from "node:crypto";
import { applyFact } from "./apply-fact";
import { operation, type OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import { ADD_FACT_FIELDS } from "../fields";
import type { GroundingScore } from "../grounding";
import { factDigest, headId, objectDocId, sealHead, sealProposal, type FactRecord, type HeadRecord, type ProposalRecord } from "../records";
import type { PrivacyState } from "../store";
import { isoTime, str, type AddFactRequest } from "./requests";
import { CompanionError, gateOf, privacyInput, type CompanionKit, type FactResult } from "./shared";

interface AddGathered {
  privacy: PrivacyState;
  grounding: GroundingScore;
  target: FactRecord | null;
  head: HeadRecord | null;
  pending: ProposalRecord | null;
  previous: FactRecord | null;
}

/**
 * ADD_FACT (seed 002): the policy decides, and its `detail` (the gate) says how: apply, hold as a proposal,
 * narrative only, or discard. A discard is the gate's own answer (`answered`), never a stop
 * reason read here.
 */
export function addFact(kit: CompanionKit) {
  const { store, scorer, metrics, logger } = kit;
  return operation<AddFactRequest, AddGathered, FactResult>({
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
      // The gate's verdict is the answer (main.rego `answered`): its band is discard or ungrounded.
      const discarded = gate?.answered === true;
      if (discarded) {
        metrics.gate.inc({ outcome: gate.band });
        // SPEC D4: the reason is logged, never the text
        logger.debug(
          { requestId: ctx.requestId, reason: gate.reason, confidence: req.confidence, groundingScore: g?.grounding.score ?? null },
          "[SKIP] fact discarded",
        );
      }
      return {
        ...kit.audit(req, ctx, g?.grounding),
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
      const key = await kit.keyOf(writes, ctx, g.privacy);
      const body = kit.factBody(req, ctx, gate.effective_confidence, g.grounding.score);
      const observations = g.pending && g.head ? g.head.observations + 1 : 1;
      const record = await applyFact(kit, writes, ctx, body, key, g.head, g.previous, {
        ...kit.audit(req, ctx, g.grounding),
        confidence: gate.effective_confidence,
        validation_status: "passed",
        gate: outcome,
        observations,
      });
      const pending = g.pending;
      if (pending) {
        await writes.run(
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
      const proposalId =
        g.pending && g.head ? await reinforce(kit, req, g, ctx, writes, confidence, g.pending, g.head) : await propose(kit, req, g, ctx, writes, confidence);
      metrics.gate.inc({ outcome: "proposal" });
      logger.warn({ requestId: ctx.requestId, confidence, proposalId }, "[GATE] Low-confidence fact held as a proposal; user interactions can reinforce it");
      return { proposalId };
    },
  });
}

/** The same fact observed again: the proposal keeps its content; its head counts the observation. */
async function reinforce(
  kit: CompanionKit,
  req: AddFactRequest,
  g: AddGathered,
  ctx: OperationContext,
  writes: Writes,
  confidence: number,
  pending: ProposalRecord,
  head: HeadRecord,
): Promise<string> {
  const { integrity_hash: _h, ...pointer } = head;
  const next = sealHead({ ...pointer, proposal_confidence: Math.max(confidence, head.proposal_confidence ?? 0), observations: head.observations + 1 });
  await writes.run(
    () => kit.store.putHead(next),
    () => kit.store.restoreHead(head._id, head),
  );
  const proposalId = pending.proposal_id;
  writes.event({
    event_type: "update",
    memory_id: proposalId,
    reason: "reinforced",
    metadata: {
      ...kit.audit(req, ctx, g.grounding),
      validation_status: "passed",
      gate: "proposal",
      proposal_id: proposalId,
      observations: next.observations,
    },
  });
  return proposalId;
}

/** A new proposal for the person's confirmation, and the head that points at it. */
async function propose(kit: CompanionKit, req: AddFactRequest, g: AddGathered, ctx: OperationContext, writes: Writes, confidence: number): Promise<string> {
  const { store } = kit;
  const key = await kit.keyOf(writes, ctx, g.privacy);
  const proposalId = `prop_${randomUUID()}`;
  const record = sealProposal({
    _id: objectDocId(ctx.tenantId, ctx.subjectId, proposalId),
    tenant_id: ctx.tenantId,
    subject_id: ctx.subjectId,
    proposal_id: proposalId,
    fact: kit.factBody(req, ctx, confidence, g.grounding.score),
    status: "pending",
    created_at: ctx.now,
  });
  await writes.creating([{ objectId: proposalId }], { proposalId });
  await writes.run(
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
  await writes.run(
    () => store.putHead(next),
    () => store.restoreHead(headKey, g.head),
  );
  writes.event({
    event_type: "create",
    memory_id: proposalId,
    reason: "held_as_proposal",
    content_digest: factDigest(record.fact),
    metadata: { ...kit.audit(req, ctx, g.grounding), validation_status: "passed", gate: "proposal", proposal_id: proposalId },
    settle: (seq) => store.settleObject("write", ctx.tenantId, ctx.subjectId, proposalId, seq),
  });
  return proposalId;
}
