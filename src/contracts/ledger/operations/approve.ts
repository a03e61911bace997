import { operation } from "../../../kernel/operation";
import { newSalt, saltedDigest } from "../../../store/canonical";
import { APPROVE_FIELDS } from "../fields";
import { itemIdOf, ledgerDocId, withItemProvenance, type LedgerItemRecord, type LedgerStore } from "../store";
import { actor, CONTRACT, gatherProposal, ownerOf, proposalTarget, required, str, type ApproveRequest, type ProposalTarget, dueEvent } from "./shared";

/**
 * P54-A, P54-B, P54-C: only the owner approves; the final text passes the validator and
 * becomes exactly one ledger item, verbatim. A refusal leaves the proposal pending.
 */
export function approve(store: LedgerStore) {
  return operation<ApproveRequest, ProposalTarget, LedgerItemRecord>({
    contract: CONTRACT,
    name: "APPROVE",
    fields: APPROVE_FIELDS,
    subject: ownerOf(store, (raw) => raw.proposalId),
    gather: (req, ctx) => gatherProposal(store, req.proposalId, ctx),
    input: (_req, gathered) => ({ target: proposalTarget(gathered) }),
    async allow(req, gathered, ctx, writes, decision) {
      const proposal = required(gathered?.proposal, "proposal");
      const finalText = str(req.finalText);
      const memoryId = itemIdOf(proposal.proposal_id);
      const salt = newSalt();
      const digest = saltedDigest(salt, { text: finalText });
      const metadata = {
        proposal_id: proposal.proposal_id,
        kind: proposal.kind,
        source_type: proposal.source.source_type,
        edited: finalText !== proposal.proposed_text,
      };
      const due = dueEvent("create", "APPROVE", decision, ctx, metadata, digest);
      const item = withItemProvenance({
        _id: ledgerDocId(ctx.tenantId, ctx.subjectId, memoryId),
        tenant_id: ctx.tenantId,
        subject_id: ctx.subjectId,
        memory_id: memoryId,
        text: finalText,
        kind: proposal.kind,
        source: { source_type: proposal.source.source_type, source_id: proposal.source.source_id, note: proposal.source.note ?? null },
        proposal_id: proposal.proposal_id,
        proposed_at: proposal.created_at,
        created_at: ctx.now,
        updated_at: ctx.now,
        status: "active" as const,
        deleted_at: null,
        approved_by: actor(ctx.principal),
        content_salt: salt,
      });
      // The item's _id derives from the proposal's, so the unique _id admits exactly one item per
      // proposal even where a conditional update is not atomic (FerretDB): the insert claims it.
      const claimed = await writes.run(
        () => store.claimItem(item, due),
        async (won) => (won ? store.deleteItem(item, due) : undefined),
      );
      if (!claimed) return writes.lost();
      const approved = await writes.run(
        () => store.markApproved(proposal, finalText, memoryId, ctx.now),
        async (done) => (done ? store.revertApproval(proposal) : undefined),
      );
      if (!approved) return writes.lost(); // declined meanwhile: the item goes again
      writes.event({
        event_type: "create",
        memory_id: memoryId,
        content_digest: digest,
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: memoryId, due }),
      });
      return item;
    },
  });
}
