import { operation } from "../../../kernel/operation";
import { newSalt } from "../../../store/canonical";
import { UPDATE_FIELDS } from "../fields";
import { contentDigest, type GovernedStore, type MemoryRecord } from "../store";
import type { SubjectCounts } from "../store-counters";
import type { WriteRaces } from "./races";
import type { UpdateRequest } from "./requests";
import { actor, content, CONTRACT, eventMetadata, expiry, itemMetadata, itemOf, NO_COUNTS, NO_SETTINGS, required, subjectArg, type Target } from "./shared";

interface UpdateGathered extends Target {
  counters: SubjectCounts;
}

/** UPDATE (SPEC D2): the whole new content of a live item, judged like a STORE, as a new version. */
export function update(store: GovernedStore, races: WriteRaces) {
  return operation<UpdateRequest, UpdateGathered, MemoryRecord>({
    contract: CONTRACT,
    name: "UPDATE",
    fields: UPDATE_FIELDS,
    subject: subjectArg,
    gather: async (req, ctx) => {
      const [t, q] = await Promise.all([races.target(req, ctx), races.quota(ctx)]);
      return { ...t, counters: await races.judged(req, q.counters, ctx) };
    },
    input: (req, g) => {
      const { item, target: t } = races.targeted(req, g);
      return { item: { ...itemOf(req), ...item }, target: t, settings: g?.settings ?? NO_SETTINGS, counts: g?.counters.counts ?? NO_COUNTS };
    },
    refusal: (req, ctx) => {
      races.refusedAfterRace(req, ctx);
      return itemMetadata(req, ctx.policy);
    },
    async allow(req, g, ctx, writes) {
      await store.room();
      if (!(await races.reserveSlots(req, g.counters, ctx, writes, false))) return writes.lost();
      const live = required(g.record);
      const next: MemoryRecord = {
        ...live,
        ...content(req),
        version: live.version + 1,
        supersedes: live.version,
        updated_at: ctx.now,
        expires_at: expiry(ctx, itemOf(req).ttl_class),
        updated_by: actor(ctx.principal),
        content_salt: newSalt(),
      };
      const won = await writes.run(
        () => store.supersede(live, next, ctx.now),
        (done) => (done ? store.unsupersede(live, next) : Promise.resolve()),
      );
      if (!won) {
        // Another write took this version: the kernel gathers again and the policy judges the item as it is now (SPEC D2).
        races.lost(req, live.version);
        return writes.lost();
      }
      writes.event({
        event_type: "update",
        memory_id: next.memory_id,
        content_digest: contentDigest(next),
        metadata: { ...eventMetadata(next), supersedes: live.version },
        settle: () =>
          store.settleWrite(next, {
            delta: { items: 0, writes: 1, windowStart: g.counters.windowStart },
            staleWindows: g.counters.staleWindows,
            slots: races.heldSlots(req),
          }),
      });
      return next;
    },
  });
}
