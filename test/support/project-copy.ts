import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/** An edit a newcomer makes: in `file`, insert `insert` right after the text `after`. */
export type Edit = [file: string, after: string, insert: string];

/** Applies edits to a copy of the project, failing when an anchor is no longer there. */
export function applyEdits(root: string, edits: readonly Edit[]): void {
  for (const [file, after, insert] of edits) {
    const source = readFileSync(path.join(root, file), "utf8");
    if (!source.includes(after)) throw new Error(`${file}: "${after}" not found`);
    writeFileSync(path.join(root, file), source.replace(after, after + insert), "utf8");
  }
}

/** A fresh copy of what a gateway needs (src, schema, policies, the test support) and `extra` paths. */
export function copyProject(root: string, temp: string, extra: readonly string[]): void {
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  for (const dir of ["src", "schema", "policies", "test/support", ...extra]) cpSync(path.join(root, dir), path.join(temp, dir), { recursive: true });
}

/** Builds only the copy's policy bundle, where its test support looks for it. */
export function buildCopiedPolicy(root: string, temp: string): void {
  execFileSync("bash", [path.join(root, "scripts", "policy.sh"), "build", path.join(temp, "policies"), path.join(temp, "build", "policy", "bundle.tar.gz")], {
    stdio: "pipe",
  });
}
