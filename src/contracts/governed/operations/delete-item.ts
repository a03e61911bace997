import { operation } from "../../../kernel/operation";
import { saltedDigest } from "../../../store/canonical";
import { DELETE_FIELDS } from "../fields";
import { contentDigest, type GovernedStore } from "../store";
import type { WriteRaces } from "./races";
import type { DeleteRequest } from "./requests";
import { CONTRACT, eventMetadata, NO_SETTINGS, required, subjectArg, type Target } from "./shared";

/** DELETE (SPEC D1): logical; the item's quota slot goes with it, the reason is kept as content. */
export function deleteItem(store: GovernedStore, races: WriteRaces) {
  return operation<DeleteRequest, Target, undefined>({
    contract: CONTRACT,
    name: "DELETE",
    fields: DELETE_FIELDS,
    subject: subjectArg,
    gather: (req, ctx) => races.target(req, ctx),
    input: (req, g) => ({ ...races.targeted(req, g), settings: g?.settings ?? NO_SETTINGS }),
    async allow(req, g, ctx, writes) {
      const live = required(g.record);
      const reason = req.reason ?? null;
      const won = await writes.run(
        () => store.markDeleted(live, ctx.now, reason),
        (done) => (done ? store.undelete(live) : Promise.resolve()),
      );
      if (!won) {
        races.lost(req, live.version);
        return writes.lost();
      }
      // The item's quota slot goes with it, so the cap counts live items (store-slots.ts).
      const { counts } = await store.counters.read(ctx.tenantId, ctx.subjectId, races.windowStart(ctx));
      await writes.run(
        () => store.slots.releaseItem(ctx.tenantId, ctx.subjectId, counts.items),
        (n) => (n === null ? Promise.resolve() : store.slots.restore(ctx.tenantId, ctx.subjectId, { kind: "item" }, n, ctx.now).then(() => undefined)),
      );
      writes.event({
        event_type: "delete",
        memory_id: live.memory_id,
        content_digest: contentDigest(live),
        // The person's reason is content: the chain commits to its salted digest, so an erasure reaches it.
        metadata: {
          ...eventMetadata(live),
          ...(reason === null ? {} : { reason: { digest: saltedDigest(live.content_salt, { reason }), length: reason.length } }),
        },
        // A deleted item no longer counts against the subject's cap (C19-CAP); its due mark (if any) stays the version's.
        settle: () => store.counters.add(ctx.tenantId, ctx.subjectId, { items: -1, writes: 0, windowStart: races.windowStart(ctx) }),
      });
      return undefined;
    },
  });
}
