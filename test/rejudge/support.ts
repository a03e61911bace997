import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildSignedBundle } from "../policy/build-bundle";
import type { TestGateway } from "../support/gateway";

const ROOT = path.resolve(__dirname, "..", "..");

/** The phrase the tightened policy adds to a forbidden lexicon; harmless under the policy in force. */
export const PHRASE = "fettuccini";

/** A copy of the real policy with PHRASE in the credentials lexicon and a new declared version (so no MP-BREAK break). */
export function tightenedBundle(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "memgate-policy-rejudge-"));
  cpSync(path.join(ROOT, "policies"), path.join(dir, "policies"), { recursive: true });
  const edit = (file: string, change: (data: Record<string, any>) => void) => {
    const target = path.join(dir, "policies", file);
    const data = JSON.parse(readFileSync(target, "utf8"));
    change(data);
    writeFileSync(target, JSON.stringify(data, null, 2));
  };
  edit("memgate/forbidden/data.json", (d) => d.patterns.credentials.push(`\\b${PHRASE}\\b`));
  edit("memgate/contract/data.json", (d) => (d.version = `${d.version}-rejudge`));
  // Signed as scripts/policy.sh signs (issue 15 §6): the gateway refuses an unsigned bundle.
  return buildSignedBundle(path.join(dir, "policies"), path.join(dir, "bundle.tar.gz"));
}

export const STATUS = `query { reauditStatus { stopReason explanations progress {
  policyHash policyVersion state startedAt finishedAt scanned quarantined roundTrips targets { kind scanned quarantined done } } } }`;
export const RELEASE = `mutation R($id: ID!, $reason: String!, $subject: ID) { releaseQuarantine(memoryId: $id, reason: $reason, subjectId: $subject) {
  stopReason explanations releasedMemoryId contract } }`;

/**
 * The tenant's re-audit under `hash`, once done: waits for the walks this process scheduled
 * (no timer, no busy polling that the rate limit would refuse on a loaded machine), then reads
 * reauditStatus; a walk still running elsewhere is polled for.
 */
export async function reauditDone(gw: TestGateway, adminToken: string, hash: string): Promise<any> {
  await gw.gateway.services.reaudit?.idle();
  for (let i = 0; i < 200; i++) {
    if (i > 0) await gw.gateway.services.reaudit?.idle();
    const res = await gw.gql(adminToken, STATUS);
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    const status = res.data!.reauditStatus;
    expect(status.stopReason).toBe("SUCCESS_READ");
    if (status.progress?.policyHash === hash && status.progress.state === "done") return status.progress;
  }
  throw new Error("the re-audit never finished");
}
