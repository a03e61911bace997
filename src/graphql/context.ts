import type { Principal } from "../auth/principal";
import type { Services } from "../services";

export interface GatewayContext {
  principal: Principal;
  requestId: string;
  /** The Idempotency-Key header of a GraphQL request over HTTP (src/kernel/idempotency.ts). */
  idempotencyKey?: string;
  /** The request's admission slot, given back while the kernel waits on another attempt (CallContext.waitAside). */
  waitAside?: <T>(wait: () => Promise<T>) => Promise<T>;
  services: Services;
  /** Fires when the caller has gone (HTTP client disconnected, socket closed): nothing more is started for it. */
  signal?: AbortSignal;
}
