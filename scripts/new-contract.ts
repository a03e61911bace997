/**
 * `npm run new-contract -- <name> [--root <dir>]`: writes a new contract with one write (WRITE)
 * and one read (LIST) operation, and registers it (docs/ARCHITECTURE.md "A new contract"):
 *
 *   src/contracts/<name>/fields.ts            the declarations (fields, descriptions, stored text, output)
 *   src/contracts/<name>/operations/write.ts  WRITE: gather nothing, allow = insert with its undo and event
 *   src/contracts/<name>/operations/read.ts   LIST: the subject's live notes
 *   src/contracts/<name>/store.ts             ContractStore (settle, erase) and its re-judge target
 *   src/contracts/<name>/index.ts             the definition src/contracts/index.ts registers
 *   policies/memgate/contracts/<name>/        data.json (operations, bounds), <name>.rego, <name>_test.rego
 *
 * and one import and one entry in src/contracts/index.ts. GraphQL, MCP, REST/OpenAPI, re-judging
 * and erasure then see it with no other edit (test/contracts/new-contract.test.ts proves it).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const pascal = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

export function contractFiles(name: string): Record<string, string> {
  const Name = pascal(name);
  const UPPER = name.toUpperCase();
  return {
    [`src/contracts/${name}/fields.ts`]: `import type { OperationDeclaration } from "../../kernel/declaration";
import { id, integer, text, type Fields } from "../../kernel/fields";

/**
 * The ${name} contract's declarations: what each operation accepts and answers. GraphQL, MCP and
 * REST/OpenAPI publish them (derivedDoors), re-judging reads the stored text, erasure removes the
 * stored fields; policies/memgate/contracts/${name}/data.json "fields" bounds each string field.
 */
const SUBJECT: Fields = { subject_id: id({ graphqlId: true, description: "One of your token's subjects; default: its first." }) };

export const WRITE_FIELDS: Fields = {
  ...SUBJECT,
  text: text({ required: true, stored: true, description: "The note. Forbidden content and injection attempts are refused." }),
};
export const LIST_FIELDS: Fields = { ...SUBJECT, limit: integer({ description: "How many notes at most (newest first)." }) };

const NOTE: Fields = {
  note_id: id({ required: true, graphqlId: true, description: "The note's id." }),
  text: text({ required: true, description: "The note." }),
  created_at: text({ required: true, description: "ISO 8601" }),
};

export const WRITE: OperationDeclaration = {
  contract: "${name}",
  name: "WRITE",
  kind: "write",
  description: "Write a ${name} note for the subject.",
  fields: WRITE_FIELDS,
  output: NOTE,
  derivedDoors: true,
};
export const LIST: OperationDeclaration = {
  contract: "${name}",
  name: "LIST",
  kind: "read",
  description: "The subject's ${name} notes, newest first.",
  fields: LIST_FIELDS,
  output: { notes: { kind: "list", of: { kind: "object", fields: NOTE }, required: true } },
  derivedDoors: true,
};
`,
    [`src/contracts/${name}/operations/write.ts`]: `import { randomUUID } from "node:crypto";
import { operation } from "../../../kernel/operation";
import { WRITE } from "../fields";
import type { ${Name}Store, NoteRecord } from "../store";

export interface WriteRequest {
  subject_id?: string | null;
  text?: string | null;
}

/** WRITE: the policy judged the text (detectors, bounds, rules); the note is inserted with its undo, then its event. */
export const writeOperation = (store: ${Name}Store) =>
  operation<WriteRequest, undefined, NoteRecord>({
    ...WRITE,
    async allow(req, _g, ctx, writes) {
      const record = store.record(ctx.tenantId, ctx.subjectId, \`note_\${randomUUID()}\`, req, ctx.now);
      await writes.creating([{ objectId: record.note_id }], record);
      await writes.run(
        () => store.insert(record),
        () => store.remove(record),
      );
      writes.event({ event_type: "create", memory_id: record.note_id, metadata: { length: String(record.text).length }, settle: () => store.markSettled(record) });
      return record;
    },
  });
`,
    [`src/contracts/${name}/operations/read.ts`]: `import { operation } from "../../../kernel/operation";
import { LIST } from "../fields";
import type { ${Name}Store, NoteRecord } from "../store";

export interface ListRequest {
  subject_id?: string | null;
  limit?: number | null;
}

/** LIST: the subject's live notes, newest first (the policy bounds nothing here but the subject). */
export const listOperation = (store: ${Name}Store) =>
  operation<ListRequest, undefined, { notes: NoteRecord[] }>({
    ...LIST,
    allow: async (req, _g, ctx) => ({ notes: await store.list(ctx.tenantId, ctx.subjectId, req.limit ?? 20) }),
  });
`,
    [`src/contracts/${name}/store.ts`]: `import type { Collection, Document } from "mongodb";
import type { ContractStore, ErasureMark, UnsettledObject } from "../../kernel/contract-store";
import { erasedFields, storedTexts, storedValues } from "../../kernel/declaration";
import { HeldRejudgeTarget, type RejudgeCandidate } from "../../kernel/rejudge";
import type { Database } from "../../store/database";
import { memoryDocId } from "../../store/ids";
import { StatusQuarantine, tenantBatch } from "../../store/quarantined";
import { WRITE_FIELDS } from "./fields";

/** A stored note: identity and lifecycle here; its content is what WRITE declares stored (fields.ts). */
export interface NoteRecord {
  _id: string;
  tenant_id: string;
  subject_id: string;
  note_id: string;
  text: string;
  status: "active" | "quarantined" | "erased";
  created_at: Date;
  settled: boolean;
  erasure?: ErasureMark;
  [stored: string]: unknown;
}

const COLLECTION = "${name}_notes";
/** What an erasure removes: the stored fields the declarations name (SPEC D1). */
const ERASED = erasedFields(WRITE_FIELDS);
const STORED_PROJECTION = Object.fromEntries(ERASED.map((field) => [field, 1]));

/** The ${name} notes: one collection; written first, settled once the event is in the log (docs/AUDIT.md). */
export class ${Name}Store implements ContractStore {
  readonly contract = "${name}";
  readonly notes: Collection<NoteRecord>;

  constructor(db: Database) {
    this.notes = db.collection<NoteRecord>(COLLECTION);
  }

  /** The note as stored: identity, and every field WRITE declares stored (a new stored field needs no edit here). */
  record(tenantId: string, subjectId: string, noteId: string, request: object, at: Date): NoteRecord {
    return {
      ...(storedValues(WRITE_FIELDS, request) as { text: string }),
      _id: memoryDocId(tenantId, subjectId, noteId),
      tenant_id: tenantId,
      subject_id: subjectId,
      note_id: noteId,
      status: "active",
      created_at: at,
      settled: false,
    };
  }

  async insert(record: NoteRecord): Promise<void> {
    await this.notes.insertOne(record);
  }

  async remove(record: NoteRecord): Promise<void> {
    await this.notes.deleteOne({ _id: record._id });
  }

  async markSettled(record: Pick<NoteRecord, "_id">): Promise<void> {
    await this.notes.updateOne({ _id: record._id }, { $set: { settled: true } });
  }

  list(tenantId: string, subjectId: string, limit: number): Promise<NoteRecord[]> {
    return this.notes.find({ tenant_id: tenantId, subject_id: subjectId, status: "active" }).sort({ created_at: -1 }).limit(limit).toArray();
  }

  async ensureIndexes(): Promise<void> {
    await this.notes.createIndex({ tenant_id: 1, subject_id: 1, created_at: -1 });
  }

  async unsettled(limit: number): Promise<UnsettledObject[]> {
    const found = await this.notes.find({ settled: false }).limit(limit).toArray();
    return found.map((n) => ({
      tenantId: n.tenant_id,
      subjectId: n.subject_id,
      objectId: n.note_id,
      writtenAt: n.created_at,
      kind: n.status === "erased" ? "erasure" : "write",
      version: null,
      missing: {
        event_type: n.status === "erased" ? "erase" : "create",
        operation: n.status === "erased" ? "ERASE" : "WRITE",
        stop_reason: n.status === "erased" ? "SUCCESS_DELETED" : "SUCCESS_STORED",
        content_digest: null,
        metadata: {},
      },
    }));
  }

  async settle(object: UnsettledObject): Promise<void> {
    await this.notes.updateOne({ tenant_id: object.tenantId, subject_id: object.subjectId, note_id: object.objectId }, { $set: { settled: true } });
  }

  async objectIds(tenantId: string, subjectId: string): Promise<string[]> {
    const found = await this.notes.find({ tenant_id: tenantId, subject_id: subjectId, status: { $ne: "erased" } }, { projection: { note_id: 1 } }).toArray();
    return found.map((n) => n.note_id);
  }

  async lookup(tenantId: string, subjectId: string, objectId: string): Promise<{ found: boolean; erased: boolean }> {
    const found = await this.notes.findOne({ tenant_id: tenantId, subject_id: subjectId, note_id: objectId });
    return { found: found !== null, erased: found?.status === "erased" };
  }

  async erase(tenantId: string, subjectId: string, objectId: string, mark: ErasureMark): Promise<boolean> {
    const unset = Object.fromEntries(ERASED.map((field) => [field, "" as const]));
    const result = await this.notes.updateOne({ tenant_id: tenantId, subject_id: subjectId, note_id: objectId }, { $set: { status: "erased", erasure: mark }, $unset: unset });
    return result.matchedCount === 1;
  }
}

/** Live notes under re-audit: their stored text by declared name; a refused one is quarantined (never listed). */
export class ${Name}Rejudge extends HeldRejudgeTarget {
  readonly contract = "${name}";
  readonly kind = "${name}-notes";
  protected readonly held: StatusQuarantine;

  constructor(private readonly store: ${Name}Store) {
    super();
    this.held = new StatusQuarantine(store.notes as unknown as Collection<Document>, { idField: "note_id", live: "active" });
  }

  async scan(tenantId: string, after: string | null, limit: number): Promise<RejudgeCandidate[]> {
    const batch = await tenantBatch(this.store.notes, tenantId, after, limit, { _id: 1, subject_id: 1, note_id: 1, status: 1, ...STORED_PROJECTION });
    return batch.map((n) => ({ docId: n._id, objectId: n.note_id, subjectId: n.subject_id, texts: n.status === "active" ? storedTexts(WRITE_FIELDS, n) : {} }));
  }
}
`,
    [`src/contracts/${name}/index.ts`]: `import { defineContract, type ContractDeps, type ContractModule } from "../../kernel/contract";
import { LIST, WRITE } from "./fields";
import { listOperation } from "./operations/read";
import { writeOperation } from "./operations/write";
import { ${Name}Rejudge, ${Name}Store } from "./store";

/** The ${name} contract: notes a subject writes and lists. Policy: policies/memgate/contracts/${name}/. */
function create(deps: ContractDeps) {
  const store = new ${Name}Store(deps.db);
  const module = {
    name: "${name}",
    operations: { write: writeOperation(store), list: listOperation(store) },
    stores: [store],
    rejudge: [new ${Name}Rejudge(store)],
  };
  return module satisfies ContractModule;
}

export const ${name} = defineContract({ name: "${name}", create, declarations: [WRITE, LIST] });
`,
    [`policies/memgate/contracts/${name}/data.json`]: `${JSON.stringify(
      {
        description: `The ${name} contract (scaffolded by npm run new-contract).`,
        operations: {
          WRITE: { success: "SUCCESS_STORED", write: true, targeted: false, roles: ["agent", "adapter", "user", "admin", "job"] },
          LIST: { success: "SUCCESS_LISTED", write: false, targeted: false, roles: ["agent", "adapter", "user", "admin", "job"] },
          REJUDGE: { success: "SUCCESS_READ", write: false, targeted: false, texts: true, roles: ["job"] },
        },
        fields: { subject_id: 128, text: 2000 },
      },
      null,
      2,
    )}\n`,
    [`policies/memgate/contracts/${name}/${name}.rego`]: `# METADATA
# description: The ${name} contract's own rules (the shared checks apply to it already).
package memgate.contracts.${name}

# ${UPPER}-TEXT a note says something.
violations contains {"stop_reason": "SCHEMA_INVALID", "rule": "${UPPER}-TEXT", "detail": "text_required"} if {
\tinput.contract == "${name}"
\tinput.operation == "WRITE"
\ttrim_space(object.get(object.get(input, "texts", {}), "text", "")) == ""
}
`,
    [`policies/memgate/contracts/${name}/${name}_test.rego`]: `package memgate.contracts.${name}_test

import data.memgate.contracts.${name}

test_${name}_text_required if {
\tsome v in ${name}.violations with input as {"contract": "${name}", "operation": "WRITE", "texts": {"text": " "}}
\tv.detail == "text_required"
}

test_${name}_text_given if {
\tcount(${name}.violations) == 0 with input as {"contract": "${name}", "operation": "WRITE", "texts": {"text": "hello"}}
}
`,
  };
}

/** Adds the import and the entry to src/contracts/index.ts. */
export function register(indexSource: string, name: string): string {
  if (indexSource.includes(`from "./${name}";`)) return indexSource;
  const withImport = indexSource.replace(/(import [^\n]+ from "\.\/[^"]+";\n)(?!import [^\n]+ from "\.\/)/, `$1import { ${name} } from "./${name}";\n`);
  return withImport.replace(/export const CONTRACTS = \{\n/, `export const CONTRACTS = {\n  ${name},\n`);
}

export function newContract(root: string, name: string): string[] {
  if (!/^[a-z][a-z0-9]{1,30}$/.test(name)) throw new Error(`new-contract: "${name}" is not a contract name (lower-case letters and digits)`);
  if (existsSync(path.join(root, "src", "contracts", name))) throw new Error(`new-contract: src/contracts/${name} exists`);
  const written: string[] = [];
  for (const [file, content] of Object.entries(contractFiles(name))) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content, "utf8");
    written.push(file);
  }
  const index = path.join(root, "src", "contracts", "index.ts");
  writeFileSync(index, register(readFileSync(index, "utf8"), name), "utf8");
  written.push("src/contracts/index.ts");
  return written;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const at = args.indexOf("--root");
  const root = at >= 0 ? path.resolve(args[at + 1]) : path.resolve(__dirname, "..");
  const name = args.filter((_, i) => i !== at && i !== at + 1)[0];
  if (!name) {
    process.stderr.write("usage: npm run new-contract -- <name> [--root <dir>]\n");
    process.exit(2);
  }
  for (const file of newContract(root, name)) process.stdout.write(`${file}\n`);
}
