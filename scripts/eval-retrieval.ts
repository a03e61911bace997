/**
 * npm run eval:retrieval: recall@5 and MRR of the agent interface's ranked retrieval on the
 * labelled corpus (test/corpus/agent-retrieval/), per mode, through the real kernel, policy
 * and an embedded FerretDB. Prints a table and the queries each mode missed.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ManualClock } from "../src/clock";
import { loadConfig } from "../src/config";
import { agentDoor } from "../src/contracts/agent/door";
import { Gateway } from "../src/gateway";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";
import { evaluate, formatScores, loadCorpus, readCorpus, type ModeScore } from "./agent-retrieval";

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-eval-retrieval-"));
  const ferret = await EmbeddedFerretDb.start({ binary: loadConfig().ferretdbBinary, dataDir: path.join(dir, "ferretdb") });
  const now = new Date();
  const clock = new ManualClock(now);
  const publicKeyPem = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "pem" }).toString();
  const config = loadConfig({
    ...process.env,
    MONGODB_URI: ferret.uri,
    MEMGATE_DB_NAME: "eval_retrieval",
    MEMGATE_DATA_DIR: dir,
    JWT_PUBLIC_KEY: publicKeyPem,
    PORT: "0",
    LOG_LEVEL: "error",
  });
  const gateway = await Gateway.start({ config, clock });
  try {
    const { repoId, memories } = readCorpus();
    const principal = { id: "eval-agent", tenant: "eval", subjects: [`repo:${repoId}`], roles: ["agent" as const], agentType: null, job: null };
    const door = agentDoor(gateway.services.kernel, gateway.services.contracts.agent.operations);
    const ids = await loadCorpus(door, principal, clock, now);
    const scores: ModeScore[] = [];
    for (const mode of ["ambient", "targeted", "labelled"] as const) scores.push(await evaluate(door, principal, ids, mode));
    process.stdout.write(`\n${formatScores(scores, memories.length)}\n`);
    for (const s of scores) {
      for (const miss of s.misses)
        process.stdout.write(`  ${s.mode} miss: "${miss.query}" expected ${miss.expected.join(", ")}; top 5: ${miss.got.join(", ")}\n`);
    }
  } finally {
    await gateway.stop();
    await ferret.stop();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`eval:retrieval: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
