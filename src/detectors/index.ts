import { DetectorSuite, type Detector } from "./detector";
import { financialDetector } from "./financial";
import { governmentIdDetector } from "./government-id";
import { createIdentifierDetector } from "./identifiers";
import { createInjectionDetector } from "./injection";
import { createLexiconDetector, type LexiconSource } from "./lexicon";
import { locationDetector } from "./location";
import { modelJudgeDetectors } from "./model-judge";
import { secretsDetector } from "./secrets";
import { traitStatementDetector } from "./trait-statements";

/** Detectors that need nothing but the text. */
export const DEFAULT_DETECTORS: readonly Detector[] = [secretsDetector, financialDetector, governmentIdDetector, locationDetector];

/** Every detector memgate runs: the fixed ones and the lexicons of the policy bundle in force (the identifier detector finds national ids itself, with the id words of the bundle). */
export function defaultDetectors(policy: LexiconSource): readonly Detector[] {
  return [
    ...DEFAULT_DETECTORS.filter((detector) => detector !== governmentIdDetector),
    createIdentifierDetector(policy),
    createLexiconDetector(policy),
    traitStatementDetector, // judgements of a person by their shape (profiling), read by checks/forbidden/traits.rego
    createInjectionDetector(policy),
    ...modelJudgeDetectors(policy), // the model judge only with MEMGATE_JUDGE_URL
  ];
}

export function createDetectorSuite(detectors: readonly Detector[] = DEFAULT_DETECTORS): DetectorSuite {
  return new DetectorSuite(detectors);
}
