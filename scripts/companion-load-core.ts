/**
 * SG-LOAD SG-ISOLATION: drives a running gateway with simulated users of several tenants
 * (distinct tokens and subjects) at target read and write rates, then checks that no
 * response carried another subject's or tenant's memory and that /metrics counted what was sent.
 */
export interface LoadUser {
  tenant: string;
  subject: string;
  token: string;
}

export interface LoadOptions {
  url: string;
  users: LoadUser[];
  durationMs: number;
  readsPerSec: number;
  writesPerSec: number;
  maxInFlight?: number;
}

export interface LoadReport {
  seconds: number;
  reads: { sent: number; ok: number; rate: number; p50: number; p99: number };
  writes: { sent: number; stored: number; rate: number; p50: number; p99: number };
  errors: number;
  refusals: Record<string, number>;
  leaks: number;
  factsSeen: number;
  /** Users whose envelope was read uncached after the timed run (all of them, unless errors). */
  verifiedUsers: number;
  countersMatch: boolean;
  counters: { readsCounted: number; writesCounted: number };
}

const ADD = `mutation A($input: AddFactInput!) { addFact(input: $input) { stopReason } }`;
const ENV = `query E($s: ID, $fresh: Boolean) { memoryEnvelope(purpose: RESPONSE, subjectId: $s, skipCache: $fresh) { stopReason envelope { subjectId userFacts { text } } } }`;

const tagOf = (u: LoadUser) => `zq${u.tenant}x${u.subject}`.replace(/[^a-z0-9]/gi, "");

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function counter(url: string, operation: string, stop: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const m = text.match(new RegExp(`memgate_decisions_total\\{contract="companion",operation="${operation}",stop_reason="${stop}"\\} (\\d+)`));
  return m ? Number(m[1]) : 0;
}

export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const { url, users } = options;
  const maxInFlight = options.maxInFlight ?? 256;
  const readsBefore = await counter(url, "ENVELOPE", "SUCCESS_READ");
  const writesBefore = await counter(url, "ADD_FACT", "SUCCESS_STORED");
  const readLat: number[] = [];
  const writeLat: number[] = [];
  let readsSent = 0,
    readsOk = 0,
    writesSent = 0,
    writesStored = 0,
    errors = 0,
    leaks = 0,
    factsSeen = 0,
    seq = 0;
  // reads and writes have their own budgets of requests in flight, so neither starves the other
  const inFlight = { read: 0, write: 0 };
  const budget = { read: maxInFlight, write: Math.max(8, Math.ceil(maxInFlight / 4)) };
  const pending = new Set<Promise<void>>();
  const refusals: Record<string, number> = {};

  const post = async (token: string, query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data?: Record<string, any>; errors?: unknown[] };
  };

  const read = async (u: LoadUser, fresh = false) => {
    const t = performance.now();
    try {
      const body = await post(u.token, ENV, { s: u.subject, fresh });
      if (!fresh) readLat.push(performance.now() - t);
      const d = body.data?.memoryEnvelope;
      if (!d || d.stopReason !== "SUCCESS_READ") {
        errors++;
        return;
      }
      readsOk++;
      if (d.envelope.subjectId !== u.subject) leaks++;
      for (const f of d.envelope.userFacts as { text: string }[]) {
        factsSeen++;
        if (!f.text.includes(tagOf(u))) leaks++; // another subject's or tenant's memory
      }
    } catch {
      errors++;
    }
  };

  const write = async (u: LoadUser) => {
    const t = performance.now();
    const n = ++seq;
    const tag = tagOf(u);
    try {
      const body = await post(u.token, ADD, {
        input: {
          subjectId: u.subject,
          type: "USER_FACT",
          text: `User owns item ${tag} number ${n}`,
          confidence: 0.9,
          source: "llm_extraction",
          summary: `User said they own item ${tag} number ${n} and like tea.`,
        },
      });
      writeLat.push(performance.now() - t);
      const stop = body.data?.addFact?.stopReason ?? "GRAPHQL_ERROR";
      if (stop === "SUCCESS_STORED") writesStored++;
      else {
        errors++;
        refusals[stop] = (refusals[stop] ?? 0) + 1;
      }
    } catch {
      errors++;
    }
  };

  const launch = (kind: "read" | "write", fn: () => Promise<void>) => {
    if (inFlight[kind] >= budget[kind]) return false;
    inFlight[kind]++;
    const p = fn().finally(() => {
      inFlight[kind]--;
      pending.delete(p);
    });
    pending.add(p);
    return true;
  };

  const start = performance.now();
  let i = 0;
  while (performance.now() - start < options.durationMs) {
    const elapsed = (performance.now() - start) / 1000;
    while (readsSent < elapsed * options.readsPerSec && launch("read", () => read(users[i++ % users.length]))) readsSent++;
    while (writesSent < elapsed * options.writesPerSec && launch("write", () => write(users[(i++ * 7) % users.length]))) writesSent++;
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(pending);
  const seconds = (performance.now() - start) / 1000;
  readLat.sort((a, b) => a - b);
  writeLat.sort((a, b) => a - b);
  const readsCounted = (await counter(url, "ENVELOPE", "SUCCESS_READ")) - readsBefore;
  const writesCounted = (await counter(url, "ADD_FACT", "SUCCESS_STORED")) - writesBefore;
  // Cached envelopes may legitimately lag the writes (SG-ENVELOPE); a final uncached read per user
  // checks every stored fact for isolation whatever the timing was.
  const readsOkTimed = readsOk;
  for (const u of users) await read(u, true);
  const verified = { reads: readsOk - readsOkTimed };
  readsOk = readsOkTimed;
  return {
    seconds,
    reads: { sent: readsSent, ok: readsOk, rate: readsOk / seconds, p50: percentile(readLat, 50), p99: percentile(readLat, 99) },
    writes: { sent: writesSent, stored: writesStored, rate: writesStored / seconds, p50: percentile(writeLat, 50), p99: percentile(writeLat, 99) },
    errors,
    refusals,
    leaks,
    factsSeen,
    countersMatch: readsCounted === readsOk && writesCounted === writesStored,
    verifiedUsers: verified.reads,
    counters: { readsCounted, writesCounted },
  };
}

export function formatLoad(r: LoadReport, users: number, tenants: number): string {
  const f = (n: number) => n.toFixed(1);
  return [
    `users ${users} across ${tenants} tenants, ${f(r.seconds)} s`,
    `reads   sent ${r.reads.sent}  ok ${r.reads.ok}  ${f(r.reads.rate)}/s  p50 ${f(r.reads.p50)} ms  p99 ${f(r.reads.p99)} ms`,
    `writes  sent ${r.writes.sent}  stored ${r.writes.stored}  ${f(r.writes.rate)}/s  p50 ${f(r.writes.p50)} ms  p99 ${f(r.writes.p99)} ms`,
    `errors ${r.errors} ${JSON.stringify(r.refusals)}`,
    `isolation: ${r.leaks === 0 ? "OK" : "BROKEN"} (${r.leaks} foreign facts in ${r.factsSeen} facts read)`,
    `counters: ${r.countersMatch ? "match" : "MISMATCH"} (metrics counted ${r.counters.readsCounted} reads, ${r.counters.writesCounted} writes)`,
  ].join("\n");
}
