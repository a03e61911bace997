import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");

/** Builds a signed bundle exactly as `npm run policy:build` does (scripts/policy.sh), from any policies folder. */
export function buildSignedBundle(policiesDir: string, out: string, env: NodeJS.ProcessEnv = {}): string {
  execFileSync("bash", [path.join(ROOT, "scripts", "policy.sh"), "build", policiesDir, out], { env: { ...process.env, ...env }, stdio: "pipe" });
  return out;
}

/** A copy of the real policies with one data.json edited, built and signed with the development key (or `env`'s). */
export function buildVariant(name: string, file: string, edit: (data: Record<string, any>) => void, env: NodeJS.ProcessEnv = {}): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `memgate-policy-${name}-`));
  cpSync(path.join(ROOT, "policies"), path.join(dir, "policies"), { recursive: true });
  const target = path.join(dir, "policies", file);
  const data = JSON.parse(readFileSync(target, "utf8"));
  edit(data);
  writeFileSync(target, JSON.stringify(data, null, 2));
  return buildSignedBundle(path.join(dir, "policies"), path.join(dir, "bundle.tar.gz"), env);
}
