import "reflect-metadata";
import fs from "node:fs";
import path from "node:path";
import { CONTRACT_DEFINITIONS } from "../../src/contracts";
import { AGENT_COLLECTIONS } from "../../src/contracts/agent/records";
import { COMPANION_COLLECTIONS } from "../../src/contracts/companion/records";
import { COMPANION_DUE_EVENTS } from "../../src/contracts/companion/store";
import { GOVERNED_COLLECTIONS } from "../../src/contracts/governed/records";
import { MEMORY_DUE_EVENTS } from "../../src/contracts/governed/store";
import { LEDGER_COLLECTIONS, LEDGER_DUE_EVENTS } from "../../src/contracts/ledger/store";

const STORE = path.join(__dirname, "..", "..", "src", "store");

const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : entry.name.endsWith(".ts") ? [full] : [];
  });

/** The code of a file without its comments: a comment may name a contract as an example, code may not. */
const codeOf = (file: string): string =>
  fs
    .readFileSync(file, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");

/** Every collection a contract keeps, as the contracts name them. */
const CONTRACT_COLLECTIONS = [
  ...Object.values(GOVERNED_COLLECTIONS),
  MEMORY_DUE_EVENTS,
  ...Object.values(LEDGER_COLLECTIONS),
  LEDGER_DUE_EVENTS,
  ...Object.values(COMPANION_COLLECTIONS),
  COMPANION_DUE_EVENTS,
  ...Object.values(AGENT_COLLECTIONS),
];

/**
 * Issue 23 §3: the store is the bottom layer and knows no contract. Dependency-cruiser keeps
 * src/store from importing a contract (store-not-above); this keeps it from knowing one by name:
 * no contract's collection, and no contract's name, appears in its code. The audit contract is
 * the exception by construction: its objects are the event log the store keeps.
 */
describe("src/store names no contract (issue 23 §3)", () => {
  const files = filesUnder(STORE).map((file) => ({ file: path.relative(STORE, file), code: codeOf(file) }));

  it("reads the store layer's files, and every contract collection it looks for", () => {
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(["database.ts", "provenance.ts", "event-log.ts", "log/collections.ts"]));
    expect(CONTRACT_COLLECTIONS).toEqual(expect.arrayContaining(["memories", "memory_versions", "ledger_proposals", "ledger_items"]));
  });

  it("no string in src/store is a contract's collection name (each contract declares its own beside its store)", () => {
    const found = files.flatMap(({ file, code }) =>
      CONTRACT_COLLECTIONS.filter((name) => new RegExp(`["'\`]${name}["'\`]`).test(code)).map((name) => `${file}: "${name}"`),
    );
    expect(found).toEqual([]);
  });

  it("no identifier or string in src/store names a contract (provenance per contract lives in the contract's folder)", () => {
    const names = CONTRACT_DEFINITIONS.map((c) => c.name).filter((name) => name !== "audit");
    expect(names).toEqual(expect.arrayContaining(["governed", "ledger", "companion", "agent"]));
    const found = files.flatMap(({ file, code }) => names.filter((name) => new RegExp(name, "i").test(code)).map((name) => `${file}: ${name}`));
    expect(found).toEqual([]);
  });
});
