import { existsSync } from "node:fs";
import path from "node:path";
import express, { Router } from "express";

/** build/web/ledger under the project root, from src/http (ts) or dist/src/http (js). */
export function defaultLedgerPageDir(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, "package.json")) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, "build", "web", "ledger");
}

/**
 * The ledger page at /ledger/: a static bundle (built by `npm run web:build`, never
 * committed) that talks to /graphql with the person's token. No server-side state.
 */
export function ledgerPageRouter(dir: string = defaultLedgerPageDir()): Router {
  const router = Router();
  router.use("/ledger", (req, res, next) => {
    res.setHeader(
      "Content-Security-Policy",
      "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
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
  router.use("/ledger", express.static(dir, { index: "index.html", redirect: false, fallthrough: true }));
  return router;
}
