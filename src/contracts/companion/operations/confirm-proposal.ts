import { applyFact } from "./apply-fact";
import { operation } from "../../../kernel/operation";
import { newSalt } from "../../../store/canonical";
import { CONFIRM_PROPOSAL_FIELDS } from "../fields";
import type { FactRecord, HeadRecord, ProposalRecord } from "../records";
import type { PrivacyState } from "../store";
import type { ConfirmRequest } from "./requests";
import { CompanionError, privacyInput, type CompanionKit, type FactResult } from "./shared";

interface ConfirmGathered {
  proposal: ProposalRecord | null;
  privacy: PrivacyState;
  head: HeadRecord | null;
  previous: FactRecord | null;
}

/** CONFIRM_PROPOSAL: the person confirms a pending proposal; it is applied as a fact. */
export function confirmProposal(kit: CompanionKit) {
  const { store, metrics, logger } = kit;
  return operation<ConfirmRequest, ConfirmGathered, FactResult>({
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
      const key = await kit.keyOf(writes, ctx, g.privacy);
      const record = await applyFact(kit, writes, ctx, { ...proposal.fact, content_salt: newSalt() }, key, g.head, g.previous, {
        type: proposal.fact.type,
        source: proposal.fact.source,
        confidence: proposal.fact.confidence,
        validation_status: "passed",
        gate: "confirmed",
        proposal_id: proposal.proposal_id,
        invoker: kit.invoker(ctx),
      });
      await writes.run(
        () => store.setProposalStatus(proposal, "applied"),
        () => store.setProposalStatus(proposal, "pending"),
      );
      metrics.gate.inc({ outcome: "confirmed" });
      logger.info({ requestId: ctx.requestId, proposalId: proposal.proposal_id, memoryId: record.memory_id }, "proposal confirmed by the person and applied");
      return { fact: record };
    },
  });
}
