import type { Db } from "mongodb";
import type { MemoryEvent } from "../../src/store/event-log";
import type { TestGateway } from "../support/gateway";
import { preference } from "../support/governed";

export { preference };

export const STORE = `mutation Store($input: StoreMemoryInput!) {
  storeMemory(input: $input) { stopReason explanations memory { memoryId version key value provenance {
    statementType verdictType sourceRefs timestamp validFrom validTo temporalScope applicabilityScope jurisdiction version integrityHash } } }
}`;
export const UPDATE = `mutation Update($input: UpdateMemoryInput!) { updateMemory(input: $input) { stopReason explanations memory { memoryId version } } }`;
export const READ = `query Read($id: ID!, $subject: ID) { memory(memoryId: $id, subjectId: $subject) { stopReason explanations memory { memoryId value } } }`;
export const LIST = `query List($subject: ID) { memories(subjectId: $subject) { stopReason explanations memories { memoryId } } }`;
export const VERIFY = `query Verify($from: Int, $to: Int) { verifyAuditChain(fromSeq: $from, toSeq: $to) {
  stopReason explanations ok fromSeq toSeq eventsChecked firstBrokenSeq reason headSeq headHash checkpointsChecked } }`;
export const CHECKPOINTS = `query Cps($after: Int, $limit: Int) { auditCheckpoints(afterSeq: $after, limit: $limit) {
  stopReason explanations publicKey keyId checkpoints { tenant seq hash time keyId signature } } }`;
export const ERASE_MEMORY = `mutation Erase($id: ID!, $reason: String!, $subject: ID) { eraseMemory(memoryId: $id, reason: $reason, subjectId: $subject) {
  stopReason explanations erasedMemoryIds } }`;
export const ERASE_SUBJECT = `mutation EraseAll($reason: String!, $subject: ID) { eraseSubject(reason: $reason, subjectId: $subject) {
  stopReason explanations erasedMemoryIds } }`;
export const ACK = `mutation Ack($reason: String!) { acknowledgeConformanceBreak(reason: $reason) { stopReason explanations acknowledgedSeq } }`;

export async function storeMany(gw: TestGateway, token: string, n: number, prefix = "v"): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await gw.gql(token, STORE, { input: preference({ key: `${prefix}-key-${i}`, value: `${prefix} value ${i}` }) });
    const decision = res.data!.storeMemory;
    if (decision.stopReason !== "SUCCESS_STORED") throw new Error(`store failed: ${JSON.stringify(res)}`);
    ids.push(decision.memory.memoryId);
  }
  return ids;
}

export function eventsOf(db: Db, tenant: string): Promise<MemoryEvent[]> {
  return db.collection<MemoryEvent>("memory_events").find({ tenant_id: tenant }).sort({ seq: 1 }).toArray();
}

export const pad = (seq: number) => String(seq).padStart(12, "0");
export const eventId = (tenant: string, seq: number) => `${encodeURIComponent(tenant)}:${pad(seq)}`;
