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
  /** sha256 of the refused file, when it could be read (one refusal event per file, not per attempt). */
  bundleHash: string | null = null;
  constructor(detail: string, options?: { cause?: unknown }) {
    super(`policy bundle could not be loaded: ${detail}`, options);
    this.name = new.target.name;
  }
}

/** Why a bundle's signature was refused: unsigned, a bad or untrusted signature, or files that differ from what was signed. */
export type BundleSignatureProblem = "unsigned" | "no_trusted_key" | "signature_invalid" | "file_not_signed" | "file_missing" | "digest_mismatch";

/** A bundle whose signature does not verify is refused like a corrupt one (issue 15 §6). */
export class PolicyBundleSignatureError extends PolicyBundleError {
  constructor(
    readonly problem: BundleSignatureProblem,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`signature ${problem}: ${detail}`, options);
  }
}
