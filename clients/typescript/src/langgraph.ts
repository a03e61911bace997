/**
 * MemgateStore: LangGraph's long-term memory store (BaseStore) backed by memgate, so every
 * put, get, search and delete of a graph goes through the gateway's kernel and policy.
 *
 * Namespaces name where memory lives; tenant and subjects still come from the token alone
 * (SPEC D5), so a namespace of a subject the token does not hold is refused like any other call.
 *   any namespace, any depth   governed memory (seed 000), e.g. ["users", userId, "prefs"]:
 *                              one governed item per (namespace, key) of one subject; put
 *                              stores or updates (version + 1), delete is logical. The subject
 *                              is `subjectOf(namespace)`: by default the second label after
 *                              "users" or "subjects", else the token's first subject.
 *   ["ledger", subjectId]      the person's ledger (seed 003): put proposes, and the write is
 *                              held for the person's approval (MemgateHeldError, with the
 *                              proposal id); get/search read what they approved, verbatim,
 *                              keyed by memgate's memory id; delete forgets (P54-E).
 *   ["repos", repoId]          the agent interface (seed 001): put writes an immutable memory
 *                              (keyed by memgate's id, not the key given); search with a query
 *                              is memgate's ranked retrieval (score per hit); there is no get
 *                              or delete by id (memories are immutable, read by relevance).
 * A governed item's memgate key is `<namespace labels joined by ".">:<key>` (LangGraph forbids
 * "." and ":" in labels, so it parses back); one longer than the contract's key bound is stored
 * as `#sha256:<hex>` with the namespace and key kept in the value. get and put find an item
 * with one LIST by that key (O(1) round trips); search and listNamespaces list the subject.
 * A refusal raises MemgateRefusalError carrying the stop reason; a bad namespace raises
 * LangGraph's InvalidNamespaceError.
 */
import type { ApolloClient } from "@apollo/client";
import { BaseStore, InvalidNamespaceError, type Item, type Operation, type OperationResults, type SearchItem } from "@langchain/langgraph-checkpoint";
import { mutate, query } from "./client";
import {
  AgentReadDocument,
  AgentWriteDocument,
  ApproveProposalDocument,
  ContractDocument,
  DeleteMemoryDocument,
  ForgetMemoryDocument,
  LedgerDocument,
  MeDocument,
  MemoriesDocument,
  ProposeMemoryDocument,
  StoreMemoryDocument,
  UpdateMemoryDocument,
  type ConsentInput,
  type LedgerItemFieldsFragment,
  type MemoryFieldsFragment,
} from "./generated/graphql";
import { MemgateRefusalError, expectSuccess } from "./results";

export { MemgateHeldError, MemgateRefusalError } from "./results";

/**
 * How put writes a governed item (seed 000): the category and provenance the policy judges.
 * The default is what a graph's write is: SYSTEM_KNOWN (the system recorded it), which needs no
 * person's consent. A value the person stated themselves is USER_EXPLICIT and must carry
 * `consent: { explicit: true, evidenceRef }` (C19-CONSENT), or the gateway refuses it
 * MISSING_EXPLICIT_CONSENT.
 */
export interface GovernedWriteOptions {
  category: string;
  sourceKind: string;
  ttlClass: string;
  consent?: ConsentInput;
}

export interface MemgateStoreOptions {
  client: ApolloClient;
  /**
   * The memgate subject a governed namespace belongs to; undefined means the token's first
   * subject. Default: the label after a leading "users" or "subjects" (["users", "alice", "prefs"]
   * is alice's), else undefined.
   */
  subjectOf?: (namespace: readonly string[]) => string | undefined;
  /** More subjects listNamespaces and search([]) look at, besides the token's own (query { me }). */
  subjects?: readonly string[];
  /** More repositories listNamespaces lists, besides the token's repo:<id> subjects. */
  repos?: readonly string[];
  governed?: Partial<GovernedWriteOptions>;
  /** How a ledger put proposes (seed 003): sourceType is one of ledgerContract.sourceTypes (policy data). */
  ledger?: { kind?: string; sourceType?: string; sourceId?: string };
  /** The kind and confidence of an agent memory written by put, unless the value names them. */
  agent?: { kind?: string; confidence?: number };
}

type Place =
  { kind: "governed"; namespace: string[]; subjectId: string | undefined } | { kind: "ledger"; subjectId: string } | { kind: "repos"; repoId: string };

type SearchOp = { namespacePrefix: string[]; query?: string; filter?: Record<string, unknown>; limit?: number; offset?: number };
type ListOp = { matchConditions?: { matchType: "prefix" | "suffix"; path: string[] }[]; maxDepth?: number; limit: number; offset: number };

const PAGE = 100;
const HASHED = "#sha256:";
/** The envelope of a value whose key was hashed: the namespace and key it was put under. */
const ENVELOPE = "langgraph";

export const defaultSubjectOf = (namespace: readonly string[]): string | undefined =>
  (namespace[0] === "users" || namespace[0] === "subjects") && namespace.length > 1 ? namespace[1] : undefined;

export class MemgateStore extends BaseStore {
  private readonly client: ApolloClient;
  private readonly governed: GovernedWriteOptions;
  private readonly subjectOf: (namespace: readonly string[]) => string | undefined;
  private keyBound: Promise<number> | undefined;
  private tokenSubjects: Promise<string[]> | undefined;

  constructor(private readonly options: MemgateStoreOptions) {
    super();
    this.client = options.client;
    this.governed = { category: "PREFERENCE", sourceKind: "SYSTEM_KNOWN", ttlClass: "LONG", ...options.governed };
    this.subjectOf = options.subjectOf ?? defaultSubjectOf;
  }

  /** One operation after another, in order: each is one memgate decision. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) {
      if ("matchConditions" in op || ("limit" in op && "offset" in op && !("namespacePrefix" in op))) results.push(await this.namespaces(op as ListOp));
      else if ("namespacePrefix" in op) results.push(await this.searchIn(op));
      else if ("value" in op)
        results.push(op.value === null ? await this.remove(this.place(op.namespace), op.key) : await this.write(this.place(op.namespace), op.key, op.value));
      else results.push(await this.read(this.place(op.namespace), op.key));
    }
    return results as OperationResults<Op>;
  }

  private place(namespace: string[]): Place {
    if (namespace.length === 0) throw new InvalidNamespaceError("Namespace cannot be empty.");
    const [root, id, ...rest] = namespace;
    if (root === "ledger" || root === "repos") {
      if (!id || rest.length)
        throw new InvalidNamespaceError(
          `memgate's ${root} namespace is ["${root}", ${root === "ledger" ? "subjectId" : "repoId"}], not ${JSON.stringify(namespace)}`,
        );
      return root === "ledger" ? { kind: "ledger", subjectId: id } : { kind: "repos", repoId: id };
    }
    return { kind: "governed", namespace, subjectId: this.subjectOf(namespace) };
  }

  private async read(at: Place, key: string): Promise<Item | null> {
    if (at.kind === "governed") {
      const found = await this.findGoverned(at, key);
      return found ? found.item : null;
    }
    if (at.kind === "ledger") {
      const items = await this.ledgerItems(at.subjectId);
      const found = items.find((item) => item.memoryId === key);
      return found ? ledgerItem(found) : null;
    }
    throw new InvalidNamespaceError("memgate agent memories are read by relevance (seed 001 IF1-READ): use search with a query");
  }

  private async write(at: Place, key: string, value: Record<string, unknown>): Promise<void> {
    if (at.kind === "governed") {
      const stored = await this.storedKey(at.namespace, key);
      const text = JSON.stringify(stored.startsWith(HASHED) ? { [ENVELOPE]: { namespace: at.namespace, key }, value } : value);
      const live = await this.findGoverned(at, key, stored);
      const { category, sourceKind, ttlClass, consent } = this.governed;
      const input = { subjectId: at.subjectId, key: stored, value: text, category, sourceKind, ttlClass, consent };
      if (live)
        expectSuccess(
          (await mutate(this.client, UpdateMemoryDocument, { input: { ...input, memoryId: live.memory.memoryId, expectedVersion: live.memory.version } }))
            .updateMemory,
          "updateMemory",
        );
      else expectSuccess((await mutate(this.client, StoreMemoryDocument, { input })).storeMemory, "storeMemory");
      return;
    }
    if (at.kind === "ledger") {
      const source = { sourceType: this.options.ledger?.sourceType ?? "phase3_reflection", sourceId: this.options.ledger?.sourceId ?? key };
      const input = { subjectId: at.subjectId, proposedText: textOf(value), kind: stringOf(value.kind) ?? this.options.ledger?.kind ?? "PREFERENCE", source };
      // Always held for the person (P54-A): raises MemgateHeldError with the proposal id.
      expectSuccess((await mutate(this.client, ProposeMemoryDocument, { input })).proposeMemory, "proposeMemory");
      return;
    }
    const memory = {
      text: textOf(value),
      scope: "repo",
      kind: stringOf(value.kind) ?? this.options.agent?.kind ?? "fact",
      confidence: typeof value.confidence === "number" ? value.confidence : (this.options.agent?.confidence ?? 0.8),
      rationale: stringOf(value.rationale) ?? `langgraph store key ${key}`,
      evidence_refs: Array.isArray(value.evidence_refs) ? value.evidence_refs.map(String) : [],
    };
    expectSuccess((await mutate(this.client, AgentWriteDocument, { input: { repo_id: at.repoId, memory } })).agentWrite, "agentWrite");
  }

  private async remove(at: Place, key: string): Promise<void> {
    if (at.kind === "governed") {
      const live = await this.findGoverned(at, key);
      if (!live) return; // BaseStore: deleting what is not there is not an error
      const { memoryId, version } = live.memory;
      expectSuccess(
        (await mutate(this.client, DeleteMemoryDocument, { memoryId, subjectId: at.subjectId, expectedVersion: version })).deleteMemory,
        "deleteMemory",
      );
      return;
    }
    if (at.kind === "ledger") {
      expectSuccess((await mutate(this.client, ForgetMemoryDocument, { memoryId: key })).forgetMemory, "forgetMemory");
      return;
    }
    throw new InvalidNamespaceError("memgate agent memories are immutable (seed 001): write a change that invalidates them instead");
  }

  /**
   * Governed and ledger search: namespace prefix, then LangGraph's filter operators on the
   * value's top-level fields, then with a query a lexical ranking (see `lexicalScore`); without
   * one, oldest first as LangGraph's InMemoryStore. Repo namespaces use memgate's ranked retrieval.
   */
  private async searchIn(op: SearchOp): Promise<SearchItem[]> {
    const prefix = op.namespacePrefix;
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    if (prefix[0] === "repos" && prefix.length === 2) return this.searchRepo(prefix[1], op, limit, offset);
    let items: Item[];
    if (prefix[0] === "ledger" && prefix.length <= 2) {
      const subjects = prefix.length === 2 ? [prefix[1]] : await this.subjects();
      items = (await Promise.all(subjects.map((s) => this.readable(this.ledgerItems(s))))).flat().map(ledgerItem);
    } else {
      const subject = this.subjectOf(prefix);
      const subjects = subject !== undefined ? [subject] : prefix.length > 0 && !this.isGovernedRoot(prefix) ? [undefined] : await this.subjectsOrDefault();
      items = (await Promise.all(subjects.map((s) => this.governedItems(s)))).flat().filter((item) => startsWith(item.namespace, prefix));
    }
    const filtered = items.filter((item) => Object.entries(op.filter ?? {}).every(([field, expected]) => compareValues(item.value[field], expected)));
    const terms = tokens(op.query ?? "");
    if (!terms.length) return filtered.sort(byCreated).slice(offset, offset + limit);
    return filtered
      .map((item): SearchItem => ({ ...item, score: lexicalScore(terms, item) }))
      .filter((item) => (item.score ?? 0) > 0)
      .sort((a, b) => (b.score ?? 0) - (a.score ?? 0) || byCreated(a, b))
      .slice(offset, offset + limit);
  }

  private async searchRepo(repoId: string, op: SearchOp, limit: number, offset: number): Promise<SearchItem[]> {
    if (!op.query) throw new InvalidNamespaceError("memgate agent memories are read by relevance (seed 001 IF1-READ): search a repo namespace with a query");
    const answer = expectSuccess(
      (await query(this.client, AgentReadDocument, { input: { repo_id: repoId, mode: "targeted", query: op.query, limit: Math.min(offset + limit, PAGE) } }))
        .agentRead,
      "agentRead",
    );
    return answer.hits
      .map((hit) => ({
        namespace: ["repos", repoId],
        key: hit.memory.id,
        value: { text: hit.memory.text, kind: hit.memory.kind, confidence: hit.memory.confidence, invalidated: hit.memory.invalidated, advisory: true },
        createdAt: new Date(hit.memory.createdAt),
        updatedAt: new Date(hit.memory.createdAt),
        ...(hit.score === null || hit.score === undefined ? {} : { score: hit.score }),
      }))
      .filter((item) => Object.entries(op.filter ?? {}).every(([field, expected]) => compareValues((item.value as Record<string, unknown>)[field], expected)))
      .slice(offset, offset + limit);
  }

  /** The namespaces that hold memory for the token's subjects (and the options' subjects and repos). */
  private async namespaces(op: ListOp): Promise<string[][]> {
    const subjects = await this.subjectsOrDefault();
    const found: string[][] = [];
    for (const subject of subjects) found.push(...(await this.governedItems(subject)).map((item) => item.namespace));
    for (const subject of subjects.filter((s): s is string => s !== undefined)) {
      // A ledger the token may not read (the ledger is its owner's) is simply not listed.
      if ((await this.readable(this.ledgerItems(subject))).length > 0) found.push(["ledger", subject]);
    }
    const repos = [...(await this.subjects()).filter((s) => s.startsWith("repo:")).map((s) => s.slice("repo:".length)), ...(this.options.repos ?? [])];
    for (const repoId of repos) found.push(["repos", repoId]); // read by relevance only: listed as they are
    const matching = dedupe(found).filter((ns) => (op.matchConditions ?? []).every((c) => matchesCondition(ns, c)));
    const depthed = op.maxDepth === undefined ? matching : dedupe(matching.map((ns) => ns.slice(0, op.maxDepth)));
    return depthed.sort((a, b) => a.join(":").localeCompare(b.join(":"))).slice(op.offset, op.offset + op.limit);
  }

  private isGovernedRoot(prefix: readonly string[]): boolean {
    return prefix.length === 1 && (prefix[0] === "users" || prefix[0] === "subjects");
  }

  /** The subjects of the token (query { me }) and of the options, without the repo:<id> subjects of agent memory. */
  private async subjects(): Promise<string[]> {
    this.tokenSubjects ??= query(this.client, MeDocument, {}, "cache-first").then((data) => data.me.subjects);
    const all = [...(await this.tokenSubjects), ...(this.options.subjects ?? [])];
    return [...new Set(all)].filter((s) => !s.startsWith("repo:") && s !== "*");
  }

  private async subjectsOrDefault(): Promise<(string | undefined)[]> {
    const subjects = await this.subjects();
    return subjects.length ? subjects : [undefined];
  }

  /** The contract's key bound (policy data), read once. */
  private bound(): Promise<number> {
    this.keyBound ??= query(this.client, ContractDocument, {}, "cache-first").then(
      (data) => data.contract.bounds.find((b) => b.field === "key")?.maxLength ?? 128,
    );
    return this.keyBound;
  }

  private async storedKey(namespace: readonly string[], key: string): Promise<string> {
    const full = `${namespace.join(".")}:${key}`;
    return full.length <= (await this.bound()) ? full : `${HASHED}${await sha256Hex(full)}`;
  }

  /** The live item of (namespace, key): one LIST by its memgate key. */
  private async findGoverned(
    at: Extract<Place, { kind: "governed" }>,
    key: string,
    stored?: string,
  ): Promise<{ memory: MemoryFieldsFragment; item: Item } | undefined> {
    const memgateKey = stored ?? (await this.storedKey(at.namespace, key));
    const page = await this.readable(
      query(this.client, MemoriesDocument, { subjectId: at.subjectId, key: memgateKey, limit: 1 }).then(
        (data) => expectSuccess(data.memories, "memories").memories,
      ),
    );
    const memory = page[0];
    return memory ? { memory, item: governedItem(memory) } : undefined;
  }

  /** Every live governed item of a subject, as LangGraph items. */
  private async governedItems(subjectId: string | undefined): Promise<Item[]> {
    const all: Item[] = [];
    let after: string | null = null;
    do {
      const page: { memories: MemoryFieldsFragment[]; nextCursor?: string | null } | undefined = await query(this.client, MemoriesDocument, {
        subjectId,
        limit: PAGE,
        after,
      }).then(
        (data) => expectSuccess(data.memories, "memories"),
        (error: unknown) => (error instanceof MemgateRefusalError ? undefined : Promise.reject(error)),
      );
      if (!page) break;
      all.push(...page.memories.map(governedItem));
      after = page.nextCursor ?? null;
    } while (after);
    return all;
  }

  private async ledgerItems(subjectId: string): Promise<LedgerItemFieldsFragment[]> {
    return expectSuccess((await query(this.client, LedgerDocument, { subjectId })).ledger, "ledger").items;
  }

  /** A read the token may not make (another subject's, the ledger of another person) reads as nothing. */
  private readable<T>(read: Promise<T[]>): Promise<T[]> {
    return read.catch((error: unknown) => (error instanceof MemgateRefusalError ? [] : Promise.reject(error)));
  }

  /** The person's approval of a held ledger write (the ledger page does this); for tests and tools acting as the person. */
  async approve(proposalId: string, finalText: string): Promise<Item> {
    const answer = expectSuccess((await mutate(this.client, ApproveProposalDocument, { proposalId, finalText })).approveProposal, "approveProposal");
    return ledgerItem(answer.memory!);
  }
}

/** A governed memgate item as a LangGraph item: its namespace and key from the memgate key (or the hashed key's envelope). */
function governedItem(memory: MemoryFieldsFragment): Item {
  let parsed: unknown;
  try {
    parsed = JSON.parse(memory.value);
  } catch {
    parsed = memory.value; // written by another client as plain text
  }
  let namespace: string[];
  let key: string;
  const envelope = memory.key.startsWith(HASHED) && isRecord(parsed) && isRecord(parsed[ENVELOPE]) ? parsed[ENVELOPE] : undefined;
  if (envelope && Array.isArray(envelope.namespace) && typeof envelope.key === "string") {
    namespace = envelope.namespace.map(String);
    key = envelope.key;
    parsed = (parsed as Record<string, unknown>).value;
  } else {
    const colon = memory.key.indexOf(":");
    // An item another client stored under a plain key lives in ["subjects", subjectId].
    namespace = colon > 0 ? memory.key.slice(0, colon).split(".") : ["subjects", memory.subjectId];
    key = colon > 0 ? memory.key.slice(colon + 1) : memory.key;
  }
  const value = isRecord(parsed) ? parsed : { value: parsed };
  return { namespace, key, value, createdAt: new Date(memory.createdAt), updatedAt: new Date(memory.updatedAt) };
}

function ledgerItem(item: LedgerItemFieldsFragment): Item {
  return {
    namespace: ["ledger", item.subjectId],
    key: item.memoryId,
    value: { text: item.text, kind: item.kind, proposalId: item.proposalId },
    createdAt: new Date(item.createdAt),
    updatedAt: new Date(item.updatedAt),
  };
}

/** Lower-case words of letters and digits: the terms of the lexical ranking. */
function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Lexical relevance in [0, 1]: the share of the query's distinct terms (lower-case words of
 * letters and digits) found among the words of the item's key and of every string in its value;
 * a term of three or more letters also matches a word it begins ("pref" finds "preferences").
 * A keyword match, not semantic similarity: items that share no term are left out.
 */
export function lexicalScore(queryTerms: readonly string[], item: Pick<Item, "key" | "value">): number {
  const distinct = [...new Set(queryTerms)];
  const words = new Set([...tokens(item.key), ...strings(item.value).flatMap(tokens)]);
  const found = distinct.filter((term) => words.has(term) || [...words].some((word) => word.startsWith(term) && term.length >= 3)).length;
  return distinct.length ? found / distinct.length : 0;
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (isRecord(value)) return Object.values(value).flatMap(strings);
  return [];
}

/** LangGraph's filter semantics (InMemoryStore): equality, or $eq $ne $gt $gte $lt $lte $in $nin on a top-level field. */
export function compareValues(itemValue: unknown, filterValue: unknown): boolean {
  const operators = ["$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"];
  if (isRecord(filterValue) && Object.keys(filterValue).every((k) => operators.includes(k))) {
    return Object.entries(filterValue).every(([op, value]) => {
      switch (op) {
        case "$eq":
          return itemValue === value;
        case "$ne":
          return itemValue !== value;
        case "$gt":
          return Number(itemValue) > Number(value);
        case "$gte":
          return Number(itemValue) >= Number(value);
        case "$lt":
          return Number(itemValue) < Number(value);
        case "$lte":
          return Number(itemValue) <= Number(value);
        case "$in":
          return Array.isArray(value) && value.includes(itemValue);
        default:
          return !Array.isArray(value) || !value.includes(itemValue);
      }
    });
  }
  return JSON.stringify(itemValue) === JSON.stringify(filterValue);
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textOf(value: Record<string, unknown>): string {
  return typeof value.text === "string" ? value.text : JSON.stringify(value);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function startsWith(namespace: readonly string[], prefix: readonly string[]): boolean {
  return prefix.length <= namespace.length && prefix.every((label, i) => label === namespace[i]);
}

const byCreated = (a: Item, b: Item) => a.createdAt.getTime() - b.createdAt.getTime() || a.key.localeCompare(b.key);

function matchesCondition(namespace: string[], condition: { matchType: "prefix" | "suffix"; path: string[] }): boolean {
  const path = condition.path;
  if (path.length > namespace.length) return false;
  const part = condition.matchType === "prefix" ? namespace.slice(0, path.length) : namespace.slice(namespace.length - path.length);
  return path.every((segment, i) => segment === "*" || segment === part[i]);
}

function dedupe(namespaces: string[][]): string[][] {
  return [...new Map(namespaces.map((ns) => [JSON.stringify(ns), ns])).values()];
}
