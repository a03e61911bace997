import { operation } from "../../../kernel/operation";
import { LIST_FIELDS } from "../fields";
import type { GovernedStore } from "../store";
import type { SettingsInput } from "../store-settings";
import type { ListRequest, MemoryPage } from "./requests";
import { CONTRACT, decodeCursor, DEFAULT_LIST_LIMIT, encodeCursor, NO_SETTINGS, subjectArg } from "./shared";

/** LIST: a page of the subject's live items, by category or key, with a cursor. */
export function list(store: GovernedStore) {
  return operation<ListRequest, SettingsInput, MemoryPage>({
    contract: CONTRACT,
    name: "LIST",
    fields: LIST_FIELDS,
    subject: subjectArg,
    gather: (_req, ctx) => store.settings.forSubject(ctx.tenantId, ctx.subjectId),
    input: (req, g) => ({
      list: { limit: req.limit ?? DEFAULT_LIST_LIMIT, category: req.category ?? null, cursor_valid: req.after ? decodeCursor(req.after) !== null : true },
      settings: g ?? NO_SETTINGS,
    }),
    refusal: (req) => ({ limit: req.limit ?? DEFAULT_LIST_LIMIT }),
    async allow(req, _g, ctx) {
      const limit = req.limit ?? DEFAULT_LIST_LIMIT;
      const items = await store.list({
        tenantId: ctx.tenantId,
        subjectId: ctx.subjectId,
        category: req.category ?? undefined,
        key: req.key ?? undefined,
        now: ctx.now,
        limit: limit + 1,
        after: (req.after && decodeCursor(req.after)) || undefined,
      });
      const page = items.slice(0, limit);
      return { items: page, nextCursor: items.length > limit ? encodeCursor(page[page.length - 1]) : null };
    },
  });
}
