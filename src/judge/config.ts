import type { JudgeEndpoint } from "./client";

/**
 * MEMGATE_JUDGE_URL (an OpenAI-compatible chat-completions URL) switches the model judge on;
 * MEMGATE_JUDGE_MODEL, MEMGATE_JUDGE_KEY and MEMGATE_JUDGE_TIMEOUT_MS are optional. Unset:
 * null, and memgate stays offline. A malformed value fails at boot.
 */
export function judgeEndpointFromEnv(env: NodeJS.ProcessEnv = process.env): JudgeEndpoint | null {
  const url = env.MEMGATE_JUDGE_URL?.trim();
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError("MEMGATE_JUDGE_URL must be an absolute http(s) URL");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new TypeError("MEMGATE_JUDGE_URL must be an absolute http(s) URL");
  const timeoutMs = Number(env.MEMGATE_JUDGE_TIMEOUT_MS ?? 5_000);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new TypeError("MEMGATE_JUDGE_TIMEOUT_MS must be a positive integer");
  return { url, model: env.MEMGATE_JUDGE_MODEL?.trim() || "gpt-4o-mini", apiKey: env.MEMGATE_JUDGE_KEY, timeoutMs };
}
