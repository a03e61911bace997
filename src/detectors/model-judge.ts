import { ModelJudgeClient, judgeEndpointFromEnv } from "../judge";
import type { Detector, Finding } from "./detector";
import type { LexiconSource } from "./lexicon";

/** What the policy bundle says the forbidden classes are (data.memgate.forbidden.classes). */
type ClassDescriptions = Record<string, string>;

const SYSTEM =
  "You label text that an AI assistant wants to store as memory. For each field, list which of the given classes the text " +
  "states about a person. Text about software, data or documentation is about no person. Answer with a JSON object " +
  '{"fields": {"<field>": ["<class>", ...]}}; an empty list when none applies.';

/**
 * C19-FORBID with a model judge (MEMGATE_JUDGE_URL): an optional detector that asks the judge
 * which forbidden classes (names and descriptions from the policy bundle in force) each field
 * states. Its labels are facts (`judge:<class>`); policies/memgate/checks/judge decides. A
 * timeout, an error or an answer that is not the JSON asked for is the fact
 * `judge:unavailable`, which the policy refuses: the judge fails closed.
 */
export function createModelJudgeDetector(policy: LexiconSource, judge: ModelJudgeClient): Detector {
  return {
    name: "model-judge",
    detect: () => [],
    async detectTogether(fields: Record<string, string>): Promise<Finding[]> {
      const names = Object.keys(fields);
      if (names.length === 0) return [];
      const classes = policy.data<{ classes?: ClassDescriptions } | undefined>("forbidden")?.classes ?? {};
      try {
        const answer = await judge.ask(SYSTEM, JSON.stringify({ classes, fields }));
        const labelled = answer.fields;
        if (typeof labelled !== "object" || labelled === null || Array.isArray(labelled)) return [unavailable()];
        const findings: Finding[] = [];
        for (const [field, list] of Object.entries(labelled as Record<string, unknown>)) {
          if (!names.includes(field) || !Array.isArray(list)) continue;
          for (const cls of list) if (typeof cls === "string" && cls in classes) findings.push({ field, class: `judge:${cls}`, label: "model-judge" });
        }
        return findings;
      } catch {
        return [unavailable()];
      }
    },
  };
}

/** The model judge as a detector when MEMGATE_JUDGE_URL is set; none otherwise (the default stays offline). */
export function modelJudgeDetectors(policy: LexiconSource, env: NodeJS.ProcessEnv = process.env): Detector[] {
  const endpoint = judgeEndpointFromEnv(env);
  return endpoint ? [createModelJudgeDetector(policy, new ModelJudgeClient(endpoint))] : [];
}

function unavailable(): Finding {
  return { field: "entry", class: "judge:unavailable", label: "model-judge" };
}
