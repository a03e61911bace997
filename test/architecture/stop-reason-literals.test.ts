import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { STOP_REASONS } from "../../src/kernel/outcome";
import { SRC, sourceFiles } from "../support/source-files";

/** Every string literal of a file that is a stop reason (comments and descriptions that merely mention one are not literals equal to it). */
function stopReasonLiterals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && STOP_REASONS.includes(node.text)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The stop reasons TypeScript still writes itself (issue 23 §4: everything else is a policy answer
 * or policy data), each with why it may:
 * - kernel/execute.ts: fail closed, when the policy could not be asked or what was asked failed
 *   (C19-FAIL, INV-8): no decision exists to read a code from.
 * - the stores' repair records (governed, companion, ledger, agent): the event of a write or an
 *   erasure the policy allowed, rebuilt when the process stopped before appending it: the
 *   operation's success code, which the store does not keep with the object.
 * - graphql/errors.ts: GraphQL's `extensions.code` of variables nested too deep, refused by the
 *   transport before any operation runs (IF1-VALID's name for it).
 * - http/server.ts: the 404 of a route that does not exist (`error.code`), not an operation's answer.
 */
const ALLOWED: Record<string, string[]> = {
  "kernel/execute.ts": ["INTERNAL_INCONSISTENCY", "INTERNAL_INCONSISTENCY", "INTERNAL_INCONSISTENCY", "INTERNAL_INCONSISTENCY"],
  "contracts/agent/store.ts": ["SUCCESS_DELETED"],
  "contracts/companion/store.ts": ["SUCCESS_STORED", "MISSING_EXPLICIT_CONSENT", "SUCCESS_DELETED"],
  "contracts/governed/store.ts": ["SUCCESS_UPDATED", "SUCCESS_STORED", "SUCCESS_DELETED"],
  "contracts/ledger/store.ts": ["SUCCESS_DELETED"],
  "graphql/errors.ts": ["SCHEMA_INVALID"],
  "http/server.ts": ["NOT_FOUND"],
};

describe("TypeScript never re-decides (issue 23 §4)", () => {
  it("writes a stop reason literally only in the places listed, each a fail-closed fallback or not a decision", () => {
    const found: Record<string, string[]> = {};
    for (const file of sourceFiles(SRC)) {
      const literals = stopReasonLiterals(file);
      if (literals.length > 0) found[path.relative(SRC, file).split(path.sep).join("/")] = literals.sort();
    }
    const allowed = Object.fromEntries(Object.entries(ALLOWED).map(([file, codes]) => [file, [...codes].sort()]));
    expect(found).toEqual(allowed);
  });

  it("finds a stop reason written as a literal (the check can fail)", () => {
    const file = path.join(SRC, "kernel", "execute.ts");
    expect(stopReasonLiterals(file)).toContain("INTERNAL_INCONSISTENCY");
  });
});
