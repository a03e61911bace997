import { createJudge } from "../../scripts/eval-detectors";
import { POLICY_BUNDLE } from "./gateway";

/** The stop reason of one text stored in a category, through the real detectors and the compiled policy (as `npm run eval` judges a corpus line). */
export type StopReasonOf = (text: string, category?: string) => Promise<string>;

/** A judge of single texts; `category` defaults to `defaultCategory`. */
export async function stopReasonJudge(defaultCategory = "PREFERENCE"): Promise<StopReasonOf> {
  const judge = await createJudge(POLICY_BUNDLE);
  return async (text, category = defaultCategory) => (await judge({ label: category, text, file: "inline", line: 0 }, category)).stopReason;
}
