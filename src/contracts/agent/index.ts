import { defineContract, type ContractDeps, type ContractModule } from "../../kernel/contract";
import { AgentIndexCache } from "./index-cache";
import { agentOperations, type AgentOperations } from "./operations";
import { AgentStore } from "./store";
import { AgentRejudge, AgentUpdateRejudge } from "./store-rejudge";
import { AgentResolver } from "./resolvers";

/**
 * The agent contract (seed 001): the memory interface of coding agents (read, write, update
 * documents validated by their exact JSON Schemas), as operations the kernel runs over one
 * store and one in-process index per tenant, kept fresh from the event log. Doors: the
 * GraphQL resolver beside this file and POST /v1/memory (src/http/agent-route.ts), both
 * through `runDocument` (./door.ts).
 */
export function agentContract(
  deps: Pick<ContractDeps, "db" | "events" | "clock"> & { config?: Pick<ContractDeps["config"], "cacheBudgets"> },
): ContractModule<AgentOperations> {
  const store = new AgentStore(deps.db, deps.clock);
  const indexes = new AgentIndexCache(store, deps.events, deps.config?.cacheBudgets.agentIndexBytes);
  return {
    name: "agent",
    operations: agentOperations({ store, indexes }),
    stores: [store],
    rejudge: [new AgentRejudge(deps.db, indexes), new AgentUpdateRejudge(deps.db, indexes)],
  };
}

/** The agent contract as src/contracts/index.ts registers it. */
export const agent = defineContract({ name: "agent", create: agentContract, resolvers: [AgentResolver] });
