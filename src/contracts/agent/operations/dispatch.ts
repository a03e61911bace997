import { operation } from "../../../kernel/operation";
import { DISPATCH_FIELDS } from "../fields";
import type { AgentResult } from "../response";
import { validateDocument } from "../schema-validation";
import { schemaFacts } from "../semantic-validation";
import { AGENT_CONTRACT } from "../store";
import { documentSubject, isObject, refusal, type DispatchRequest } from "./shared";

/** DISPATCH: a document that is none of the three, judged by its own issue, never allowed (no handler: fail closed). */
export function dispatch() {
  return operation<DispatchRequest, undefined, AgentResult>({
    contract: AGENT_CONTRACT,
    name: "DISPATCH",
    fields: DISPATCH_FIELDS,
    subject: (raw, ctx) => documentSubject(isObject(raw) ? raw.document : undefined, ctx),
    input(req) {
      const result = validateDocument(req.document);
      const issues = result.ok ? [{ pointer: "/op", keyword: "enum", message: 'is required and must be one of "read", "write", "update"' }] : result.issues;
      return { agent: schemaFacts(issues) };
    },
    refusal,
  });
}
