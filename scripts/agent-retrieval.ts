/**
 * The retrieval-quality evaluation of the agent interface (IF1-READ), shared by
 * `npm run eval:retrieval` and test/agent/retrieval-quality.test.ts: the labelled corpus in
 * test/corpus/agent-retrieval/ is written through the real kernel (real policy, real
 * database), then every query is read in both modes and scored by recall@5 and MRR.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Principal } from "../src/auth/principal";
import type { ManualClock } from "../src/clock";
import type { AgentDoor } from "../src/contracts/agent/door";

const CORPUS = path.resolve(__dirname, "..", "..", "test", "corpus", "agent-retrieval");
const corpusDir = (): string => {
  for (const dir of [CORPUS, path.resolve(__dirname, "..", "test", "corpus", "agent-retrieval")]) {
    try {
      readFileSync(path.join(dir, "queries.json"));
      return dir;
    } catch {
      /* try the next layout (ts-jest runs from source, the build from dist/) */
    }
  }
  throw new Error("test/corpus/agent-retrieval not found");
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
}

export function readCorpus(): { repoId: string; memories: CorpusMemory[]; queries: LabelledQuery[] } {
  const dir = corpusDir();
  const memories = JSON.parse(readFileSync(path.join(dir, "memories.json"), "utf8")) as { repo_id: string; memories: CorpusMemory[] };
  const queries = JSON.parse(readFileSync(path.join(dir, "queries.json"), "utf8")) as { queries: LabelledQuery[] };
  return { repoId: memories.repo_id, memories: memories.memories, queries: queries.queries };
}

/** Writes the corpus through the agent door; answers local id -> stored id. Clock set per memory to its age. */
export async function loadCorpus(door: AgentDoor, principal: Principal, clock: ManualClock, now: Date): Promise<Map<string, string>> {
  const { repoId, memories } = readCorpus();
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
  misses: { query: string; expected: string[]; got: string[] }[];
}

/** Reads every labelled query in `mode` ("labelled": the mode each query is labelled with). */
export async function evaluate(door: AgentDoor, principal: Principal, ids: Map<string, string>, mode: "ambient" | "targeted" | "labelled"): Promise<ModeScore> {
  const { repoId, queries } = readCorpus();
  const local = new Map([...ids].map(([l, s]) => [s, l]));
  let recall = 0;
  let reciprocal = 0;
  const misses: ModeScore["misses"] = [];
  for (const q of queries) {
    const res = await door(
      principal,
      { op: "read", repo_id: repoId, mode: mode === "labelled" ? q.mode : mode, query: q.query, limit: 10 },
      { requestId: "eval" },
    );
    if (res.stop_reason !== "SUCCESS_READ") throw new Error(`query "${q.query}": ${res.stop_reason}`);
    const got = (res.items ?? []).map((i) => local.get(i.id) ?? i.id);
    const top5 = new Set(got.slice(0, 5));
    const hit = q.expected.filter((e) => top5.has(e)).length;
    recall += hit / q.expected.length;
    const first = got.findIndex((g) => q.expected.includes(g));
    reciprocal += first >= 0 ? 1 / (first + 1) : 0;
    if (hit < q.expected.length) misses.push({ query: q.query, expected: q.expected, got: got.slice(0, 5) });
  }
  return { mode, queries: queries.length, recallAt5: recall / queries.length, mrr: reciprocal / queries.length, misses };
}

export function formatScores(scores: ModeScore[], memories: number): string {
  const lines = [
    `retrieval quality over ${memories} memories, ${scores[0]?.queries ?? 0} labelled queries`,
    `${"mode".padEnd(12)}${"recall@5".padStart(10)}${"MRR".padStart(8)}${"misses".padStart(8)}`,
  ];
  for (const s of scores)
    lines.push(`${s.mode.padEnd(12)}${s.recallAt5.toFixed(3).padStart(10)}${s.mrr.toFixed(3).padStart(8)}${String(s.misses.length).padStart(8)}`);
  return lines.join("\n");
}
