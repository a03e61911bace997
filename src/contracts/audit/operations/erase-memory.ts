import { operation } from "../../../kernel/operation";
import { ERASE_MEMORY_FIELDS } from "../fields";
import {
  AUDIT_CONTRACT,
  codedReason,
  eraseObject,
  erasureMark,
  type AuditOperationDeps,
  type EraseMemoryRequest,
  type ErasureResult,
  type Holders,
} from "./shared";

/** ERASE_MEMORY (SPEC D1): one object's content out of whichever store holds it; the events stay. */
export function eraseMemory({ log, stores }: AuditOperationDeps) {
  return operation<EraseMemoryRequest, Holders, ErasureResult>({
    contract: AUDIT_CONTRACT,
    name: "ERASE_MEMORY",
    fields: ERASE_MEMORY_FIELDS,
    async gather(req, ctx) {
      const objectId = req.memoryId;
      if (typeof objectId !== "string" || objectId.trim() === "") return { holders: [], found: false, erased: false };
      const seen = await Promise.all(stores.map(async (store) => ({ store, ...(await store.lookup(ctx.tenantId, ctx.subjectId, objectId)) })));
      const found = seen.filter((s) => s.found);
      const holders = found.filter((s) => !s.erased).map((s) => s.store);
      return { holders, found: found.length > 0, erased: found.length > 0 && holders.length === 0 };
    },
    // A subject the token does not hold gathers nothing: "not found", whatever exists (no existence oracle).
    input: (req, gathered) => ({
      item: { memory_id: req.memoryId ?? "" },
      erasure: { found: gathered?.found ?? false, erased: gathered?.erased ?? false },
    }),
    async allow(req, gathered, ctx, writes, decision) {
      const objectId = req.memoryId!;
      const { code, note } = await codedReason(log, ctx, decision, "ERASE_MEMORY", req, writes);
      const mark = erasureMark(ctx, decision, "ERASE_MEMORY", code);
      let erased = false;
      for (const store of gathered.holders) erased = (await eraseObject(store, ctx, objectId, mark, decision.stopReason, writes, note)) || erased;
      // Erased by a concurrent request meanwhile: the policy judges the object as it is now.
      if (!erased) return writes.lost();
      return { erasedMemoryIds: [objectId] };
    },
  });
}
