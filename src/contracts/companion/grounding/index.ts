import { EmbeddingGroundingScorer } from "./embedding-scorer";
import { LexicalGroundingScorer } from "./lexical-scorer";
import type { GroundingScorer } from "./scorer";

export type { GroundingScore, GroundingScorer } from "./scorer";

/**
 * The offline lexical/WordNet scorer by default. With MEMGATE_EMBEDDINGS_URL set (an
 * OpenAI-compatible `/v1/embeddings` endpoint; MEMGATE_EMBEDDINGS_MODEL, MEMGATE_EMBEDDINGS_KEY
 * optional) the score is the embedding cosine, capped by the lexical score's guards.
 */
export function createGroundingScorer(env: NodeJS.ProcessEnv = process.env): GroundingScorer {
  const lexical = new LexicalGroundingScorer();
  const url = env.MEMGATE_EMBEDDINGS_URL?.trim();
  if (!url) return lexical;
  return new EmbeddingGroundingScorer({ url, model: env.MEMGATE_EMBEDDINGS_MODEL ?? "text-embedding-3-small", apiKey: env.MEMGATE_EMBEDDINGS_KEY }, lexical);
}
