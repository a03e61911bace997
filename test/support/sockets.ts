import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import type { TestGateway } from "./gateway";

/** A real graphql-ws client on the gateway's /graphql with a bearer token: connects on first use, never retries. */
export function socketClient(gw: TestGateway, token: string): Client {
  return createClient({
    url: `${gw.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    retryAttempts: 0,
    lazy: true,
  });
}
