#!/usr/bin/env node
// Copies policies/ into a staging folder for `opa build`, so that the bundle's bytes depend on
// the sources alone: one module per Rego package (OPA's planner walks its modules in Go map
// order, so a package split over several files compiles to wasm in a random rule order), and
// paths relative to the staging folder (never the checkout's absolute path).
// Usage: node scripts/policy-stage.mjs <policies dir> <staging dir>   (tests are left out)
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";

const [source, stage] = process.argv.slice(2);
if (!source || !stage) {
  process.stderr.write("usage: policy-stage.mjs <policies dir> <staging dir>\n");
  process.exit(2);
}

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => (entry.isDirectory() ? walk(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

/** A Rego file as header comments, package line, imports and the rest (rules). */
function split(file) {
  const lines = readFileSync(file, "utf8").split("\n");
  const pkgAt = lines.findIndex((l) => /^package\s+\S+/.test(l));
  if (pkgAt < 0) throw new Error(`${file}: no package line`);
  const header = lines.slice(0, pkgAt);
  const imports = [];
  const rest = [];
  let inImports = true;
  for (const line of lines.slice(pkgAt + 1)) {
    if (inImports && /^import\s+/.test(line)) imports.push(line.trim());
    else if (inImports && line.trim() === "") continue;
    else {
      inImports = false;
      rest.push(line);
    }
  }
  return { file, header, pkg: lines[pkgAt].trim(), imports, rest };
}

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
const packages = new Map();
for (const file of walk(source)) {
  const relative = path.relative(source, file);
  if (file.endsWith("_test.rego")) continue;
  if (!file.endsWith(".rego")) {
    mkdirSync(path.dirname(path.join(stage, relative)), { recursive: true });
    cpSync(file, path.join(stage, relative));
    continue;
  }
  const parsed = split(file);
  packages.set(parsed.pkg, [...(packages.get(parsed.pkg) ?? []), { ...parsed, relative }]);
}
for (const parts of packages.values()) {
  const [first, ...others] = parts; // files in path order: the merge is the same on every build
  const imports = [...new Set(parts.flatMap((p) => p.imports))].sort();
  const body = [
    ...first.header,
    first.pkg,
    "",
    ...imports,
    "",
    ...first.rest,
    // A package-scoped METADATA block belongs before the package line only.
    ...others.flatMap((p) => ["", `# --- ${p.relative}`, ...p.header.map((l) => l.replace(/^#\s*METADATA\s*$/, "# metadata:")), ...p.rest]),
  ];
  mkdirSync(path.dirname(path.join(stage, first.relative)), { recursive: true });
  writeFileSync(path.join(stage, first.relative), body.join("\n"));
}
