// `npm run token`: runs the compiled scripts/token.ts, compiling first only when a source is newer
// than the compiled file (a fresh clone, or after an edit), so a token takes well under a second.
import { execFileSync } from "node:child_process";
import { readdirSync, statSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const compiled = path.join(root, "dist/scripts/token.js");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (entry.name.endsWith(".ts")) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

/** When the compiled token script was last known current: its own time, or the last build's (tsc leaves unchanged outputs alone). */
function compiledTime() {
  try {
    const own = statSync(compiled).mtimeMs;
    try {
      return Math.max(own, statSync(path.join(root, "dist/.tsbuildinfo")).mtimeMs);
    } catch {
      return own;
    }
  } catch {
    return -1;
  }
}

if (compiledTime() < Math.max(newestSource(path.join(root, "src")), statSync(path.join(root, "scripts/token.ts")).mtimeMs)) {
  process.stderr.write("token: compiling memgate once (sources changed)…\n");
  execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { cwd: root, stdio: ["ignore", "ignore", "inherit"] });
  const now = new Date();
  utimesSync(compiled, now, now); // tsc leaves an unchanged output's time alone
}
await import(compiled);
