import type { Principal } from "../auth/principal";
import type { Services } from "../services";

export interface GatewayContext {
  principal: Principal;
  requestId: string;
  /** The Idempotency-Key header of a GraphQL request over HTTP (src/kernel/idempotency.ts). */
  idempotencyKey?: string;
  services: Services;
  /** Fires when the caller has gone (HTTP client disconnected, socket closed): nothing more is started for it. */
  signal?: AbortSignal;
}
