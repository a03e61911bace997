import { randomUUID } from "node:crypto";
import { storedContent } from "../../../kernel/declaration";
import { operation } from "../../../kernel/operation";
import { ledgerData } from "../data";
import { PROPOSE_FIELDS } from "../fields";
import { PROPOSAL_PREFIX, ledgerDocId, withProposalProvenance, type LedgerStore, type ProposalRecord } from "../store";
import { actor, CONTRACT, str, type ProposeRequest, dueEvent } from "./shared";

/** P54-A: a proposal stores nothing in the ledger; held for its owner, it answers MISSING_EXPLICIT_CONSENT with its id (SPEC D3). */
export function propose(store: LedgerStore) {
  return operation<ProposeRequest, undefined, ProposalRecord>({
    contract: CONTRACT,
    name: "PROPOSE",
    fields: PROPOSE_FIELDS,
    input: (req) => ({ proposal: { kind: str(req.kind), source_type: str(req.source?.sourceType) } }),
    // SPEC D4: values off the allowlists are themselves content.
    refusal: (req, ctx) => {
      const data = ledgerData(ctx.policy);
      return {
        kind: data.kinds.includes(str(req.kind)) ? req.kind : null,
        source_type: data.source_types.includes(str(req.source?.sourceType)) ? req.source?.sourceType : null,
      };
    },
    async hold(req, _gathered, ctx, writes, decision) {
      const proposalId = `${PROPOSAL_PREFIX}${randomUUID()}`;
      const source = { source_type: str(req.source?.sourceType), source_id: req.source?.sourceId ?? null, note: req.source?.note ?? null };
      const proposedText = str(req.proposedText);
      const metadata = {
        proposal_id: proposalId,
        kind: req.kind,
        source_type: source.source_type,
        lengths: { proposed_text: proposedText.length, note: source.note?.length ?? 0, source_id: source.source_id?.length ?? 0 },
      };
      const due = dueEvent("create", "PROPOSE", decision, ctx, metadata);
      const record = withProposalProvenance({
        ...storedContent(PROPOSE_FIELDS, req), // any stored text field PROPOSE declares (fields.ts)
        _id: ledgerDocId(ctx.tenantId, ctx.subjectId, proposalId),
        tenant_id: ctx.tenantId,
        subject_id: ctx.subjectId,
        proposal_id: proposalId,
        proposed_text: proposedText,
        kind: str(req.kind),
        source,
        created_at: ctx.now,
        proposed_by: actor(ctx.principal),
        decision: "pending" as const,
        decided_at: null,
        final_text: null,
        result_memory_id: null,
      });
      // A keyed retry after a crash finds the proposal by its id (src/kernel/idempotency.ts).
      await writes.creating([{ objectId: proposalId }], record);
      await writes.run(
        () => store.insertProposal(record, due),
        () => store.deleteProposal(record, due),
      );
      writes.event({
        event_type: "create",
        memory_id: proposalId,
        reason: "proposal_held_for_owner",
        metadata,
        settle: () => store.settled({ tenantId: ctx.tenantId, subjectId: ctx.subjectId, objectId: proposalId, due }),
      });
      return record;
    },
  });
}
