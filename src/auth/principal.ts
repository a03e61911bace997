export const ROLES = ["agent", "adapter", "user", "admin", "auditor", "job"] as const;
export type Role = (typeof ROLES)[number];

/** Who is calling, from verified token claims only (SPEC D5). */
export interface Principal {
  /** The token's `sub`: the caller itself (a person, an agent, an adapter, a job). */
  id: string;
  tenant: string;
  /** The subjects this caller may act for; arguments can only narrow this. */
  subjects: string[];
  roles: Role[];
  /** Agent type, for SG-PRIVACY share_with. */
  agentType: string | null;
  /** A kernel job's context, for SG-AUTHORITY. */
  job: { id: string; kind: string } | null;
  /** When the token expires (its `exp`); absent for principals not built from a token. */
  expiresAt?: Date | null;
}

/** Roles a machine acts under; a token that holds one acts as the system, any other token as a person. */
const AUTOMATED_ROLES: readonly Role[] = ["agent", "adapter", "job"];

/**
 * Who a token's caller is, in seed 004's kinds: the one mapping from roles, for the events'
 * actor (src/kernel/execute.ts actorOf) and for what a stored statement says of its author.
 */
export function actorKind(roles: readonly Role[]): "system" | "human" {
  return roles.some((role) => AUTOMATED_ROLES.includes(role)) ? "system" : "human";
}

/**
 * The subject an operation is about: the argument if given, else the token's first subject.
 * The policy then judges whether the caller may act for it (SPEC D5: arguments only narrow).
 */
export function subjectOf(principal: Principal, requested?: string | null): string {
  return requested ?? principal.subjects[0] ?? "";
}

/**
 * The principal as the policy sees it for an operation on `subjectId`. Every rule asks only
 * whether the operation's subject is among the token's (`input.subject_id in
 * input.principal.subjects`), so the list the policy gets holds that subject when the token
 * does, and nothing else: the answer is the same, and a token of 500 subjects no longer
 * makes every evaluation parse 500 strings (it doubled a READ's evaluation time).
 */
export function principalInput(principal: Principal, subjectId: string): Record<string, unknown> {
  return {
    id: principal.id,
    tenant: principal.tenant,
    subjects: principal.subjects.includes(subjectId) ? [subjectId] : [],
    roles: principal.roles,
    agent_type: principal.agentType,
    job: principal.job,
  };
}
