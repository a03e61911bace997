import type { StopReason } from "./outcome";

/** What the policy says to do; TypeScript acts on this, never on the wording of explanations. */
export const OUTCOMES = ["allow", "hold", "refuse"] as const;
export type PolicyOutcome = (typeof OUTCOMES)[number];

export function isOutcome(value: unknown): value is PolicyOutcome {
  return typeof value === "string" && (OUTCOMES as readonly string[]).includes(value);
}

/**
 * The decision of the one entrypoint, as the kernel hands it to an operation:
 * - `allow`: the operation's success code; apply the write or answer the read;
 * - `hold`: keep it for the person's confirmation (a proposal), answer the stop reason;
 * - `refuse`: a metadata-only `refuse` event, nothing else.
 * `detail` carries what the asked contract's own rules answered beyond the stop reason, when they did.
 */
export interface Decision {
  decisionId: string;
  outcome: PolicyOutcome;
  stopReason: StopReason;
  explanations: string[];
  policyVersion: string;
  contractVersion: string;
  detail: DecisionDetail | null;
  /** Where in the request the winning violations point (IF1-VALID, seed-001 documents); empty when none do. */
  errors: PointedError[];
  /** The clauses (rule ids) of the winning violations, as the policy answers them: what acts on a refusal reads these. */
  rules: string[];
}

/** One place of a request a violation points at: an RFC 6901 JSON pointer and what to do about it. */
export interface PointedError {
  pointer: string;
  message: string;
}

export function isPointedError(value: unknown): value is PointedError {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.pointer === "string" && typeof v.message === "string";
}

/**
 * What a contract's rules answered beyond the stop reason (main.rego `detail`, from the contract
 * package's `decision_detail`): a confidence gate's band (SG-GATE, GateDecision), each selected
 * id's answer (ledger SELECT, P54-E), the code an audit reason is recorded by (issue 22 §4).
 * `answered`: the contract's own verdict is the decision's answer (a winning violation marked
 * `"gate": true`), so an operation tells a discard from another refusal without reading the code.
 */
export interface DecisionDetail {
  answered: boolean;
  readonly [key: string]: unknown;
}

/** SG-GATE as the policy decided it: which band and the confidence to store. */
export interface GateDecision {
  band: "apply" | "proposal" | "narrative" | "discard" | "ungrounded";
  effective_confidence: number;
}
