import type { IndexedMemory, LinkType, TenantMemoryIndex } from "./memory-index";

export interface ExpandOptions {
  hops: number;
  includeProblemLinks: boolean;
  includeUpdateLinks: boolean;
  /** Only memories of these spaces are reached: the caller's repository (and global). */
  spaces: readonly string[];
  /** ambient: invalidated memories are neither returned nor walked through. */
  skipInvalidated: boolean;
  /** At most this many memories are added. */
  max: number;
}

export interface ExpandedMemory {
  memory: IndexedMemory;
  hops: number;
  link: LinkType;
  from: string;
}

/**
 * IF1-EXPAND breadth-first from the direct matches along problem, update (change) and
 * related links, in both directions, up to `hops` deep. Each memory appears once, at its
 * shortest distance; the seeds themselves are never repeated. The index is the tenant's,
 * and `spaces` narrows it to what the caller may read, so no walk leaves either.
 */
export function expand(index: TenantMemoryIndex, seeds: readonly string[], options: ExpandOptions): ExpandedMemory[] {
  const seen = new Set(seeds);
  const spaces = new Set(options.spaces);
  const found: ExpandedMemory[] = [];
  let frontier = [...seeds];
  for (let hop = 1; hop <= options.hops && frontier.length > 0; hop++) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const edge of index.neighbours(id)) {
        if (seen.has(edge.to)) continue;
        if (edge.type === "problem" && !options.includeProblemLinks) continue;
        if (edge.type === "update" && !options.includeUpdateLinks) continue;
        const memory = index.get(edge.to);
        if (!memory || !spaces.has(memory.record.space)) continue;
        if (options.skipInvalidated && memory.record.invalidated_by) continue;
        seen.add(edge.to);
        found.push({ memory, hops: hop, link: edge.type, from: id });
        if (found.length >= options.max) return found;
        next.push(edge.to);
      }
    }
    frontier = next;
  }
  return found;
}
