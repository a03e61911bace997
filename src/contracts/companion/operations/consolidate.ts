import { randomUUID } from "node:crypto";
import { operation, type OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import { saltedDigest } from "../../../store/canonical";
import { mergeFacts } from "../consolidation";
import { CONSOLIDATE_FIELDS } from "../fields";
import type { GroundingScore } from "../grounding";
import { factDigest, type FactRecord } from "../records";
import type { PrivacyState } from "../store";
import { str, strings, type ConsolidateRequest } from "./requests";
import { CompanionError, privacyInput, type CompanionKit, type FactResult } from "./shared";

interface ConsolidateGathered {
  ids: string[];
  found: (FactRecord | null)[];
  privacy: PrivacyState;
  grounding: GroundingScore;
}

/** CONSOLIDATE (seed 004 §3, §5): active facts merged into one grounded in them; the inputs invalidated. */
export function consolidate(kit: CompanionKit) {
  const { store, scorer } = kit;
  return operation<ConsolidateRequest, ConsolidateGathered, FactResult>({
    contract: "companion",
    name: "CONSOLIDATE",
    fields: CONSOLIDATE_FIELDS,
    async gather(req, ctx) {
      // More ids than the bound allows are refused (BOUNDS_EXCEEDED); no more are read than that.
      const ids = [...new Set(strings(req.memoryIds))].slice(0, 64);
      const [found, privacy] = await Promise.all([
        Promise.all(ids.map((i) => store.fact(ctx.tenantId, ctx.subjectId, i))),
        store.privacy(ctx.tenantId, ctx.subjectId),
      ]);
      const summary = found
        .filter((f): f is FactRecord => f !== null)
        .map((f) => f.text)
        .join(". ");
      const merged = str(req.text);
      const grounding = merged.trim() && summary ? await scorer.score(summary, merged) : { score: 0, unsupported: 0, scorer: scorer.name };
      return { ids, found, privacy, grounding };
    },
    input(req, g) {
      const found = g?.found ?? [];
      const ids = g?.ids ?? [...new Set(strings(req.memoryIds))];
      return {
        fact: { type: req.type ?? null, confidence: 1, source: "job" },
        origin: "adapter",
        grounding: { score: g?.grounding.score ?? 0, judge: g?.grounding.judge ?? null },
        privacy: privacyInput(g?.privacy),
        consolidate: {
          inputs: ids.map((_, i) =>
            found[i] && found[i].status === "active" ? { found: true, source_refs: found[i].source_refs.length } : { found: false, source_refs: 0 },
          ),
          types: [...new Set(found.filter((f): f is FactRecord => f !== null).map((f) => f.type))],
        },
      };
    },
    refusal: (req) => ({ inputs: strings(req.memoryIds).length }),
    async allow(req, g, ctx, writes) {
      const originals = g.found.filter((f): f is FactRecord => f !== null && f.status === "active");
      if (originals.length !== g.ids.length) throw new CompanionError("the policy consolidated facts that are not all active");
      const memoryId = `fact_${randomUUID()}`;
      const record = mergeFacts(originals, {
        tenant: ctx.tenantId,
        subjectId: ctx.subjectId,
        memoryId,
        type: str(req.type),
        text: str(req.text),
        now: ctx.now,
        invoker: kit.invoker(ctx),
        groundingScore: g.grounding.score,
        justification: str(req.justification),
      });
      await writes.creating([{ objectId: memoryId }], { fact: record });
      await writes.run(
        () => store.insertFact(record),
        () => store.removeFact(record),
      );
      writes.event(consolidateEvent(kit, ctx, record, originals, str(req.justification).length));
      await invalidateInputs(kit, writes, originals, memoryId);
      await kit.invalidate(writes, ctx);
      return { fact: record };
    },
  });
}

/** The consolidate event: inputs and output by id and salted digest, never their texts. */
function consolidateEvent(kit: CompanionKit, ctx: OperationContext, record: FactRecord, originals: FactRecord[], justificationLength: number) {
  const memoryId = record.memory_id;
  return {
    event_type: "consolidate" as const,
    memory_id: memoryId,
    content_digest: factDigest(record),
    reason: "consolidation",
    metadata: {
      inputs: originals.map((f) => ({ memory_id: f.memory_id, statement_type: f.statement_type, digest: factDigest(f) })),
      output: {
        memory_id: memoryId,
        statement_type: "ConsolidatedStatement",
        source_refs: record.source_refs.length,
        valid_to: record.valid_to?.toISOString() ?? null,
      },
      // The justification is content: the record keeps it (erasable), the chain commits to its salted digest.
      justification: {
        digest: saltedDigest(record.content_salt ?? "", { justification: record.justification ?? "" }),
        length: justificationLength,
      },
      diff: { removed: originals.map((f) => f.memory_id), added: [memoryId] },
    },
    settle: (seq: number) => kit.store.settleObject("write", ctx.tenantId, ctx.subjectId, memoryId, seq),
  };
}

/** The merged facts stay, inactive, each with its event naming what it went into. */
async function invalidateInputs(kit: CompanionKit, writes: Writes, originals: FactRecord[], into: string): Promise<void> {
  for (const fact of originals) {
    await writes.run(
      () => kit.store.setStatus(fact, "inactive", "consolidated"),
      () => kit.store.restoreStatus(fact),
    );
    writes.event({ event_type: "invalidate", memory_id: fact.memory_id, reason: "consolidated", metadata: { into } });
  }
}
