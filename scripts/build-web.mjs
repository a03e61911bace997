#!/usr/bin/env node
// Builds the ledger page (web/ledger) into build/web/ledger: type-checks it with tsc, then
// bundles it with esbuild (Preact, JSX, minified, with a source map). The output is never
// committed; `npm start` and `npm test` run this first.
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const source = path.join(root, "web", "ledger");
const out = path.join(root, "build", "web", "ledger");

execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(source, "tsconfig.json")], { stdio: "inherit" });

const tmp = `${out}.tmp`;
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });
await build({
  entryPoints: [path.join(source, "src", "main.tsx")],
  outfile: path.join(tmp, "app.js"),
  bundle: true,
  format: "esm",
  target: ["es2022"],
  jsx: "automatic",
  jsxImportSource: "preact",
  minify: true,
  sourcemap: true,
  legalComments: "none",
  logLevel: "warning",
});
copyFileSync(path.join(source, "index.html"), path.join(tmp, "index.html"));
copyFileSync(path.join(source, "styles.css"), path.join(tmp, "styles.css"));
// The page's words are policy data (policies/memgate/messages/<lang>/data.json, tested by opa test):
// each language becomes messages/<lang>.json, and messages/index.json lists them with their names.
const messages = path.join(root, "policies", "memgate", "messages");
mkdirSync(path.join(tmp, "messages"));
const languages = [];
for (const code of readdirSync(messages, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort()) {
  const words = JSON.parse(readFileSync(path.join(messages, code, "data.json"), "utf8"));
  writeFileSync(path.join(tmp, "messages", `${code}.json`), JSON.stringify(words));
  languages.push({ code, name: words.language_name });
}
writeFileSync(path.join(tmp, "messages", "index.json"), JSON.stringify(languages));
// Swapped in whole, so a running gateway never serves half a bundle.
rmSync(out, { recursive: true, force: true });
mkdirSync(path.dirname(out), { recursive: true });
renameSync(tmp, out);
console.error(`web: built ${path.relative(root, out)}`);
