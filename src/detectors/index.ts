import { DetectorSuite, type Detector } from "./detector";

/** Every detector memgate runs, in one list; the composition root builds the suite from it. */
export const DEFAULT_DETECTORS: readonly Detector[] = [];

export function createDetectorSuite(detectors: readonly Detector[] = DEFAULT_DETECTORS): DetectorSuite {
  return new DetectorSuite(detectors);
}
