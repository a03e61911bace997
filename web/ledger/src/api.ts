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

/** A failed request; `status` names the sentence the page shows for it (messages status.*), never the server's text. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: "token_refused" | "unreachable" | "failed",
  ) {
    super(message);
  }
}

function apiError(error: unknown): ApiError {
  const failed = error instanceof MemgateRequestError ? error : new MemgateRequestError(String(error), "ERROR");
  const status = failed.code === "UNAUTHENTICATED" ? "token_refused" : failed.code === "NETWORK" ? "unreachable" : "failed";
  return new ApiError(failed.message, failed.code, status);
}

export class LedgerApi {
  /** The token is read at every call: a refreshed session's token is used from the next call on. */
  constructor(private readonly token: () => string) {}

  private get gateway(): MemgateRequestOptions {
    return { url: "/graphql", token: this.token() };
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
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/"))) as { sub?: string; name?: string; email?: string };
    return payload.name ?? payload.email ?? payload.sub ?? null;
  } catch {
    return null;
  }
}
