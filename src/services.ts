import type { Metrics } from "./kernel/metrics";
import type { PolicyEngine } from "./policy/policy-engine";
import type { Contracts } from "./contracts";
import type { Kernel } from "./kernel/execute";
import type { Reauditor } from "./jobs/reaudit";
import type { EventLog } from "./store/event-log";

/** The services the edges call; built once in the composition root. */
export interface Services {
  policy: PolicyEngine;
  /** Runs every operation of every contract; doors call it and nothing else writes. */
  kernel: Kernel;
  /** The contract modules by name; a door finds an operation here and hands it to the kernel. */
  contracts: Contracts;
  metrics: Metrics;
  /** The hash-chained log (the kernel appends to it through its EventAppender port). */
  events: EventLog;
  /** Re-judges stored memory when a new bundle comes into force (issue 13 item 5); absent in gateways built without it. */
  reaudit?: Reauditor;
}
