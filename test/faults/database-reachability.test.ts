import { once } from "node:events";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { connectDatabase } from "../../src/store/database";
import { EmbeddedFerretDb, ferretdbBinaryPath, freePort } from "../../src/store/embedded-ferretdb";

/**
 * C19-FAIL: the kernel refuses at once while the driver reaches no database server
 * (src/store/database.ts DatabaseReachability), instead of waiting out server selection per
 * request. Here the reachability the kernel reads follows a real FerretDB going away and back.
 */
describe("C19-FAIL: the driver's view of an external database that goes away and comes back", () => {
  it("C19-FAIL: reachable while it answers, unreachable once the driver's monitor finds it gone, reachable again after a restart", async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-reach-db-"));
    const binary = ferretdbBinaryPath(path.resolve(__dirname, "..", ".."));
    const port = await freePort();
    let db = await EmbeddedFerretDb.start({ binary, dataDir, port });
    const { client, db: database, reachability } = await connectDatabase(db.uri, "reachability");
    try {
      await database.command({ ping: 1 });
      expect(reachability.available).toBe(true);

      await db.stop();
      await expect(database.command({ ping: 1 }, { timeoutMS: 3_000 })).rejects.toThrow();
      // The failed operation asks the monitor for a check at once; its failed heartbeat marks the server Unknown.
      while (reachability.available) await once(client, "topologyDescriptionChanged");
      expect(reachability.available).toBe(false);
      await expect(database.command({ ping: 1 }, { timeoutMS: 1_000 })).rejects.toThrow(); // still gone
      expect(reachability.available).toBe(false);

      db = await EmbeddedFerretDb.start({ binary, dataDir, port });
      await database.command({ ping: 1 }); // server selection waits for the monitor's next answer
      expect(reachability.available).toBe(true);
    } finally {
      await client.close();
      await db.stop();
    }
  }, 120_000);
});
