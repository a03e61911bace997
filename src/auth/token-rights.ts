import type { Principal } from "./principal";

/** A contract's operations as its policy data declares them (policies/memgate/contracts/<name>/data.json). */
interface DeclaredOperations {
  operations?: Record<string, { roles?: unknown }>;
}

/** Where the contracts' tables come from: the policy bundle in force (PolicyEngine satisfies this). */
export interface ContractsDataSource {
  data<T>(name: string): T;
}

/** What a token is and may do: `me` in GraphQL, `memgate://me` in MCP. */
export interface TokenRights {
  tenant: string;
  subjects: string[];
  roles: string[];
  /** `<contract>.<OPERATION>`, sorted: the operations whose declared roles admit one of the token's roles. */
  operations: string[];
  /** ISO 8601; null when the token carries no expiry. */
  expiresAt: string | null;
}

/**
 * Read from the policy bundle, never hard-coded: an operation is listed when its `roles` in the
 * contract's policy data name one of the token's roles, which is exactly what the policy's
 * AUTHZ-ROLE check lets through. Per-call rules (the subject, the owner, consent, content) still
 * apply to each call and answer with their stop reason.
 */
export function tokenRights(principal: Principal, policy: ContractsDataSource): TokenRights {
  const contracts = policy.data<Record<string, DeclaredOperations | undefined> | undefined>("contracts") ?? {};
  const operations: string[] = [];
  for (const [contract, declared] of Object.entries(contracts)) {
    for (const [name, spec] of Object.entries(declared?.operations ?? {})) {
      const roles = Array.isArray(spec.roles) ? (spec.roles as unknown[]) : [];
      if (principal.roles.some((role) => roles.includes(role))) operations.push(`${contract}.${name}`);
    }
  }
  return {
    tenant: principal.tenant,
    subjects: [...principal.subjects],
    roles: [...principal.roles],
    operations: operations.sort(),
    expiresAt: principal.expiresAt ? principal.expiresAt.toISOString() : null,
  };
}
