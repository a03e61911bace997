import { operation, TENANT_SCOPE } from "../../../kernel/operation";
import { SET_SETTINGS_FIELDS } from "../fields";
import type { GovernedStore } from "../store";
import { settingsDocId, settingsInput, type MemorySettingsRecord } from "../store-settings";
import type { SettingsRequest } from "./requests";
import { actor, CONTRACT, given, scopedSubject } from "./shared";

/** C19-POLICY / C19-CAP: an admin turns memory on or off and sets quotas, for the tenant or one subject. */
export function setSettings(store: GovernedStore) {
  return operation<SettingsRequest, MemorySettingsRecord | null, MemorySettingsRecord>({
    contract: CONTRACT,
    name: "SET_SETTINGS",
    fields: SET_SETTINGS_FIELDS,
    subject: (raw) => {
      const requested = raw !== null && typeof raw === "object" ? (raw as SettingsRequest).subject_id : undefined;
      return typeof requested === "string" ? requested : TENANT_SCOPE;
    },
    gather: (_req, ctx) => store.settings.get(ctx.tenantId, scopedSubject(ctx)),
    input: (req, _g, ctx) => ({ settings_change: { scope: scopedSubject(ctx) ? "subject" : "tenant", ...given(req) } }),
    refusal: (_req, ctx) => ({ scope: scopedSubject(ctx) ? "subject" : "tenant" }),
    async allow(req, previous, ctx, writes) {
      const subjectId = scopedSubject(ctx);
      const changed = Object.fromEntries(Object.entries(given(req)).filter(([, v]) => v !== null));
      const record: MemorySettingsRecord = {
        ...previous,
        ...changed,
        _id: settingsDocId(ctx.tenantId, subjectId),
        tenant_id: ctx.tenantId,
        subject_id: subjectId,
        updated_at: ctx.now,
        updated_by: actor(ctx.principal),
      };
      await writes.run(
        () => store.settings.put(record),
        () => store.settings.restore(record._id, previous),
      );
      const epoch = await writes.run(() => store.settings.changed());
      // Answered once no gateway process can answer from the settings cached before this change.
      await store.settings.propagated(epoch);
      writes.event({ event_type: "settings_change", metadata: { scope: subjectId ? "subject" : "tenant", changed, previous: settingsInput(previous) } });
      return record;
    },
  });
}
