import { EmbeddingGroundingScorer, cosineOf } from "../../src/contracts/companion/grounding/embedding-scorer";
import { LexicalGroundingScorer } from "../../src/contracts/companion/grounding/lexical-scorer";

describe("pluggable embeddings scorer (SG-GROUND)", () => {
  it("SG-GROUND: calls an OpenAI-compatible /v1/embeddings endpoint and caps the cosine by the lexical guard", async () => {
    const calls: unknown[] = [];
    const fakeFetch = (async (_url: string, init: RequestInit) => {
      calls.push(JSON.parse(String(init.body)));
      return new Response(
        JSON.stringify({
          data: [
            { index: 1, embedding: [1, 0.1] },
            { index: 0, embedding: [1, 0] },
          ],
        }),
        { status: 200 },
      );
    }) as unknown as typeof fetch;
    const scorer = new EmbeddingGroundingScorer({ url: "http://embeddings.invalid/v1/embeddings", model: "m" }, new LexicalGroundingScorer(), fakeFetch);
    const grounded = await scorer.score("User loves sushi.", "User loves sushi");
    expect(grounded.score).toBeCloseTo(cosineOf([1, 0], [1, 0.1]), 3);
    const negated = await scorer.score("User loves sushi.", "User does not love sushi");
    expect(negated.score).toBe(0);
    expect(calls[0]).toEqual({ model: "m", input: ["User loves sushi.", "User loves sushi"] });
  });
});
