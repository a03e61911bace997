export { JudgeUnavailableError, ModelJudgeClient, type JudgeEndpoint } from "./client";
export { judgeEndpointFromEnv } from "./config";
export { JudgedGroundingScorer } from "./grounding";
