import type { Proposal } from "./api";

/** Identical pending proposals (same text, kind and source), shown once with a count and decided together (issue 25). */
export interface ProposalGroup {
  /** The newest proposal: the one shown and approved. */
  lead: Proposal;
  /** Every proposal of the group, the lead first. */
  members: Proposal[];
}

function sameness(p: Proposal): string {
  return JSON.stringify([p.proposedText, p.kind, p.source.sourceType, p.source.sourceId ?? null, p.source.note ?? null]);
}

/** Groups in the order of each group's newest proposal, newest first; the input order is kept otherwise. */
export function groupProposals(proposals: readonly Proposal[]): ProposalGroup[] {
  const groups = new Map<string, Proposal[]>();
  for (const p of proposals) {
    const key = sameness(p);
    const members = groups.get(key);
    if (members) members.push(p);
    else groups.set(key, [p]);
  }
  return [...groups.values()].map((members) => {
    const sorted = [...members].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    return { lead: sorted[0], members: sorted };
  });
}
