import { createPublicKey } from "node:crypto";
import { createRemoteJWKSet, jwtVerify, type JWTHeaderParameters, type JWTPayload, type JWTVerifyGetKey, type KeyObject } from "jose";
import { systemClock, type Clock } from "../clock";
import type { ClaimMapping } from "../config";
import { ROLES, type Principal, type Role } from "./principal";

export interface TokenVerifierOptions {
  publicKeyPem?: string;
  jwksUrl?: string;
  issuer: string;
  audience: string;
  algorithms: readonly string[];
  /** The wall clock tokens are judged by (the issuer's time, not the domain clock tests move). */
  clock?: Clock;
  /** Longest accepted exp - iat, in seconds (default 24 h). */
  maxLifetimeS?: number;
  /** How far `iat` may be ahead of our clock, in seconds (default 60): issuers' clocks drift. */
  clockSkewS?: number;
  /** Where tenant, subjects and roles are in the token (default: memgate's own claim names, nothing implied). */
  claims?: ClaimMapping;
  /** Refuse a token without `typ` (default true; an OpenID ID token often has none). A `typ` present must still be JWT or at+jwt. */
  requireTyp?: boolean;
}

/** memgate's own claim names, nothing implied: what `npm run token` and most tests issue. */
export const DEFAULT_CLAIMS: ClaimMapping = Object.freeze({
  tenant: "tenant",
  subjects: "subjects",
  roles: "roles",
  defaultTenant: undefined,
  defaultRoles: Object.freeze([]),
  subjectsFromSub: false,
  ignoreUnknownRoles: false,
});

/** A token that is missing, malformed, expired, wrongly signed or lacks the claims memgate needs. */
export class AuthenticationError extends Error {
  readonly code = "UNAUTHENTICATED" as const;
  constructor(readonly reason: string) {
    super(`authentication failed: ${reason}`);
    this.name = new.target.name;
  }
}

/** A verified token: who calls, and until when the token speaks for them. */
export interface Session {
  principal: Principal;
  expiresAt: Date;
}

const MAX_CLAIM_LENGTH = 256;
const MAX_LIST_CLAIM = 1000;
/** A compact JWT longer than this is refused before any parsing or signature work. */
const MAX_TOKEN_LENGTH = 16 * 1024;
/** RFC 8725 §3.11 explicit typing: a plain JWT or an OAuth access token (RFC 9068). */
const ACCEPTED_TYPES = new Set(["jwt", "at+jwt"]);

/**
 * Verifies Bearer JWTs with jose: signature (key from PEM or JWKS), `iss`, `aud`, `exp`
 * and an algorithm allowlist, then memgate's own rules (RFC 8725): an explicit `typ`,
 * an `iat` not in the future, a bounded lifetime and bounded claims. The principal comes
 * from claims only (SPEC D5). Shared by every door.
 */
/** Verified tokens kept (oldest dropped first), and for how long at most. */
const VERIFIED_MAX = 10_000;
const VERIFIED_TTL_MS = 60_000;

export class TokenVerifier {
  private readonly clock: Clock;
  private readonly maxLifetimeS: number;
  private readonly clockSkewS: number;

  private constructor(
    private readonly key: KeyObject | JWTVerifyGetKey,
    private readonly options: TokenVerifierOptions,
  ) {
    this.clock = options.clock ?? systemClock;
    this.maxLifetimeS = options.maxLifetimeS ?? 86_400;
    this.clockSkewS = options.clockSkewS ?? 60;
  }

  static create(options: TokenVerifierOptions): TokenVerifier {
    if (options.jwksUrl) return new TokenVerifier(createRemoteJWKSet(new URL(options.jwksUrl)), options);
    if (!options.publicKeyPem) throw new TypeError("TokenVerifier needs publicKeyPem or jwksUrl");
    return new TokenVerifier(createPublicKey(options.publicKeyPem), options);
  }

  /** Accepts "Bearer <jwt>" (any case) or the bare token. */
  async verifyAuthorization(header: string | undefined | null): Promise<Principal> {
    return (await this.authenticate(header)).principal;
  }

  /** As verifyAuthorization, with the moment the token stops being valid (sockets close then). */
  async authenticate(header: string | undefined | null): Promise<Session> {
    if (!header || /^(Bearer)?\s*$/i.test(header)) throw new AuthenticationError("no bearer token");
    if (header.length > MAX_TOKEN_LENGTH) throw new AuthenticationError(`token longer than ${MAX_TOKEN_LENGTH} characters`);
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    return this.verifySession(match ? match[1] : header.trim());
  }

  async verify(token: string): Promise<Principal> {
    return (await this.verifySession(token)).principal;
  }

  /** exp has passed by the verifier's clock. */
  isExpired(session: Session): boolean {
    return this.clock.now().getTime() >= session.expiresAt.getTime();
  }

  /**
   * A token verified a moment ago, by its exact text: an agent sends one token thousands of times,
   * and its signature check was the largest share of a read's CPU. Only successes are kept; expiry
   * is judged on every hit, and an entry lives at most VERIFIED_TTL_MS (a rotated key set applies
   * within it).
   */
  private readonly verified = new Map<string, { session: Session; until: number }>();

  private async verifySession(token: string): Promise<Session> {
    const now = this.clock.now().getTime();
    const hit = this.verified.get(token);
    if (hit && now < hit.until) {
      if (now >= hit.session.expiresAt.getTime()) throw new AuthenticationError("token expired");
      return hit.session;
    }
    const session = await this.verifyToken(token);
    if (this.verified.size >= VERIFIED_MAX) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, { session, until: now + VERIFIED_TTL_MS });
    return session;
  }

  private async verifyToken(token: string): Promise<Session> {
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      const verifyOptions = {
        issuer: this.options.issuer,
        audience: this.options.audience,
        algorithms: [...this.options.algorithms],
        requiredClaims: ["sub", "exp", "iat"],
        currentDate: this.clock.now(),
        // exp is exact (an expired token is expired on every door); the skew only forgives an issuer clock ahead of ours (iat).
        clockTolerance: 0,
      };
      ({ payload, protectedHeader: header } =
        typeof this.key === "function" ? await jwtVerify(token, this.key, verifyOptions) : await jwtVerify(token, this.key, verifyOptions));
    } catch (error) {
      const code = (error as { code?: string }).code ?? "ERR_JWT_INVALID";
      throw new AuthenticationError(code === "ERR_JWT_EXPIRED" ? "token expired" : `invalid token (${code})`);
    }
    const type = typeof header.typ === "string" ? header.typ.toLowerCase().replace(/^application\//, "") : undefined;
    if (type === undefined ? this.options.requireTyp !== false : !ACCEPTED_TYPES.has(type)) throw new AuthenticationError('header "typ" must be JWT or at+jwt');
    const now = this.clock.now().getTime() / 1000;
    const iat = payload.iat!;
    const exp = payload.exp!;
    if (iat > now + this.clockSkewS) throw new AuthenticationError('claim "iat" is in the future');
    if (exp - iat > this.maxLifetimeS) throw new AuthenticationError(`token lifetime (exp - iat) exceeds ${this.maxLifetimeS} s`);
    return { principal: principalFromClaims(payload, this.options.claims), expiresAt: new Date(exp * 1000) };
  }
}

function boundedString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0 && value.length <= MAX_CLAIM_LENGTH;
}

/**
 * A claim by its name as is (Auth0's namespaced "https://example.com/tenant"), else by a dotted
 * path into nested objects (Keycloak's "realm_access.roles").
 */
export function claimAt(payload: JWTPayload, name: string): unknown {
  if (Object.hasOwn(payload, name)) return payload[name];
  let value: unknown = payload;
  for (const part of name.split(".")) {
    if (value === null || typeof value !== "object" || Array.isArray(value) || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

function claimString(payload: JWTPayload, name: string, required: boolean): string | null {
  const value = claimAt(payload, name);
  if (value === undefined || value === null) {
    if (required) throw new AuthenticationError(`claim "${name}" is missing`);
    return null;
  }
  if (!boundedString(value)) {
    throw new AuthenticationError(`claim "${name}" must be a non-empty string of at most ${MAX_CLAIM_LENGTH} characters`);
  }
  return value;
}

function claimStrings(payload: JWTPayload, name: string, fallback: readonly string[] = []): string[] {
  const value = claimAt(payload, name) ?? fallback;
  if (!Array.isArray(value) || value.length > MAX_LIST_CLAIM || !value.every(boundedString)) {
    throw new AuthenticationError(`claim "${name}" must be a list of at most ${MAX_LIST_CLAIM} non-empty strings of at most ${MAX_CLAIM_LENGTH} characters`);
  }
  return [...new Set(value)];
}

export function principalFromClaims(payload: JWTPayload, mapping: ClaimMapping = DEFAULT_CLAIMS): Principal {
  const known = (r: string) => (ROLES as readonly string[]).includes(r);
  const listed = claimStrings(payload, mapping.roles, mapping.defaultRoles);
  const roles = mapping.ignoreUnknownRoles ? listed.filter(known) : listed;
  if (roles.length === 0 || !roles.every(known)) {
    throw new AuthenticationError(`claim "${mapping.roles}" must list roles from ${ROLES.join(", ")}`);
  }
  let job: Principal["job"] = null;
  if (payload.job !== undefined) {
    const raw = payload.job as Record<string, unknown>;
    if (typeof raw !== "object" || raw === null || !boundedString(raw.id) || !boundedString(raw.kind)) {
      throw new AuthenticationError(`claim "job" must be {id, kind}, non-empty strings of at most ${MAX_CLAIM_LENGTH} characters`);
    }
    job = { id: raw.id, kind: raw.kind };
  }
  const sub = claimString(payload, "sub", true)!;
  return {
    id: sub,
    tenant: (claimAt(payload, mapping.tenant) === undefined && mapping.defaultTenant) || claimString(payload, mapping.tenant, true)!,
    subjects: claimStrings(payload, mapping.subjects, mapping.subjectsFromSub ? [sub] : []),
    roles: roles as Role[],
    agentType: claimString(payload, "agent_type", false),
    job,
    expiresAt: typeof payload.exp === "number" ? new Date(payload.exp * 1000) : null,
  };
}
