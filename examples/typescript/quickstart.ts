// Store a memory, update it, and read it back through Apollo Client's normalised cache.
// Run from the repository root (after npm start or npm run build) against a running gateway:
//   MEMGATE_GRAPHQL_URL=http://localhost:4000/graphql MEMGATE_TOKEN=$(npm run -s token -- --tenant acme --subject alice --role agent) \
//     npx tsx examples/typescript/quickstart.ts
import { MemoryDocument, StoreMemoryDocument, UpdateMemoryDocument, createMemgateClient, decide, expectSuccess, mutate, query } from "@memgate/client";

async function main() {
  const client = createMemgateClient({ url: process.env.MEMGATE_GRAPHQL_URL!, token: process.env.MEMGATE_TOKEN! });
  const item = { category: "PREFERENCE", key: "tone", sourceKind: "USER_EXPLICIT", ttlClass: "LONG", consent: { explicit: true } };

  // expectSuccess returns the decision, or throws MemgateRefusalError carrying the stop reason.
  const stored = expectSuccess((await mutate(client, StoreMemoryDocument, { input: { ...item, value: "prefer concise answers" } })).storeMemory);
  const memoryId = stored.memory!.memoryId;
  const read = await query(client, MemoryDocument, { memoryId });
  console.log(`read version ${read.memory.memory?.version}: ${read.memory.memory?.value}`);
  await mutate(client, UpdateMemoryDocument, { input: { ...item, memoryId, value: "prefer bullet points", expectedVersion: 1 } });

  // Answered from the cache, no request: the update's answer replaced the one Memory entity.
  const cached = client.readQuery({ query: MemoryDocument, variables: { memoryId } });
  console.log(`cached version ${cached?.memory.memory?.version}: ${cached?.memory.memory?.value}`);

  // A refusal is a typed result, discriminated by outcome and stop reason.
  const refused = decide((await mutate(client, StoreMemoryDocument, { input: { ...item, key: "id", value: "my ssn is 078-05-1120" } })).storeMemory);
  if (refused.outcome === "refused") console.log(`refused: ${refused.stopReason}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
