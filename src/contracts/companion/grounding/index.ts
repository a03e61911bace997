import { ClauseGroundingScorer } from "./clause-scorer";
import { EmbeddingGroundingScorer } from "./embedding-scorer";
import { LexicalGroundingScorer } from "./lexical-scorer";
import { JudgedGroundingScorer, judgeEndpointFromEnv, ModelJudgeClient } from "../../../judge";
import type { GroundingScorer } from "./scorer";

export type { GroundingScore, GroundingScorer } from "./scorer";

/**
 * The offline clause-level scorer over the lexical/WordNet one by default. With MEMGATE_EMBEDDINGS_URL set (an
 * OpenAI-compatible `/v1/embeddings` endpoint; MEMGATE_EMBEDDINGS_MODEL, MEMGATE_EMBEDDINGS_KEY
 * optional) the score is the embedding cosine, capped by the lexical score's guards. With
 * MEMGATE_JUDGE_URL (src/judge) a model judge's verdict is added as a fact for the policy.
 */
export function createGroundingScorer(env: NodeJS.ProcessEnv = process.env): GroundingScorer {
  const offline = createOfflineScorer(env);
  const judge = judgeEndpointFromEnv(env);
  return judge ? new JudgedGroundingScorer(offline, new ModelJudgeClient(judge)) : offline;
}

function createOfflineScorer(env: NodeJS.ProcessEnv): GroundingScorer {
  const lexical = new ClauseGroundingScorer(new LexicalGroundingScorer());
  const url = env.MEMGATE_EMBEDDINGS_URL?.trim();
  if (!url) return lexical;
  return new EmbeddingGroundingScorer({ url, model: env.MEMGATE_EMBEDDINGS_MODEL ?? "text-embedding-3-small", apiKey: env.MEMGATE_EMBEDDINGS_KEY }, lexical);
}
