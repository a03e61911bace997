import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadConfig } from "../../src/config";
import { Gateway } from "../../src/gateway";
import { ferretdbBinaryPath } from "../../src/store/embedded-ferretdb";
import { TEST_AUDIENCE, TEST_ISSUER, TEST_PUBLIC_KEY_PEM, signToken } from "../support/tokens";
import { DECLINE, PROPOSE, proposal } from "./helpers";

/** Every file under dir, recursively, with whether it holds the needle's UTF-8 bytes. */
function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, "utf8");
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) hits.push(...filesHolding(file, needle));
    else if (readFileSync(file).includes(bytes)) hits.push(path.relative(dir, file));
  }
  return hits;
}

/**
 * P54-D on the embedded database as `npm start` runs it (FerretDB on SQLite): after a
 * decline, the proposed text is in none of the database's files. SQLite keeps freed page
 * content unless secure_delete is on; the embedded start turns it on through --sqlite-url.
 */
describe("P54-D declined text in the embedded database's files", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "memgate-decline-files-"));
  let gateway: Gateway;

  beforeAll(async () => {
    const config = loadConfig({
      MEMGATE_DATA_DIR: dataDir,
      MEMGATE_POLICY_BUNDLE: path.resolve(__dirname, "..", "..", "build", "policy", "bundle.tar.gz"),
      MEMGATE_FERRETDB_BIN: ferretdbBinaryPath(path.resolve(__dirname, "..", "..")),
      JWT_PUBLIC_KEY: TEST_PUBLIC_KEY_PEM,
      JWT_ISSUER: TEST_ISSUER,
      JWT_AUDIENCE: TEST_AUDIENCE,
      PORT: "0",
      LOG_LEVEL: "silent",
    });
    gateway = await Gateway.start({ config });
  });
  afterAll(() => gateway?.stop());

  async function gql(token: string, query: string, variables: Record<string, unknown>) {
    const response = await fetch(`${gateway.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as { data: Record<string, any> };
  }

  it("P54-D SPEC-D4: after a decline no file of the embedded database holds the proposed text or its note, running or stopped", async () => {
    const agent = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["agent"] });
    const alice = await signToken({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" });
    const marker = `PANGOLIN-${Date.now().toString(36)}-DECLINED`;
    const noteMarker = `WOMBAT-${Date.now().toString(36)}-NOTE`;
    const files = path.join(dataDir, "ferretdb");
    // Several proposals, so the declined row shares its page with rows that stay.
    for (let i = 0; i < 5; i++) await gql(agent, PROPOSE, { input: proposal({ proposedText: `I prefer option ${i} for lunch` }) });
    const res = await gql(agent, PROPOSE, {
      input: proposal({ proposedText: `I prefer ${marker} in the evening`, source: { sourceType: "phase3_reflection", note: `After ${noteMarker}` } }),
    });
    const proposalId = res.data.proposeMemory.proposalId as string;
    expect(proposalId).toMatch(/^prop_/);
    for (let i = 5; i < 10; i++) await gql(agent, PROPOSE, { input: proposal({ proposedText: `I prefer option ${i} for dinner` }) });
    expect(filesHolding(files, marker).length).toBeGreaterThan(0); // the scan finds it while it is there

    const declined = await gql(alice, DECLINE, { id: proposalId });
    expect(declined.data.declineProposal.stopReason).toBe("SUCCESS_DELETED");
    // What the decline left to do off the request path lands, and a few later writes let SQLite
    // checkpoint its WAL as a live system would (a reader of an older snapshot can hold one back).
    await gateway.idle();
    for (let i = 10; i < 13; i++) await gql(agent, PROPOSE, { input: proposal({ proposedText: `I prefer option ${i} for breakfast` }) });
    await gateway.idle();
    expect({ running: filesHolding(files, marker), note: filesHolding(files, noteMarker) }).toEqual({ running: [], note: [] });

    await gateway.stop();
    expect({ stopped: filesHolding(files, marker), note: filesHolding(files, noteMarker) }).toEqual({ stopped: [], note: [] });
  });
});
