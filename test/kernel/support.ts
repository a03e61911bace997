import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Db } from "mongodb";
import type { GraphQLResponse, TestGateway } from "../support/gateway";

/**
 * The public API of every contract, as the acceptance tests of issue 11 use it: GraphQL
 * documents, POST /v1/memory, /metrics. Nothing here reaches into the gateway's internals,
 * so these tests hold whatever the kernel refactor does inside.
 */

const D = "stopReason explanations";

export const GOVERNED = {
  STORE: `mutation Store($input: StoreMemoryInput!) { storeMemory(input: $input) { ${D} memory { memoryId version key value } } }`,
  UPDATE: `mutation Update($input: UpdateMemoryInput!) { updateMemory(input: $input) { ${D} memory { memoryId version value } } }`,
  DELETE: `mutation Delete($id: ID!, $subject: ID, $reason: String) { deleteMemory(memoryId: $id, subjectId: $subject, reason: $reason) { ${D} memory { memoryId } } }`,
  READ: `query Read($id: ID!, $subject: ID) { memory(memoryId: $id, subjectId: $subject) { ${D} memory { memoryId key value } } }`,
  LIST: `query List($subject: ID) { memories(subjectId: $subject) { ${D} nextCursor memories { memoryId key value } } }`,
};

export const AGENT = {
  WRITE: `mutation Write($input: AgentWriteInput!) { agentWrite(input: $input) { ${D} errors { pointer message } invalidated memory { id text } } }`,
  UPDATE: `mutation Update($input: AgentUpdateInput!) { agentUpdate(input: $input) { ${D} errors { pointer message } mode committed before { effectiveTruth } after { effectiveTruth } } }`,
  READ: `query Read($input: AgentReadInput!) { agentRead(input: $input) { ${D} errors { pointer message } items { id text invalidated } } }`,
  RAW: `mutation Raw($document: JSON!) { memoryRequest(document: $document) }`,
};

export const COMPANION = {
  ADD: `mutation Add($input: AddFactInput!) { addFact(input: $input) { ${D} proposalId fact { memoryId text sourceRefs } } }`,
  CONFIRM: `mutation Confirm($id: ID!, $subject: ID) { confirmProposal(proposalId: $id, subjectId: $subject) { ${D} proposalId fact { memoryId } } }`,
  ENVELOPE: `query Env($subject: ID, $skip: Boolean) { memoryEnvelope(purpose: RESPONSE, subjectId: $subject, skipCache: $skip) {
    ${D} envelope { userFacts { memoryId text } userPatterns { memoryId text } sharedNarrative { memoryId text } } } }`,
  PRIVACY: `mutation Privacy($input: PrivacyInput!) { setPrivacy(input: $input) { ${D} settings { memoryEnabled shareWith } } }`,
  FORGET: `mutation Forget($id: ID!, $subject: ID) { forgetFact(memoryId: $id, subjectId: $subject) { ${D} fact { memoryId } } }`,
  CONSOLIDATE: `mutation Consolidate($input: ConsolidateInput!) { consolidateMemories(input: $input) { ${D} fact { memoryId text } } }`,
  ERASE: `mutation Erase($subject: ID) { eraseCompanionMemory(subjectId: $subject) { ${D} erased } }`,
};

export const LEDGER = {
  PROPOSE: `mutation Propose($input: ProposeMemoryInput!) { proposeMemory(input: $input) { ${D} proposalId } }`,
  PENDING: `query Pending($subject: ID) { pendingProposals(subjectId: $subject) { ${D} proposals { proposalId proposedText } } }`,
  APPROVE: `mutation Approve($id: ID!, $text: String!) { approveProposal(proposalId: $id, finalText: $text) { ${D} memory { memoryId text } } }`,
  DECLINE: `mutation Decline($id: ID!) { declineProposal(proposalId: $id) { ${D} proposalId memoryId } }`,
  LEDGER: `query Ledger($subject: ID) { ledger(subjectId: $subject) { ${D} items { memoryId text } } }`,
  FORGET: `mutation Forget($id: ID!) { forgetMemory(memoryId: $id) { ${D} memoryId proposalId } }`,
  SELECT: `query Select($ids: [ID!]!) { selectedMemoryContext(memoryIds: $ids) {
    ${D} selectedMemoryIds resolvedTexts attributionLine selections { memoryId stopReason } } }`,
};

export const AUDIT = {
  ERASE_MEMORY: `mutation EraseMemory($id: ID!, $reason: String!, $subject: ID) { eraseMemory(memoryId: $id, reason: $reason, subjectId: $subject) { ${D} erasedMemoryIds } }`,
  ERASE_SUBJECT: `mutation EraseSubject($reason: String!, $subject: ID) { eraseSubject(reason: $reason, subjectId: $subject) { ${D} erasedMemoryIds } }`,
  ACK: `mutation Ack($reason: String!) { acknowledgeConformanceBreak(reason: $reason) { ${D} acknowledgedSeq } }`,
  VERIFY: `query Verify { verifyAuditChain { ${D} ok } }`,
};

/** A valid Phase 19 STORE input (a consented PREFERENCE). */
export const preference = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  category: "PREFERENCE",
  key: "tone",
  value: "prefer concise responses",
  sourceKind: "USER_EXPLICIT",
  ttlClass: "LONG",
  consent: { explicit: true },
  ...over,
});

/** A valid CITED_SOURCE STORE input, the one shape that carries a source_ref. */
export const cited = (over: Record<string, unknown> = {}): Record<string, unknown> =>
  preference({
    category: "PROJECT_CONFIG",
    sourceKind: "CITED_SOURCE",
    ttlClass: "LONG",
    key: "main branch",
    value: "main",
    sourceRef: "doc:README.md#L12",
    ...over,
  });

export const SUMMARY = "User mentioned they love fettuccini and work on FL Studio";

/** A valid, grounded companion fact (confidence 0.9: applied at once). */
export const fact = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  subjectId: "alice",
  type: "USER_FACT",
  text: "User loves fettuccini",
  confidence: 0.9,
  source: "llm_extraction",
  summary: SUMMARY,
  ...over,
});

/** A valid ledger proposal. */
export const proposal = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  subjectId: "alice",
  proposedText: "I've noticed I focus better in the morning",
  kind: "SELF_OBSERVATION",
  source: { sourceType: "phase3_reflection", sourceId: "refl-17", note: "After Phase 3 summary" },
  ...over,
});

/** A valid seed-001 write document. */
export const agentWrite = (repo: string, memory: Record<string, unknown> = {}): Record<string, unknown> => ({
  op: "write",
  repo_id: repo,
  memory: { text: "Jest times out in CI when the Postgres container starts slowly", scope: "repo", kind: "problem", confidence: 0.8, ...memory },
});

/** A valid seed-001 update document (commit, truth and utility). */
export const agentUpdate = (
  repo: string,
  memoryId: string,
  over: { truth?: Record<string, unknown>; utility?: Record<string, unknown>; mode?: string } = {},
): Record<string, unknown> => ({
  op: "update",
  repo_id: repo,
  memory_id: memoryId,
  mode: over.mode ?? "commit",
  updates: {
    truth: { target: 0.9, confidence: 0.8, rationale: "reproduced it on staging", evidence_refs: ["ci:run/4411"], ...over.truth },
    utility: { target: 0.7, confidence: 0.6, rationale: "saved an hour", ...over.utility },
  },
});

export const agentRead = (repo: string, query: string, over: Record<string, unknown> = {}): Record<string, unknown> => ({
  op: "read",
  repo_id: repo,
  mode: "targeted",
  query,
  ...over,
});

/** What every operation answers, whatever the door: its stop reason and explanations. */
export interface Answer {
  stopReason: string;
  explanations: string[];
  [field: string]: unknown;
}

/** The one decision of a GraphQL answer; a GraphQL error fails the test (refusals are results, not errors). */
export function decisionOf(res: GraphQLResponse): Answer {
  if (res.errors?.length || !res.data) throw new Error(`GraphQL errors instead of a decision: ${JSON.stringify(res.errors ?? res)}`);
  const value = Object.values(res.data)[0] as Record<string, unknown>;
  // memoryRequest answers the raw seed-001 JSON (snake_case)
  if (value && typeof value === "object" && "stop_reason" in value) return fromAgentJson(value);
  return value as Answer;
}

export async function gqlDecision(gw: TestGateway, token: string | null, query: string, variables?: Record<string, unknown>): Promise<Answer> {
  return decisionOf(await gw.gql(token, query, variables));
}

function fromAgentJson(body: Record<string, unknown>): Answer {
  return { ...body, stopReason: body.stop_reason as string, explanations: (body.explanations as string[]) ?? [] };
}

/** POST /v1/memory; the seed-001 JSON answer, with stopReason/explanations beside stop_reason. */
export async function postMemory(gw: TestGateway, token: string, body: unknown): Promise<Answer & { status: number }> {
  const response = await fetch(`${gw.url}/v1/memory`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  return { status: response.status, ...fromAgentJson(json) };
}

/** Throws unless the answer is the expected one (for setup steps: a failing setup names its answer). */
export function expectAnswer(answer: Answer, want: string, what: string): Answer {
  if (answer.stopReason !== want) throw new Error(`${what}: expected ${want}, got ${JSON.stringify(answer)}`);
  return answer;
}

/** A made-up id of exactly the shape of a real one (same prefix, a fresh UUID). */
export function lookalike(realId: string): string {
  const cut = realId.indexOf("_");
  return `${realId.slice(0, cut + 1)}${randomUUID()}`;
}

/** A token of lower-case letters only, unique to this run: no detector, bound or pattern objects to it. */
export function marker(stem: string): string {
  const letters = [...randomBytes(10)].map((b) => String.fromCharCode(97 + (b % 26))).join("");
  return `${stem}${letters}`;
}

/** Every document of every collection of the database, one string per collection. */
export async function collectionsOf(db: Db): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const { name } of await db.listCollections().toArray()) {
    out[name] = JSON.stringify(await db.collection(name).find({}).toArray());
  }
  return out;
}

/** Which collections hold the needle, with the marked words found there (for a readable failure). */
export async function collectionsHolding(db: Db, needle: string | RegExp): Promise<Record<string, string[]>> {
  const hits: Record<string, string[]> = {};
  const pattern = typeof needle === "string" ? new RegExp(`${escape(needle)}[A-Za-z0-9_:-]*`, "g") : new RegExp(needle.source, "g");
  for (const [name, text] of Object.entries(await collectionsOf(db))) {
    const found = [...new Set(text.match(pattern) ?? [])];
    if (found.length) hits[name] = found;
  }
  return hits;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Every file under dir (recursively) whose bytes contain the needle's UTF-8 bytes. */
export function filesHolding(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, "utf8");
  const hits: string[] = [];
  for (const name of readdirSync(dir)) {
    const file = path.join(dir, name);
    let stat;
    try {
      stat = statSync(file);
    } catch {
      continue; // a file another test's database removed meanwhile
    }
    if (stat.isDirectory()) hits.push(...filesHolding(file, needle).map((f) => path.join(name, f)));
    else if (readFileSync(file).includes(bytes)) hits.push(name);
  }
  return hits;
}

/** One sample of the Prometheus text format. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** GET /metrics, parsed. */
export async function scrape(gw: TestGateway): Promise<Sample[]> {
  const response = await fetch(`${gw.url}/metrics`);
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  return parseMetrics(await response.text());
}

export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const l of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `where`. */
export function total(samples: Sample[], name: string, where: Record<string, string> = {}): number {
  return samples.filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v)).reduce((sum, s) => sum + s.value, 0);
}
