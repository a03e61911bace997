/** Collections of the audit layer (issue 5); the log itself is COLLECTIONS.events in src/store/database.ts. */
export const AUDIT_COLLECTIONS = {
  /** Signed checkpoints, `_id` = eventDocId(tenant, seq). */
  checkpoints: "audit_checkpoints",
  /** Per tenant: a detected conformance break and whether an admin acknowledged it. */
  integrity: "audit_integrity",
  /** The policy bundle last seen in force: hash and declared version (MP-BREAK). */
  policyState: "audit_policy_state",
} as const;
