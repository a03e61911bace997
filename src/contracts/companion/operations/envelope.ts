import { operation } from "../../../kernel/operation";
import { buildEnvelope, live, type Envelope } from "../envelope";
import { EnvelopeCache } from "../envelope-cache";
import { ENVELOPE_FIELDS } from "../fields";
import type { PrivacyState } from "../store";
import { str, type EnvelopeRequest } from "./requests";
import { privacyInput, type CompanionKit } from "./shared";

/** ENVELOPE: what an agent may know of the subject for a purpose, cached per generation. */
export function envelope(kit: CompanionKit) {
  const { store, cache, metrics, logger } = kit;
  return operation<EnvelopeRequest, PrivacyState, Envelope>({
    contract: "companion",
    name: "ENVELOPE",
    fields: ENVELOPE_FIELDS,
    gather: (_req, ctx) => store.privacy(ctx.tenantId, ctx.subjectId),
    input: (req, privacy) => ({
      envelope: { purpose: req.purpose ?? null, include_narrative: req.includeNarrative === true },
      privacy: { share_with: privacyInput(privacy).share_with, memory_enabled: privacyInput(privacy).memory_enabled },
    }),
    refusal: (req) => ({ purpose: kit.known(req.purpose, kit.data().purposes) }),
    async allow(req, privacy, ctx) {
      const purpose = str(req.purpose);
      const key = `${EnvelopeCache.key(ctx.tenantId, ctx.subjectId, purpose, ctx.principal.agentType ?? "-")}|g${privacy.generation}`;
      if (!req.skipCache) {
        const hit = cache.get(key);
        if (hit) {
          metrics.envelopeCache.inc({ result: "hit" });
          return { ...live(hit, privacy.settings, ctx.now), cached: true };
        }
      }
      metrics.envelopeCache.inc({ result: "miss" });
      const scope = { tenant: ctx.tenantId, subjectId: ctx.subjectId, purpose, power: kit.data().power_purposes.includes(purpose), now: ctx.now };
      const active = await store.activeEntries(ctx.tenantId, ctx.subjectId);
      const built = buildEnvelope(active.entries, privacy.settings, scope, () => {
        metrics.isolation.inc({ operation: "companion.ENVELOPE", kind: "foreign_record_dropped" });
        logger.error({ requestId: ctx.requestId }, "SG-ISOLATION: a foreign record reached the envelope and was dropped");
      });
      // INV-8: a fact left out while its write is in flight must not stay out of the cached envelope once acknowledged.
      if (active.complete) cache.set(key, built);
      return built;
    },
  });
}
