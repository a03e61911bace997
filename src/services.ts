import type { CompanionService } from "./contracts/companion.service";
import type { GovernedMemoryService } from "./contracts/governed.service";
import type { Metrics } from "./http/metrics";
import type { PolicyEngine } from "./policy/policy-engine";

/** The services the edges call; built once in the composition root. */
export interface Services {
  policy: PolicyEngine;
  governed: GovernedMemoryService;
  companion: CompanionService;
  metrics: Metrics;
}
