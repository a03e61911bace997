import type { EventActor } from "../event-log";

/** The actor of events memgate writes on its own: startup checks, repairs, policy loads. */
export const SYSTEM_ACTOR: EventActor = { id: "memgate", roles: [], kind: "system" };
export const POLICY_ENGINE_ACTOR: EventActor = { id: "memgate-policy-engine", roles: [], kind: "policy-engine" };
