import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";

/** A signing key for the tests' own issuer: the gateway under test trusts its public half. */
const pair = generateKeyPairSync("ed25519");
export const TEST_PUBLIC_KEY_PEM = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
export const TEST_ISSUER = "memgate-test";
export const TEST_AUDIENCE = "memgate";

export interface TokenClaims {
  tenant?: string;
  subjects?: string[];
  roles?: string[];
  sub?: string;
  agent_type?: string;
  job?: { id: string; kind: string };
  [claim: string]: unknown;
}

export interface SignOptions {
  issuer?: string;
  audience?: string;
  expiresIn?: string | number;
  key?: KeyObject;
}

/** A real signed JWT, as an identity provider would issue it. */
export async function signToken(claims: TokenClaims, options: SignOptions = {}): Promise<string> {
  const { sub, ...rest } = claims;
  return new SignJWT({ tenant: "acme", subjects: ["alice"], roles: ["agent"], ...rest })
    .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
    .setSubject(sub ?? "caller-1")
    .setIssuer(options.issuer ?? TEST_ISSUER)
    .setAudience(options.audience ?? TEST_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? "1h")
    .sign(options.key ?? pair.privateKey);
}
