import type { AuditLog } from "../store/log/audit-system";
import type { Clock } from "../clock";
import type { Config } from "../config";
import type { DetectorSuite } from "../detectors/detector";
import type { Logger } from "../logger";
import type { PolicyEngine } from "../policy/policy-engine";
import type { Database } from "../store/database";
import type { EventLog } from "../store/event-log";
import type { ContractStore } from "./contract-store";
import { boundMismatches, storesText, type OperationDeclaration } from "./declaration";
import type { Operation } from "./operation";
import type { RejudgeTarget } from "./rejudge";
import type { Kernel } from "./execute";
import type { Metrics } from "./metrics";

/** What the composition root hands every contract module. */
export interface ContractDeps {
  db: Database;
  kernel: Kernel;
  policy: PolicyEngine;
  events: EventLog;
  clock: Clock;
  logger: Logger;
  config: Config;
  metrics: Metrics;
  detectors: DetectorSuite;
  /** Every contract's stores, for operations that reach all of them (erasure). Filled before any operation runs. */
  stores: readonly ContractStore[];
  /** The log's parts the audit contract reads and acts on: verification, checkpoints, the live stream, the integrity guard. */
  auditLog: AuditLog;
  /** Every contract's re-audit targets (issue 13 item 5), for the release of a quarantine. Filled like `stores`. */
  rejudgeTargets?: readonly RejudgeTarget[];
}

/**
 * A contract as the gateway sees it: a name, its declared operations (which every door
 * runs through the kernel) and its stores (which repair, erasure and integrity checks
 * reach generically). A new contract is one folder in src/contracts/ exporting one of
 * these, one folder in policies/memgate/, and one line in src/contracts/index.ts.
 */
export interface ContractModule<Ops extends object = object> {
  readonly name: string;
  readonly operations: Ops;
  readonly stores: readonly ContractStore[];
  /** The stored memories a tighter policy re-judges (src/jobs/reaudit.ts). */
  readonly rejudge?: readonly RejudgeTarget[];
}

/**
 * A contract as the gateway registers it (one entry in src/contracts/index.ts): how it is
 * built, the declarations of the operations its doors derive (src/kernel/declaration.ts), and
 * its hand-written GraphQL resolvers, if any.
 */
export interface ContractDefinition<M extends ContractModule = ContractModule> {
  readonly name: string;
  create(deps: ContractDeps): M;
  /** Operations declared `derivedDoors`: GraphQL, MCP and REST/OpenAPI publish them with no door code. */
  readonly declarations?: readonly OperationDeclaration[];
  /** type-graphql resolver classes written for the contract (its derived operations need none). */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  readonly resolvers?: readonly Function[];
}

export function defineContract<M extends ContractModule>(definition: ContractDefinition<M>): ContractDefinition<M> {
  return definition;
}

/** The operations a built contract holds (its `operations` may carry helpers besides them, as the ledger's watch). */
export function operationsOf(module: ContractModule): Operation<never, never, never>[] {
  return Object.values(module.operations as Record<string, unknown>).filter(
    (value): value is Operation<never, never, never> =>
      value !== null &&
      typeof value === "object" &&
      typeof (value as Operation<never>).contract === "string" &&
      typeof (value as Operation<never>).fields === "object",
  );
}

/** The declarations and the policy disagree, or a contract stores text nothing re-judges: the gateway does not start. */
export class DeclarationError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`memgate: the contracts' declarations do not hold: ${problems.join("; ")}`);
    this.name = "DeclarationError";
  }
}

/**
 * What start-up checks of the built contracts (issue 23 item 1): every declared string and list
 * field has a bound in its contract's policy data ("fields") and every bound names a declared
 * field; a contract whose operations store text offers re-judge targets (else a tightened policy
 * would never see that text again). `bounds(contract)`: the policy's "fields" of the contract
 * (undefined with no bundle loaded: every operation fails closed then, and bounds are checked at the next start).
 */
export function declarationProblems(
  modules: readonly ContractModule[],
  bounds: ((contract: string) => Record<string, unknown> | undefined) | undefined,
): string[] {
  const operations = modules.flatMap(operationsOf);
  const problems = (bounds ? boundMismatches(operations, bounds) : []).flatMap((m) => [
    ...m.unbounded.map((name) => `${m.contract}: the field "${name}" has no bound in policies/memgate/contracts/${m.contract}/data.json "fields"`),
    ...m.undeclared.map((name) => `${m.contract}: the bound "${name}" names no declared field`),
  ]);
  for (const module of modules) {
    const storing = operationsOf(module).filter((op) => storesText(op.fields));
    if (storing.length > 0 && (module.rejudge ?? []).length === 0)
      problems.push(`${module.name}: ${storing.map((op) => op.name).join(", ")} store text but the contract offers no re-judge target`);
  }
  return problems;
}
