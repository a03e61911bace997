import type { AgentDocument, ReadDocument, UpdateDocument, WriteDocument } from "./documents";
import type { TenantMemoryIndex } from "./memory-index";
import { GLOBAL_SPACE, repoSpace } from "./records";
import type { SchemaIssue } from "./schema-validation";

/** A memory id the document names, and what the caller can see of it. */
export interface RefFact {
  pointer: string;
  found: boolean;
  kind: string | null;
  /** Kinds the link must name; empty: any. */
  expected_kinds: string[];
}

/**
 * What the validation layer found, as the policy's `input.agent` (IF1-VALID). It reports
 * and never decides: policies/memgate/contracts/agent turns these facts into stop reasons.
 * Sizes are not here: every declared field's length is a kernel fact, bounded by policy data.
 */
export interface AgentFacts {
  schema_issues: SchemaIssue[];
  blank: string[];
  refs: RefFact[];
  kind: string | null;
  change_target_count: number;
}

export function schemaFacts(issues: SchemaIssue[]): AgentFacts {
  return { schema_issues: issues, blank: [], refs: [], kind: null, change_target_count: 0 };
}

/** The spaces a caller reaches through a document naming `repoId`: the repository and the tenant's global space. */
export function visibleSpaces(repoId: string): string[] {
  return [repoSpace(repoId), GLOBAL_SPACE];
}

/**
 * IF1-VALID second layer, over a document that passed its schema. Links are looked up in
 * `index` (the tenant's memories); without one (a repository the token does not name, whose
 * memories are never gathered) links are not judged at all, so nothing tells whether they exist.
 */
export function semanticFacts(document: AgentDocument, index: TenantMemoryIndex | null): AgentFacts {
  const facts = schemaFacts([]);
  const blank = (pointer: string, text: string | undefined) => {
    if (text !== undefined && text.trim() === "") facts.blank.push(pointer);
  };
  const spaces = new Set(visibleSpaces(document.repo_id));
  const ref = (pointer: string, id: string, expected: string[]) => {
    if (!index) return;
    const memory = index.get(id);
    const visible = memory !== undefined && spaces.has(memory.record.space);
    facts.refs.push({ pointer, found: visible, kind: visible ? memory.record.kind : null, expected_kinds: expected });
  };
  const refs = (pointer: string, values: string[] | undefined) => values?.forEach((v, i) => blank(`${pointer}/${i}`, v));

  blank("/repo_id", document.repo_id);
  if (document.op === "read") {
    blank("/query", (document as ReadDocument).query);
  } else if (document.op === "write") {
    const { memory } = document as WriteDocument;
    facts.kind = memory.kind;
    blank("/memory/text", memory.text);
    refs("/memory/evidence_refs", memory.evidence_refs);
    const links = memory.links ?? {};
    if (links.problem_id !== undefined) ref("/memory/links/problem_id", links.problem_id, ["problem"]);
    links.related_memory_ids?.forEach((id, i) => ref(`/memory/links/related_memory_ids/${i}`, id, []));
    links.change_targets?.forEach((id, i) => ref(`/memory/links/change_targets/${i}`, id, []));
    facts.change_target_count = links.change_targets?.length ?? 0;
  } else {
    const update = document as UpdateDocument;
    blank("/memory_id", update.memory_id);
    for (const field of ["truth", "utility"] as const) {
      const value = update.updates[field];
      if (!value) continue;
      blank(`/updates/${field}/rationale`, value.rationale);
      refs(`/updates/${field}/evidence_refs`, value.evidence_refs);
    }
    const context = update.updates.utility?.context_problem_id;
    if (context !== undefined) ref("/updates/utility/context_problem_id", context, ["problem"]);
  }
  return facts;
}
