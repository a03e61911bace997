import type { GroundingScore, GroundingScorer } from "./scorer";

export interface EmbeddingEndpoint {
  /** e.g. http://localhost:8080/v1/embeddings (OpenAI-compatible) */
  url: string;
  model: string;
  apiKey?: string;
  timeoutMs?: number;
}

/**
 * SG-GROUND with an OpenAI-compatible embeddings endpoint: the cosine of summary and
 * candidate embeddings. A cosine alone cannot see negation or a changed person, so the
 * score is the lower of the cosine and the lexical guard's score when a guard is given.
 */
export class EmbeddingGroundingScorer implements GroundingScorer {
  readonly name = "embeddings";

  constructor(
    private readonly endpoint: EmbeddingEndpoint,
    private readonly guard?: GroundingScorer,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async score(summary: string, candidate: string): Promise<GroundingScore> {
    const response = await this.fetchImpl(this.endpoint.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(this.endpoint.apiKey ? { authorization: `Bearer ${this.endpoint.apiKey}` } : {}) },
      body: JSON.stringify({ model: this.endpoint.model, input: [summary, candidate] }),
      signal: AbortSignal.timeout(this.endpoint.timeoutMs ?? 5_000),
    });
    if (!response.ok) throw new Error(`embeddings endpoint answered HTTP ${response.status}`);
    const body = (await response.json()) as { data?: { embedding?: number[]; index?: number }[] };
    const vectors = (body.data ?? [])
      .slice()
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((d) => d.embedding);
    if (vectors.length !== 2 || !vectors[0] || !vectors[1] || vectors[0].length !== vectors[1].length) {
      throw new Error("embeddings endpoint answered an unexpected shape");
    }
    const cosine = cosineOf(vectors[0], vectors[1]);
    if (!this.guard) return { score: round(cosine), unsupported: 0, scorer: this.name };
    const guarded = await this.guard.score(summary, candidate);
    return { score: round(Math.min(cosine, guarded.score)), unsupported: guarded.unsupported, scorer: `${this.name}+${guarded.scorer}` };
  }
}

export function cosineOf(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
