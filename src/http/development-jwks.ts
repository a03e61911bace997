import { createPublicKey } from "node:crypto";
import { Router } from "express";
import { calculateJwkThumbprint, exportJWK, type JWK } from "jose";

/** The development token key as a JWK whose `kid` is its RFC 7638 thumbprint (what `npm run token` puts in its header). */
export async function developmentJwk(publicKeyPem: string): Promise<JWK> {
  const jwk = await exportJWK(createPublicKey(publicKeyPem));
  return { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: "EdDSA", use: "sig" };
}

/**
 * `GET /.well-known/jwks.json` while the gateway verifies tokens with the development key of its
 * data folder (never with a configured key or in production): a public key, so that
 * `npm run token` can say when it signs with another folder's key than the running gateway's.
 */
export function developmentJwksRouter(jwk: JWK): Router {
  const router = Router();
  router.get("/.well-known/jwks.json", (_req, res) => {
    res.set("cache-control", "no-store").json({ keys: [jwk] });
  });
  return router;
}
