import { createClient, type Client } from "graphql-ws";

/**
 * graphql-ws also rejects an internal promise with the socket's CloseEvent when the gateway
 * closes it (an expired token, 4403) or the page leaves; the sink below already hears of it.
 */
let closeEventsHandled = false;
function handleCloseEvents(): void {
  if (closeEventsHandled) return;
  closeEventsHandled = true;
  window.addEventListener("unhandledrejection", (event) => {
    if (event.reason instanceof CloseEvent) event.preventDefault();
  });
}

const LEDGER_CHANGES = "subscription LedgerChanges { ledgerChanges { seq change } }";

/**
 * The person's proposals and ledger, live: one graphql-ws subscription on /graphql with the
 * same token as every request. A notice carries no content; the page reads both lists again.
 * The first notice, "listening", comes once the gateway streams everything after its head:
 * the lists read after it miss nothing.
 * Returns a function that closes it.
 */
export function watchLedger(token: () => string, onChange: (change: string) => void, onLost: () => void): () => void {
  handleCloseEvents();
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  const client: Client = createClient({
    url,
    // Read at each (re)connection: after a refresh the new token is used.
    connectionParams: () => ({ authorization: `Bearer ${token()}` }),
    retryAttempts: 3,
  });
  let closed = false;
  const stop = client.subscribe<{ ledgerChanges: { seq: number; change: string } }>(
    { query: LEDGER_CHANGES },
    {
      next: (message) => onChange(message.data?.ledgerChanges.change ?? "changed"),
      error: () => {
        if (!closed) onLost();
      },
      complete: () => undefined,
    },
  );
  return () => {
    closed = true;
    stop();
    // Signed out or leaving: a socket that fails to close has nothing left to deliver.
    Promise.resolve(client.dispose()).catch(() => undefined);
  };
}
