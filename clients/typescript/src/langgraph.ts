/**
 * MemgateStore: LangGraph's long-term memory store (BaseStore) backed by memgate, so every
 * put, get, search and delete of a graph goes through the gateway's kernel and policy.
 *
 * Namespaces name where memory lives; tenant and subjects still come from the token alone
 * (SPEC D5), so a namespace the token does not hold answers NOT_FOUND like any other call.
 *   ["subjects", subjectId]   governed memory (seed 000): key/value items of one subject;
 *                             put stores or updates (version + 1), delete is logical.
 *   ["ledger", subjectId]     the person's ledger (seed 003): put proposes, and the write is
 *                             held for the person's approval (MemgateHeldError, with the
 *                             proposal id); get/search read what they approved, verbatim,
 *                             keyed by memgate's memory id; delete forgets (P54-E).
 *   ["repos", repoId]         the agent interface (seed 001): put writes an immutable memory
 *                             (keyed by memgate's id, not the key given); search with a query
 *                             is memgate's ranked retrieval (score per hit); there is no get
 *                             or delete by id (memories are immutable, read by relevance).
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
  DeleteMemoryDocument,
  ForgetMemoryDocument,
  LedgerDocument,
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

/** How put writes a governed item (seed 000): the category and provenance the policy judges. */
export interface GovernedWriteOptions {
  category: string;
  sourceKind: string;
  ttlClass: string;
  consent?: ConsentInput;
}

export interface MemgateStoreOptions {
  client: ApolloClient;
  /** Subjects listNamespaces looks at (the token's subjects; the gateway still decides every call). */
  subjects?: readonly string[];
  /** Repositories listNamespaces looks at. */
  repos?: readonly string[];
  governed?: Partial<GovernedWriteOptions>;
  /** How a ledger put proposes (seed 003): sourceType is one of ledgerContract.sourceTypes (policy data). */
  ledger?: { kind?: string; sourceType?: string; sourceId?: string };
  /** The kind and confidence of an agent memory written by put, unless the value names them. */
  agent?: { kind?: string; confidence?: number };
}

type Place = { kind: "subjects"; subjectId: string } | { kind: "ledger"; subjectId: string } | { kind: "repos"; repoId: string };

const PAGE = 100;

export class MemgateStore extends BaseStore {
  private readonly client: ApolloClient;
  private readonly governed: GovernedWriteOptions;

  constructor(private readonly options: MemgateStoreOptions) {
    super();
    this.client = options.client;
    this.governed = { category: "PREFERENCE", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", ...options.governed };
  }

  /** One operation after another, in order: each is one memgate decision. */
  async batch<Op extends Operation[]>(operations: Op): Promise<OperationResults<Op>> {
    const results: unknown[] = [];
    for (const op of operations) {
      if ("matchConditions" in op || ("limit" in op && "offset" in op && !("namespacePrefix" in op))) results.push(await this.namespaces(op as ListOp));
      else if ("namespacePrefix" in op) results.push(await this.searchIn(place(op.namespacePrefix), op));
      else if ("value" in op)
        results.push(op.value === null ? await this.remove(place(op.namespace), op.key) : await this.write(place(op.namespace), op.key, op.value));
      else results.push(await this.read(place(op.namespace), op.key));
    }
    return results as OperationResults<Op>;
  }

  private async read(at: Place, key: string): Promise<Item | null> {
    if (at.kind === "subjects") {
      const memory = await this.findGoverned(at.subjectId, key);
      return memory ? governedItem(memory) : null;
    }
    if (at.kind === "ledger") {
      const items = await this.ledgerItems(at.subjectId);
      const found = items.find((item) => item.memoryId === key);
      return found ? ledgerItem(found) : null;
    }
    throw new InvalidNamespaceError("memgate agent memories are read by relevance (seed 001 IF1-READ): use search with a query");
  }

  private async write(at: Place, key: string, value: Record<string, unknown>): Promise<void> {
    if (at.kind === "subjects") {
      const text = JSON.stringify(value);
      const live = await this.findGoverned(at.subjectId, key);
      const { category, sourceKind, ttlClass, consent } = this.governed;
      const input = { subjectId: at.subjectId, key, value: text, category, sourceKind, ttlClass, consent };
      if (live)
        expectSuccess(
          (await mutate(this.client, UpdateMemoryDocument, { input: { ...input, memoryId: live.memoryId, expectedVersion: live.version } })).updateMemory,
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
    if (at.kind === "subjects") {
      const live = await this.findGoverned(at.subjectId, key);
      if (!live) return; // BaseStore: deleting what is not there is not an error
      const answer = (await mutate(this.client, DeleteMemoryDocument, { memoryId: live.memoryId, subjectId: at.subjectId, expectedVersion: live.version }))
        .deleteMemory;
      expectSuccess(answer, "deleteMemory");
      return;
    }
    if (at.kind === "ledger") {
      expectSuccess((await mutate(this.client, ForgetMemoryDocument, { memoryId: key })).forgetMemory, "forgetMemory");
      return;
    }
    throw new InvalidNamespaceError("memgate agent memories are immutable (seed 001): write a change that invalidates them instead");
  }

  private async searchIn(
    at: Place,
    op: { namespacePrefix: string[]; query?: string; filter?: Record<string, unknown>; limit?: number; offset?: number },
  ): Promise<SearchItem[]> {
    const limit = op.limit ?? 10;
    const offset = op.offset ?? 0;
    let items: SearchItem[];
    if (at.kind === "repos") {
      if (!op.query) throw new InvalidNamespaceError("memgate agent memories are read by relevance (seed 001 IF1-READ): search a repo namespace with a query");
      const answer = expectSuccess(
        (
          await query(this.client, AgentReadDocument, {
            input: { repo_id: at.repoId, mode: "targeted", query: op.query, limit: Math.min(offset + limit, PAGE) },
          })
        ).agentRead,
        "agentRead",
      );
      items = answer.hits.map((hit) => ({
        namespace: ["repos", at.repoId],
        key: hit.memory.id,
        value: { text: hit.memory.text, kind: hit.memory.kind, confidence: hit.memory.confidence, invalidated: hit.memory.invalidated, advisory: true },
        createdAt: new Date(hit.memory.createdAt),
        updatedAt: new Date(hit.memory.createdAt),
        ...(hit.score === null || hit.score === undefined ? {} : { score: hit.score }),
      }));
    } else if (at.kind === "ledger") {
      items = (await this.ledgerItems(at.subjectId)).map(ledgerItem);
    } else {
      items = (await this.governedItems(at.subjectId)).map(governedItem);
    }
    const words = at.kind === "repos" ? [] : (op.query ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    return items
      .filter((item) => matches(item.value, op.filter) && words.every((w) => `${item.key} ${JSON.stringify(item.value)}`.toLowerCase().includes(w)))
      .slice(offset, offset + limit);
  }

  private async namespaces(op: ListOp): Promise<string[][]> {
    const found: string[][] = [];
    // A namespace the token may not read (the ledger is its owner's) is simply not listed.
    const holds = (read: Promise<unknown[]>) =>
      read.then(
        (items) => items.length > 0,
        (error: unknown) => (error instanceof MemgateRefusalError ? false : Promise.reject(error)),
      );
    for (const subjectId of this.options.subjects ?? []) {
      if (await holds(this.governedItems(subjectId, 1))) found.push(["subjects", subjectId]);
      if (await holds(this.ledgerItems(subjectId))) found.push(["ledger", subjectId]);
    }
    // Agent memories are only read by relevance to a query: the repos given are listed as they are.
    for (const repoId of this.options.repos ?? []) found.push(["repos", repoId]);
    const matching = found.filter((ns) => (op.matchConditions ?? []).every((c) => matchesCondition(ns, c)));
    const depthed = op.maxDepth === undefined ? matching : dedupe(matching.map((ns) => ns.slice(0, op.maxDepth)));
    return depthed.slice(op.offset, op.offset + op.limit);
  }

  private async findGoverned(subjectId: string, key: string): Promise<MemoryFieldsFragment | undefined> {
    return (await this.governedItems(subjectId)).find((memory) => memory.key === key);
  }

  private async governedItems(subjectId: string, max = Infinity): Promise<MemoryFieldsFragment[]> {
    const all: MemoryFieldsFragment[] = [];
    let after: string | null = null;
    do {
      const page: { memories: MemoryFieldsFragment[]; nextCursor?: string | null } = expectSuccess(
        (await query(this.client, MemoriesDocument, { subjectId, limit: PAGE, after })).memories,
        "memories",
      );
      all.push(...page.memories);
      after = page.nextCursor ?? null;
    } while (after && all.length < max);
    return all;
  }

  private async ledgerItems(subjectId: string): Promise<LedgerItemFieldsFragment[]> {
    return expectSuccess((await query(this.client, LedgerDocument, { subjectId })).ledger, "ledger").items;
  }

  /** The person's approval of a held ledger write (the ledger page does this); for tests and tools acting as the person. */
  async approve(proposalId: string, finalText: string): Promise<Item> {
    const answer = expectSuccess((await mutate(this.client, ApproveProposalDocument, { proposalId, finalText })).approveProposal, "approveProposal");
    return ledgerItem(answer.memory!);
  }
}

type ListOp = { matchConditions?: { matchType: "prefix" | "suffix"; path: string[] }[]; maxDepth?: number; limit: number; offset: number };

function place(namespace: string[]): Place {
  const [kind, id, ...rest] = namespace;
  if (!id || rest.length)
    throw new InvalidNamespaceError(
      `memgate namespaces are ["subjects", subjectId], ["ledger", subjectId] or ["repos", repoId], not ${JSON.stringify(namespace)}`,
    );
  if (kind === "subjects" || kind === "ledger") return { kind, subjectId: id };
  if (kind === "repos") return { kind, repoId: id };
  throw new InvalidNamespaceError(`unknown memgate namespace ${JSON.stringify(kind)}: use "subjects", "ledger" or "repos"`);
}

function governedItem(memory: MemoryFieldsFragment): Item {
  let value: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(memory.value);
    value = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : { value: parsed };
  } catch {
    value = { value: memory.value }; // written by another client as plain text
  }
  return { namespace: ["subjects", memory.subjectId], key: memory.key, value, createdAt: new Date(memory.createdAt), updatedAt: new Date(memory.updatedAt) };
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

function textOf(value: Record<string, unknown>): string {
  return typeof value.text === "string" ? value.text : JSON.stringify(value);
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function matches(value: Record<string, unknown>, filter: Record<string, unknown> | undefined): boolean {
  return Object.entries(filter ?? {}).every(([field, expected]) => JSON.stringify(value[field]) === JSON.stringify(expected));
}

function matchesCondition(namespace: string[], condition: { matchType: "prefix" | "suffix"; path: string[] }): boolean {
  const path = condition.path;
  if (path.length > namespace.length) return false;
  const part = condition.matchType === "prefix" ? namespace.slice(0, path.length) : namespace.slice(namespace.length - path.length);
  return path.every((segment, i) => segment === "*" || segment === part[i]);
}

function dedupe(namespaces: string[][]): string[][] {
  return [...new Map(namespaces.map((ns) => [JSON.stringify(ns), ns])).values()];
}
