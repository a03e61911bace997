import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const root = path.resolve(__dirname, "..", "..");
const run = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  run(process.platform === "win32" ? "npm.cmd" : "npm", args, { cwd, env: { ...process.env, npm_config_audit: "false", npm_config_fund: "false" } });

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/**
 * The lock entries of `names` and everything they need, at the versions memgate's own lock
 * holds: so `npm ci --offline` installs them from the npm cache the root install filled,
 * never asking a registry (a dependency resolves as Node does: nested first, then upward).
 */
function closure(lock: Record<string, LockEntry>, names: readonly string[]): Record<string, LockEntry> {
  const out: Record<string, LockEntry> = {};
  const resolve = (from: string, name: string): string | undefined => {
    for (let at = from; ;) {
      const candidate = `${at ? `${at}/` : ""}node_modules/${name}`;
      if (lock[candidate]) return candidate;
      if (!at) return undefined;
      const up = at.lastIndexOf("/node_modules/");
      at = up < 0 ? "" : at.slice(0, up);
    }
  };
  const visit = (from: string, name: string, optional: boolean) => {
    const at = resolve(from, name);
    if (!at) {
      if (optional) return;
      throw new Error(`${name} (needed by ${from || "the app"}) is not in package-lock.json`);
    }
    if (out[at]) return;
    const entry = lock[at];
    if (entry.link) throw new Error(`${at} is a workspace link`);
    out[at] = entry;
    for (const dep of Object.keys(entry.dependencies ?? {})) visit(at, dep, false);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) visit(at, dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {})) visit(at, dep, entry.peerDependenciesMeta?.[dep]?.optional ?? false);
  };
  for (const name of names) visit("", name, false);
  return out;
}

/**
 * Packages a user installs (issue 24 items 1 and 4): `npm pack` of @memgate/client and
 * @memgate/mcp, installed into an empty folder outside the checkout with `npm ci --offline`
 * (no registry: the peers come from the npm cache at the versions of memgate's lock), then
 * used from there as a user would: require both entry points, run the memgate-mcp bin.
 */
describe("the packed @memgate/client and @memgate/mcp install into an empty folder and work", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "memgate-pack-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("npm pack → npm ci --offline → require('@memgate/client'), '@memgate/client/langgraph', and the memgate-mcp bin", async () => {
    const { stdout } = await npm(["pack", "--json", "-w", "@memgate/client", "-w", "@memgate/mcp", "--pack-destination", dir], root);
    const packed = JSON.parse(stdout) as { name: string; filename: string; integrity: string; files: { path: string }[] }[];
    const client = packed.find((p) => p.name === "@memgate/client")!;
    const mcp = packed.find((p) => p.name === "@memgate/mcp")!;
    expect(client.files.map((f) => f.path)).toEqual(
      expect.arrayContaining(["package.json", "README.md", "dist/index.js", "dist/index.d.ts", "dist/langgraph.js", "dist/langgraph.d.ts"]),
    );
    expect(client.files.some((f) => f.path.startsWith("src/"))).toBe(false);
    expect(mcp.files.map((f) => f.path)).toEqual(expect.arrayContaining(["package.json", "README.md", "bin/memgate-mcp", "dist/stdio-bridge.js"]));

    const rootLock = (JSON.parse(readFileSync(path.join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }).packages;
    const manifest = (dir: string) => JSON.parse(readFileSync(path.join(root, dir, "package.json"), "utf8")) as LockEntry & { bin?: Record<string, string> };
    const peers = ["@apollo/client", "graphql", "rxjs", "@langchain/langgraph-checkpoint", "@langchain/core"];
    const clientManifest = manifest("clients/typescript");
    const mcpManifest = manifest("clients/mcp");
    const app = path.join(dir, "app");
    const dependencies = {
      "@memgate/client": `file:../${client.filename}`,
      "@memgate/mcp": `file:../${mcp.filename}`,
      ...Object.fromEntries(peers.map((name) => [name, rootLock[`node_modules/${name}`].version!])),
    };
    const tarballEntry = (m: typeof clientManifest, packedAs: typeof client) => ({
      version: m.version,
      resolved: `file:../${packedAs.filename}`,
      integrity: packedAs.integrity,
      dependencies: m.dependencies,
      peerDependencies: m.peerDependencies,
      peerDependenciesMeta: m.peerDependenciesMeta,
      bin: m.bin,
    });
    const lock = {
      name: "app",
      lockfileVersion: 3,
      requires: true,
      packages: {
        "": { name: "app", dependencies },
        ...closure(rootLock, [...peers, ...Object.keys(clientManifest.dependencies ?? {}), ...Object.keys(mcpManifest.dependencies ?? {})]),
        "node_modules/@memgate/client": tarballEntry(clientManifest, client),
        "node_modules/@memgate/mcp": tarballEntry(mcpManifest, mcp),
      },
    };
    mkdirSync(app);
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, dependencies }, null, 2));
    writeFileSync(path.join(app, "package-lock.json"), JSON.stringify(lock, null, 2));
    await npm(["ci", "--offline", "--ignore-scripts"], app);

    const used = await run(
      process.execPath,
      [
        "-e",
        `const m = require("@memgate/client"); const l = require("@memgate/client/langgraph");
         const c = m.createMemgateClient({ url: "http://127.0.0.1:1/graphql", token: "t" });
         const s = new l.MemgateStore({ client: c });
         console.log(typeof m.memgateUpdate, typeof m.StoreMemoryDocument, s instanceof require("@langchain/langgraph-checkpoint").BaseStore);`,
      ],
      { cwd: app },
    );
    expect(used.stdout.trim()).toBe("function object true");
    const bridge = await run(path.join(app, "node_modules", ".bin", "memgate-mcp"), [], { cwd: app }).then(
      () => ({ code: 0, stderr: "" }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(bridge).toMatchObject({ code: 2, stderr: expect.stringContaining("usage: memgate-mcp --url") });
  }, 300_000); // two tsc builds (prepack) and an install on a shared 2-core machine
});
