import type { Principal } from "../../auth/principal";
import type { Kernel } from "../../kernel/execute";
import type { CallContext } from "../../kernel/outcome";
import type { AgentOperations } from "./operations";
import { toResponse, type AgentResponse } from "./response";
import { isAgentOp, unknownFields, type AgentOp } from "./schema-validation";

/**
 * What every door of the agent contract does with a seed-001 document (GraphQL and
 * POST /v1/memory alike): pick the declared operation its `op` (and an update's `mode`)
 * names, hand the document to the kernel unchanged, shape the answer. `expected` pins the
 * operation (the typed GraphQL fields). A document that names none is DISPATCH, which the
 * policy refuses with the reason.
 */
export async function runDocument(
  kernel: Kernel,
  operations: AgentOperations,
  principal: Principal,
  document: unknown,
  call: CallContext,
  expected?: AgentOp,
): Promise<AgentResponse> {
  const isObject = typeof document === "object" && document !== null && !Array.isArray(document);
  const claimed = expected ?? (isObject ? (document as { op?: unknown }).op : undefined);
  const op = isAgentOp(claimed) ? claimed : null;
  // A field the schema does not list would be dropped by the kernel's field parse: the door names
  // it, and the policy refuses the document at its pointer (SCHEMA_INVALID; issue 22 §7).
  const strays = op ? unknownFields(document, op) : [];
  const judged: CallContext = strays.length > 0 ? { ...call, unknownFields: [...new Set([...(call.unknownFields ?? []), ...strays])] } : call;
  switch (op) {
    case "read":
      return toResponse(op, await kernel.run(operations.read, principal, document, judged));
    case "write":
      return toResponse(op, await kernel.run(operations.write, principal, document, judged));
    case "update": {
      const dryRun = isObject && (document as { mode?: unknown }).mode === "dry_run";
      return toResponse(op, await kernel.run(dryRun ? operations.updateDryRun : operations.update, principal, document, judged));
    }
    default:
      return toResponse(null, await kernel.run(operations.dispatch, principal, { document }, call));
  }
}

/** A door as a function: one document in, one answer out (scripts and tests drive the contract this way, like any door). */
export type AgentDoor = (principal: Principal, document: unknown, call: CallContext) => Promise<AgentResponse>;

export function agentDoor(kernel: Kernel, operations: AgentOperations): AgentDoor {
  return (principal, document, call) => runDocument(kernel, operations, principal, document, call);
}
