import { decodeProtectedHeader } from "jose";

/** jose's codes for a token whose signature no key this gateway trusts verifies. */
const UNKNOWN_KEY = /\((ERR_JWS_SIGNATURE_VERIFICATION_FAILED|ERR_JWKS_NO_MATCHING_KEY)\)$/;

/**
 * What a 401 says when a token's signature does not verify (issue 24): "invalid token
 * (ERR_JWS_SIGNATURE_VERIFICATION_FAILED)" alone did not tell a user that the usual cause is a
 * token minted with another data folder's development key (or another issuer's), nor what to
 * check. Other reasons are returned as they are.
 */
export function explainAuthenticationFailure(reason: string, authorization: string | undefined | null): string {
  if (!UNKNOWN_KEY.test(reason)) return reason;
  let kid: unknown;
  try {
    kid = decodeProtectedHeader((authorization ?? "").replace(/^Bearer\s+/i, "").trim()).kid;
  } catch {
    return reason;
  }
  const which = typeof kid === "string" ? `key id (kid) "${kid.slice(0, 100)}"` : "a key without a key id (kid)";
  return (
    `${reason}: the token is signed by a key this gateway does not trust, ${which} is not in its key set. ` +
    "Check that the token was minted against this gateway's data folder (npm run token uses MEMGATE_DATA_DIR; " +
    "a development gateway publishes its key at /.well-known/jwks.json) or, with an identity provider, that " +
    "JWT_PUBLIC_KEY or JWT_JWKS_URL is that issuer's key."
  );
}
