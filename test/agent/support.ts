import type { TestGateway } from "../support/gateway";

/** POST /v1/memory with a Bearer token (null: none); the JSON answer (read loosely, as a client would) and the HTTP status. */
export async function postMemory(gw: TestGateway, token: string | null, body: unknown, raw = false): Promise<{ status: number; body: any }> {
  const response = await fetch(`${gw.url}/v1/memory`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: raw ? (body as string) : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

export const writeDoc = (repo: string, memory: Record<string, unknown>) => ({
  op: "write",
  repo_id: repo,
  memory: { scope: "repo", kind: "fact", confidence: 0.9, ...memory },
});

export const readDoc = (repo: string, query: string, extra: Record<string, unknown> = {}) => ({
  op: "read",
  repo_id: repo,
  mode: "targeted",
  query,
  ...extra,
});

/**
 * The event log answers a writer before it advances the chain head document, and a write's
 * due record (agent_due_events) is deleted once its event is in, off the request path; before
 * a "nothing changed" comparison, wait for that database state (never for time).
 */
export async function logSettled(gw: TestGateway, tenant = "acme"): Promise<void> {
  const db = gw.gateway.db;
  const events = await db.collection("memory_events").countDocuments({ tenant_id: tenant });
  for (let i = 0; i < 500; i++) {
    const head = await db.collection<{ _id: string; seq: number }>("chain_heads").findOne({ _id: tenant });
    const due = await db.collection("agent_due_events").countDocuments({ tenant_id: tenant });
    if ((head?.seq ?? 0) >= events && due === 0) return;
  }
  throw new Error("the chain head never caught up with the log, or a due event was never settled");
}
