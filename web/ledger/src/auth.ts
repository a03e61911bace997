/**
 * Signing a person in (issue 25): OpenID Connect, authorization code with PKCE, the issuer
 * found by discovery, through oauth4webapi (a small, audited, dependency-free client that
 * validates every step: state, nonce, ID token signature by the issuer's JWKS, iss, aud, exp).
 * The page is a public client: no secret. The token the gateway gets is the ID token (or the
 * access token, when the provider issues a JWT one for the gateway: settings.oidc.token); the
 * gateway verifies it by the issuer's JWKS like any other. A session is kept in this tab only.
 */
import * as oauth from "oauth4webapi";

export interface PageSettings {
  oidc: { issuer: string; clientId: string; scope: string; token: "id_token" | "access_token"; audience: string | null } | null;
  development: boolean;
}

export interface Session {
  /** The Bearer token the gateway verifies. */
  token: string;
  /** When it stops being valid (ms since the epoch). */
  expiresAt: number;
  via: "oidc" | "development" | "token";
  refreshToken?: string;
  idToken?: string;
}

const SESSION_KEY = "memgate.ledger.session";
const PENDING_KEY = "memgate.ledger.pending-sign-in";

/** A sign-in that could not finish; `status` names the sentence shown (messages status.*). */
export class SignInError extends Error {
  constructor(
    message: string,
    readonly status: "sign_in_failed" | "unreachable",
  ) {
    super(message);
  }
}

export async function loadSettings(): Promise<PageSettings> {
  const res = await fetch("./settings.json");
  if (!res.ok) throw new Error(`settings.json: HTTP ${res.status}`);
  return (await res.json()) as PageSettings;
}

export function savedSession(): Session | null {
  try {
    const session = JSON.parse(sessionStorage.getItem(SESSION_KEY) ?? "null") as Session | null;
    return session && typeof session.token === "string" ? session : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(SESSION_KEY, JSON.stringify(session));
  else sessionStorage.removeItem(SESSION_KEY);
}

/** The exp of a JWT, in ms; a token that has none counts as lasting an hour (the gateway judges anyway). */
export function expiryOf(token: string): number {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { exp?: number };
    if (typeof payload.exp === "number") return payload.exp * 1000;
  } catch {
    // not a JWT: the gateway will say
  }
  return Date.now() + 3_600_000;
}

const redirectUri = () => new URL("./", location.href).href;

type Oidc = NonNullable<PageSettings["oidc"]>;

/** http:// issuers only for local testing (a provider on loopback); a real issuer is https. */
const requestOptions = (oidc: Oidc) => ({ [oauth.allowInsecureRequests]: new URL(oidc.issuer).protocol === "http:" });

async function authorizationServer(oidc: Oidc): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(oidc.issuer);
  try {
    return await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...requestOptions(oidc) }));
  } catch (error) {
    throw new SignInError(`discovery failed: ${String(error)}`, "unreachable");
  }
}

/** Goes to the identity provider; the page comes back to /ledger/ with a code. */
export async function beginSignIn(oidc: Oidc): Promise<void> {
  const as = await authorizationServer(oidc);
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const nonce = oauth.generateRandomNonce();
  sessionStorage.setItem(PENDING_KEY, JSON.stringify({ verifier, state, nonce }));
  const url = new URL(as.authorization_endpoint!);
  url.searchParams.set("client_id", oidc.clientId);
  url.searchParams.set("redirect_uri", redirectUri());
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", oidc.scope);
  url.searchParams.set("code_challenge", await oauth.calculatePKCECodeChallenge(verifier));
  url.searchParams.set("code_challenge_method", "S256");
  url.searchParams.set("state", state);
  url.searchParams.set("nonce", nonce);
  if (oidc.audience) url.searchParams.set("audience", oidc.audience);
  location.assign(url.href);
}

function sessionFrom(oidc: Oidc, result: oauth.TokenEndpointResponse, previous?: Session): Session {
  const token = oidc.token === "access_token" ? result.access_token : (result.id_token ?? previous?.idToken);
  if (!token) throw new SignInError("the provider returned no token to send", "sign_in_failed");
  return {
    token,
    expiresAt: expiryOf(token),
    via: "oidc",
    refreshToken: result.refresh_token ?? previous?.refreshToken,
    idToken: result.id_token ?? previous?.idToken,
  };
}

/** Back from the provider (?code=… or ?error=…): the session, or null when this is no such return. */
export async function completeSignIn(oidc: Oidc): Promise<Session | null> {
  const url = new URL(location.href);
  if (!url.searchParams.has("code") && !url.searchParams.has("error")) return null;
  const pending = JSON.parse(sessionStorage.getItem(PENDING_KEY) ?? "null") as { verifier: string; state: string; nonce: string } | null;
  sessionStorage.removeItem(PENDING_KEY);
  history.replaceState(null, "", redirectUri()); // the code is single-use: never left in the address bar
  if (!pending) throw new SignInError("no sign-in was started in this tab", "sign_in_failed");
  const as = await authorizationServer(oidc);
  const client: oauth.Client = { client_id: oidc.clientId };
  try {
    const params = oauth.validateAuthResponse(as, client, url, pending.state);
    const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, redirectUri(), pending.verifier, requestOptions(oidc));
    return sessionFrom(oidc, await oauth.processAuthorizationCodeResponse(as, client, response, { expectedNonce: pending.nonce, requireIdToken: true }));
  } catch (error) {
    throw new SignInError(String(error), "sign_in_failed");
  }
}

/** A fresh token by the refresh token, before the current one expires. */
export async function refreshSession(oidc: Oidc, session: Session): Promise<Session> {
  if (!session.refreshToken) throw new SignInError("no refresh token", "sign_in_failed");
  const as = await authorizationServer(oidc);
  const client: oauth.Client = { client_id: oidc.clientId };
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), session.refreshToken, requestOptions(oidc));
  return sessionFrom(oidc, await oauth.processRefreshTokenResponse(as, client, response), session);
}

/** Ends the session at the provider too (RP-initiated logout) when it offers that; the page comes back signed out. */
export async function endSession(oidc: Oidc, session: Session): Promise<boolean> {
  const as = await authorizationServer(oidc).catch(() => null);
  if (!as?.end_session_endpoint) return false;
  const url = new URL(as.end_session_endpoint);
  url.searchParams.set("client_id", oidc.clientId);
  url.searchParams.set("post_logout_redirect_uri", redirectUri());
  if (session.idToken) url.searchParams.set("id_token_hint", session.idToken);
  location.assign(url.href);
  return true;
}

/** The development sign-in: a user token for the tenant and subject picked, from the gateway's development key. */
export async function developmentSignIn(tenant: string, subject: string): Promise<Session> {
  const res = await fetch("./dev-sign-in", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tenant, subject }) });
  if (!res.ok) throw new SignInError(`development sign-in: HTTP ${res.status}`, "sign_in_failed");
  const { token } = (await res.json()) as { token: string };
  return { token, expiresAt: expiryOf(token), via: "development" };
}
