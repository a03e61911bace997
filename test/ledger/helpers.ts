import type { TestGateway } from "../support/gateway";

export const PROPOSE = `mutation Propose($input: ProposeMemoryInput!) {
  proposeMemory(input: $input) {
    stopReason explanations decisionId proposalId
    proposal { proposalId subjectId proposedText kind decision createdAt source { sourceType sourceId note } }
  }
}`;
export const PENDING = `query Pending($subject: ID) {
  pendingProposals(subjectId: $subject) { stopReason explanations proposals { proposalId proposedText kind source { sourceType sourceId note } } }
}`;
export const APPROVE = `mutation Approve($id: ID!, $text: String!) {
  approveProposal(proposalId: $id, finalText: $text) {
    stopReason explanations
    memory { memoryId subjectId text kind proposalId proposedAt createdAt status source { sourceType sourceId note } }
  }
}`;
export const DECLINE = `mutation Decline($id: ID!) { declineProposal(proposalId: $id) { stopReason explanations proposalId } }`;
export const LEDGER = `query Ledger($subject: ID) {
  ledger(subjectId: $subject) { stopReason explanations items { memoryId text kind proposalId proposedAt createdAt status source { sourceType sourceId note } } }
}`;
export const FORGET = `mutation Forget($id: ID!) { forgetMemory(memoryId: $id) { stopReason explanations memoryId } }`;
export const SELECT = `query Select($ids: [ID!]!) {
  selectedMemoryContext(memoryIds: $ids) { stopReason explanations selectedMemoryIds resolvedTexts attributionLine selections { memoryId stopReason } }
}`;

export const proposal = (over: Record<string, unknown> = {}) => ({
  subjectId: "alice",
  proposedText: "I've noticed I focus better in the morning",
  kind: "SELF_OBSERVATION",
  source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: "After Phase 3 summary" },
  ...over,
});

/** Proposes as the agent and returns the proposal id. */
export async function propose(gw: TestGateway, agent: string, over: Record<string, unknown> = {}): Promise<string> {
  const res = await gw.gql(agent, PROPOSE, { input: proposal(over) });
  const decision = res.data?.proposeMemory;
  if (decision?.stopReason !== "MISSING_EXPLICIT_CONSENT" || !decision.proposalId) {
    throw new Error(`proposal was not held: ${JSON.stringify(res)}`);
  }
  return decision.proposalId as string;
}

/** Proposes and approves; returns the ledger item's id. */
export async function approved(gw: TestGateway, agent: string, user: string, text: string, over: Record<string, unknown> = {}): Promise<string> {
  const id = await propose(gw, agent, over);
  const res = await gw.gql(user, APPROVE, { id, text });
  if (res.data?.approveProposal.stopReason !== "SUCCESS_STORED") throw new Error(`approval failed: ${JSON.stringify(res)}`);
  return res.data.approveProposal.memory.memoryId as string;
}
