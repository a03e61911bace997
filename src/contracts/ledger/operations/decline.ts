import { operation } from "../../../kernel/operation";
import { DECLINE_FIELDS } from "../fields";
import type { LedgerStore } from "../store";
import { CONTRACT, gatherProposal, ownerOf, proposalTarget, required, type DeclineRequest, type ProposalTarget, dueEvent } from "./shared";

/**
 * P54-D: no item, and the proposed text and note are gone from the record; the event keeps
 * metadata only. The text leaves with an undo that puts it back, so a decline whose event
 * cannot be written leaves the proposal as it was (INV-8).
 */
export function decline(store: LedgerStore) {
  return operation<DeclineRequest, ProposalTarget, { proposalId: string }>({
    contract: CONTRACT,
    name: "DECLINE",
    fields: DECLINE_FIELDS,
    subject: ownerOf(store, (raw) => raw.proposalId),
    gather: (req, ctx) => gatherProposal(store, req.proposalId, ctx),
    input: (_req, gathered) => ({ target: proposalTarget(gathered) }),
    async allow(_req, gathered, ctx, writes, decision) {
      const proposal = required(gathered?.proposal, "proposal");
      const metadata = {
        proposal_id: proposal.proposal_id,
        kind: proposal.kind,
        source_type: proposal.source.source_type,
        lengths: { proposed_text: proposal.proposed_text?.length ?? 0 },
      };
      const due = dueEvent("delete", "DECLINE", decision, ctx, metadata);
      const declined = await writes.run(
        () => store.markDeclined(proposal, ctx.now, due),
        async (done) => (done ? store.restoreDeclined(proposal, due) : undefined),
      );
      if (!declined) return writes.lost();
      writes.event({
        event_type: "delete",
        memory_id: proposal.proposal_id,
        reason: "proposal_declined",
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: proposal.proposal_id, due }),
      });
      return { proposalId: proposal.proposal_id };
    },
  });
}
