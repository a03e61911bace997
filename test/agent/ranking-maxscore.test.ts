import { TenantMemoryIndex } from "../../src/contracts/agent/memory-index";
import { strongestMatches } from "../../src/contracts/agent/ranking";
import type { AgentMemoryRecord, IndexedRecord } from "../../src/contracts/agent/records";
import { analyze } from "../../src/contracts/agent/text-analysis";

/**
 * IF1-READ at scale (issue 26): the BM25 candidates of a query are found rarest term first and the
 * walk stops once the memories not met cannot reach the pool; the pool must be exactly the one an
 * exhaustive walk gives, and a word found in every memory must not make the walk visit them all.
 */
const COMMON = ["module", "service", "library", "uses", "build"];
const RARE = Array.from({ length: 400 }, (_, i) => `word${i}`);

function record(n: number, text: string, space: string): AgentMemoryRecord {
  return {
    memory_id: `m${n}`,
    space,
    kind: n % 3 === 0 ? "fact" : "solution",
    text,
    status: "active",
    invalidated_by: null,
    links: { problem_id: null, related_memory_ids: [], change_targets: [] },
    evidence_refs: [],
  } as unknown as AgentMemoryRecord;
}

/** A deterministic corpus: every memory holds the common words, and a few rare ones (Zipf-like). */
function corpus(size: number): TenantMemoryIndex {
  const index = new TenantMemoryIndex();
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let n = 0; n < size; n++) {
    const rare = Array.from({ length: 1 + Math.floor(next() * 4) }, () => RARE[Math.floor(RARE.length * next() ** 2)]);
    const words = [...COMMON.filter(() => next() < 0.9), ...rare, ...(next() < 0.2 ? rare.slice(0, 1) : [])];
    index.upsert(record(n, words.join(" "), n % 2 === 0 ? "repo:a" : "repo:b"));
  }
  return index;
}

const top = (pool: { memory: { record: IndexedRecord }; raw: number }[], width: number) =>
  [...pool]
    .sort((a, b) => b.raw - a.raw || (a.memory.record.memory_id < b.memory.record.memory_id ? -1 : 1))
    .slice(0, width)
    .map((p) => [p.memory.record.memory_id, p.raw.toFixed(9)]);

describe("agent ranking: MaxScore candidates (IF1-READ, issue 26)", () => {
  const index = corpus(6000);
  const spaces = ["repo:a", "repo:b"];
  const stats = index.stats(spaces);
  const request = { query: "", mode: "targeted" as const, spaces, limit: 10, now: new Date(0) };

  it.each([["module word3 uses library"], ["word0 word1 word2 service build"], ["word350 module"], ["module service library uses build"], ["word17"]])(
    "IF1-READ: %s: the same pool as an exhaustive walk",
    (query) => {
      const terms = [...new Set(analyze(query))];
      for (const kinds of [null, new Set(["fact"])]) {
        const pruned = strongestMatches(index, request, terms, stats, kinds, 200);
        const exhaustive = strongestMatches(index, request, terms, stats, kinds, Number.POSITIVE_INFINITY);
        expect(top(pruned, 200)).toEqual(top(exhaustive, 200));
      }
    },
  );

  // A rare word met in more memories than the pool holds ends the walk before the common words; one
  // met in fewer (word3: ~200 memories) still walks them, as the pool must hold its width.
  it("IF1-READ: a word in nearly every memory does not make the walk visit them all", () => {
    const terms = [...new Set(analyze("word0 module service uses"))];
    const pool = strongestMatches(index, request, terms, stats, null, 200);
    const exhaustive = strongestMatches(index, request, terms, stats, null, Number.POSITIVE_INFINITY);
    expect(exhaustive.length).toBeGreaterThan(5000);
    expect(pool.length).toBeLessThan(exhaustive.length / 4);
  });
});
