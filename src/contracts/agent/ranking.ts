import type { IndexedRecord } from "./records";
import { expandScored } from "./expansion";
import type { IndexedMemory, LinkType, TenantMemoryIndex } from "./memory-index";
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
  /**
   * IF1-HOPS: a linked memory's relevance is its parent's times the weight of the link, by what
   * the link leads to (docs/RETRIEVAL.md, "Hops that rank"). A problem's solution is nearly as
   * relevant as the problem; an old fact's change replaces it.
   */
  linkWeights: {
    /** problem -> its solution */
    solution: 0.9,
    /** problem -> a tactic that failed on it */
    failedTactic: 0.6,
    /** solution or failed tactic -> its problem */
    problem: 0.75,
    /** invalidated memory -> the change that invalidated it */
    change: 0.9,
    /** change -> a memory it invalidated (targeted only: ambient never shows those) */
    target: 0.5,
    /** related, either way */
    related: 0.6,
  },
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
 * best match, times a quality prior from truth, utility, confidence and recency; weak matches
 * below a floor dropped in ambient mode; adjacent query-term pairs add to relevance in
 * targeted mode. Every direct match, best first, invalidated ones included (retrieve() keeps
 * them out of ambient answers, but they lead to the change that replaced them).
 */
function scoreDirect(index: TenantMemoryIndex, request: RankQuery): RankedMemory[] {
  const queryTerms = analyze(request.query);
  const unique = [...new Set(queryTerms)];
  if (unique.length === 0) return [];
  const stats = index.stats(request.spaces);
  if (stats.docs === 0) return [];
  const kinds = request.kinds && request.kinds.length > 0 ? new Set(request.kinds) : null;
  const ambient = request.mode === "ambient";

  const width = Math.max(RANKING.candidatePool, request.limit * 4);
  let pool = strongestMatches(index, request, unique, stats, kinds, width);
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
    ranked.push({ memory, score: scoreOf(memory, relevance, request.now), relevance });
  }
  return ranked.sort(byScore);
}

interface QueryTerm {
  term: string;
  idf: number;
  /** The most one memory can get from this term: a term's BM25 share is below idf x (k1 + 1). */
  bound: number;
}

/**
 * The `width` strongest BM25 matches (all of them when fewer), each with its full BM25 score,
 * without walking every posting of the common terms (MaxScore): the terms are walked rarest
 * first, each new memory scored in full by lookups, and the walk stops once the memories it
 * has not met (which hold only the terms left) cannot reach the width-th best score found. A
 * query with a word in most memories ("module", "uses") then costs the rare terms' postings,
 * not the tenant's size.
 */
export function strongestMatches(
  index: TenantMemoryIndex,
  request: RankQuery,
  unique: string[],
  stats: ReturnType<TenantMemoryIndex["stats"]>,
  kinds: Set<string> | null,
  width: number,
): { memory: IndexedMemory; raw: number }[] {
  const terms: QueryTerm[] = [];
  for (const term of unique) {
    const df = stats.df(term);
    if (df === 0) continue;
    const idf = Math.log(1 + (stats.docs - df + 0.5) / (df + 0.5));
    terms.push({ term, idf, bound: idf * (RANKING.k1 + 1) });
  }
  terms.sort((a, b) => b.bound - a.bound);
  const left = terms.map((_, i) => terms.slice(i).reduce((sum, t) => sum + t.bound, 0));

  const fullScore = (memory: IndexedMemory): number => {
    let score = 0;
    for (const { term, idf } of terms) {
      const tf = index.postings(memory.record.space, term)?.get(memory.record.memory_id);
      if (!tf) continue;
      const norm = tf + RANKING.k1 * (1 - RANKING.b + (RANKING.b * memory.length) / stats.avgLength);
      score += (idf * tf * (RANKING.k1 + 1)) / norm;
    }
    return score;
  };

  const met = new Set<string>();
  const pool: { memory: IndexedMemory; raw: number }[] = [];
  for (let i = 0; i < terms.length; i++) {
    if (pool.length >= width && left[i] < widthBest(pool, width)) break;
    for (const space of request.spaces) {
      for (const id of index.postings(space, terms[i].term)?.keys() ?? []) {
        if (met.has(id)) continue;
        met.add(id);
        const memory = index.get(id)!;
        if (kinds && !kinds.has(memory.record.kind)) continue;
        pool.push({ memory, raw: fullScore(memory) });
      }
    }
  }
  return pool;
}

/** The width-th best score of the pool (the pool holds at least `width`). */
function widthBest(pool: { raw: number }[], width: number): number {
  const scores = pool.map((p) => p.raw).sort((a, b) => b - a);
  return scores[width - 1];
}

/** score = relevance x prior, an invalidated memory lower still. */
function scoreOf(memory: IndexedMemory, relevance: number, now: Date): number {
  const score = relevance * (1 - RANKING.priorShare + RANKING.priorShare * quality(memory.record, now));
  return memory.record.invalidated_by ? score * RANKING.invalidatedFactor : score;
}

const byScore = (a: { score: number; memory: IndexedMemory }, b: { score: number; memory: IndexedMemory }): number =>
  b.score - a.score || (a.memory.record.memory_id < b.memory.record.memory_id ? -1 : 1);

export interface RetrieveQuery extends RankQuery {
  /** IF1-EXPAND; absent or 0 hops: direct matches only */
  expand?: { hops: number; includeProblemLinks: boolean; includeUpdateLinks: boolean };
}

export interface RetrievedMemory {
  memory: IndexedMemory;
  score: number;
  reached: { via: "direct" } | { via: "link"; hops: number; link: LinkType; from: string };
}

/**
 * IF1-READ with IF1-HOPS: direct matches and the memories linked to them compete for the same
 * `limit` places. A linked memory's relevance is its parent's times the link's weight
 * (RANKING.linkWeights), then the same prior applies; a memory both matched and linked keeps
 * its better score. In ambient mode an invalidated match is never returned, but it leads to
 * the change that invalidated it, and weak links fall under the same floor as weak matches.
 */
export function retrieve(index: TenantMemoryIndex, request: RetrieveQuery): RetrievedMemory[] {
  const ambient = request.mode === "ambient";
  const direct = scoreDirect(index, request);
  const best = new Map<string, RetrievedMemory>();
  for (const r of direct) {
    if (ambient && r.memory.record.invalidated_by) continue;
    best.set(r.memory.record.memory_id, { memory: r.memory, score: r.score, reached: { via: "direct" } });
  }
  const hops = request.expand?.hops ?? 0;
  if (request.expand && hops > 0) {
    // seeds: the matches that could hold a place (and, in ambient mode, the invalidated ones)
    const seeds = direct.slice(0, Math.max(request.limit, 1) * 2).map((r) => ({ id: r.memory.record.memory_id, relevance: r.relevance }));
    const linked = expandScored(index, seeds, {
      hops,
      includeProblemLinks: request.expand.includeProblemLinks,
      includeUpdateLinks: request.expand.includeUpdateLinks,
      spaces: request.spaces,
      skipInvalidated: ambient,
      weight: linkWeight,
    });
    for (const l of linked) {
      if (ambient && l.relevance < RANKING.ambientFloor) continue;
      const score = scoreOf(l.memory, l.relevance, request.now);
      const known = best.get(l.memory.record.memory_id);
      if (known && known.score >= score) continue;
      best.set(l.memory.record.memory_id, { memory: l.memory, score, reached: { via: "link", hops: l.hops, link: l.link, from: l.from } });
    }
  }
  return [...best.values()].sort(byScore).slice(0, request.limit);
}

/** The weight of a link from `from` to `to` (RANKING.linkWeights). */
export function linkWeight(type: LinkType, from: IndexedMemory, to: IndexedMemory): number {
  const w = RANKING.linkWeights;
  if (type === "related") return w.related;
  if (type === "update") return to.record.kind === "change" && from.record.invalidated_by === to.record.memory_id ? w.change : w.target;
  if (to.record.kind === "solution") return w.solution;
  if (to.record.kind === "failed_tactic") return w.failedTactic;
  return w.problem;
}

/** Q in [0, 1]: how much a memory deserves trust and attention, whatever the query. */
export function quality(record: IndexedRecord, now: Date): number {
  const w = RANKING.weights;
  return w.truth * effectiveTruth(record) + w.utility * effectiveUtility(record) + w.confidence * record.confidence + w.recency * recency(record, now);
}

/** No truth update yet: the writer's confidence. Else the target, trusted as far as its confidence. */
export function effectiveTruth(record: IndexedRecord): number {
  const t = record.truth;
  return t ? t.confidence * t.target + (1 - t.confidence) * record.confidence : record.confidence;
}

export function effectiveUtility(record: IndexedRecord): number {
  const u = record.utility;
  return u ? u.confidence * u.target + (1 - u.confidence) * RANKING.neutralUtility : RANKING.neutralUtility;
}

function recency(record: IndexedRecord, now: Date): number {
  const ageDays = Math.max(0, now.getTime() - record.created_at.getTime()) / 86_400_000;
  return Math.pow(0.5, ageDays / RANKING.recencyHalfLifeDays);
}

function adjacentPairs(terms: string[]): string[] {
  const pairs = new Set<string>();
  for (let i = 1; i < terms.length; i++) if (terms[i - 1] !== terms[i]) pairs.add(`${terms[i - 1]} ${terms[i]}`);
  return [...pairs];
}

/** How many of the pairs ("first second") occur as adjacent terms of `terms` (terms joined by spaces). */
function pairHits(terms: string, pairs: string[]): number {
  const spaced = ` ${terms} `;
  return pairs.filter((pair) => spaced.includes(` ${pair} `)).length;
}
