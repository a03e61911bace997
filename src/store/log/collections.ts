/** Collections of the audit layer (issue 5); the log itself is COLLECTIONS.events in src/store/database.ts. */
export const AUDIT_COLLECTIONS = {
  /** Signed checkpoints, `_id` = eventDocId(tenant, seq). */
  checkpoints: "audit_checkpoints",
  /** Per tenant: a detected conformance break and whether an admin acknowledged it. */
  integrity: "audit_integrity",
  /** The policy bundle last seen in force: hash and declared version (MP-BREAK). */
  policyState: "audit_policy_state",
  /** Free-text notes beside reason codes (issue 22 §4): outside the chain, erasable; the event carries their salted digest. */
  reasonNotes: "audit_reason_notes",
} as const;
