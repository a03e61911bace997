import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { objectTypeNames } from "../../clients/typescript/src/generated/graphql";
import { ENTITY_KEYS, EMBEDDED_TYPES } from "../../clients/typescript/src/type-policies";

const root = path.resolve(__dirname, "..", "..");
const CODEGEN = path.join(root, "node_modules", "@graphql-codegen", "cli", "cjs", "bin.js");

/**
 * The generated client is checked in (the ledger page build, the examples and the typecheck
 * need it before any test runs); GraphQL Code Generator's --check mode fails when
 * schema/schema.graphql or an operation changed and `npm run client:generate` was not run.
 */
describe("the typed client is generated from schema/schema.graphql", () => {
  it("regenerating gives the checked-in clients/typescript/src/generated/graphql.ts", async () => {
    const run = promisify(execFile)(process.execPath, [CODEGEN, "--config", "codegen.ts", "--check"], { cwd: root, env: { ...process.env, CI: "true" } });
    await expect(run).resolves.toBeDefined();
  });

  it("every object type has a deliberate cache policy: normalised by its key, or embedded", () => {
    const decided = [...Object.keys(ENTITY_KEYS), ...EMBEDDED_TYPES].sort();
    expect(decided).toEqual([...objectTypeNames].sort());
  });
});
