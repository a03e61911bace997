import type { IndexedMemory, LinkType, TenantMemoryIndex } from "./memory-index";

export interface ExpandOptions {
  hops: number;
  includeProblemLinks: boolean;
  includeUpdateLinks: boolean;
  /** Only memories of these spaces are reached: the caller's repository (and global). */
  spaces: readonly string[];
  /** ambient: invalidated memories are neither returned nor walked through (an invalidated seed leads to its change only). */
  skipInvalidated: boolean;
}

export interface ExpandedMemory {
  memory: IndexedMemory;
  hops: number;
  link: LinkType;
  from: string;
}

export interface ScoredExpandOptions extends ExpandOptions {
  /** the share of its parent's relevance a memory reached over this link receives */
  weight: (type: LinkType, from: IndexedMemory, to: IndexedMemory) => number;
}

export interface ScoredExpansion extends ExpandedMemory {
  /** the parent's relevance times the link's weight, multiplied along the path */
  relevance: number;
}

/**
 * IF1-EXPAND, IF1-HOPS with relevance carried along the links: breadth-first from seeds that
 * carry their relevance, up to `hops` deep. A memory is reached again only when a link gives
 * it more relevance than it had (a seed that matched weakly but is the solution of a strong
 * match), so each appears once in the answer with its best relevance. In ambient mode an
 * invalidated seed leads only to the change that invalidated it, and no invalidated memory is
 * reached or walked through.
 */
export function expandScored(index: TenantMemoryIndex, seeds: readonly { id: string; relevance: number }[], options: ScoredExpandOptions): ScoredExpansion[] {
  const spaces = new Set(options.spaces);
  const bestRelevance = new Map(seeds.map((s) => [s.id, s.relevance]));
  const found = new Map<string, ScoredExpansion>();
  let frontier = seeds.map((s) => ({ id: s.id, relevance: s.relevance }));
  for (let hop = 1; hop <= options.hops && frontier.length > 0; hop++) {
    const layer = new Map<string, ScoredExpansion>();
    for (const parent of frontier) {
      const from = index.get(parent.id);
      if (!from) continue;
      const ghost = options.skipInvalidated && from.record.invalidated_by !== null;
      for (const edge of index.neighbours(parent.id)) {
        if (edge.type === "problem" && !options.includeProblemLinks) continue;
        if (edge.type === "update" && !options.includeUpdateLinks) continue;
        if (ghost && edge.to !== from.record.invalidated_by) continue;
        const memory = index.get(edge.to);
        if (!memory || !spaces.has(memory.record.space)) continue;
        if (options.skipInvalidated && memory.record.invalidated_by) continue;
        const relevance = parent.relevance * options.weight(edge.type, from, memory);
        if (relevance <= (bestRelevance.get(edge.to) ?? 0) || relevance <= (layer.get(edge.to)?.relevance ?? 0)) continue;
        layer.set(edge.to, { memory, hops: hop, link: edge.type, from: parent.id, relevance });
      }
    }
    for (const [id, reached] of layer) {
      bestRelevance.set(id, reached.relevance);
      found.set(id, reached);
    }
    frontier = [...layer.values()].map((r) => ({ id: r.memory.record.memory_id, relevance: r.relevance }));
  }
  return [...found.values()];
}
