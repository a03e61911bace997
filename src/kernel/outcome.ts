/** The stop reasons of contract 19.1.0 (SPEC D3), in the policy's priority order. */
export const STOP_REASONS = [
  "INTERNAL_INCONSISTENCY",
  "INJECTION_DETECTED",
  "FORBIDDEN_CATEGORY",
  "POLICY_DISABLED",
  "ENTITLEMENT_CAP",
  "MISSING_EXPLICIT_CONSENT",
  "NO_SOURCE_DERIVED_FACT",
  "SCHEMA_INVALID",
  "BOUNDS_EXCEEDED",
  "TTL_NOT_ALLOWED",
  "NOT_FOUND",
  "SUCCESS_STORED",
  "SUCCESS_UPDATED",
  "SUCCESS_DELETED",
  "SUCCESS_READ",
  "SUCCESS_LISTED",
] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export function isStopReason(value: string): value is StopReason {
  return (STOP_REASONS as readonly string[]).includes(value);
}

/** What every contract operation returns: one stop reason and the decision's stamps. */
export interface Outcome<T = undefined> {
  stopReason: StopReason;
  explanations: string[];
  decisionId: string;
  /** sha256 of the policy bundle that decided ("none" when no bundle was loaded). */
  policyVersion: string;
  contractVersion: string;
  /** Where in the request the winning violations point (IF1-VALID), as the policy answered; absent or empty when none do. */
  errors?: { pointer: string; message: string }[];
  value?: T;
}

/** Request-scoped facts every service call gets from the edge. */
export interface CallContext {
  requestId: string;
  /** A client's idempotency key (Idempotency-Key header, MCP `_meta`): retries answer the first outcome (src/kernel/idempotency.ts). */
  idempotencyKey?: string;
}
