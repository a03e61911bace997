import { createJudge } from "../../scripts/eval-detectors";
import { createInjectionDetector } from "../../src/detectors/injection";
import { loadBundle } from "../../src/policy/bundle";
import { POLICY_BUNDLE } from "./gateway";

/** The stop reason of one text stored in a category, through the real detectors and the compiled policy (as `npm run eval` judges a corpus line). */
export type StopReasonOf = (text: string, category?: string) => Promise<string>;

/** A judge of single texts; `category` defaults to `defaultCategory`. */
export async function stopReasonJudge(defaultCategory = "PREFERENCE"): Promise<StopReasonOf> {
  const judge = await createJudge(POLICY_BUNDLE);
  return async (text, category = defaultCategory) => (await judge({ label: category, text, file: "inline", line: 0 }, category)).stopReason;
}

/** The facts the intent detector reports for a text (field "value"), with the compiled bundle's lexicons. */
export async function intentFactsOf(): Promise<(text: string) => Promise<string[]>> {
  const bundle = await loadBundle(POLICY_BUNDLE);
  const detector = createInjectionDetector({ hash: bundle.hash, data: <T>(name: string) => bundle.data.memgate[name] as T });
  return async (text) => ((await detector.detect("value", text)) as { facts?: string[] }[]).flatMap((f) => f.facts ?? []);
}
