import { readdirSync } from "node:fs";
import path from "node:path";

/** The gateway's source folder, read by the architecture tests. */
export const SRC = path.join(__dirname, "..", "..", "src");

/** Every TypeScript source file below `dir` (declaration files left out). */
export function sourceFiles(dir: string = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const at = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(at);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [at] : [];
  });
}
