/** One row of `npm run eval`: one judge, one split, one class (or "all"). */
export type Split = "dev" | "test" | "blind";

export interface EvalRow {
  judge: "detectors" | "ledger-validator" | "grounding" | "retrieval";
  split: Split;
  /** A detector class, "benign", "all", … */
  cls: string;
  /** Items scored in this row. */
  count: number;
  precision?: number;
  recall?: number;
  falsePositiveRate?: number;
  /** Judge-specific numbers (accuracy, hallucinations accepted, recall@5, MRR, …). */
  other?: Record<string, number>;
}

/** Each judge's module exports `evaluate`: it scores both splits and never tunes anything. */
export type Evaluate = () => Promise<EvalRow[]>;
