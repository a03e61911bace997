import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Client } from "graphql-ws";
import { socketClient } from "../support/sockets";
import { startTestGateway, type TestGateway } from "../support/gateway";
import { PROPOSE, proposal } from "../ledger/helpers";
import { ROOT, freePort } from "./runtime-tree";

const HAPROXY = process.env.MEMGATE_HAPROXY ?? "/usr/sbin/haproxy";
const SUBSCRIBE = `subscription Events($after: Int) { memoryEvents(afterSeq: $after) { seq eventType } }`;
const VERIFY = `query { verifyAuditChain { ok headSeq eventsChecked } }`;
const WRITES = 30;

/**
 * Issue 25 §5: three gateways on one database behind a real balancer (Debian's HAProxy, started
 * here on loopback with deploy/haproxy.cfg's backend, the servers rewritten to this test's ports):
 * writes spread, one idempotency key gives one decision whichever gateway answers, a subscription
 * on one gateway sees every event written through the others in order, and the chain verifies.
 */
describe("three gateways on one database behind HAProxy", () => {
  const gateways: TestGateway[] = [];
  let haproxy: ChildProcess;
  let url: string;
  let stats: string;
  let agent: string;
  let auditor: string;
  let socket: Client;
  let unsubscribe: () => void = () => undefined;

  beforeAll(async () => {
    if (!existsSync(HAPROXY)) throw new Error(`HAProxy is not at ${HAPROXY}: run bash scripts/bootstrap.sh --browser (it installs Debian's haproxy)`);
    gateways.push(await startTestGateway());
    gateways.push(await startTestGateway({ dbName: gateways[0].dbName }));
    gateways.push(await startTestGateway({ dbName: gateways[0].dbName }));
    const [port, statsPort] = [await freePort(), await freePort()];
    // The shipped configuration, with loopback ports for its frontend, stats and servers.
    let cfg = readFileSync(path.join(ROOT, "deploy", "haproxy.cfg"), "utf8")
      .replace("bind :4000", `bind 127.0.0.1:${port}`)
      .replace("bind :8404", `bind 127.0.0.1:${statsPort}`)
      // Checked often (ready sooner) and patiently (a gateway busy on this shared machine is not down).
      .replace(/inter 2s fall 2/g, "inter 200ms fall 50");
    gateways.forEach((gw, i) => (cfg = cfg.replace(`gateway${i + 1}:4000`, new URL(gw.url).host)));
    const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-haproxy-"));
    writeFileSync(path.join(dir, "haproxy.cfg"), cfg);
    haproxy = spawn(HAPROXY, ["-db", "-f", path.join(dir, "haproxy.cfg")], { stdio: "ignore" });
    url = `http://127.0.0.1:${port}`;
    stats = `http://127.0.0.1:${statsPort}/stats;csv`;
    // Ready when every server is UP in the balancer's own view (its health checks passed).
    for (;;) {
      if (haproxy.exitCode !== null) throw new Error(`haproxy exited ${haproxy.exitCode}`);
      const rows = await serverRows().catch(() => []);
      if (rows.length === 3 && rows.every((r) => r.status === "UP")) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    agent = await gateways[0].token({ tenant: "acme", subjects: ["alice"], roles: ["agent"], sub: "agent-1" });
    auditor = await gateways[0].token({ tenant: "acme", subjects: [], roles: ["auditor"], sub: "auditor-1" });
    socket = socketClient(gateways[0], auditor);
  }, 60_000);
  afterAll(async () => {
    unsubscribe();
    await socket?.dispose();
    if (haproxy && haproxy.exitCode === null) {
      const exited = new Promise((resolve) => haproxy.once("exit", resolve));
      haproxy.kill("SIGTERM");
      await exited;
    }
    for (const gw of gateways) await gw.stop();
  });

  async function serverRows(): Promise<{ name: string; status: string; ok: number }[]> {
    const csv = await (await fetch(stats)).text();
    const [header, ...lines] = csv.replace(/^# /, "").trim().split("\n");
    const col = header.split(",");
    return lines
      .map((l) => l.split(","))
      .filter((f) => f[col.indexOf("pxname")] === "gateways" && /^gateway\d$/.test(f[col.indexOf("svname")]))
      .map((f) => ({ name: f[col.indexOf("svname")], status: f[col.indexOf("status")], ok: Number(f[col.indexOf("hrsp_2xx")]) }));
  }

  const post = async (body: unknown, headers: Record<string, string> = {}) =>
    (await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${agent}`, ...headers },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as { data: { proposeMemory: { stopReason: string; decisionId: string; proposalId: string } } };

  it("issue 25: a subscription on one gateway sees every event written through all three, in order; writes spread; the chain verifies", async () => {
    const seen: number[] = [];
    let resolveAll: () => void;
    const all = new Promise<void>((resolve) => (resolveAll = resolve));
    unsubscribe = socket.subscribe<{ memoryEvents: { seq: number } }>(
      { query: SUBSCRIBE, variables: { after: 0 } },
      {
        next: (msg) => {
          seen.push(msg.data!.memoryEvents.seq);
          if (seen.length >= WRITES) resolveAll();
        },
        error: (error) => {
          throw error;
        },
        complete: () => undefined,
      },
    );
    const before = await serverRows();
    const answers = await Promise.all(
      Array.from({ length: WRITES }, (_, i) => post({ query: PROPOSE, variables: { input: proposal({ proposedText: `I prefer tea number ${i}` }) } })),
    );
    expect(answers.map((a) => a.data.proposeMemory.stopReason)).toEqual(Array(WRITES).fill("MISSING_EXPLICIT_CONSENT"));
    const after = await serverRows();
    const served = after.map((row, i) => row.ok - before[i].ok);
    expect(served.reduce((a, b) => a + b, 0)).toBe(WRITES);
    for (const n of served) expect(n).toBeGreaterThanOrEqual(WRITES / 3 - 2); // round robin: about a third each
    await all;
    expect(seen).toEqual(Array.from({ length: seen.length }, (_, i) => i + 1)); // every seq from 1, in order, no gap
    const verified = (await (
      await fetch(`${url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${auditor}` },
        body: JSON.stringify({ query: VERIFY }),
      })
    ).json()) as { data: { verifyAuditChain: { ok: boolean; headSeq: number } } };
    expect(verified.data.verifyAuditChain.ok).toBe(true);
    expect(verified.data.verifyAuditChain.headSeq).toBeGreaterThanOrEqual(WRITES);
  });

  it("issue 25: one idempotency key gives one decision, whichever gateway answers", async () => {
    const before = await serverRows();
    const body = { query: PROPOSE, variables: { input: proposal({ proposedText: "I prefer one decision" }) } };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await post(body, { "idempotency-key": "issue-25-one-key" }));
    const after = await serverRows();
    expect(after.filter((row, i) => row.ok > before[i].ok).length).toBeGreaterThanOrEqual(2); // it reached more than one gateway
    const decisions = new Set(answers.map((a) => `${a.data.proposeMemory.decisionId}/${a.data.proposeMemory.proposalId}`));
    expect(decisions.size).toBe(1);
    expect(answers[0].data.proposeMemory.stopReason).toBe("MISSING_EXPLICIT_CONSENT");
  });
});
