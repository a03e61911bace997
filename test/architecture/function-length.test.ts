import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { SRC, sourceFiles } from "../support/source-files";

/** Issue 23's target: no function in src/ over this many lines, nested functions counted in their parent. */
export const MAX_FUNCTION_LINES = 120;

/** Every function of a file (declarations, methods, accessors, constructors, arrows, expressions) with its length in lines, first to last. */
export function functionLengths(file: string, text: string): { name: string; line: number; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && "body" in node && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const named = (node as ts.FunctionLikeDeclaration).name;
      const name = named ? named.getText(source) : ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : "(anonymous)";
      found.push({ name, line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("no function in src/ is over 120 lines (issue 23 targets)", () => {
  it("counts a function's lines from its first to its last, nested functions included", () => {
    const body = Array.from({ length: 130 }, (_, i) => `  const x${i} = ${i};`).join("\n");
    const lengths = functionLengths("f.ts", `export function long() {\n${body}\n  const inner = () => {\n    return 1;\n  };\n}\n`);
    expect(lengths).toEqual([
      { name: "long", line: 1, lines: 135 },
      { name: "inner", line: 132, lines: 3 },
    ]);
  });

  it("finds none in src/", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const over = files.flatMap((file) =>
      functionLengths(file, readFileSync(file, "utf8"))
        .filter((f) => f.lines > MAX_FUNCTION_LINES)
        .map((f) => `${path.relative(SRC, file)}:${f.line} ${f.name} (${f.lines} lines)`),
    );
    expect(over).toEqual([]);
  });
});
