/** One row of `npm run eval`: one judge, one split, one language, one class (or "all"). */
/** `blind-2` ... `blind-11` are later blind splits, each written by other helpers (their READMEs say when); in print order. */
export const SPLITS = [
  "dev",
  "test",
  "blind",
  "blind-2",
  "blind-3",
  "blind-4",
  "blind-5",
  "blind-6",
  "blind-7",
  "blind-8",
  "blind-9",
  "blind-10",
  "blind-11",
] as const;
export type Split = (typeof SPLITS)[number];

export interface EvalRow {
  judge: "detectors" | "injection" | "ledger-validator" | "grounding" | "retrieval";
  split: Split;
  /** The texts' language (ISO 639-1), or "all"; judges without languages leave it out. */
  lang?: string;
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

/** Each judge's module exports `evaluate`: it scores every split present and never tunes anything. */
export type Evaluate = () => Promise<EvalRow[]>;
