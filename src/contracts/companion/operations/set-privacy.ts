import { operation, type OperationContext } from "../../../kernel/operation";
import type { Writes } from "../../../kernel/write-set";
import { DAY_MS } from "../envelope";
import { SET_PRIVACY_FIELDS } from "../fields";
import type { PrivacyRecord, PrivacySettings } from "../records";
import type { PrivacyState } from "../store";
import { strings, type PrivacyRequest } from "./requests";
import { privacyInput, type CompanionKit } from "./shared";

interface PrivacyGathered {
  state: PrivacyState;
  record: PrivacyRecord | null;
}

const nextSettings = (req: PrivacyRequest, current: PrivacySettings): PrivacySettings => ({
  memory_enabled: req.memoryEnabled ?? current.memory_enabled,
  learn_patterns: req.learnPatterns ?? current.learn_patterns,
  share_with: req.shareWith ? strings(req.shareWith) : current.share_with,
  anonymize_dates: req.anonymizeDates ?? current.anonymize_dates,
  delete_after_days: req.deleteAfterDays === undefined ? current.delete_after_days : req.deleteAfterDays,
});

/** SET_PRIVACY (SG-PRIVACY): the person's settings; an opt-out takes effect at once. */
export function setPrivacy(kit: CompanionKit) {
  const { store, cache } = kit;
  return operation<PrivacyRequest, PrivacyGathered, { settings: PrivacySettings }>({
    contract: "companion",
    name: "SET_PRIVACY",
    fields: SET_PRIVACY_FIELDS,
    async gather(_req, ctx) {
      const record = await store.privacyRecord(ctx.tenantId, ctx.subjectId);
      return { record, state: await store.privacy(ctx.tenantId, ctx.subjectId) };
    },
    input: (req, g) => ({ settings: nextSettings(req, privacyInput(g?.state)) }),
    refusal: (req) => ({ given: Object.keys(req).filter((k) => k !== "subjectId") }),
    async allow(req, g, ctx, writes) {
      const current = g.state.settings;
      const next = nextSettings(req, current);
      await writes.run(
        () => store.putPrivacy(ctx.tenantId, ctx.subjectId, next, ctx.now),
        () => store.restorePrivacy(ctx.tenantId, ctx.subjectId, g.record, ctx.now),
      );
      cache.invalidateSubject(ctx.tenantId, ctx.subjectId); // opt-out takes effect at once (the generation moved on too)
      const changed = (Object.keys(next) as (keyof PrivacySettings)[]).filter((k) => JSON.stringify(next[k]) !== JSON.stringify(current[k]));
      // The agent types shared with are counted, not copied: the log keeps no free text of the person's.
      writes.event({ event_type: "settings_change", reason: "privacy", metadata: { changed, settings: { ...next, share_with: next.share_with.length } } });
      if (next.delete_after_days) await archiveOlder(kit, writes, ctx, next.delete_after_days);
      return { settings: next };
    },
  });
}

/** SG-PRIVACY delete_after_days: older facts become inactive, then archived; each step an event. */
async function archiveOlder(kit: CompanionKit, writes: Writes, ctx: OperationContext, days: number): Promise<number> {
  const { store, logger } = kit;
  const cutoff = ctx.now.getTime() - days * DAY_MS;
  let n = 0;
  for (const fact of await store.activeFacts(ctx.tenantId, ctx.subjectId)) {
    if (fact.created_at.getTime() > cutoff) continue;
    // One undo for both steps: the status the fact had when it was read.
    await writes.run(
      () => store.setStatus(fact, "inactive", "delete_after_days"),
      () => store.restoreStatus(fact),
    );
    writes.event({ event_type: "invalidate", memory_id: fact.memory_id, reason: "delete_after_days", metadata: { days } });
    await store.setStatus(fact, "archived", "delete_after_days");
    writes.event({ event_type: "archive", memory_id: fact.memory_id, reason: "delete_after_days", metadata: { days } });
    logger.info({ requestId: ctx.requestId, memoryId: fact.memory_id }, "fact archived (delete_after_days)");
    n++;
  }
  return n;
}
