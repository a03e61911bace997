import { subjectOf, type Principal } from "../auth/principal";
import type { DecisionRequest, Governor } from "../contracts/governor";
import type { CallContext, Outcome } from "../kernel/outcome";
import type { ErasureRegistry } from "./erasure";
import type { ErasureMark } from "./repair";

export interface ErasureResult {
  erasedMemoryIds: string[];
}

const CONTRACT = "audit";

/**
 * SPEC D1 erasure on the subject's request (or an admin's for them). The policy decides
 * (ERASE_MEMORY / ERASE_SUBJECT: roles user and admin, the subject must be in the token
 * unless admin, a reason is mandatory). For each memory: content out of every registered
 * store, then an `erase` event with the reason, then the store's settle mark (see repair.ts).
 */
export class ErasureService {
  constructor(
    private readonly governor: Governor,
    private readonly registry: ErasureRegistry,
  ) {}

  async eraseMemory(
    principal: Principal,
    args: { memoryId: string; subjectId?: string | null; reason: string },
    ctx: CallContext,
  ): Promise<Outcome<ErasureResult>> {
    const subjectId = subjectOf(principal, args.subjectId);
    const base = { operation: "ERASE_MEMORY", contract: CONTRACT, principal, subjectId };
    try {
      let found = false;
      let erased = true;
      if (subjectId && args.memoryId) {
        for (const store of this.registry.all()) {
          const seen = await store.lookup(principal.tenant, subjectId, args.memoryId);
          if (seen.found) {
            found = true;
            erased &&= seen.erased;
          }
        }
      }
      const reason = args.reason ?? "";
      const request: DecisionRequest = {
        ...base,
        input: {
          item: { memory_id: args.memoryId },
          erasure: { reason, found, erased: found && erased },
          texts: { reason },
          facts: { findings: [] },
        },
      };
      const decided = this.governor.decide(request);
      if (!decided.succeeded) {
        await this.governor.record(request, decided, ctx, "refuse", { metadata: { memory_id_length: args.memoryId.length, reason_length: reason.length } });
        return this.governor.outcome(decided);
      }
      await this.eraseOne(request, decided, ctx, args.memoryId);
      return this.governor.outcome(decided, { erasedMemoryIds: [args.memoryId] });
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  async eraseSubject(principal: Principal, args: { subjectId?: string | null; reason: string }, ctx: CallContext): Promise<Outcome<ErasureResult>> {
    const subjectId = subjectOf(principal, args.subjectId);
    const base = { operation: "ERASE_SUBJECT", contract: CONTRACT, principal, subjectId };
    try {
      const reason = args.reason ?? "";
      const request: DecisionRequest = { ...base, input: { erasure: { reason }, texts: { reason }, facts: { findings: [] } } };
      const decided = this.governor.decide(request);
      if (!decided.succeeded) {
        await this.governor.record(request, decided, ctx, "refuse", { metadata: { reason_length: reason.length } });
        return this.governor.outcome(decided);
      }
      const ids = new Set<string>();
      for (const store of this.registry.all()) for (const id of await store.memoryIds(principal.tenant, subjectId)) ids.add(id);
      const erased = [...ids].sort();
      for (const memoryId of erased) await this.eraseOne(request, decided, ctx, memoryId);
      return this.governor.outcome(decided, { erasedMemoryIds: erased });
    } catch (error) {
      return this.governor.failClosed(error, base, ctx);
    }
  }

  private async eraseOne(request: DecisionRequest, decided: ReturnType<Governor["decide"]>, ctx: CallContext, memoryId: string): Promise<void> {
    const tenant = request.principal.tenant;
    const reason = (request.input.erasure as { reason: string }).reason;
    const mark: ErasureMark = {
      at: this.governor.clock.now().toISOString(),
      by: request.principal.id,
      reason,
      operation: request.operation,
      decision_id: decided.decisionId,
    };
    const touched: string[] = [];
    for (const store of this.registry.all()) {
      if (await store.erase(tenant, request.subjectId, memoryId, mark)) touched.push(store.name);
    }
    const event = await this.governor.record(request, decided, ctx, "erase", { memory_id: memoryId, reason, metadata: { stores: touched } });
    for (const store of this.registry.all()) {
      if (touched.includes(store.name)) await store.settle(tenant, request.subjectId, memoryId, event.seq);
    }
  }
}
