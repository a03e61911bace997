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
 * `gate` carries what a confidence gate decided (SG-GATE) when one applies.
 */
export interface Decision {
  decisionId: string;
  outcome: PolicyOutcome;
  stopReason: StopReason;
  explanations: string[];
  policyVersion: string;
  contractVersion: string;
  gate: GateDecision | null;
}

/** SG-GATE as the policy decided it: which band and the confidence to store. */
export interface GateDecision {
  band: "apply" | "proposal" | "narrative" | "discard" | "ungrounded";
  effective_confidence: number;
}
