import auditData from "../../policies/memgate/contracts/audit/data.json";
import { isStopReason, type StopReason } from "../kernel/outcome";
import { EVENT_TYPES, type EventType } from "../store/event-log";

/** What a background job observed, by the reason code its event records it under. */
export type JobObservation = keyof typeof auditData.job_events;

/** The event a job writes for an observation, as policy data says. */
export interface JobEvent {
  event_type: EventType;
  stop_reason: StopReason;
}

/** Policy data the gateway cannot act on (a code the contract does not know): it does not start. */
export class JobEventsError extends Error {
  readonly code = "JOB_EVENTS_INVALID" as const;
  constructor(detail: string) {
    super(`memgate: policies/memgate/contracts/audit/data.json job_events: ${detail}`);
    this.name = new.target.name;
  }
}

const isEventType = (value: string): value is EventType => (EVENT_TYPES as readonly string[]).includes(value);

/**
 * Issue 23 §4, TypeScript never re-decides: the event type and stop reason of what the integrity
 * guard and the policy watch record (a broken chain, a refused bundle, a new version, a new hash
 * under the same version) are the audit contract's policy data ("job_events"), checked once
 * when this module loads, not codes chosen by the job.
 */
export const JOB_EVENTS: Readonly<Record<JobObservation, JobEvent>> = Object.freeze(
  Object.fromEntries(
    Object.entries(auditData.job_events).map(([observation, recorded]) => {
      if (!isEventType(recorded.event_type)) throw new JobEventsError(`${observation}: unknown event_type ${recorded.event_type}`);
      if (!isStopReason(recorded.stop_reason)) throw new JobEventsError(`${observation}: unknown stop_reason ${recorded.stop_reason}`);
      return [observation, { event_type: recorded.event_type, stop_reason: recorded.stop_reason }];
    }),
  ) as Record<JobObservation, JobEvent>,
);
