import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";

/**
 * The gateway's Prometheus metrics (SG-GATE, SG-ISOLATION, SG-LOAD). One registry per
 * gateway, so two gateways in one process count apart. Decisions, latency and isolation
 * are counted by the kernel for every contract; the Node process metrics come by default.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly decisions = new Counter({
    name: "memgate_decisions_total",
    help: "Decisions by contract, operation and stop reason",
    labelNames: ["contract", "operation", "stop_reason"],
    registers: [this.registry],
  });
  readonly gate = new Counter({
    name: "memgate_gate_outcomes_total",
    help: "SG-GATE outcomes: auto_apply, proposal, narrative, discard, ungrounded, reinforced, confirmed",
    labelNames: ["outcome"],
    registers: [this.registry],
  });
  readonly gateAlerts = new Counter({
    name: "memgate_gate_low_confidence_auto_apply_total",
    help: "SG-GATE alert: a fact applied below the apply threshold (a bug)",
    registers: [this.registry],
  });
  readonly isolation = new Counter({
    name: "memgate_cross_tenant_attempts_total",
    help: "SG-ISOLATION: cross-tenant or cross-subject attempts refused or prevented",
    labelNames: ["operation", "kind"],
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: "memgate_operation_seconds",
    help: "Service latency by contract and operation",
    labelNames: ["contract", "operation"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: "memgate_job_writes_total",
    help: "Background jobs' write sets (repair, integrity guard, policy watch, re-audit) by job and result",
    labelNames: ["job", "result"],
    registers: [this.registry],
  });
  readonly envelopeCache = new Counter({
    name: "memgate_envelope_cache_total",
    help: "SG-ENVELOPE cache hits and misses",
    labelNames: ["result"],
    registers: [this.registry],
  });

  constructor(options: { processMetrics?: boolean } = {}) {
    if (options.processMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }
}
