import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";

export const ROOT = path.resolve(__dirname, "..", "..");

export interface RuntimeCopy {
  /** The path in the build stage, relative to its WORKDIR (/app): the same path in this checkout. */
  source: string;
  /** The path in the runtime image, relative to its WORKDIR (/app). */
  target: string;
}

/** The final stage's `COPY --from=build /app/X ./Y` lines of the Dockerfile: what the runtime image holds. */
export function runtimeCopies(dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8")): RuntimeCopy[] {
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n");
  const lastFrom = lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true);
  const copies: RuntimeCopy[] = [];
  for (const line of lines.slice(lastFrom + 1)) {
    const match = /^COPY\s+--from=build\s+\/app\/(\S+)\s+\.\/(\S+)\s*$/i.exec(line.trim());
    if (match) copies.push({ source: match[1], target: match[2] });
    else if (/^(COPY|ADD)\s/i.test(line.trim())) throw new Error(`runtime stage: a copy this test cannot mirror: ${line}`);
  }
  return copies;
}

/**
 * The runtime image's file tree, built here as the Dockerfile builds it: node_modules is the
 * checkout's, pruned with `npm prune --omit=dev` in a staging copy (hard links: only the
 * pruning's deletions touch it); everything else is copied from where the build stage makes it.
 */
export function buildRuntimeTree(dir: string): void {
  const staging = path.join(dir, ".staging");
  mkdirSync(staging, { recursive: true });
  copyFileSync(path.join(ROOT, "package.json"), path.join(staging, "package.json"));
  copyFileSync(path.join(ROOT, "package-lock.json"), path.join(staging, "package-lock.json"));
  execFileSync("cp", ["-al", path.join(ROOT, "node_modules"), path.join(staging, "node_modules")]);
  // npm rewrites this one file in place: a real copy, so the checkout's stays as it is.
  const hidden = path.join(staging, "node_modules", ".package-lock.json");
  if (existsSync(hidden)) {
    rmSync(hidden);
    copyFileSync(path.join(ROOT, "node_modules", ".package-lock.json"), hidden);
  }
  execFileSync("npm", ["prune", "--omit=dev", "--no-audit", "--no-fund", "--offline", "--ignore-scripts"], { cwd: staging, stdio: "pipe" });
  for (const { source, target } of runtimeCopies()) {
    const to = path.join(dir, target);
    mkdirSync(path.dirname(to), { recursive: true });
    if (source === "node_modules" || source === "package.json") {
      renameSync(path.join(staging, source), to); // the pruned staging copy, moved (a copy of 180 MB would take most of the test)
      continue;
    }
    const from = path.join(ROOT, source);
    if (!existsSync(from)) throw new Error(`${source} is not built: run npm run build, npm run policy:build and npm run web:build (npm test does)`);
    cpSync(from, to, { recursive: true, dereference: true });
  }
  rmSync(staging, { recursive: true, force: true });
}

/** Files under `dir` that hold a PEM private key of any kind: the armour line followed by key material (not code that names it). */
export function privateKeyFiles(dir: string): string[] {
  try {
    const pem = "-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----\\s*[A-Za-z0-9+/]{40}";
    return execFileSync("grep", ["-rlIzP", "--", pem, dir], { encoding: "utf8" })
      .split(/[\n\0]/)
      .filter(Boolean);
  } catch (error) {
    if ((error as { status?: number }).status === 1) return []; // grep: no match
    throw error;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface Started {
  child: ChildProcess;
  url: string;
  output: () => string;
  stop: () => Promise<number | null>;
}

/** Runs the image's entry point in the tree, as `docker run` would, and waits for /readyz. */
export async function startTree(dir: string, env: Record<string, string>, readyWithinMs = 45_000): Promise<Started> {
  const port = await freePort();
  const child = spawn("sh", ["deploy/container-start.sh"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, HOST: "127.0.0.1", PORT: String(port), LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyWithinMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the runtime tree exited ${child.exitCode}:\n${output}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the runtime tree was not ready within ${readyWithinMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    child,
    url,
    output: () => output,
    stop: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
