import { operation } from "../../../kernel/operation";
import { READ_FIELDS } from "../fields";
import type { MemoryRecord } from "../store";
import type { WriteRaces } from "./races";
import type { ReadRequest } from "./requests";
import { CONTRACT, NO_SETTINGS, required, subjectArg, targetOf, type Target } from "./shared";

/** READ: one live item of the subject. */
export function read(races: WriteRaces) {
  return operation<ReadRequest, Target, MemoryRecord>({
    contract: CONTRACT,
    name: "READ",
    fields: READ_FIELDS,
    subject: subjectArg,
    gather: (req, ctx) => races.target(req, ctx),
    input: (req, g) => ({ item: { memory_id: req.memory_id ?? null }, target: targetOf(g?.record ?? null), settings: g?.settings ?? NO_SETTINGS }),
    allow: async (_req, g) => required(g.record),
  });
}
