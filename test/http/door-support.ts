import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import type { TestGateway } from "../support/gateway";

export interface SocketAnswer {
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, any> }[];
  /** The socket closed before an answer: its close code. */
  closedWith?: number;
}

export interface TestSocket {
  client: Client;
  /** Resolves with the close code once the server (or client) closes the socket. */
  closed: Promise<number>;
  /** Runs one query or mutation; resolves with its result, its errors, or the close code. */
  run(query: string, variables?: Record<string, unknown>): Promise<SocketAnswer>;
  dispose(): Promise<void>;
}

/** A real graphql-ws client on the gateway's /graphql, connected at once, never retrying. */
export function openSocket(gw: TestGateway, connectionParams: Record<string, unknown>): TestSocket {
  let onClosed!: (code: number) => void;
  const closed = new Promise<number>((resolve) => (onClosed = resolve));
  const client = createClient({
    url: `${gw.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
    on: { closed: (event) => onClosed((event as { code: number }).code) },
  });
  return {
    client,
    closed,
    run: (query, variables) =>
      new Promise<SocketAnswer>((resolve) => {
        let last: SocketAnswer = {};
        client.subscribe(
          { query, variables },
          {
            next: (result) => (last = result as SocketAnswer),
            error: (error) => resolve(Array.isArray(error) ? { errors: error } : { closedWith: (error as { code?: number }).code }),
            complete: () => resolve(last),
          },
        );
      }),
    dispose: () => client.dispose() as Promise<void>,
  };
}

/** Events in the tenant's chain, read from the database. */
export function eventCount(gw: TestGateway, tenant: string): Promise<number> {
  return gw.gateway.db.collection("memory_events").countDocuments({ tenant_id: tenant });
}

/** A seed-001 read of a repository the caller does not hold: the kernel refuses it, and each refusal appends an event. */
export const READ_DOC = { op: "read", repo_id: "other/repo", mode: "targeted", query: "connection pool" };

/** JSON text of arrays nested `depth` deep (JSON.stringify itself would overflow building it). */
export const deepJsonText = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/**
 * One operation over a raw graphql-transport-ws socket, its subscribe message given as text
 * (for documents a JSON encoder cannot even build, such as 50,000 nested arrays): the first
 * answer for it, or the close code.
 */
export async function rawSocketOperation(
  gw: TestGateway,
  connectionParams: Record<string, unknown>,
  payloadText: string,
): Promise<{ type?: string; payload?: any; closedWith?: number }> {
  const socket = new WebSocket(`${gw.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
  try {
    return await new Promise((resolve, reject) => {
      socket.once("error", reject);
      socket.once("close", (code) => resolve({ closedWith: code }));
      socket.once("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: connectionParams })));
      socket.on("message", (data) => {
        const message = JSON.parse(String(data)) as { type: string; id?: string; payload?: unknown };
        if (message.type === "connection_ack") socket.send(`{"type":"subscribe","id":"1","payload":${payloadText}}`);
        else if (message.id === "1") resolve(message);
      });
    });
  } finally {
    socket.close();
  }
}
