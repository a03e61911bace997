// A LangGraph graph that remembers across threads through memgate (no LLM: the node is plain code).
// Run from the repository root (after npm start or npm run build) against a running gateway:
//   MEMGATE_GRAPHQL_URL=http://localhost:4000/graphql MEMGATE_TOKEN=$(npm run -s token -- --tenant acme --subject alice --role agent) \
//     npx tsx examples/langgraph/remember-across-threads.ts
import { Annotation, MemorySaver, START, StateGraph, type LangGraphRunnableConfig } from "@langchain/langgraph";
import { createMemgateClient } from "@memgate/client";
import { MemgateRefusalError, MemgateStore } from "@memgate/client/langgraph";

const State = Annotation.Root({ message: Annotation<string>, reply: Annotation<string> });

// "remember <key>: <text>" stores a preference; anything else answers with what is remembered.
async function assistant(state: typeof State.State, config: LangGraphRunnableConfig) {
  const namespace = ["users", String(config.configurable?.user_id), "prefs"]; // the user's memgate subject: the label after "users"
  const said = /^remember (\w+): (.+)$/.exec(state.message);
  if (said) {
    try {
      await config.store!.put(namespace, said[1], { text: said[2] });
      return { reply: `stored ${said[1]}` };
    } catch (error) {
      if (error instanceof MemgateRefusalError) return { reply: `not stored: ${error.stopReason}` };
      throw error;
    }
  }
  const memories = await config.store!.search(namespace);
  return { reply: `I remember: ${memories.map((m) => `${m.key}=${m.value.text}`).join(", ") || "nothing"}` };
}

// A graph's own writes need no option (SYSTEM_KNOWN); here the user said "remember", so the write
// is USER_EXPLICIT and carries their consent (C19-CONSENT; see docs/CLIENT.md).
const store = new MemgateStore({
  client: createMemgateClient({ url: process.env.MEMGATE_GRAPHQL_URL!, token: process.env.MEMGATE_TOKEN! }),
  governed: { sourceKind: "USER_EXPLICIT", consent: { explicit: true } },
});
const graph = new StateGraph(State).addNode("assistant", assistant).addEdge(START, "assistant").compile({ checkpointer: new MemorySaver(), store });

async function main() {
  const user = { user_id: process.env.MEMGATE_SUBJECT ?? "alice" };
  for (const [thread, message] of [
    ["monday", "remember tone: prefer concise answers"],
    ["monday", "remember ssn: my social security number is 078-05-1120"],
    ["tuesday", "what do you remember?"],
  ]) {
    const { reply } = await graph.invoke({ message }, { configurable: { thread_id: thread, ...user } });
    console.log(`[${thread}] ${message} -> ${reply}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
