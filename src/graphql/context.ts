import type { Principal } from "../auth/principal";
import type { Services } from "../services";

export interface GatewayContext {
  principal: Principal;
  requestId: string;
  services: Services;
}
