/**
 * The same GraphQL API every other client uses, through memgate's typed client
 * (clients/typescript): generated documents and their types, sent by its Apollo-free `request`
 * (the page needs no cache); the token travels as a Bearer header.
 */
import { MemgateRequestError } from "../../../clients/typescript/src/errors";
import {
  ApproveProposalDocument,
  DeclineProposalDocument,
  ForgetMemoryDocument,
  LedgerDocument,
  PendingProposalsDocument,
  SelectedMemoryContextDocument,
  type LedgerItemFieldsFragment,
  type ProposalFieldsFragment,
  type SourceFieldsFragment,
  type StopReason,
} from "../../../clients/typescript/src/generated/graphql";
import { request, type MemgateRequestOptions } from "../../../clients/typescript/src/request";

export type Source = SourceFieldsFragment;
export type Proposal = ProposalFieldsFragment;
export type LedgerItem = LedgerItemFieldsFragment;

export interface Decision {
  stopReason: StopReason;
  explanations: string[];
}

export interface SelectedContext extends Decision {
  selectedMemoryIds: string[];
  resolvedTexts: string[];
  attributionLine?: string | null;
  selections: { memoryId: string; stopReason: StopReason }[];
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A failed request in words a person can act on; the code is kept for the page. */
function apiError(error: unknown): ApiError {
  const failed = error instanceof MemgateRequestError ? error : new MemgateRequestError(String(error), "ERROR");
  if (failed.code === "UNAUTHENTICATED") return new ApiError("This token was not accepted. It may have expired; ask for a new one.", failed.code);
  if (failed.code === "NETWORK") return new ApiError("The server could not be reached. Check your connection and try again.", failed.code);
  return new ApiError(failed.message, failed.code);
}

export class LedgerApi {
  private readonly gateway: MemgateRequestOptions;

  constructor(token: string) {
    this.gateway = { url: "/graphql", token };
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      throw apiError(error);
    }
  }

  async pending(): Promise<Decision & { proposals: Proposal[] }> {
    return (await this.call(() => request(this.gateway, PendingProposalsDocument, {}))).pendingProposals;
  }

  async ledger(): Promise<Decision & { items: LedgerItem[] }> {
    return (await this.call(() => request(this.gateway, LedgerDocument, {}))).ledger;
  }

  async approve(proposalId: string, finalText: string): Promise<Decision & { memory?: LedgerItem | null }> {
    return (await this.call(() => request(this.gateway, ApproveProposalDocument, { proposalId, finalText }))).approveProposal;
  }

  async decline(proposalId: string): Promise<Decision> {
    return (await this.call(() => request(this.gateway, DeclineProposalDocument, { proposalId }))).declineProposal;
  }

  async forget(memoryId: string): Promise<Decision> {
    return (await this.call(() => request(this.gateway, ForgetMemoryDocument, { memoryId }))).forgetMemory;
  }

  async context(memoryIds: string[]): Promise<SelectedContext> {
    return (await this.call(() => request(this.gateway, SelectedMemoryContextDocument, { memoryIds }))).selectedMemoryContext;
  }
}

/** Who the token says it is, for display only; the server verifies it on every call. */
export function describeToken(token: string): string | null {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { sub?: string; tenant?: string };
    return payload.sub ? `${payload.sub}${payload.tenant ? ` (${payload.tenant})` : ""}` : null;
  } catch {
    return null;
  }
}

/** A refusal in words a person can act on; the rule the policy named is kept. */
export function explain(decision: Decision): string {
  const rules = decision.explanations.join("; ");
  switch (decision.stopReason) {
    case "FORBIDDEN_CATEGORY":
      if (rules.includes("identity_locking"))
        return `This wording describes who you are rather than what you prefer, want or noticed. Try "I prefer…", "I want to…" or "I've noticed…". (${rules})`;
      if (rules.includes("clinical_language"))
        return `The ledger does not keep clinical or diagnostic language. Describe what you noticed in everyday words. (${rules})`;
      if (rules.includes("authoritative_framing"))
        return `Please avoid words like "definitely" or "this proves": the ledger keeps what you noticed, not verdicts. (${rules})`;
      return `This wording cannot be stored. (${rules})`;
    case "NOT_FOUND":
      return "This is no longer available: it may have been decided or forgotten already.";
    case "SCHEMA_INVALID":
      return `Please write something to remember. (${rules})`;
    case "BOUNDS_EXCEEDED":
      return `That is too long to keep. (${rules})`;
    default:
      return `Not done: ${decision.stopReason}${rules ? ` (${rules})` : ""}.`;
  }
}
