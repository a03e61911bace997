import { randomUUID } from "node:crypto";
import type { OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import { DAY_MS } from "../envelope";
import { factDigest, headId, objectDocId, sealFact, sealHead, type FactBody, type FactRecord, type HeadRecord } from "../records";
import type { CompanionKit } from "./shared";

/**
 * Inserts a fact, supersedes the active one of the same content, points the head at it.
 * Events: create (the fact), invalidate (what it superseded).
 */
export async function applyFact(
  kit: CompanionKit,
  writes: Writes,
  ctx: OperationContext,
  body: FactBody,
  key: string,
  head: HeadRecord | null,
  previous: FactRecord | null,
  metadata: Record<string, unknown>,
): Promise<FactRecord> {
  const { store } = kit;
  const memoryId = `fact_${randomUUID()}`;
  const supersedes = previous && previous.status === "active" ? previous : null;
  const record = sealFact({
    ...body,
    _id: objectDocId(ctx.tenantId, ctx.subjectId, memoryId),
    memory_id: memoryId,
    status: "active",
    status_reason: null,
    supersedes: supersedes?.memory_id ?? null,
    created_at: ctx.now,
    expires_at: new Date(ctx.now.getTime() + (kit.data().decay_days[body.type] ?? 0) * DAY_MS),
  });
  // Every caller answers { fact: record }: a keyed retry after a crash finds the fact by its id (src/kernel/idempotency.ts).
  await writes.creating([{ objectId: memoryId }], { fact: record });
  await writes.run(
    () => store.insertFact(record),
    () => store.removeFact(record),
  );
  writes.event({
    event_type: "create",
    memory_id: memoryId,
    content_digest: factDigest(record),
    metadata: { ...metadata, supersedes: record.supersedes, statement_type: record.statement_type },
    settle: (seq) => store.settleObject("write", ctx.tenantId, ctx.subjectId, memoryId, seq),
  });
  if (supersedes) {
    await writes.run(
      () => store.setStatus(supersedes, "inactive", "superseded"),
      () => store.restoreStatus(supersedes),
    );
    writes.event({ event_type: "invalidate", memory_id: supersedes.memory_id, reason: "superseded", metadata: { superseded_by: memoryId } });
  }
  const headKey = headId(key, ctx.tenantId, ctx.subjectId, record.type, record.text);
  const next = sealHead({
    _id: headKey,
    tenant_id: ctx.tenantId,
    subject_id: ctx.subjectId,
    active_id: memoryId,
    proposal_id: null,
    proposal_confidence: null,
    observations: 0,
  });
  await writes.run(
    () => store.putHead(next),
    () => store.restoreHead(headKey, head),
  );
  return record;
}
