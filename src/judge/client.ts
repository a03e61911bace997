/**
 * A model judge: an optional OpenAI-compatible chat-completions endpoint (MEMGATE_JUDGE_URL)
 * that answers a JSON object. Its answers become facts for the policy; it decides nothing.
 */
export interface JudgeEndpoint {
  /** e.g. http://localhost:8080/v1/chat/completions */
  url: string;
  model: string;
  apiKey?: string;
  /** a slower answer is no answer (the caller fails closed) */
  timeoutMs: number;
}

/** The judge did not answer usefully: timeout, HTTP error, or not the JSON asked for. */
export class JudgeUnavailableError extends Error {
  readonly code = "JUDGE_UNAVAILABLE" as const;
  constructor(detail: string) {
    super(`model judge unavailable: ${detail}`);
    this.name = new.target.name;
  }
}

export class ModelJudgeClient {
  constructor(
    readonly endpoint: JudgeEndpoint,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** One chat completion at temperature 0; the answer's content parsed as a JSON object. */
  async ask(system: string, user: string): Promise<Record<string, unknown>> {
    let response: Response;
    try {
      response = await this.fetchImpl(this.endpoint.url, {
        method: "POST",
        headers: { "content-type": "application/json", ...(this.endpoint.apiKey ? { authorization: `Bearer ${this.endpoint.apiKey}` } : {}) },
        body: JSON.stringify({
          model: this.endpoint.model,
          temperature: 0,
          response_format: { type: "json_object" },
          messages: [
            { role: "system", content: system },
            { role: "user", content: user },
          ],
        }),
        signal: AbortSignal.timeout(this.endpoint.timeoutMs),
      });
    } catch (error) {
      throw new JudgeUnavailableError(error instanceof Error && error.name === "TimeoutError" ? "timeout" : "network error");
    }
    if (!response.ok) throw new JudgeUnavailableError(`HTTP ${response.status}`);
    let content: unknown;
    try {
      const body = (await response.json()) as { choices?: { message?: { content?: unknown } }[] };
      content = body.choices?.[0]?.message?.content;
      const parsed: unknown = typeof content === "string" ? JSON.parse(content) : undefined;
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
      return parsed as Record<string, unknown>;
    } catch {
      throw new JudgeUnavailableError("the answer is not a JSON object");
    }
  }
}
