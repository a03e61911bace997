// @modelcontextprotocol/conformance imports fs.globSync (Node 22) at load time; memgate runs on
// Node 20. Its server scenarios never call it, so this stand-in only has to exist.
import fs from "node:fs";
export * from "node:fs";
export default fs;
export function globSync() {
  throw new Error("fs.globSync needs Node 22; the conformance server scenarios do not use it");
}
