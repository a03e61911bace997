import { createPublicKey } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTPayload, type JWTVerifyGetKey, type KeyObject } from "jose";
import { ROLES, type Principal, type Role } from "./principal";

export interface TokenVerifierOptions {
  publicKeyPem?: string;
  jwksUrl?: string;
  issuer: string;
  audience: string;
  algorithms: readonly string[];
}

/** A token that is missing, malformed, expired, wrongly signed or lacks the claims memgate needs. */
export class AuthenticationError extends Error {
  readonly code = "UNAUTHENTICATED" as const;
  constructor(readonly reason: string) {
    super(`authentication failed: ${reason}`);
    this.name = new.target.name;
  }
}

const MAX_CLAIM_LENGTH = 256;

/**
 * Verifies Bearer JWTs with jose: signature (key from PEM or JWKS), `iss`, `aud`, `exp`
 * and an algorithm allowlist, then reads the principal from claims only (SPEC D5).
 * Shared by HTTP and WebSocket connections.
 */
export class TokenVerifier {
  private constructor(
    private readonly key: KeyObject | JWTVerifyGetKey,
    private readonly options: TokenVerifierOptions,
  ) {}

  static create(options: TokenVerifierOptions): TokenVerifier {
    if (options.jwksUrl) return new TokenVerifier(createRemoteJWKSet(new URL(options.jwksUrl)), options);
    if (!options.publicKeyPem) throw new TypeError("TokenVerifier needs publicKeyPem or jwksUrl");
    return new TokenVerifier(createPublicKey(options.publicKeyPem), options);
  }

  /** Accepts "Bearer <jwt>" (any case) or the bare token. */
  async verifyAuthorization(header: string | undefined | null): Promise<Principal> {
    if (!header || /^(Bearer)?\s*$/i.test(header)) throw new AuthenticationError("no bearer token");
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return this.verify(match ? match[1] : header.trim());
  }

  async verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      const verifyOptions = {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: [...this.options.algorithms],
        requiredClaims: ["sub", "exp"],
      };
      ({ payload } = typeof this.key === "function" ? await jwtVerify(token, this.key, verifyOptions) : await jwtVerify(token, this.key, verifyOptions));
    } catch (error) {
      const code = (error as { code?: string }).code ?? "ERR_JWT_INVALID";
      throw new AuthenticationError(code === "ERR_JWT_EXPIRED" ? "token expired" : `invalid token (${code})`);
    }
    return principalFromClaims(payload);
  }
}

function claimString(payload: JWTPayload, name: string, required: boolean): string | null {
  const value = payload[name];
  if (value === undefined || value === null) {
    if (required) throw new AuthenticationError(`claim "${name}" is missing`);
    return null;
  }
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_CLAIM_LENGTH) {
    throw new AuthenticationError(`claim "${name}" must be a non-empty string of at most ${MAX_CLAIM_LENGTH} characters`);
  }
  return value;
}

function claimStrings(payload: JWTPayload, name: string): string[] {
  const value = payload[name] ?? [];
  if (!Array.isArray(value) || value.length > 1000 || !value.every((v) => typeof v === "string" && v.length > 0 && v.length <= MAX_CLAIM_LENGTH)) {
    throw new AuthenticationError(`claim "${name}" must be a list of non-empty strings`);
  }
  return [...new Set(value as string[])];
}

export function principalFromClaims(payload: JWTPayload): Principal {
  const roles = claimStrings(payload, "roles");
  const unknown = roles.filter((r) => !(ROLES as readonly string[]).includes(r));
  if (roles.length === 0 || unknown.length > 0) {
    throw new AuthenticationError(`claim "roles" must list roles from ${ROLES.join(", ")}`);
  }
  let job: Principal["job"] = null;
  if (payload.job !== undefined) {
    const raw = payload.job as Record<string, unknown>;
    if (typeof raw !== "object" || raw === null || typeof raw.id !== "string" || typeof raw.kind !== "string") {
      throw new AuthenticationError('claim "job" must be {id, kind}');
    }
    job = { id: raw.id, kind: raw.kind };
  }
  return {
    id: claimString(payload, "sub", true)!,
    tenant: claimString(payload, "tenant", true)!,
    subjects: claimStrings(payload, "subjects"),
    roles: roles as Role[],
    agentType: claimString(payload, "agent_type", false),
    job,
  };
}
