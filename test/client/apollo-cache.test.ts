import type { ApolloClient, OperationVariables, TypedDocumentNode } from "@apollo/client";
import {
  AgentReadDocument,
  ApproveProposalDocument,
  DeclineProposalDocument,
  DeleteMemoryDocument,
  ForgetMemoryDocument,
  LedgerDocument,
  PendingProposalsDocument,
  ProposeMemoryDocument,
  AgentUpdateDocument,
  AgentWriteDocument,
  MemgateRefusalError,
  MemgateRequestError,
  MemoriesDocument,
  MemoryDocument,
  StoreMemoryDocument,
  UpdateMemoryDocument,
  type StoreMemoryInput,
  createMemgateClient,
  decide,
  expectSuccess,
  mutate,
  query,
} from "../../clients/typescript/src";
import { ManualClock } from "../../src/clock";
import { preference } from "../support/governed";
import { startTestGateway, type TestGateway } from "../support/gateway";

const REPO = "acme/web";
const storeInput = (over: Record<string, unknown> = {}) => preference(over) as unknown as StoreMemoryInput;
const cacheKeys = (client: ApolloClient) => client.cache.extract() as Record<string, Record<string, unknown>>;

/**
 * Apollo Client 4 with the shipped type policies, over HttpLink against a real gateway: a
 * cached read after a mutation shows the mutation's answer, and per-query values never
 * overwrite each other (issue 14 item 3).
 */
describe("the typed client: Apollo Client with memgate's type policies against a real gateway", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let client: ApolloClient;
  let agentClient: ApolloClient;

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    client = createMemgateClient({ url: `${gw.url}/graphql`, token: await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"] }) });
    agentClient = createMemgateClient({ url: `${gw.url}/graphql`, token: await gw.token({ tenant: "acme", subjects: [`repo:${REPO}`], roles: ["agent"] }) });
  });
  afterAll(async () => {
    await client?.clearStore();
    await agentClient?.clearStore();
    await gw?.stop();
  });

  it("SPEC D2 C19-OPS: a cached memory read shows version 2 after updateMemory, in the single read and in the list", async () => {
    const stored = expectSuccess((await mutate(client, StoreMemoryDocument, { input: storeInput() })).storeMemory, "storeMemory");
    expect(stored.stopReason).toBe("SUCCESS_STORED");
    const memoryId = stored.memory!.memoryId;

    const read = await query(client, MemoryDocument, { memoryId });
    expect(read.memory.memory).toMatchObject({ memoryId, version: 1, value: "prefer concise responses" });
    const listed = await query(client, MemoriesDocument, {});
    expect(listed.memories.memories.map((m) => [m.memoryId, m.version])).toEqual([[memoryId, 1]]);

    const updated = (await mutate(client, UpdateMemoryDocument, { input: { ...storeInput(), memoryId, value: "prefer bullet points", expectedVersion: 1 } }))
      .updateMemory;
    expect(decide(updated)).toMatchObject({ outcome: "success", stopReason: "SUCCESS_UPDATED", memory: { memoryId, version: 2 } });

    // No network: the cache alone answers, and it holds the one Memory entity the update wrote.
    const cached = await query(client, MemoryDocument, { memoryId }, "cache-first");
    expect(cached.memory.memory).toMatchObject({ memoryId, version: 2, value: "prefer bullet points" });
    const cachedList = client.readQuery({ query: MemoriesDocument, variables: {} });
    expect(cachedList?.memories.memories.map((m) => [m.memoryId, m.version, m.value])).toEqual([[memoryId, 2, "prefer bullet points"]]);
    expect(Object.keys(cacheKeys(client)).filter((key) => key.startsWith("Memory:"))).toEqual([`Memory:{"memoryId":"${memoryId}"}`]);
  });

  it("C19-STOP C19-FORBID: a refusal is a typed result, and expectSuccess raises it with the stop reason", async () => {
    const answer = (await mutate(client, StoreMemoryDocument, { input: storeInput({ value: "my social security number is 078-05-1120" }) })).storeMemory;
    const result = decide(answer);
    expect(result.outcome).toBe("refused");
    if (result.outcome !== "refused") throw new Error("unreachable");
    expect(result.stopReason).toBe("FORBIDDEN_CATEGORY");
    expect(result.memory).toBeNull();
    expect(() => expectSuccess(answer, "storeMemory")).toThrow(MemgateRefusalError);
    try {
      expectSuccess(answer, "storeMemory");
    } catch (error) {
      expect(error).toMatchObject({ code: "MEMGATE_REFUSED", stopReason: "FORBIDDEN_CATEGORY", decisionId: answer.decisionId });
    }
  });

  it("SPEC D5: a token the gateway does not accept is a MemgateRequestError coded UNAUTHENTICATED", async () => {
    const stranger = createMemgateClient({ url: `${gw.url}/graphql`, token: "not-a-token" });
    await expect(query(stranger, MemoriesDocument, {})).rejects.toMatchObject({ name: "MemgateRequestError", code: "UNAUTHENTICATED" });
    await expect(query(stranger, MemoriesDocument, {})).rejects.toBeInstanceOf(MemgateRequestError);
  });

  it("IF1-READ IF1-UPDATE: two reads keep their own scores on their hits; one AgentMemoryItem per id; a dry run leaves it alone, a commit updates it", async () => {
    const write = async (text: string) =>
      expectSuccess(
        (
          await mutate(agentClient, AgentWriteDocument, {
            input: {
              repo_id: REPO,
              memory: { text, scope: "repo", kind: "fact", confidence: 0.9, rationale: "read the repo", evidence_refs: ["file:package.json"] },
            },
          })
        ).agentWrite,
      ).memory!;
    const eslint = await write("ESLint flat config lives in eslint.config.mjs");
    await write("Prettier config lives in .prettierrc.json beside the ESLint config");

    const read = async (q: string) =>
      (await query(agentClient, AgentReadDocument, { input: { repo_id: REPO, mode: "targeted", query: q, expand: { semantic_hops: 0 } } })).agentRead;
    const first = await read("eslint flat config eslint.config.mjs");
    const second = await read("prettier config");
    const score = (hits: typeof first.hits) => hits.find((h) => h.memory.id === eslint.id)?.score;
    expect(score(first.hits)).toEqual(expect.any(Number));
    expect(score(second.hits)).toEqual(expect.any(Number));
    expect(score(first.hits)).not.toEqual(score(second.hits));

    // Both reads, answered from the cache, still show their own score for the shared memory.
    const cachedFirst = agentClient.readQuery({
      query: AgentReadDocument,
      variables: { input: { repo_id: REPO, mode: "targeted", query: "eslint flat config eslint.config.mjs", expand: { semantic_hops: 0 } } },
    });
    expect(score(cachedFirst!.agentRead.hits)).toEqual(score(first.hits));
    expect(Object.keys(cacheKeys(agentClient)).filter((key) => key.startsWith("AgentMemoryItem:"))).toHaveLength(2);

    const update = (mode: string) =>
      mutate(agentClient, AgentUpdateDocument, {
        input: {
          repo_id: REPO,
          memory_id: eslint.id,
          mode,
          updates: { truth: { target: 0.2, confidence: 0.9, rationale: "config moved", evidence_refs: ["commit:abc123"] } },
        },
      });
    const dryRun = (await update("dry_run")).agentUpdate;
    expect(dryRun).toMatchObject({ stopReason: "SUCCESS_READ", committed: false, after: { truth: { target: 0.2 } } });
    const memoryInCache = () => cacheKeys(agentClient)[`AgentMemoryItem:{"id":"${eslint.id}"}`];
    expect(memoryInCache().truth).toBeNull();

    expect((await update("commit")).agentUpdate).toMatchObject({ committed: true });
    await read("prettier config"); // a fresh read writes the committed truth into the one entity
    expect(memoryInCache().truth).toMatchObject({ target: 0.2, rationale: "config moved" });
    const cachedAgain = agentClient.readQuery({
      query: AgentReadDocument,
      variables: { input: { repo_id: REPO, mode: "targeted", query: "eslint flat config eslint.config.mjs", expand: { semantic_hops: 0 } } },
    });
    expect(cachedAgain!.agentRead.hits.find((h) => h.memory.id === eslint.id)?.memory.truth).toMatchObject({ target: 0.2 });
  });
});

/** A watched query: its answers as they come, and a promise for the first one a predicate accepts. */
function watch<TData, TVariables extends OperationVariables>(client: ApolloClient, query: TypedDocumentNode<TData, TVariables>, variables: TVariables) {
  let latest: TData | undefined;
  let waiting: { accept: (data: TData) => boolean; resolve: (data: TData) => void }[] = [];
  const settle = () => {
    if (latest === undefined) return;
    const data = latest;
    waiting = waiting.filter((w) => (w.accept(data) ? (w.resolve(data), false) : true));
  };
  const subscription = client.watchQuery({ query, variables } as ApolloClient.WatchQueryOptions<TData, TVariables>).subscribe({
    next: (result) => {
      if (result.dataState !== "complete") return;
      latest = result.data as TData;
      settle();
    },
  });
  return {
    until(accept: (data: TData) => boolean): Promise<TData> {
      return new Promise((resolve) => {
        waiting.push({ accept, resolve });
        settle();
      });
    },
    stop: () => subscription.unsubscribe(),
  };
}

/**
 * Every watched query of a real Apollo Client 4 cache stays true through a memory's whole life:
 * store → update → delete on governed memory, propose → approve / decline → forget on the
 * ledger (issue 24 item 3). The client is the shipped one: type policies plus memgateUpdate.
 */
describe("Apollo Client's watched queries through store → update → delete → approve → decline → forget", () => {
  const clock = new ManualClock("2026-03-01T12:00:00.000Z");
  let gw: TestGateway;
  let agent: ApolloClient;
  let person: ApolloClient;
  const stops: (() => void)[] = [];

  beforeAll(async () => {
    gw = await startTestGateway({ clock });
    const url = `${gw.url}/graphql`;
    agent = createMemgateClient({ url, token: await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["agent"], sub: "reflection-agent" }) });
    person = createMemgateClient({ url, token: await gw.token({ tenant: "acme", subjects: ["alice"], roles: ["user"], sub: "alice" }) });
  });
  afterAll(async () => {
    stops.forEach((stop) => stop());
    await agent?.clearStore();
    await person?.clearStore();
    await gw?.stop();
  });

  it("C19-OPS SPEC D1 D2: the watched list shows a stored item, both watchers show version 2, and after delete the list drops it and memory(id) answers NOT_FOUND", async () => {
    const list = watch(agent, MemoriesDocument, {});
    stops.push(list.stop);
    await list.until((d) => d.memories.memories.length === 0);

    const stored = expectSuccess((await mutate(agent, StoreMemoryDocument, { input: storeInput() })).storeMemory).memory!;
    await list.until((d) => d.memories.memories.map((m) => m.memoryId).join() === stored.memoryId);
    const one = watch(agent, MemoryDocument, { memoryId: stored.memoryId });
    stops.push(one.stop);
    await one.until((d) => d.memory.memory?.version === 1);

    await mutate(agent, UpdateMemoryDocument, { input: { ...storeInput(), memoryId: stored.memoryId, value: "prefer bullet points", expectedVersion: 1 } });
    await one.until((d) => d.memory.memory?.version === 2 && d.memory.memory.value === "prefer bullet points");
    await list.until((d) => d.memories.memories[0]?.version === 2);

    const deleted = (await mutate(agent, DeleteMemoryDocument, { memoryId: stored.memoryId, expectedVersion: 2 })).deleteMemory;
    expect(deleted).toMatchObject({ stopReason: "SUCCESS_DELETED", memoryId: stored.memoryId, memory: null }); // SPEC D1: never returned again
    await list.until((d) => d.memories.memories.length === 0);
    const gone = await one.until((d) => d.memory.memory === null);
    expect(gone.memory.stopReason).toBe("NOT_FOUND");
    expect(Object.keys(cacheKeys(agent)).filter((key) => key.startsWith("Memory:"))).toEqual([]);
  });

  it("P54-A P54-E: approve moves a proposal from the watched pending list to the watched ledger, decline drops it, forget drops the item", async () => {
    const propose = async (proposedText: string) =>
      (
        await mutate(agent, ProposeMemoryDocument, {
          input: { subjectId: "alice", proposedText, kind: "SELF_OBSERVATION", source: { sourceType: "phase3_reflection", sourceId: "refl-17" } },
        })
      ).proposeMemory.proposalId!;
    const first = await propose("I've noticed I focus better in the morning");
    const second = await propose("I've noticed I like long walks after lunch");

    const pending = watch(person, PendingProposalsDocument, { subjectId: "alice" });
    const ledger = watch(person, LedgerDocument, { subjectId: "alice" });
    stops.push(pending.stop, ledger.stop);
    await pending.until((d) => d.pendingProposals.proposals.length === 2);
    await ledger.until((d) => d.ledger.items.length === 0);

    const approved = expectSuccess(
      (await mutate(person, ApproveProposalDocument, { proposalId: first, finalText: "I've noticed I focus better in the morning" })).approveProposal,
    ).memory!;
    await pending.until((d) => d.pendingProposals.proposals.map((p) => p.proposalId).join() === second);
    const withItem = await ledger.until((d) => d.ledger.items.length === 1);
    expect(withItem.ledger.items[0]).toMatchObject({ memoryId: approved.memoryId, status: "active", proposalId: first });

    expect((await mutate(person, DeclineProposalDocument, { proposalId: second })).declineProposal).toMatchObject({
      stopReason: "SUCCESS_DELETED",
      proposalId: second,
    });
    await pending.until((d) => d.pendingProposals.proposals.length === 0);

    expect((await mutate(person, ForgetMemoryDocument, { memoryId: approved.memoryId })).forgetMemory).toMatchObject({ memoryId: approved.memoryId });
    await ledger.until((d) => d.ledger.items.length === 0);
    expect(Object.keys(cacheKeys(person)).filter((key) => key.startsWith("LedgerItem:") || key.startsWith("MemoryProposal:"))).toEqual([]);
  });
});
