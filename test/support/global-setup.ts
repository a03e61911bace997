import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { EmbeddedFerretDb, ferretdbBinaryPath } from "../../src/store/embedded-ferretdb";

/**
 * One real FerretDB for the whole run (each test file gets its own database in it), started
 * the way the gateway starts its embedded one. `npm test` has built the policy bundle already.
 */
export default async function globalSetup(): Promise<void> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-test-db-"));
  const db = await EmbeddedFerretDb.start({
    binary: ferretdbBinaryPath(path.resolve(__dirname, "..", "..")),
    dataDir,
    postgresqlUrl: process.env.MEMGATE_FERRETDB_POSTGRESQL_URL || undefined,
  });
  process.env.MEMGATE_TEST_MONGODB_URI = db.uri;
  process.env.MEMGATE_TEST_FERRETDB_DIR = dataDir;
  (globalThis as Record<string, unknown>).__memgateFerretDb = db;
}
