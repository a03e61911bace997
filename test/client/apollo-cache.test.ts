import type { ApolloClient } from "@apollo/client";
import {
  AgentReadDocument,
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
