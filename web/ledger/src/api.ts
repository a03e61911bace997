/** The same GraphQL API every other client uses; the token travels as a Bearer header. */

export interface Source {
  sourceType: string;
  sourceId: string | null;
  note: string | null;
}

export interface Proposal {
  proposalId: string;
  proposedText: string;
  kind: string;
  createdAt: string;
  source: Source;
}

export interface LedgerItem {
  memoryId: string;
  text: string;
  kind: string;
  proposalId: string;
  proposedAt: string;
  createdAt: string;
  source: Source;
}

export interface Decision {
  stopReason: string;
  explanations: string[];
}

export interface SelectedContext extends Decision {
  selectedMemoryIds: string[];
  resolvedTexts: string[];
  attributionLine: string | null;
  selections: { memoryId: string; stopReason: string }[];
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

const SOURCE = "source { sourceType sourceId note }";

export class LedgerApi {
  constructor(private readonly token: string) {}

  private async call<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
    let response: Response;
    try {
      response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${this.token}` },
        body: JSON.stringify({ query, variables }),
      });
    } catch {
      throw new ApiError("The server could not be reached. Check your connection and try again.", "NETWORK");
    }
    const body = (await response.json().catch(() => ({}))) as { data?: T; errors?: { message: string; extensions?: { code?: string } }[] };
    if (body.errors?.length) {
      const code = body.errors[0].extensions?.code ?? "ERROR";
      const message = code === "UNAUTHENTICATED" ? "This token was not accepted. It may have expired; ask for a new one." : body.errors[0].message;
      throw new ApiError(message, code);
    }
    if (!body.data) throw new ApiError(`Unexpected answer from the server (HTTP ${response.status}).`, "ERROR");
    return body.data;
  }

  async pending(): Promise<Decision & { proposals: Proposal[] }> {
    const data = await this.call<{ pendingProposals: Decision & { proposals: Proposal[] } }>(
      `query { pendingProposals { stopReason explanations proposals { proposalId proposedText kind createdAt ${SOURCE} } } }`,
    );
    return data.pendingProposals;
  }

  async ledger(): Promise<Decision & { items: LedgerItem[] }> {
    const data = await this.call<{ ledger: Decision & { items: LedgerItem[] } }>(
      `query { ledger { stopReason explanations items { memoryId text kind proposalId proposedAt createdAt ${SOURCE} } } }`,
    );
    return data.ledger;
  }

  async approve(proposalId: string, finalText: string): Promise<Decision & { memory: LedgerItem | null }> {
    const data = await this.call<{ approveProposal: Decision & { memory: LedgerItem | null } }>(
      `mutation($id: ID!, $text: String!) { approveProposal(proposalId: $id, finalText: $text) { stopReason explanations memory { memoryId text kind proposalId proposedAt createdAt ${SOURCE} } } }`,
      { id: proposalId, text: finalText },
    );
    return data.approveProposal;
  }

  async decline(proposalId: string): Promise<Decision> {
    const data = await this.call<{ declineProposal: Decision }>(`mutation($id: ID!) { declineProposal(proposalId: $id) { stopReason explanations } }`, {
      id: proposalId,
    });
    return data.declineProposal;
  }

  async forget(memoryId: string): Promise<Decision> {
    const data = await this.call<{ forgetMemory: Decision }>(`mutation($id: ID!) { forgetMemory(memoryId: $id) { stopReason explanations } }`, {
      id: memoryId,
    });
    return data.forgetMemory;
  }

  async context(memoryIds: string[]): Promise<SelectedContext> {
    const data = await this.call<{ selectedMemoryContext: SelectedContext }>(
      `query($ids: [ID!]!) { selectedMemoryContext(memoryIds: $ids) { stopReason explanations selectedMemoryIds resolvedTexts attributionLine selections { memoryId stopReason } } }`,
      { ids: memoryIds },
    );
    return data.selectedMemoryContext;
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
