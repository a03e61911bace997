/** The kinds and modes of seed 001, in the schemas' order. */
export const AGENT_KINDS = ["problem", "solution", "failed_tactic", "fact", "preference", "change"] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];
export type ReadMode = "ambient" | "targeted";
export type UpdateMode = "dry_run" | "commit";

/** `memory.read.request` after schema validation, defaults applied. */
export interface ReadDocument {
  op: "read";
  repo_id: string;
  mode: ReadMode;
  query: string;
  include_global: boolean;
  kinds?: AgentKind[];
  limit: number;
  expand?: { semantic_hops: number; include_problem_links: boolean; include_update_links: boolean };
}

export interface WriteLinks {
  problem_id?: string;
  related_memory_ids?: string[];
  change_targets?: string[];
}

/** `memory.write.request` after schema validation. */
export interface WriteDocument {
  op: "write";
  repo_id: string;
  memory: {
    text: string;
    scope: "repo" | "global";
    kind: AgentKind;
    confidence: number;
    rationale?: string;
    links?: WriteLinks;
    evidence_refs?: string[];
  };
}

export interface TruthUpdate {
  target: number;
  confidence: number;
  rationale: string;
  evidence_refs: string[];
}

export interface UtilityUpdate {
  target: number;
  confidence: number;
  rationale: string;
  context_problem_id?: string;
  evidence_refs?: string[];
}

/** `memory.update.request` after schema validation. */
export interface UpdateDocument {
  op: "update";
  repo_id: string;
  memory_id: string;
  mode: UpdateMode;
  updates: { truth?: TruthUpdate; utility?: UtilityUpdate };
}

export type AgentDocument = ReadDocument | WriteDocument | UpdateDocument;
