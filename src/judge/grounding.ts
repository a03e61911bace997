import type { GroundingScore, GroundingScorer } from "../contracts/companion/grounding/scorer";
import type { ModelJudgeClient } from "./client";

const SYSTEM =
  "You check facts extracted from a conversation summary. A candidate is grounded only if the summary states it about the same person, " +
  "with the same predicate and arguments in one statement: no facts mixed across statements or people, no negation dropped, nothing " +
  'inferred. Answer with a JSON object {"grounded": true} or {"grounded": false}.';

/**
 * SG-GROUND with a model judge: the offline score as before, plus the judge's verdict as a
 * fact (`judge`: grounded, ungrounded, or unavailable when it timed out or failed). The
 * policy (companion gate.rego) decides what the verdict is worth; an unavailable judge is
 * never taken for a yes.
 */
export class JudgedGroundingScorer implements GroundingScorer {
  readonly name: string;

  constructor(
    private readonly offline: GroundingScorer,
    private readonly judge: ModelJudgeClient,
  ) {
    this.name = `${offline.name}+judge`;
  }

  async score(summary: string, candidate: string): Promise<GroundingScore> {
    // one after the other: the offline scorer's CPU work must not eat the judge's time budget
    const score = await this.offline.score(summary, candidate);
    const verdict = await this.verdict(summary, candidate);
    return { ...score, scorer: this.name, judge: verdict };
  }

  private async verdict(summary: string, candidate: string): Promise<GroundingScore["judge"]> {
    try {
      const answer = await this.judge.ask(SYSTEM, JSON.stringify({ summary, candidate }));
      if (answer.grounded === true) return "grounded";
      if (answer.grounded === false) return "ungrounded";
      return "unavailable";
    } catch {
      return "unavailable";
    }
  }
}
