import contractData from "../../policies/memgate/contract/data.json";

/**
 * The stop reasons (SPEC D3), in the policy's priority order: the contract's own list
 * (policies/memgate/contract/data.json "priority"), not a second one. The GraphQL enum
 * (src/graphql/types/stop-reason.ts) and the doors' JSON Schemas derive from it.
 */
export const STOP_REASONS: readonly string[] = Object.freeze([...contractData.priority]);
/** A code of STOP_REASONS; the kernel checks every answer against the list (isStopReason). */
export type StopReason = string;

export function isStopReason(value: string): value is StopReason {
  return (STOP_REASONS as readonly string[]).includes(value);
}

/** What every contract operation returns: one stop reason and the decision's stamps. */
export interface Outcome<T = undefined> {
  /**
   * What the policy answered (allow | hold | refuse); "refuse" for a failure the kernel records
   * (INTERNAL_INCONSISTENCY). A door that shapes its answer by success reads this, never the
   * stop reason's name. Absent on an answer replayed from before it existed.
   */
  outcome?: "allow" | "hold" | "refuse";
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

/** The decision's stamps as the snake_case doors answer them (POST /v1/memory, MCP tool results). */
export interface DecisionStamps {
  stop_reason: string;
  decision_id: string;
  policy_version: string;
  contract_version: string;
  explanations: string[];
  /** IF1-VALID: where in the request the winning violations point (RFC 6901), when they do. */
  errors: { pointer: string; message: string }[];
}

export function stampsOf(outcome: Outcome<unknown>): DecisionStamps {
  return {
    stop_reason: outcome.stopReason,
    decision_id: outcome.decisionId,
    policy_version: outcome.policyVersion,
    contract_version: outcome.contractVersion,
    explanations: outcome.explanations,
    errors: outcome.errors ?? [],
  };
}

/** The stamps as JSON Schema properties (MCP output schemas, the OpenAPI description of POST /v1/memory). */
export const DECISION_STAMP_PROPERTIES = {
  stop_reason: { type: "string", enum: [...STOP_REASONS], description: "Exactly one stop reason (SPEC D3, C19-STOP)." },
  decision_id: { type: "string", description: "Names this decision in the tenant's event log." },
  policy_version: { type: "string", description: "sha256 of the policy bundle that decided." },
  contract_version: { type: "string" },
  explanations: { type: "array", items: { type: "string" }, description: "Which rules answered, as RULE-ID: detail. Never content." },
  errors: {
    type: "array",
    description: 'IF1-VALID: every offending place of the request (RFC 6901 JSON pointer, "" = all of it) and what to do.',
    items: { type: "object", properties: { pointer: { type: "string" }, message: { type: "string" } }, required: ["pointer", "message"] },
  },
} as const;

export const DECISION_STAMP_REQUIRED = ["stop_reason", "decision_id", "policy_version", "contract_version", "explanations", "errors"];

/** Request-scoped facts every service call gets from the edge. */
export interface CallContext {
  requestId: string;
  /** A client's idempotency key (Idempotency-Key header, MCP `_meta`): retries answer the first outcome (src/kernel/idempotency.ts). */
  idempotencyKey?: string;
  /**
   * RFC 6901 pointers of the fields a door received that the operation does not declare (POST
   * /v1/memory documents, MCP arguments). The kernel keeps declared fields only, so the door says
   * what it dropped and the policy refuses it (SCHEMA_INVALID at each pointer; issue 22 §7).
   */
  unknownFields?: readonly string[];
  /**
   * Runs a wait on another attempt (a retry whose idempotency key another attempt holds) outside
   * the caller's admission slot at the door, so a waiting retry holds no share of the gateway and
   * its wait is not taken for service time (src/http/admission.ts). Absent: the wait keeps the slot.
   */
  waitAside?: <T>(wait: () => Promise<T>) => Promise<T>;
}
