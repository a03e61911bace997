/**
 * The retrieval-quality evaluation of the agent interface (IF1-READ), shared by
 * `npm run eval:retrieval`, `npm run eval` and test/agent/retrieval-*.test.ts: a labelled
 * corpus of test/corpus/agent-retrieval/<split>/ is written through the real kernel (real
 * policy, real database), then every query is read and scored by recall@5 and MRR.
 * Splits: `dev` (tune here) and `test` (held out: written before any ranking change).
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Principal } from "../src/auth/principal";
import { ManualClock } from "../src/clock";
import { loadConfig } from "../src/config";
import { agentDoor, type AgentDoor } from "../src/contracts/agent/door";
import { Gateway } from "../src/gateway";
import { EmbeddedFerretDb } from "../src/store/embedded-ferretdb";

export type Split = "dev" | "test";

const corpusDir = (split: Split): string => {
  // ts-jest and tsx run from source (scripts/), the build from dist/scripts/
  for (const up of [["..", ".."], [".."]]) {
    const dir = path.resolve(__dirname, ...up, "test", "corpus", "agent-retrieval", split);
    try {
      readFileSync(path.join(dir, "queries.json"));
      return dir;
    } catch {
      /* try the next layout */
    }
  }
  throw new Error(`test/corpus/agent-retrieval/${split} not found`);
};

export interface CorpusMemory {
  id: string;
  kind: string;
  text: string;
  scope: "repo" | "global";
  confidence: number;
  links: { problem_id?: string; related_memory_ids?: string[]; change_targets?: string[] };
  days_ago: number;
}

export interface LabelledQuery {
  mode: "ambient" | "targeted";
  query: string;
  expected: string[];
  /** The expectation is reached through a link (a problem's solution): IF1-HOPS. */
  hop?: boolean;
}

export function readCorpus(split: Split = "dev"): { repoId: string; memories: CorpusMemory[]; queries: LabelledQuery[] } {
  const dir = corpusDir(split);
  const memories = JSON.parse(readFileSync(path.join(dir, "memories.json"), "utf8")) as { repo_id: string; memories: CorpusMemory[] };
  const queries = JSON.parse(readFileSync(path.join(dir, "queries.json"), "utf8")) as { queries: LabelledQuery[] };
  return { repoId: memories.repo_id, memories: memories.memories, queries: queries.queries };
}

/** The agent reading and writing one split: a tenant of its own, so splits never meet. */
export function corpusPrincipal(split: Split = "dev"): Principal {
  return { id: "eval-agent", tenant: `eval-${split}`, subjects: [`repo:${readCorpus(split).repoId}`], roles: ["agent"], agentType: null, job: null };
}

/** Writes the corpus through the agent door; answers local id -> stored id. Clock set per memory to its age. */
export async function loadCorpus(door: AgentDoor, principal: Principal, clock: ManualClock, now: Date, split: Split = "dev"): Promise<Map<string, string>> {
  const { repoId, memories } = readCorpus(split);
  const ids = new Map<string, string>();
  const map = (local: string) => ids.get(local) ?? local;
  for (const memory of memories) {
    clock.set(new Date(now.getTime() - memory.days_ago * 86_400_000));
    const links = {
      ...(memory.links.problem_id ? { problem_id: map(memory.links.problem_id) } : {}),
      ...(memory.links.related_memory_ids ? { related_memory_ids: memory.links.related_memory_ids.map(map) } : {}),
      ...(memory.links.change_targets ? { change_targets: memory.links.change_targets.map(map) } : {}),
    };
    const res = await door(
      principal,
      { op: "write", repo_id: repoId, memory: { text: memory.text, scope: memory.scope, kind: memory.kind, confidence: memory.confidence, links } },
      { requestId: `corpus-${memory.id}` },
    );
    if (res.stop_reason !== "SUCCESS_STORED") throw new Error(`corpus memory ${memory.id}: ${res.stop_reason} ${res.explanations.join("; ")}`);
    ids.set(memory.id, res.memory!.id);
  }
  clock.set(now);
  return ids;
}

export interface ModeScore {
  mode: string;
  queries: number;
  recallAt5: number;
  mrr: number;
  /** recall@5 over the queries labelled `hop` only */
  hopQueries: number;
  hopRecallAt5: number;
  /** items flagged invalidated in any answer read in ambient mode (IF1-CHANGE: must be 0) */
  invalidatedInAmbient: number;
  misses: { query: string; expected: string[]; got: string[] }[];
}

/** Reads every labelled query in `mode` ("labelled": the mode each query is labelled with), limit 10, default expansion (2 hops). */
export async function evaluate(
  door: AgentDoor,
  principal: Principal,
  ids: Map<string, string>,
  mode: "ambient" | "targeted" | "labelled",
  split: Split = "dev",
): Promise<ModeScore> {
  const { repoId, queries } = readCorpus(split);
  const local = new Map([...ids].map(([l, s]) => [s, l]));
  let recall = 0;
  let hopRecall = 0;
  let hopQueries = 0;
  let reciprocal = 0;
  let invalidatedInAmbient = 0;
  const misses: ModeScore["misses"] = [];
  for (const q of queries) {
    const readMode = mode === "labelled" ? q.mode : mode;
    const res = await door(principal, { op: "read", repo_id: repoId, mode: readMode, query: q.query, limit: 10, expand: {} }, { requestId: "eval" });
    if (res.stop_reason !== "SUCCESS_READ") throw new Error(`query "${q.query}": ${res.stop_reason}`);
    const items = res.items ?? [];
    if (readMode === "ambient") invalidatedInAmbient += items.filter((i) => i.invalidated).length;
    const got = items.map((i) => local.get(i.id) ?? i.id);
    const top5 = new Set(got.slice(0, 5));
    const hit = q.expected.filter((e) => top5.has(e)).length / q.expected.length;
    recall += hit;
    if (q.hop) {
      hopQueries++;
      hopRecall += hit;
    }
    const first = got.findIndex((g) => q.expected.includes(g));
    reciprocal += first >= 0 ? 1 / (first + 1) : 0;
    if (hit < 1) misses.push({ query: q.query, expected: q.expected, got: got.slice(0, 5) });
  }
  return {
    mode,
    queries: queries.length,
    recallAt5: recall / queries.length,
    mrr: reciprocal / queries.length,
    hopQueries,
    hopRecallAt5: hopQueries > 0 ? hopRecall / hopQueries : 1,
    invalidatedInAmbient,
    misses,
  };
}

/** Loads one split into its own tenant and scores it in every mode. */
export async function scoreSplit(door: AgentDoor, clock: ManualClock, now: Date, split: Split): Promise<ModeScore[]> {
  const principal = corpusPrincipal(split);
  const ids = await loadCorpus(door, principal, clock, now, split);
  const scores: ModeScore[] = [];
  for (const mode of ["ambient", "targeted", "labelled"] as const) scores.push(await evaluate(door, principal, ids, mode, split));
  return scores;
}

/** Runs `fn` against a throwaway gateway on an embedded FerretDB in a temporary folder. */
export async function withEvalGateway<T>(fn: (door: AgentDoor, clock: ManualClock, now: Date) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-eval-retrieval-"));
  const ferret = await EmbeddedFerretDb.start({ binary: loadConfig().ferretdbBinary, dataDir: path.join(dir, "ferretdb") });
  const now = new Date("2026-03-01T12:00:00.000Z");
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
    return await fn(agentDoor(gateway.services.kernel, gateway.services.contracts.agent.operations), clock, now);
  } finally {
    await gateway.stop();
    await ferret.stop();
  }
}

export function formatScores(scores: ModeScore[], memories: number, split: Split = "dev"): string {
  const lines = [
    `retrieval quality (${split} split) over ${memories} memories, ${scores[0]?.queries ?? 0} labelled queries (${scores[0]?.hopQueries ?? 0} hop)`,
    `${"mode".padEnd(12)}${"recall@5".padStart(10)}${"MRR".padStart(8)}${"hop r@5".padStart(9)}${"invalid".padStart(9)}${"misses".padStart(8)}`,
  ];
  for (const s of scores)
    lines.push(
      `${s.mode.padEnd(12)}${s.recallAt5.toFixed(3).padStart(10)}${s.mrr.toFixed(3).padStart(8)}${s.hopRecallAt5.toFixed(3).padStart(9)}${String(s.invalidatedInAmbient).padStart(9)}${String(s.misses.length).padStart(8)}`,
    );
  return lines.join("\n");
}
