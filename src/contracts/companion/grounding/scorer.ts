/** What a grounding scorer answers: a number (a fact for the policy), never a decision. */
export interface GroundingScore {
  /** 0..1: how well the candidate is supported by the summary */
  score: number;
  /** content words of the candidate the summary does not support (a count, never the words) */
  unsupported: number;
  scorer: string;
  /** the model judge's verdict when MEMGATE_JUDGE_URL is set (a fact; unavailable = timeout or error) */
  judge?: "grounded" | "ungrounded" | "unavailable";
}

/** SG-GROUND: how well a candidate fact is grounded in the summary it was extracted from. */
export interface GroundingScorer {
  readonly name: string;
  score(summary: string, candidate: string): Promise<GroundingScore>;
}
