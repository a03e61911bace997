/**
 * Stop reasons as typed results. Every memgate answer carries exactly one stop reason
 * (SPEC C19-STOP); a refusal is an answer, not an error. `decide` sorts a decision into
 * `success | held | refused`, discriminated by `outcome` and, within each, by `stopReason`:
 * after `if (r.outcome === "success")` TypeScript knows `r.stopReason` is a SUCCESS_* code.
 */
import type { StopReason } from "./generated/graphql";

export type { StopReason };

export const SUCCESS_STOP_REASONS = ["SUCCESS_STORED", "SUCCESS_UPDATED", "SUCCESS_DELETED", "SUCCESS_READ", "SUCCESS_LISTED"] as const;
export type SuccessStopReason = (typeof SUCCESS_STOP_REASONS)[number];
export type RefusalStopReason = Exclude<StopReason, SuccessStopReason>;

/** The fields every Decision carries. */
export interface DecisionLike {
  stopReason: StopReason;
  decisionId: string;
  policyVersion: string;
  contractVersion: string;
  explanations: string[];
}

/** Done: the stop reason is a SUCCESS_* code. */
export type Success<D extends DecisionLike> = Omit<D, "stopReason"> & { outcome: "success"; stopReason: SuccessStopReason; decision: D };
/**
 * Kept for the person, not done and not refused: a ledger proposal (P54-A) or a fact the gate
 * held as a proposal (SG-GATE). The gateway answers MISSING_EXPLICIT_CONSENT with the proposal's id.
 */
export type Held<D extends DecisionLike> = Omit<D, "stopReason"> & { outcome: "held"; stopReason: RefusalStopReason; proposalId: string; decision: D };
/** Refused: nothing changed; `explanations` name the rules (never content). */
export type Refused<D extends DecisionLike> = Omit<D, "stopReason"> & { outcome: "refused"; stopReason: RefusalStopReason; decision: D };
export type Decided<D extends DecisionLike> = Success<D> | Held<D> | Refused<D>;

export function isSuccessStopReason(stopReason: StopReason): stopReason is SuccessStopReason {
  return (SUCCESS_STOP_REASONS as readonly string[]).includes(stopReason);
}

/** Sorts one decision. A proposal id on a non-success answer means it was held, not refused. */
export function decide<D extends DecisionLike & { proposalId?: string | null }>(decision: D): Decided<D> {
  const { stopReason } = decision;
  if (isSuccessStopReason(stopReason)) return { ...decision, outcome: "success", stopReason, decision };
  if (decision.proposalId) return { ...decision, outcome: "held", stopReason, proposalId: decision.proposalId, decision };
  return { ...decision, outcome: "refused", stopReason, decision };
}

/** A decision that was not a success, with its stop reason as data (never content). */
export abstract class MemgateDecisionError extends Error {
  abstract readonly code: "MEMGATE_REFUSED" | "MEMGATE_HELD";
  readonly stopReason: RefusalStopReason;
  readonly decisionId: string;
  readonly explanations: readonly string[];

  constructor(result: Held<DecisionLike> | Refused<DecisionLike>, operation: string) {
    const rules = result.explanations.length ? ` (${result.explanations.join("; ")})` : "";
    super(`memgate ${result.outcome} ${operation}: ${result.stopReason}${rules}`);
    this.name = new.target.name;
    this.stopReason = result.stopReason;
    this.decisionId = result.decisionId;
    this.explanations = result.explanations;
  }
}

/** Refused: nothing changed. */
export class MemgateRefusalError extends MemgateDecisionError {
  readonly code = "MEMGATE_REFUSED" as const;
}

/** Held for the person's approval (P54-A, SG-GATE): nothing is stored until they approve `proposalId`. */
export class MemgateHeldError extends MemgateDecisionError {
  readonly code = "MEMGATE_HELD" as const;
  readonly proposalId: string;

  constructor(result: Held<DecisionLike>, operation: string) {
    super(result, operation);
    this.proposalId = result.proposalId;
  }
}

/** The decision when it succeeded; otherwise throws MemgateHeldError or MemgateRefusalError with its stop reason. */
export function expectSuccess<D extends DecisionLike & { proposalId?: string | null }>(decision: D, operation = "the operation"): Success<D> {
  const result = decide(decision);
  if (result.outcome === "held") throw new MemgateHeldError(result, operation);
  if (result.outcome === "refused") throw new MemgateRefusalError(result, operation);
  return result;
}
