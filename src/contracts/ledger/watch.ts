import { operation } from "../../kernel/operation";
import type { MemoryEvent } from "../../store/event-log";
import type { AuditLog } from "../../store/log/audit-system";
import { LEDGER_FIELDS } from "./fields";
import type { ListRequest } from "./operations";

/** One change to a subject's proposals or ledger: where it is in the log and what happened, never its content. */
export interface LedgerNotice {
  seq: number;
  /** listening (first, once: everything after `seq` will be told) | proposed | approved | declined | forgotten | changed */
  change: string;
}

/** A live stream of one subject's ledger notices, opened once the policy allowed reading that ledger. */
export type LedgerNoticeStream = (signal: AbortSignal) => AsyncIterable<LedgerNotice>;

const CHANGES: Record<string, string> = { PROPOSE: "proposed", APPROVE: "approved", DECLINE: "declined", FORGET: "forgotten" };

/**
 * "listening" at the head the stream starts after, then the ledger events of one subject out of
 * the tenant's log stream. A client that reads the lists after "listening" misses nothing.
 */
export async function* ledgerNotices(headSeq: number, events: AsyncIterable<MemoryEvent>, subjectId: string): AsyncIterable<LedgerNotice> {
  yield { seq: headSeq, change: "listening" };
  for await (const event of events) {
    if (event.contract === "ledger" && event.subject_id === subjectId) yield { seq: event.seq, change: CHANGES[event.operation] ?? "changed" };
  }
}

/**
 * The owner's ledger, live (issue 25): judged by the policy exactly as reading the ledger is
 * (operation LEDGER: a user token, its own subject), then every ledger event of that subject
 * after the head as it is now. It reads the log, never an in-process bus, so a change made
 * through any gateway reaches a page open on any other (src/store/log/event-source.ts).
 */
export function ledgerWatch(log: Pick<AuditLog, "events" | "source">) {
  return operation<ListRequest, undefined, LedgerNoticeStream>({
    contract: "ledger",
    name: "LEDGER",
    fields: LEDGER_FIELDS,
    async allow(_req, _gathered, ctx) {
      const head = await log.events.head(ctx.tenantId);
      const subjectId = ctx.subjectId;
      return (signal) => ledgerNotices(head.seq, log.source.stream(ctx.tenantId, head.seq, signal, ctx.principal.id), subjectId);
    },
  });
}
