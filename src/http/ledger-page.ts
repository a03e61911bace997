import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";
import { SignJWT } from "jose";
import { createPrivateKey } from "node:crypto";
import { ensureDevKeyPair } from "../auth/dev-keys";
import type { Config } from "../config";

/** build/web/ledger under the project root, from src/http (ts) or dist/src/http (js). */
export function defaultLedgerPageDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, "build", "web", "ledger");
}

/** What the page needs to know to sign a person in; public, no secret (a public client, PKCE). */
export interface LedgerPageSettings {
  oidc: { issuer: string; clientId: string; scope: string; token: "id_token" | "access_token"; audience: string | null } | null;
  /** Development keys are in use: the page offers a development sign-in and says so. */
  development: boolean;
}

export function ledgerPageSettings(config: Pick<Config, "ledgerPage"> | undefined): LedgerPageSettings {
  const oidc = config?.ledgerPage.oidc;
  return {
    oidc: oidc ? { issuer: oidc.issuer, clientId: oidc.clientId, scope: oidc.scope, token: oidc.token, audience: oidc.audience ?? null } : null,
    development: config?.ledgerPage.development ?? false,
  };
}

/** A tenant or subject a person types on the development sign-in: what `npm run token` accepts. */
const DEV_NAME = /^[A-Za-z0-9._@-]{1,128}$/;
/** Development sign-in tokens live an hour: long enough to try, short enough to show expiry. */
const DEV_TOKEN_TTL_S = 3600;

/**
 * The ledger page at /ledger/: a static bundle (built by `npm run web:build`, never
 * committed) that talks to /graphql with the person's token, and its settings at
 * /ledger/settings.json. With development keys only (never in production, never with an
 * issuer key configured), POST /ledger/dev-sign-in issues a user token for a tenant and
 * subject the person picks: `npm run token` from the page, and the page says so.
 */
export function ledgerPageRouter(dir: string = defaultLedgerPageDir(), config?: Pick<Config, "ledgerPage" | "jwt" | "dataDir">): Router {
  const router = Router();
  const settings = ledgerPageSettings(config);
  // The browser talks to the identity provider itself (discovery, token and refresh requests).
  const connect = ["'self'", ...(settings.oidc ? [new URL(settings.oidc.issuer).origin] : [])].join(" ");
  router.use("/ledger", (req, res, next) => {
    res.setHeader(
      "Content-Security-Policy",
      `default-src 'self'; script-src 'self'; style-src 'self'; connect-src ${connect}; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    res.setHeader("Referrer-Policy", "no-referrer");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.setHeader("Cache-Control", "no-store");
    if (req.method === "GET" && req.originalUrl === "/ledger") return res.redirect(301, "/ledger/");
    if (!existsSync(path.join(dir, "index.html"))) {
      return res.status(503).type("text/plain").send("The ledger page is not built: run `npm run web:build` (npm start and npm test do).\n");
    }
    next();
  });
  router.get("/ledger/settings.json", (_req, res) => {
    res.json(settings);
  });
  if (settings.development && config) {
    router.post("/ledger/dev-sign-in", express.json({ limit: "1kb" }), async (req, res, next) => {
      try {
        const { tenant, subject } = (req.body ?? {}) as { tenant?: unknown; subject?: unknown };
        if (typeof tenant !== "string" || typeof subject !== "string" || !DEV_NAME.test(tenant) || !DEV_NAME.test(subject)) {
          return res.status(400).json({ error: "tenant and subject must be 1 to 128 letters, digits, dots, dashes, underscores or @" });
        }
        const keys = await ensureDevKeyPair(config.dataDir, "jwt");
        const token = await new SignJWT({ tenant, subjects: [subject], roles: ["user"] })
          .setProtectedHeader({ alg: "EdDSA", typ: "JWT" })
          .setSubject(subject)
          .setIssuer(config.jwt.issuer)
          .setAudience(config.jwt.audience)
          .setIssuedAt()
          .setExpirationTime(`${DEV_TOKEN_TTL_S}s`)
          .sign(createPrivateKey(keys.privateKeyPem));
        res.json({ token, expiresIn: DEV_TOKEN_TTL_S });
      } catch (error) {
        next(error);
      }
    });
  }
  router.use("/ledger", express.static(dir, { index: "index.html", redirect: false, fallthrough: true }));
  return router;
}
