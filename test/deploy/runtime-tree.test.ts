import { generateKeyPairSync, createPrivateKey } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { newDatabaseName } from "../support/database";
import { TEST_AUDIENCE, TEST_ISSUER, TEST_PUBLIC_KEY_PEM, signToken } from "../support/tokens";
import { PENDING, PROPOSE, proposal } from "../ledger/helpers";
import { ROOT, buildRuntimeTree, privateKeyFiles, runtimeCopies, startTree, type Started } from "./runtime-tree";

async function gql(url: string, token: string, query: string, variables: Record<string, unknown> = {}) {
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
}

/**
 * Issue 25 §4, where this machine has no container engine: the Dockerfile's runtime stage as a
 * file tree (its COPY list, `npm prune --omit=dev`), searched for private keys and started with
 * its entry point, alone and in production mode, on the embedded database and on a database URL.
 */
describe("the image's runtime tree (Dockerfile final stage)", () => {
  let tree: string;
  const running: Started[] = [];

  beforeAll(() => {
    tree = mkdtempSync(path.join(os.tmpdir(), "memgate-runtime-"));
    buildRuntimeTree(tree);
  }, 120_000);
  afterAll(async () => {
    for (const r of running) if (r.child.exitCode === null) await r.stop();
    rmSync(tree, { recursive: true, force: true });
  });

  it("copies the server, the signed bundle, the page, the embedded database and only public keys", () => {
    const targets = runtimeCopies().map((c) => c.target);
    expect(targets).toEqual(expect.arrayContaining(["node_modules", "dist", "build/policy", "build/web", ".tools/bin/ferretdb", "deploy/container-start.sh"]));
    expect(existsSync(path.join(tree, "dist", "src", "main.js"))).toBe(true);
    expect(existsSync(path.join(tree, ".tools", "bin", "ferretdb"))).toBe(true);
    expect(readdirSync(path.join(tree, "build", "keys"))).toEqual(["policy-signing-public.pem"]);
  });

  it("holds no private key in any file", () => {
    // The checkout's build/keys holds the development private key: the tree must not.
    expect(privateKeyFiles(path.join(ROOT, "build", "keys"))).toEqual([path.join(ROOT, "build", "keys", "policy-signing-private.pem")]);
    expect(privateKeyFiles(tree)).toEqual([]);
  });

  it("holds runtime dependencies only", () => {
    const modules = new Set(readdirSync(path.join(tree, "node_modules")));
    for (const dev of ["jest", "typescript", "esbuild", "playwright-core", "eslint", "oidc-provider", "axe-core"]) expect(modules.has(dev)).toBe(false);
    for (const runtime of ["express", "mongodb", "jose", "graphql-ws"]) expect(modules.has(runtime)).toBe(true);
  });

  it("starts alone (docker run -v memgate:/data IMAGE): embedded database, development keys, said so", async () => {
    const data = path.join(tree, "data-alone");
    const gw = await startTree(tree, { MEMGATE_DATA_DIR: data });
    running.push(gw);
    expect(gw.output()).toContain("DEVELOPMENT keys");
    expect((await fetch(`${gw.url}/ledger/`)).status).toBe(200);
    // A token signed with the development key the gateway created in its data volume.
    const key = createPrivateKey(readFileSync(path.join(data, "keys", "jwt-private.pem")));
    const agent = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["agent"] }, { key, issuer: "memgate-dev", audience: "memgate" });
    const held = await gql(gw.url, agent, PROPOSE, { input: proposal() });
    expect(held.data?.proposeMemory.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    // The ledger page's development sign-in exists on development keys only, and the page is told so.
    expect(await (await fetch(`${gw.url}/ledger/settings.json`)).json()).toEqual({ oidc: null, development: true });
    const signIn = await fetch(`${gw.url}/ledger/dev-sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tenant: "acme", subject: "alice" }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const pending = await gql(gw.url, token, PENDING, {});
    expect(pending.data?.pendingProposals.proposals).toHaveLength(1);
    expect(await gw.stop()).toBe(0);
  }, 60_000);

  const productionEnv = () => ({
    JWT_PUBLIC_KEY: TEST_PUBLIC_KEY_PEM,
    JWT_ISSUER: TEST_ISSUER,
    JWT_AUDIENCE: TEST_AUDIENCE,
    MEMGATE_CHECKPOINT_PRIVATE_KEY: generateKeyPairSync("ed25519").privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  });

  it("starts in production mode on the embedded database when an issuer key is given, refusing development keys", async () => {
    const data = path.join(tree, "data-production");
    const gw = await startTree(tree, { MEMGATE_DATA_DIR: data, ...productionEnv() });
    running.push(gw);
    expect(gw.output()).not.toContain("DEVELOPMENT keys");
    expect(existsSync(path.join(data, "keys"))).toBe(false); // no development key was made
    const user = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const pending = await gql(gw.url, user, PENDING, {});
    expect(pending.data?.pendingProposals.stopReason).toBe("SUCCESS_LISTED");
    expect(await (await fetch(`${gw.url}/ledger/settings.json`)).json()).toEqual({ oidc: null, development: false });
    const devSignIn = await fetch(`${gw.url}/ledger/dev-sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"tenant":"acme","subject":"alice"}',
    });
    expect(devSignIn.status).toBe(404);
    // production: no introspection
    expect((await gql(gw.url, user, "{ __schema { types { name } } }")).errors).toBeDefined();
    expect(await gw.stop()).toBe(0);
  }, 60_000);

  it("switches to a real database with MONGODB_URI", async () => {
    const dbName = newDatabaseName();
    const gw = await startTree(tree, {
      MEMGATE_DATA_DIR: path.join(tree, "data-uri"),
      MONGODB_URI: process.env.MEMGATE_TEST_MONGODB_URI!,
      MEMGATE_DB_NAME: dbName,
      ...productionEnv(),
    });
    running.push(gw);
    const agent = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    const held = await gql(gw.url, agent, PROPOSE, { input: proposal() });
    expect(held.data?.proposeMemory.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
    expect(existsSync(path.join(tree, "data-uri", "ferretdb"))).toBe(false);
    expect(await gw.stop()).toBe(0);
  }, 60_000);
});
