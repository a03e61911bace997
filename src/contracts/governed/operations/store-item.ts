import { randomUUID } from "node:crypto";
import { operation } from "../../../kernel/operation";
import { newSalt } from "../../../store/canonical";
import { memoryDocId } from "../../../store/ids";
import { STORE_FIELDS } from "../fields";
import { contentDigest, type GovernedStore, type MemoryRecord } from "../store";
import type { WriteRaces } from "./races";
import type { StoreRequest } from "./requests";
import { actor, content, CONTRACT, eventMetadata, expiry, itemMetadata, itemOf, NO_COUNTS, NO_SETTINGS, subjectArg, type Quota } from "./shared";

/** STORE (seed 000 §2.1): a new item, judged with the subject's settings and counts (C19-POLICY, C19-CAP). */
export function storeItem(store: GovernedStore, races: WriteRaces) {
  return operation<StoreRequest, Quota, MemoryRecord>({
    contract: CONTRACT,
    name: "STORE",
    fields: STORE_FIELDS,
    subject: subjectArg,
    gather: async (req, ctx) => {
      const q = await races.quota(ctx);
      return { ...q, counters: await races.judged(req, q.counters, ctx) };
    },
    input: (req, g) => ({ item: itemOf(req), settings: g?.settings ?? NO_SETTINGS, counts: g?.counters.counts ?? NO_COUNTS }),
    refusal: (req, ctx) => {
      races.refusedAfterRace(req, ctx);
      return itemMetadata(req, ctx.policy);
    },
    async allow(req, g, ctx, writes) {
      await store.room();
      if (!(await races.reserveSlots(req, g.counters, ctx, writes, true))) return writes.lost();
      const item = itemOf(req);
      const memoryId = `mem_${randomUUID()}`;
      const record: MemoryRecord = {
        _id: memoryDocId(ctx.tenantId, ctx.subjectId, memoryId),
        tenant_id: ctx.tenantId,
        subject_id: ctx.subjectId,
        memory_id: memoryId,
        version: 1,
        ...content(req),
        status: "active",
        created_at: ctx.now,
        updated_at: ctx.now,
        expires_at: expiry(ctx, item.ttl_class),
        created_by: actor(ctx.principal),
        content_salt: newSalt(),
      };
      // MP-OBJECT: sealed before the keyed answer is kept, so a retry answers the same provenance.
      store.seal(record);
      // A keyed retry after a crash finds the item by this id (src/kernel/idempotency.ts).
      await writes.creating([{ objectId: memoryId }], record);
      await writes.run(
        () => store.insert(record, ctx.now),
        () => store.rollback(record),
      );
      writes.event({
        event_type: "create",
        memory_id: memoryId,
        content_digest: contentDigest(record),
        metadata: eventMetadata(record),
        settle: () =>
          store.settleWrite(record, {
            delta: { items: 1, writes: 1, windowStart: g.counters.windowStart },
            staleWindows: g.counters.staleWindows,
            slots: races.heldSlots(req),
          }),
      });
      return record;
    },
  });
}
