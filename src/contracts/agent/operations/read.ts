import { operation } from "../../../kernel/operation";
import type { ReadDocument } from "../documents";
import { READ_FIELDS } from "../fields";
import type { TenantMemoryIndex } from "../memory-index";
import { retrieve } from "../ranking";
import { repoSpace } from "../records";
import { toItem, type AgentItem, type AgentResult } from "../response";
import { visibleSpaces } from "../semantic-validation";
import { AGENT_CONTRACT } from "../store";
import { documentOf, documentSubject, factsOf, indexOf, refusal, validated, type AgentParts, type DocumentRequest } from "./shared";

/** READ (IF1-READ, IF1-EXPAND): ranked retrieval with link expansion. */
export function read({ indexes }: AgentParts) {
  return operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>({
    contract: AGENT_CONTRACT,
    name: "READ",
    fields: READ_FIELDS,
    subject: documentSubject,
    async gather(req, ctx) {
      return validated(req, "read").ok ? indexes.fresh(ctx.tenantId) : undefined;
    },
    input(req, index) {
      const { facts, result } = factsOf(req, "read", index);
      if (!result.ok) return { agent: facts };
      const document = result.document as ReadDocument;
      return {
        agent: facts,
        read: { mode: document.mode, limit: document.limit, include_global: document.include_global, hops: document.expand?.semantic_hops ?? 0 },
      };
    },
    refusal,
    async allow(req, gathered, ctx) {
      const document = documentOf<ReadDocument>(req, "read");
      const index = indexOf(gathered);
      const spaces = document.include_global ? visibleSpaces(document.repo_id) : [repoSpace(document.repo_id)];
      // IF1-HOPS: linked memories compete with direct matches for the `limit` places (ranking.ts)
      const retrieved = retrieve(index, {
        query: document.query,
        mode: document.mode,
        spaces,
        kinds: document.kinds,
        limit: document.limit,
        now: ctx.now,
        expand: document.expand
          ? {
              hops: document.expand.semantic_hops,
              includeProblemLinks: document.expand.include_problem_links,
              includeUpdateLinks: document.expand.include_update_links,
            }
          : undefined,
      });
      const items: AgentItem[] = retrieved.map((r) => toItem(r.memory.record, index, { score: r.score, reached: r.reached }));
      return { items };
    },
  });
}
