import type { Operation } from "../../../kernel/operation";
import type { TenantMemoryIndex } from "../memory-index";
import type { AgentResult } from "../response";
import { dispatch } from "./dispatch";
import { read } from "./read";
import type { AgentParts, DocumentRequest } from "./shared";
import { update } from "./update";
import { write } from "./write";

export { AgentError } from "./shared";
export type { AgentParts, DispatchRequest, DocumentRequest } from "./shared";

/**
 * The agent memory interface of seed 001 as operations the kernel runs, one file each: READ
 * (ranked retrieval with link expansion, IF1-READ, IF1-EXPAND), WRITE (an immutable memory; a
 * change invalidates its targets, IF1-WRITE, IF1-CHANGE), UPDATE and UPDATE_DRY_RUN (truth
 * and/or utility, IF1-UPDATE) and DISPATCH (a document that is none of these). Each reads what
 * the policy needs, reports facts (the exact schema's issues, IF1-VALID) and writes through the
 * write set; the policy decides (policies/memgate/contracts/agent).
 */
export function agentOperations(parts: AgentParts) {
  return { read: read(parts), write: write(parts), update: update(parts, "commit"), updateDryRun: update(parts, "dry_run"), dispatch: dispatch() };
}

export type AgentOperations = ReturnType<typeof agentOperations>;
export type AgentDocumentOperation = Operation<DocumentRequest, TenantMemoryIndex | undefined, AgentResult>;
