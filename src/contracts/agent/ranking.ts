import type { AgentMemoryRecord } from "./records";
import type { IndexedMemory, TenantMemoryIndex } from "./memory-index";
import { analyze } from "./text-analysis";
import type { ReadMode } from "./documents";

/** The ranking constants; docs/RETRIEVAL.md explains each. */
export const RANKING = Object.freeze({
  k1: 1.2,
  b: 0.75,
  /** Weights of the quality prior Q (they sum to 1). */
  weights: { truth: 0.45, utility: 0.25, confidence: 0.15, recency: 0.15 },
  /** score = relevance * (1 - priorShare + priorShare * Q) */
  priorShare: 0.3,
  recencyHalfLifeDays: 90,
  neutralUtility: 0.5,
  /** ambient: drop matches whose BM25 is below this share of the best match's. */
  ambientFloor: 0.3,
  /** targeted: each adjacent query-term pair found adjacent in the memory adds this share. */
  targetedPairBonus: 0.25,
  /** Only this many of the strongest BM25 matches (at least 4 x limit) are scored in full. */
  candidatePool: 200,
  /** targeted: an invalidated memory keeps this share of its score (it is shown, flagged, lower). */
  invalidatedFactor: 0.5,
});

export interface RankQuery {
  query: string;
  mode: ReadMode;
  spaces: readonly string[];
  kinds?: readonly string[];
  limit: number;
  now: Date;
}

export interface RankedMemory {
  memory: IndexedMemory;
  score: number;
  relevance: number;
}

/**
 * IF1-READ ranked retrieval: BM25 over the searched spaces as one corpus, normalised by the
 * best match, times a quality prior from truth, utility, confidence and recency.
 * ambient: invalidated memories left out, weak matches below a floor dropped.
 * targeted: adjacent query-term pairs add to relevance; invalidated memories kept, ranked lower.
 */
export function rank(index: TenantMemoryIndex, request: RankQuery): RankedMemory[] {
  const queryTerms = analyze(request.query);
  const unique = [...new Set(queryTerms)];
  if (unique.length === 0) return [];
  const stats = index.stats(request.spaces);
  if (stats.docs === 0) return [];
  const kinds = request.kinds && request.kinds.length > 0 ? new Set(request.kinds) : null;
  const ambient = request.mode === "ambient";

  const bm25 = new Map<string, number>();
  for (const term of unique) {
    const df = stats.df(term);
    if (df === 0) continue;
    const idf = Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
    for (const space of request.spaces) {
      const postings = index.postings(space, term);
      if (!postings) continue;
      for (const [id, tf] of postings) {
        const memory = index.get(id)!;
        const norm = tf + RANKING.k1 * (1 - RANKING.b + (RANKING.b * memory.terms.length) / stats.avgLength);
        bm25.set(id, (bm25.get(id) ?? 0) + (idf * tf * (RANKING.k1 + 1)) / norm);
      }
    }
  }

  // Filters first, then only the strongest BM25 matches are scored in full: the pair bonus
  // (at most x1.25) and the prior (x0.7..1) cannot lift a memory past hundreds of stronger ones.
  let pool: { memory: IndexedMemory; raw: number }[] = [];
  for (const [id, score] of bm25) {
    const memory = index.get(id)!;
    if (kinds && !kinds.has(memory.record.kind)) continue;
    if (ambient && memory.record.invalidated_by) continue;
    pool.push({ memory, raw: score });
  }
  const width = Math.max(RANKING.candidatePool, request.limit * 4);
  if (pool.length > width) pool = pool.sort((a, b) => b.raw - a.raw).slice(0, width);

  const pairs = ambient ? [] : adjacentPairs(queryTerms);
  let best = 0;
  for (const candidate of pool) {
    if (pairs.length > 0) candidate.raw *= 1 + (RANKING.targetedPairBonus * pairHits(candidate.memory.terms, pairs)) / pairs.length;
    if (candidate.raw > best) best = candidate.raw;
  }

  const ranked: RankedMemory[] = [];
  for (const { memory, raw } of pool) {
    const relevance = raw / best;
    if (ambient && relevance < RANKING.ambientFloor) continue;
    let score = relevance * (1 - RANKING.priorShare + RANKING.priorShare * quality(memory.record, request.now));
    if (memory.record.invalidated_by) score *= RANKING.invalidatedFactor;
    ranked.push({ memory, score, relevance });
  }
  ranked.sort((a, b) => b.score - a.score || (a.memory.record.memory_id < b.memory.record.memory_id ? -1 : 1));
  return ranked.slice(0, request.limit);
}

/** Q in [0, 1]: how much a memory deserves trust and attention, whatever the query. */
export function quality(record: AgentMemoryRecord, now: Date): number {
  const w = RANKING.weights;
  return w.truth * effectiveTruth(record) + w.utility * effectiveUtility(record) + w.confidence * record.confidence + w.recency * recency(record, now);
}

/** No truth update yet: the writer's confidence. Else the target, trusted as far as its confidence. */
export function effectiveTruth(record: AgentMemoryRecord): number {
  const t = record.truth;
  return t ? t.confidence * t.target + (1 - t.confidence) * record.confidence : record.confidence;
}

export function effectiveUtility(record: AgentMemoryRecord): number {
  const u = record.utility;
  return u ? u.confidence * u.target + (1 - u.confidence) * RANKING.neutralUtility : RANKING.neutralUtility;
}

function recency(record: AgentMemoryRecord, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - record.created_at.getTime()) / 86_400_000;
  return Math.pow(0.5, ageDays / RANKING.recencyHalfLifeDays);
}

function adjacentPairs(terms: string[]): string[] {
  const pairs = new Set<string>();
  for (let i = 1; i < terms.length; i++) if (terms[i - 1] !== terms[i]) pairs.add(`${terms[i - 1]} ${terms[i]}`);
  return [...pairs];
}

function pairHits(terms: string[], pairs: string[]): number {
  let hits = 0;
  for (const pair of pairs) {
    const space = pair.indexOf(" ");
    const first = pair.slice(0, space);
    const second = pair.slice(space + 1);
    for (let i = 1; i < terms.length; i++) {
      if (terms[i - 1] === first && terms[i] === second) {
        hits++;
        break;
      }
    }
  }
  return hits;
}
