/** Internal; a service turns it into INTERNAL_INCONSISTENCY (C19-FAIL). */
export class PolicyEvaluationError extends Error {
  readonly code = "POLICY_EVALUATION_FAILED" as const;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`policy evaluation failed: ${detail}`, options);
    this.name = new.target.name;
  }
}

export class PolicyBundleError extends Error {
  readonly code = "POLICY_BUNDLE_INVALID" as const;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`policy bundle could not be loaded: ${detail}`, options);
    this.name = new.target.name;
  }
}
